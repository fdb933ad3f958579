import { assertPortFree } from './instance';

/**
 * Every port of one queue-mode stack, from a base: `npm run start:queue`, the queue tests and the benchmark each use
 * their own base, so they can run beside each other and beside `npm start` (5678) and the e2e tests.
 */
export interface QueuePorts {
	postgres: number;
	redis: number;
	sandbox: number;
	balancer: number;
	main: number;
	/** The main's task runner; its CLI commands use +10 and +11. */
	mainRunner: number;
	webhook(index: number): { port: number; runner: number };
	worker(index: number): { port: number; runner: number };
}

/** The most workers, and the most webhook processors, one stack runs. */
export const MAX_PROCESSES_PER_ROLE = 8;

export function queuePorts(base: number): QueuePorts {
	return {
		postgres: base,
		redis: base + 1,
		sandbox: base + 2,
		balancer: base + 3,
		main: base + 4,
		mainRunner: base + 5,
		webhook: (index) => ({ port: base + 20 + index * 2, runner: base + 21 + index * 2 }),
		worker: (index) => ({ port: base + 40 + index * 2, runner: base + 41 + index * 2 }),
	};
}

/** What each port of a stack is for, to check they are free before anything starts. */
function portsInUse(ports: QueuePorts, workers: number, webhooks: number): Array<[number, string]> {
	const list: Array<[number, string]> = [
		[ports.postgres, 'PostgreSQL'],
		[ports.redis, 'Redis'],
		[ports.balancer, 'the webhook balancer'],
		[ports.main, 'the n8n main process'],
		[ports.mainRunner, "the main's task runner"],
		[ports.mainRunner + 10, "the main's CLI task runner"],
		[ports.mainRunner + 11, "the main's CLI task runner"],
	];
	for (let i = 0; i < webhooks; i++)
		list.push(
			[ports.webhook(i).port, `webhook processor ${i + 1}`],
			[ports.webhook(i).runner, `webhook processor ${i + 1}'s task runner`],
		);
	for (let i = 0; i < workers; i++)
		list.push(
			[ports.worker(i).port, `worker ${i + 1}'s health check`],
			[ports.worker(i).runner, `worker ${i + 1}'s task runner`],
		);
	return list;
}

/** Fails, naming the port and what it is for, when one the stack needs is in use; checked one after the other. */
export async function assertPortsFree(ports: QueuePorts, workers: number, webhooks: number): Promise<void> {
	for (const [port, what] of portsInUse(ports, workers, webhooks)) await assertPortFree(port, what);
}
