import type { BulkCase } from './bulk';

/**
 * The bulk part's configurations: the HaiPay node three ways and the Code + HTTP Request baseline two ways, then the
 * two tuned ones again on the largest row count with n8n's heap limited to `heapMb`.
 */
export function bulkCases(heapMb: number, largestRows: number): BulkCase[] {
	return [
		{ label: 'HaiPay node, concurrency 16', side: 'haipay', setting: 'tuned', path: 'bench-haipay-tuned' },
		{
			label: 'one HaiPay node for every currency, concurrency 16, currency and fields from each row',
			side: 'haipay',
			setting: 'input',
			path: 'bench-haipay-input',
		},
		{ label: 'Code + HTTP Request, batches of 16', side: 'baseline', setting: 'tuned', path: 'bench-baseline-tuned' },
		{ label: 'HaiPay node, default', side: 'haipay', setting: 'default', path: 'bench-haipay-default' },
		{ label: 'Code + HTTP Request, default', side: 'baseline', setting: 'default', path: 'bench-baseline-default' },
		// At V8's default limit the peak RSS measures when V8 chooses to collect, rather than what the run keeps.
		...(['haipay', 'baseline'] as const).map((side): BulkCase => ({
			label: `${side === 'haipay' ? 'HaiPay node, concurrency 16' : 'Code + HTTP Request, batches of 16'}, n8n heap limit ${heapMb} MB`,
			side,
			setting: 'tuned',
			path: `bench-${side}-tuned`,
			heapMb,
			rows: [largestRows],
		})),
	];
}

const caseKey = (c: BulkCase) => `${c.side}-${c.setting}${c.heapMb === undefined ? '' : `@${c.heapMb}`}`;

/**
 * `BENCH_BULK_CASES=haipay-input,baseline-tuned` (say): only those configurations, named by side and setting, with
 * `@1024` for a run at that heap limit; all without it. A name it does not know stops the run before it measures.
 */
export function bulkCasesOf(all: BulkCase[], keys: string | undefined): BulkCase[] {
	const asked = (keys ?? '')
		.split(',')
		.map((key) => key.trim())
		.filter((key) => key !== '');
	const unknown = asked.filter((key) => !all.some((c) => caseKey(c) === key));
	if (unknown.length > 0)
		throw new Error(`BENCH_BULK_CASES: unknown ${unknown.join(', ')} (known: ${all.map(caseKey).join(', ')})`);
	return all.filter((c) => asked.length === 0 || asked.includes(caseKey(c)));
}
