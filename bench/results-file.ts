import { readFileSync, writeFileSync } from 'fs';
import { join } from 'path';

/**
 * bench/results.md as sections, each from the run that measured it. A run rewrites the sections it measured and
 * keeps every other one as it was, headed with the date and command of the run it came from: a run made with
 * `BENCH_QUEUE=0`, or with `BENCH_PARTS` naming one part, no longer erases what it did not measure.
 */

export interface Section {
	/** Stable name of the part: bulk, sheet, callbacks, e2e, signing, queue. */
	id: string;
	title: string;
	/** ISO date of the run that measured it. */
	date: string;
	/** The command that ran, as typed (with the BENCH_ variables it set). */
	command: string;
	/** Minutes the part took. */
	minutes?: number;
	/** The section's text below its heading and date line. */
	body: string;
}

/** The id suffix of a part measured with n8n settings other than its defaults. */
export const WITH_SETTINGS = '-with-settings';

/**
 * The order sections are written in, each part followed by its run under other n8n settings (BENCH_N8N_ENV); a
 * section of another name is kept after these.
 */
export const SECTION_ORDER = ['bulk', 'sheet', 'sandbox', 'callbacks', 'profile', 'e2e', 'signing', 'queue'].flatMap(
	(id) => [id, `${id}${WITH_SETTINGS}`],
);

/** Sections written before they had a marker, by title. */
const LEGACY_TITLES: Record<string, string> = { 'Queue mode': 'queue' };

const MARKER = /^<!-- section: ([a-z0-9-]+) -->$/m;

export const RESULTS_FILE = join(__dirname, 'results.md');

export function sectionMarkdown(section: Section): string {
	const minutes = section.minutes === undefined ? '' : ` (${section.minutes.toFixed(1)} minutes)`;
	return [
		`## ${section.title}`,
		`<!-- section: ${section.id} -->`,
		'',
		`Date: ${section.date}. Command: \`${section.command}\`${minutes}.`,
		'',
		section.body.trim(),
		'',
	].join('\n');
}

/** The sections of a results file by id, each as its full text from its heading on; the text before them is left out. */
export function parseSections(text: string): Map<string, string> {
	const sections = new Map<string, string>();
	const parts = text.split(/^(?=## )/m).filter((part) => part.startsWith('## '));
	for (const part of parts) {
		const title = part.slice(3, part.indexOf('\n') < 0 ? undefined : part.indexOf('\n')).trim();
		const id = MARKER.exec(part)?.[1] ?? LEGACY_TITLES[title] ?? title.toLowerCase().replace(/[^a-z0-9]+/g, '-');
		sections.set(id, `${part.replace(/\n+$/, '')}\n`);
	}
	return sections;
}

/**
 * The new results file: `head`, then every section in SECTION_ORDER, each the measured one when this run measured
 * it and otherwise the one `previous` had, then any other section `previous` had.
 */
export function mergeResults(previous: string | undefined, measured: Section[], head: string): string {
	const kept = parseSections(previous ?? '');
	const fresh = new Map(measured.map((section) => [section.id, sectionMarkdown(section)]));
	const ids = [...SECTION_ORDER, ...[...kept.keys(), ...fresh.keys()].filter((id) => !SECTION_ORDER.includes(id))];
	const body = [...new Set(ids)]
		.map((id) => fresh.get(id) ?? kept.get(id))
		.filter((text): text is string => text !== undefined);
	return [head.trim(), '', ...body.map((text) => text.trim()).flatMap((text) => [text, ''])].join('\n');
}

/** Writes the measured sections into bench/results.md, keeping the others. */
export function writeResults(measured: Section[], head: string, file = RESULTS_FILE): string {
	let previous: string | undefined;
	try {
		previous = readFileSync(file, 'utf8');
	} catch {
		previous = undefined;
	}
	const text = mergeResults(previous, measured, head);
	writeFileSync(file, text);
	return text;
}

/** The command a run was started with, as someone would type it again: the BENCH_ variables set, then the script. */
export function commandLine(script: string, env: NodeJS.ProcessEnv = process.env): string {
	const set = Object.keys(env)
		.filter((name) => name.startsWith('BENCH_') && env[name] !== undefined && env[name] !== '')
		.sort()
		.map((name) => `${name}=${/^[\w.,:/=-]*$/.test(env[name] as string) ? env[name] : JSON.stringify(env[name])}`);
	return [...set, script].join(' ');
}

/** The file's head: what it is, and that its sections may come from different runs. */
export function resultsHead(ports: { n8n: number; sandbox: number }): string {
	return [
		'# Benchmark results',
		'',
		"Written by `npm run bench` (bench/run.ts), `npm run bench:queue` (bench/queue.ts), `npm run bench:profile`, `npm run bench:memory` and `npx tsx bench/signing.ts`; docs/benchmarks.md says what each measures. Each section comes from the run named under its heading, with its date and command: a run rewrites the sections it measured and keeps the others as they were (`BENCH_PARTS` chooses the parts a run measures: bulk, sheet, callbacks, e2e, signing, sandbox, queue; `BENCH_QUEUE=0` leaves queue out; a run with `BENCH_N8N_ENV` set writes its sections beside those at n8n's defaults). Sections from different runs were measured at different moments of a shared machine: compare figures within a section.",
		`The benchmark's n8n listens on ${ports.n8n} and its sandbox on ${ports.sandbox}.`,
	].join('\n');
}
