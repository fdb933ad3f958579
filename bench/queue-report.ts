import type { Failure } from './report';
import type { Outcome, QueueFigures } from './queue-figures';
import type { RepeatGuard } from './queue-workflows';
import type { Section } from './results-file';

/** The queue-mode section of bench/results.md. */

const f0 = (n: number) => Math.round(n).toLocaleString('en-US');
const f1 = (n: number) => n.toFixed(1);

const GUARD_TEXT: Record<RepeatGuard, string> = {
	none: 'nothing (the trigger\'s "Ignore Repeated Callbacks" off)',
	trigger: "the HaiPay Trigger's repeat memory (workflow static data; its default)",
	removeDuplicates:
		"n8n's Remove Duplicates node after the trigger (history across executions, in PostgreSQL), the trigger's memory off",
	both: "the trigger's repeat memory and Remove Duplicates after it",
	confirm: 'the HaiPay Trigger with "Confirm With HaiPay" on, its repeat memory on',
};

/** A configuration's figures; one that failed has none, and no row may be made of it. */
function measured<T>(outcome: Outcome<T>): T {
	if (outcome.error !== undefined) throw new Error(`bench: a failed queue configuration has no row: ${outcome.error}`);
	return outcome;
}

const layout = (r: { workers: number; webhooks: number }) =>
	`${r.workers} worker(s), ${r.webhooks} webhook processor(s)`;

/** The queue configurations that gave no figures: the section is then not written, and the run fails. */
export function queueFailures(f: QueueFigures): Failure[] {
	const failure = (what: string, figures: { error?: string }): Failure[] =>
		figures.error === undefined ? [] : [{ part: 'queue', what, error: figures.error }];
	return [
		...f.payouts.flatMap((r) => failure(`bulk payouts, ${layout(r)}`, r.figures)),
		...f.callbacks.flatMap((r) =>
			failure(
				`callbacks into ${r.workflow === 'trigger' ? 'the HaiPay Trigger' : "n8n's Webhook node"}, ${layout(r)}`,
				r.figures,
			),
		),
		...f.repeats.flatMap((r) => failure(`repeats kept out by ${r.guard}, ${r.scenario}`, r.figures)),
	];
}

/** The queue-mode section of bench/results.md, headed with the run's date and command. */
export function queueSection(f: QueueFigures, date: string, command: string): Section {
	return { id: 'queue', title: 'Queue mode', date, command, minutes: f.minutes, body: queueMarkdown(f) };
}

/** The section's text, only from a run whose every configuration gave figures. */
export function queueMarkdown(f: QueueFigures): string {
	const failed = queueFailures(f);
	if (failed.length > 0)
		throw new Error(
			`bench: no queue section with a failed configuration: ${failed.map((x) => `${x.what}: ${x.error}`).join('; ')}`,
		);
	const s = f.settings;
	const lines = [
		`n8n in queue mode on this machine: PostgreSQL and Redis, an n8n main, workers (\`n8n worker --concurrency=10\`) and webhook processors behind a round-robin balancer, scaled between rows. CPU is utime+stime of every process tree of the stack (n8n processes with their task runners, PostgreSQL, Redis), per payout or per callback. Load average before this section: ${f.loadBefore.join(', ')}.`,
		'',
		`Bulk payouts: ${s.bulkRuns} runs of ${f0(s.bulkRows)} rows started together through a webhook (the benchmark's HaiPay workflow, 16 in flight per HaiPay node), the sandbox answering in ${s.latencyMs} ms. One run executes on one worker; a second worker takes other runs.`,
		'',
		'| workers | webhook processors | payouts | wall s | payouts/s | CPU ms/payout | ran on |',
		'|---:|---:|---:|---:|---:|---:|---|',
		...f.payouts.map((r) => {
			const m = measured(r.figures);
			return `| ${r.workers} | ${r.webhooks} | ${f0(m.rows)} | ${f1(m.seconds)} | ${f1(m.payoutsPerSecond)} | ${m.cpuMsPerPayout.toFixed(2)} | ${m.ranOn.join(', ')} |`;
		}),
		'',
		`Callbacks: ${f0(s.callbacks)} distinct signed payout callbacks, ${s.concurrency} at a time, through the balancer into a workflow of one node: the HaiPay Trigger (signature check, repeat memory), or n8n's Webhook node answering SUCCESS (no check). Accepted/s counts SUCCESS answers over the client's time; executions/s runs until the last execution ended on a worker.`,
		'',
		'| workflow | workers | webhook processors | answers | accepted/s | executions | executions/s | CPU ms/callback | of which webhook processors / workers / main / PostgreSQL+Redis |',
		'|---|---:|---:|---|---:|---:|---:|---:|---|',
		...f.callbacks.map((r) => {
			const what = r.workflow === 'trigger' ? 'HaiPay Trigger' : "n8n's Webhook node";
			const m = measured(r.figures);
			const c = m.cpu;
			return `| ${what} | ${r.workers} | ${r.webhooks} | ${f0(m.acknowledged)} of ${f0(m.sent)} SUCCESS | ${f1(m.acceptedPerSecond)} | ${f0(m.executions)} | ${f1(m.executionsPerSecond)} | ${f0(m.cpuMsPerCallback)} | ${f0(c.webhooks)} / ${f0(c.workers)} / ${f0(c.main)} / ${f0(c.database)} |`;
		}),
		'',
		`Repeat detection across processes: ${f0(s.repeats)} distinct callbacks, each delivered twice with 2 webhook processors. "later": all to processor 1, and once their executions ended, all again to processor 2 (a HaiPay retry landing on the other process). "together": each to both processors at the same moment. The workflow ends in a business step (an HTTP request to a counter); a duplicate is a business step run a second time for the same orderNo and status.`,
		'',
		'| what keeps repeats out | second delivery | SUCCESS answers | executions | business steps | duplicates | payments never handled |',
		'|---|---|---:|---:|---:|---:|---:|',
		...f.repeats.map((r) => {
			const m = measured(r.figures);
			return `| ${GUARD_TEXT[r.guard]} | ${r.scenario} | ${f0(m.acknowledged)} of ${f0(m.deliveries)} | ${f0(m.executions)} | ${f0(m.effects)} | ${f0(m.duplicates)} | ${f0(m.missing)} |`;
		}),
		...(f.confirmOption
			? []
			: ['', 'The trigger in this tree has no "Confirm With HaiPay" option yet: no row for it.']),
	];
	return `${lines.join('\n')}\n`;
}
