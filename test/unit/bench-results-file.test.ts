import { commandLine, mergeResults, parseSections, sectionMarkdown, type Section } from '../../bench/results-file';

/** bench/results.md keeps what a run did not measure: pure text in, text out, no n8n. */

const HEAD = '# Benchmark results\n\nHead text.';

function section(id: string, title: string, date: string, command: string, body: string): Section {
	return { id, title, date, command, body };
}

const EARLIER = mergeResults(
	undefined,
	[
		section(
			'bulk',
			'Bulk payouts',
			'2026-11-20T10:00:00Z',
			'npm run bench',
			'| rows | items/s |\n|---:|---:|\n| 10,000 | 214.0 |',
		),
		section(
			'callbacks',
			'Callbacks',
			'2026-11-20T10:00:00Z',
			'npm run bench',
			'| callbacks | accepted/s |\n| 500 | 7.5 |',
		),
		section(
			'queue',
			'Queue mode',
			'2026-11-19T08:00:00Z',
			'npm run bench:queue',
			'| workers | payouts/s |\n| 1 | 140.6 |',
		),
	],
	HEAD,
);

describe('bench/results.md sections', () => {
	it('a run that measured only the callbacks keeps the bulk and queue sections, each under its own date and command', () => {
		const later = mergeResults(
			EARLIER,
			[
				section(
					'callbacks',
					'Callbacks',
					'2026-11-24T09:30:00Z',
					'BENCH_QUEUE=0 npm run bench',
					'| callbacks | accepted/s |\n| 500 | 9.9 |',
				),
			],
			HEAD,
		);
		const sections = parseSections(later);
		expect([...sections.keys()]).toEqual(['bulk', 'callbacks', 'queue']);

		// Not measured: kept word for word, with the date and command of the run that measured it.
		expect(sections.get('bulk')).toBe(parseSections(EARLIER).get('bulk'));
		expect(sections.get('bulk')).toContain('Date: 2026-11-20T10:00:00Z. Command: `npm run bench`.');
		expect(sections.get('bulk')).toContain('| 10,000 | 214.0 |');
		expect(sections.get('queue')).toContain('Date: 2026-11-19T08:00:00Z. Command: `npm run bench:queue`.');
		expect(sections.get('queue')).toContain('| 1 | 140.6 |');

		// Measured: replaced whole, old figures and old date gone.
		expect(sections.get('callbacks')).toContain('Date: 2026-11-24T09:30:00Z. Command: `BENCH_QUEUE=0 npm run bench`.');
		expect(sections.get('callbacks')).toContain('| 500 | 9.9 |');
		expect(later).not.toContain('| 500 | 7.5 |');
		expect(later.split('## Callbacks')).toHaveLength(2);
		expect(later.startsWith(HEAD)).toBe(true);
	});

	it('writes sections in a fixed order whatever the order they were measured in, and keeps one it does not know', () => {
		const withExtra = `${EARLIER}\n## Notes\n\nA note someone added.\n`;
		const text = mergeResults(
			withExtra,
			[section('e2e', 'End to end', '2026-11-24T10:00:00Z', 'npm run bench', 'figures')],
			HEAD,
		);
		expect([...parseSections(text).keys()]).toEqual(['bulk', 'callbacks', 'e2e', 'queue', 'notes']);
		expect(parseSections(text).get('notes')).toContain('A note someone added.');
	});

	it('reads a queue section written before sections had markers by its title, and replaces it when measured', () => {
		const legacy = `# Benchmark results\n\nOld head and an unsectioned main part.\n\n## Queue mode\n\nold queue table\n\nDate: 2026-11-23T15:50:00Z. Command: \`npm run bench:queue\`.\n`;
		expect([...parseSections(legacy).keys()]).toEqual(['queue']);
		const kept = mergeResults(
			legacy,
			[section('signing', 'Signing', '2026-11-24T11:00:00Z', 'npm run bench', 'rates')],
			HEAD,
		);
		expect(kept).toContain('old queue table');
		expect(kept).not.toContain('Old head');
		const replaced = mergeResults(
			legacy,
			[section('queue', 'Queue mode', '2026-11-24T11:00:00Z', 'npm run bench:queue', 'new queue table')],
			HEAD,
		);
		expect(replaced).toContain('new queue table');
		expect(replaced).not.toContain('old queue table');
	});

	it('heads each section with its date and the command as typed, BENCH_ variables first', () => {
		expect(
			sectionMarkdown({ ...section('e2e', 'End to end', '2026-11-24T12:00:00Z', 'x', 'body'), minutes: 7.25 }),
		).toBe('## End to end\n<!-- section: e2e -->\n\nDate: 2026-11-24T12:00:00Z. Command: `x` (7.3 minutes).\n\nbody\n');
		expect(
			commandLine('npm run bench', { BENCH_QUEUE: '0', PATH: '/bin', BENCH_PARTS: 'e2e,signing', BENCH_EMPTY: '' }),
		).toBe('BENCH_PARTS=e2e,signing BENCH_QUEUE=0 npm run bench');
		expect(commandLine('npm run bench', { BENCH_N8N_FLAGS: '--cpu-prof --cpu-prof-dir=/tmp/p' })).toBe(
			'BENCH_N8N_FLAGS="--cpu-prof --cpu-prof-dir=/tmp/p" npm run bench',
		);
	});
});

describe('the parts a bench run measures', () => {
	it('all by default, BENCH_QUEUE=0 leaves the queue out, BENCH_PARTS names the others, an unknown part is refused', async () => {
		const { partsOf } = await import('../../bench/parts');
		expect(partsOf({})).toEqual(['bulk', 'sheet', 'callbacks', 'e2e', 'signing', 'sandbox', 'queue']);
		expect(partsOf({ BENCH_QUEUE: '0' })).toEqual(['bulk', 'sheet', 'callbacks', 'e2e', 'signing', 'sandbox']);
		expect(partsOf({ BENCH_PARTS: 'e2e, signing', BENCH_QUEUE: '0' })).toEqual(['e2e', 'signing']);
		expect(() => partsOf({ BENCH_PARTS: 'bulk,callback' })).toThrow('unknown part callback');
	});
});

describe('the bulk configurations a bench run measures', () => {
	it('all by default, BENCH_BULK_CASES names some by side, setting and heap, an unknown one is refused', async () => {
		const { bulkCases, bulkCasesOf: pick } = await import('../../bench/bulk-cases');
		const bulkCasesOf = (keys: string | undefined) => pick(bulkCases(1024, 10_000), keys);
		const keys = (cases: Array<{ side: string; setting: string; heapMb?: number }>) =>
			cases.map((c) => `${c.side}-${c.setting}${c.heapMb === undefined ? '' : `@${c.heapMb}`}`);
		expect(keys(bulkCasesOf(undefined))).toEqual([
			'haipay-tuned',
			'haipay-input',
			'baseline-tuned',
			'haipay-default',
			'baseline-default',
			'haipay-tuned@1024',
			'baseline-tuned@1024',
		]);
		expect(keys(bulkCasesOf(' haipay-input, baseline-tuned '))).toEqual(['haipay-input', 'baseline-tuned']);
		expect(keys(bulkCasesOf('haipay-tuned@1024'))).toEqual(['haipay-tuned@1024']);
		expect(() => bulkCasesOf('haipay-input,haipay-inputs')).toThrow(
			/BENCH_BULK_CASES: unknown haipay-inputs \(known: haipay-tuned, haipay-input,/,
		);
	});
});
