import type { ICredentialDataDecryptedObject, IWebhookResponseData } from 'n8n-workflow';

import { send } from '../dev/http';
import { loadPrivateKey, signBody } from '../sandbox/signing';
import { APP_IDS, callbackBody } from '../test/fixtures/bodies';
import { forgedRow, measureForgedRefusal, type ForgedFigures } from './forged';
import { refusalCredential, triggerWebhook, webhookContext, type Webhook } from './webhook-context';

/**
 * The cost of refusing a body built to exhaust the trigger, measured where it is paid: CPU time in the
 * trigger's webhook(), for the largest body n8n accepts (16 MiB of short members, forged) against a genuine
 * callback. n8n parses the body before the node runs; that cost, which no node can avoid, is given beside it.
 */

/** n8n's default N8N_PAYLOAD_SIZE_MAX (MiB): the largest body its webhook server reads. */
export const N8N_PAYLOAD_MAX_BYTES = 16 * 1024 * 1024;

/** A forged body of `bytes` made of short members, the shape that cost the most before the caps: only appId is real. */
export function largestForgedBody(bytes = N8N_PAYLOAD_MAX_BYTES): string {
	const parts: string[] = [`"appId":${APP_IDS.TZS}`, '"status":2', '"sign":"forged"'];
	let size = 2 + parts.join(',').length;
	for (let index = 0; ; index++) {
		const member = `"k${index}":"v"`;
		if (size + member.length + 1 > bytes) break;
		parts.push(member);
		size += member.length + 1;
	}
	return `{${parts.join(',')}}`;
}

export interface RefusalFigures {
	/** Bytes and members of the largest body. */
	bytes: number;
	fields: number;
	/** CPU ms the trigger's webhook() takes to refuse it (median of runs), and its answer. */
	refuseMs: number;
	refusedWith: number;
	/** CPU ms for a genuine callback, verified and emitted (median of runs). */
	genuineMs: number;
	/** What n8n's own body parser spends on the largest body before the node runs (JSON.parse, median). */
	n8nParseMs: number;
	/** The same body posted to a real n8n's production URL: the whole round trip, when a URL was given. */
	httpMs?: number;
	httpStatus?: number;
	/** A forged 62 KB body against a small forged one, at 19 App IDs (forgedRow). */
	forged?: ForgedFigures;
}

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)];
}

/**
 * CPU ms of one webhook() call per request made by `request(run)` (the process's CPU, the thread pool's signature
 * check included), and what each answered. CPU, not the time until it returns: a genuine callback waits up to a
 * second for the repeat memory's save, which costs nothing.
 */
async function timeWebhook(
	webhook: Webhook,
	runs: number,
	request: (run: number) => { raw: Buffer; parsed: unknown },
	credential: ICredentialDataDecryptedObject,
	check: (result: IWebhookResponseData, answer: { status: number; body: string }) => void,
): Promise<number[]> {
	const times: number[] = [];
	for (let run = 0; run < runs; run++) {
		const { raw, parsed } = request(run);
		const { context, answer } = webhookContext(raw, parsed, credential);
		const started = process.cpuUsage();
		const result = await webhook.call(context);
		const used = process.cpuUsage(started);
		times.push((used.user + used.system) / 1000);
		check(result, answer);
	}
	return times;
}

/** A genuine payout callback, signed with the platform key, as text. */
function genuineCallback(run: number, signer: ReturnType<typeof loadPrivateKey>): string {
	const fields = callbackBody('payout', { orderId: `REF-${run}`, orderNo: `HPREF${String(run).padStart(8, '0')}` });
	return JSON.stringify({ ...fields, sign: signBody(fields, 'test-only-secret-tzs', signer) });
}

/** The largest body posted to a real n8n: the round trip's ms and n8n's status. */
async function overHttp(url: string, body: string): Promise<{ httpMs: number; httpStatus: number }> {
	const started = performance.now();
	const reply = await send(url, body, { headers: { 'Content-Type': 'application/json' } });
	return { httpMs: performance.now() - started, httpStatus: reply.status };
}

export async function measureRefusal(
	platformPrivateKey: string,
	options: { runs?: number; url?: string } = {},
): Promise<RefusalFigures> {
	const runs = options.runs ?? 5;
	// First, before the largest body and the genuine callbacks leave the heap full of what a collection must walk.
	const forged = await measureForgedRefusal(platformPrivateKey);
	const webhook = await triggerWebhook();
	const credential = refusalCredential(platformPrivateKey);
	const largest = largestForgedBody();
	const raw = Buffer.from(largest, 'utf8');
	const parseTimes: number[] = [];
	let parsed: unknown;
	for (let run = 0; run < Math.min(runs, 3); run++) {
		const started = performance.now();
		parsed = JSON.parse(largest);
		parseTimes.push(performance.now() - started);
	}
	let refusedWith = 0;
	const refuseTimes = await timeWebhook(
		webhook,
		runs,
		() => ({ raw, parsed }),
		credential,
		(result, answer) => {
			if (result.workflowData !== undefined || answer.status < 400)
				throw new Error(`the largest forged body was not refused: ${answer.status} ${answer.body}`);
			refusedWith = answer.status;
		},
	);
	const signer = loadPrivateKey(platformPrivateKey);
	const genuine = (run: number) => {
		const text = genuineCallback(run, signer);
		return { raw: Buffer.from(text, 'utf8'), parsed: JSON.parse(text) as unknown };
	};
	const genuineTimes = await timeWebhook(webhook, Math.max(runs, 50), genuine, credential, (result, answer) => {
		if (result.workflowData === undefined)
			throw new Error(`the genuine callback was not emitted: ${answer.status} ${answer.body}`);
	});
	return {
		bytes: raw.length,
		fields: (largest.match(/":/g) ?? []).length,
		refuseMs: median(refuseTimes),
		refusedWith,
		genuineMs: median(genuineTimes),
		n8nParseMs: median(parseTimes),
		forged,
		...(options.url === undefined ? {} : await overHttp(options.url, largest)),
	};
}

/** The bench table's row for the refusal cost. */
export function refusalRow(figures: RefusalFigures): string {
	const mb = (figures.bytes / 1024 / 1024).toFixed(0);
	const http =
		figures.httpMs === undefined
			? ''
			: `; over HTTP to n8n ${figures.httpMs.toFixed(0)} ms (HTTP ${figures.httpStatus})`;
	return `| refusing the largest body n8n accepts (${mb} MiB, ${figures.fields.toLocaleString('en-US')} fields, forged) | trigger ${figures.refuseMs.toFixed(2)} ms of CPU (HTTP ${figures.refusedWith}), genuine callback ${figures.genuineMs.toFixed(2)} ms; n8n's own JSON parse before the node ${figures.n8nParseMs.toFixed(0)} ms${http} | goal < 50 ms |${figures.forged === undefined ? '' : `\n${forgedRow(figures.forged, figures.genuineMs)}`}`;
}
