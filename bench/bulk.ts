import { httpRequest } from '../playground/lib/rest';
import { settle, TreeSampler } from './proc';
import { nodeSeconds } from './runData';
import { startLoopWindow, type BenchStack } from './stack';

/** One bulk run: N rows through one workflow, driven through its production webhook on the running server. */

export interface BulkFigures {
	label: string;
	side: 'haipay' | 'baseline';
	setting: Setting;
	/** n8n's old-space limit in MB (`--max-old-space-size`) when the case sets one; otherwise V8's default. */
	heapMb?: number;
	rows: number;
	wallSeconds: number;
	itemsPerSecond: number;
	cpuMsPerItem: number;
	cpuMsPerItemByRole: { main: number; runner: number };
	/** CPU of the bench's own process per row: the sandbox gateway (it runs there) and the bench's polling. */
	sandboxCpuMsPerItem: number;
	peakRssMb: { main: number; runner: number };
	/** Peak minus the value just before the run. */
	rssGrowthMb: { main: number; runner: number };
	maxInFlight: number;
	/** Seconds each node ran, from n8n's run data. */
	nodeSeconds: Record<string, number>;
	/** Rows over the seconds the sending nodes (the HaiPay nodes, or the HTTP Request node) ran. */
	sendingItemsPerSecond: number;
	/** Applies the sandbox received and orders it created during the run. */
	applies: number;
	orders: number;
	settled: boolean;
}

/** tuned: 16 in flight; input: 16 in flight with the HaiPay node reading fields from the item; default: untuned. */
export type Setting = 'tuned' | 'input' | 'default';

export interface BulkCase {
	label: string;
	side: 'haipay' | 'baseline';
	setting: Setting;
	path: string;
	/** Runs n8n with `--max-old-space-size=heapMb`: the setting n8n's docs give for bounding its memory. */
	heapMb?: number;
	/** The row counts this case runs at; every count when unset. */
	rows?: number[];
	/** Set once the workflow exists. */
	workflowId?: string;
}

/** The nodes that send the requests, by the names bench/workflows.ts gives them. */
const SENDING_NODES = ['Pay TZS', 'Pay NGN', 'Pay', 'Post'];

let runSeq = 0;

export async function runBulk(
	stack: BenchStack,
	bulk: BulkCase,
	rows: number,
	timeoutMs = 10 * 60_000,
): Promise<BulkFigures> {
	const tag = `B${Date.now().toString(36)}${(runSeq++).toString(36)}`.toUpperCase();
	const { sandbox, server } = stack;
	// Whatever ran before (a warm-up, the last run's execution being saved) must not be counted here.
	await settle(server.pid);
	const appliesBefore = sandbox.appliesReceived();
	const ordersBefore = sandbox.control.orders().length;
	sandbox.control.resetInFlightPeak();
	startLoopWindow(server.pid);
	const sampler = new TreeSampler(server.pid).begin();
	const ownCpu = process.cpuUsage();
	const started = process.hrtime.bigint();
	const answer = await httpRequest(`${stack.n8nUrl}/webhook/${bulk.path}?rows=${rows}&tag=${tag}`, {
		method: 'POST',
		raw: '',
		timeoutMs,
	});
	const wallSeconds = Number(process.hrtime.bigint() - started) / 1e9;
	// The run's execution is saved after the answer; its CPU belongs to the run.
	const settled = await settle(server.pid);
	const tree = sampler.end();
	const own = process.cpuUsage(ownCpu);
	const maxInFlight = sandbox.control.inFlight().max;
	if (answer.status !== 200)
		throw new Error(
			`${bulk.label}, ${rows} rows: the workflow answered HTTP ${answer.status}: ${answer.body.slice(0, 500)}`,
		);
	const applies = sandbox.appliesReceived() - appliesBefore;
	const orders = sandbox.control.orders().length - ordersBefore;
	const seconds = bulk.workflowId ? await nodeSeconds(stack.rest, bulk.workflowId) : {};
	const sending = SENDING_NODES.reduce((sum, name) => sum + (seconds[name] ?? 0), 0);
	if (applies !== rows || orders !== rows) {
		throw new Error(
			`${bulk.label}, ${rows} rows: the sandbox received ${applies} applies and created ${orders} orders`,
		);
	}
	return {
		label: bulk.label,
		side: bulk.side,
		setting: bulk.setting,
		...(bulk.heapMb !== undefined ? { heapMb: bulk.heapMb } : {}),
		rows,
		wallSeconds,
		itemsPerSecond: rows / wallSeconds,
		cpuMsPerItem: tree.cpuMs / rows,
		cpuMsPerItemByRole: { main: tree.cpuMsByRole.main / rows, runner: tree.cpuMsByRole.runner / rows },
		sandboxCpuMsPerItem: (own.user + own.system) / 1000 / rows,
		peakRssMb: { main: tree.peakRssMb.main, runner: tree.peakRssMb.runner },
		rssGrowthMb: {
			main: tree.peakRssMb.main - tree.startRssMb.main,
			runner: tree.peakRssMb.runner - tree.startRssMb.runner,
		},
		maxInFlight,
		nodeSeconds: seconds,
		sendingItemsPerSecond: sending > 0 ? rows / sending : 0,
		applies,
		orders,
		settled,
	};
}
