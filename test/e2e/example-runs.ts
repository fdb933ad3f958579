/**
 * What the tests of the saved examples share: the examples' HaiPay nodes and n8n's own nodes (from the pinned n8n)
 * in real n8n-core executions against one sandbox per test file, and the nodes of a saved example file by name.
 */
import { readFileSync } from 'fs';
import type { IConnections, IDataObject } from 'n8n-workflow';
import { join } from 'path';

import { HaiPay } from '../../nodes/HaiPay/HaiPay.node';
import { EXAMPLES } from '../../playground/lib/paths';
import { startSandbox, type Sandbox } from '../../sandbox';
import { runWorkflow, type NodeSpec, type RunResult } from '../harness';
import { multiCurrencyCredential } from '../helpers/credentials';
import { baseNodeTypes, HarnessStep } from '../helpers/n8n-base-nodes';

export const CURRENCIES = ['TZS', 'ZAR', 'NGN', 'EGP', 'BDT'] as const;

type Items = Array<{ json?: IDataObject; binary?: Record<string, { data: Buffer; fileName: string }> }>;

/** An example file's nodes, by name, as the harness takes them. */
export function readExample(file: string): { node(name: string): IDataObject; spec(name: string): NodeSpec } {
	const saved = JSON.parse(readFileSync(join(EXAMPLES, file), 'utf8')) as { nodes: Array<NodeSpec & IDataObject> };
	const node = (name: string) => {
		const found = saved.nodes.find((candidate) => candidate.name === name);
		if (found === undefined) throw new Error(`${file} has no node "${name}"`);
		return found;
	};
	return { node, spec: (name) => structuredClone(node(name)) as NodeSpec };
}

/**
 * One sandbox and n8n's node types for a test file, started before its tests and closed after them. Call at the top
 * of the file; `run` runs an example's nodes with the payouts credential, `sandbox()` gives the running sandbox.
 */
export function exampleRuns(): {
	run(file: string, nodes: NodeSpec[], connections: IConnections, items: Items): Promise<RunResult>;
	sandbox(): Sandbox;
} {
	let sandbox: Sandbox | undefined;
	let types: Awaited<ReturnType<typeof baseNodeTypes>> = [];
	beforeAll(async () => {
		sandbox = await startSandbox({ manual: true });
		types = await baseNodeTypes();
	});
	afterAll(async () => await sandbox?.close());
	const running = (): Sandbox => {
		if (sandbox === undefined) throw new Error('the sandbox is not running yet');
		return sandbox;
	};
	const run = async (file: string, nodes: NodeSpec[], connections: IConnections, items: Items): Promise<RunResult> => {
		const result = await runWorkflow({
			nodeTypes: [HaiPay, HarnessStep, ...types],
			credentials: {
				hpsandboxpayouts: {
					type: 'haiPayApi',
					name: 'HaiPay Sandbox payouts',
					data: multiCurrencyCredential(running().baseUrl, CURRENCIES),
				},
			},
			nodes,
			connections,
			items,
			timeoutMs: 120_000,
		});
		if (result.status !== 'success') throw new Error(`${file}: ${JSON.stringify(result.error)}`);
		return result;
	};
	return { run, sandbox: running };
}
