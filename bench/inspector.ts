/**
 * n8n's V8 inspector, opened by the benchmark on loopback and used only once a run is over: a full garbage
 * collection, then the heap that is left. It tells what a run keeps from what the collector had not yet
 * reclaimed at the peak. Needs a WebSocket client: Node 22 has one, Node 20 with --experimental-websocket.
 */

interface Message {
	id?: number;
	result?: Record<string, unknown>;
	error?: { message: string };
}

type Socket = {
	addEventListener(type: string, listener: (event: { data?: unknown }) => void): void;
	send(data: string): void;
	close(): void;
};

export function inspectorAvailable(): boolean {
	return typeof (globalThis as { WebSocket?: unknown }).WebSocket === 'function';
}

async function connect(port: number): Promise<{ call: (method: string) => Promise<Record<string, unknown>>; close: () => void }> {
	const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as Array<{ webSocketDebuggerUrl: string }>;
	if (targets.length === 0) throw new Error(`the inspector on port ${port} lists no target`);
	const WebSocketClass = (globalThis as unknown as { WebSocket: new (url: string) => Socket }).WebSocket;
	const socket = new WebSocketClass(targets[0].webSocketDebuggerUrl);
	await new Promise<void>((resolve, reject) => {
		socket.addEventListener('open', () => resolve());
		socket.addEventListener('error', () => reject(new Error(`could not connect to the inspector on port ${port}`)));
	});
	let next = 0;
	const pending = new Map<number, { resolve: (value: Record<string, unknown>) => void; reject: (error: Error) => void }>();
	socket.addEventListener('message', (event) => {
		const message = JSON.parse(String(event.data)) as Message;
		const waiter = message.id === undefined ? undefined : pending.get(message.id);
		if (!waiter || message.id === undefined) return;
		pending.delete(message.id);
		if (message.error) waiter.reject(new Error(message.error.message));
		else waiter.resolve(message.result ?? {});
	});
	return {
		call: (method) =>
			new Promise((resolve, reject) => {
				const id = ++next;
				pending.set(id, { resolve, reject });
				socket.send(JSON.stringify({ id, method, params: {} }));
			}),
		close: () => socket.close(),
	};
}

/** Collects all garbage in n8n's main process and returns its V8 heap in use afterwards, MB. */
export async function liveHeapMb(port: number): Promise<number> {
	const session = await connect(port);
	try {
		await session.call('HeapProfiler.collectGarbage');
		const usage = await session.call('Runtime.getHeapUsage');
		return Number(usage.usedSize) / 2 ** 20;
	} finally {
		session.close();
	}
}
