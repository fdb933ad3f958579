import http from 'http';

import { send } from '../dev/http';

/** What the first attempt of a chosen callback meets on its way to n8n. */
export type InjectedFault = 'refused' | 'answer lost';

export interface FaultProxy {
	url(path: string): string;
	/** orderId → the fault its first attempt met. */
	injected: Map<string, InjectedFault>;
	close(): Promise<void>;
}

function readBody(req: http.IncomingMessage): Promise<Buffer> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => resolve(Buffer.concat(chunks)));
		req.on('error', reject);
	});
}

function orderIdOf(body: Buffer): string {
	try {
		return String((JSON.parse(body.toString('utf8')) as { orderId?: unknown }).orderId ?? '');
	} catch {
		return ''; // passed on as it came
	}
}

/**
 * Stands between the sandbox and n8n. The first attempt of a chosen callback is refused (503, n8n never sees it)
 * or passed on with n8n's answer replaced by 502 (n8n ran it; the answer was lost); everything else passes.
 */
export function startFaultProxy(
	port: number,
	target: string,
	fault: (orderId: string) => InjectedFault | undefined,
): Promise<FaultProxy> {
	const seen = new Set<string>();
	const injected = new Map<string, InjectedFault>();
	const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
	const upstream = new URL(target);
	const faultOf = (orderId: string): InjectedFault | undefined => {
		if (orderId === '' || seen.has(orderId)) return undefined;
		seen.add(orderId);
		const kind = fault(orderId);
		if (kind !== undefined) injected.set(orderId, kind);
		return kind;
	};
	const pass = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
		const body = await readBody(req);
		const kind = faultOf(orderIdOf(body));
		if (kind === 'refused') {
			res.writeHead(503, { 'Content-Type': 'text/plain' }).end('injected fault: first attempt refused');
			return;
		}
		const headers = { 'Content-Type': req.headers['content-type'] ?? 'application/json' };
		const answer = await send(`${upstream.origin}${req.url ?? '/'}`, body, { headers, agent });
		if (kind === 'answer lost')
			res.writeHead(502, { 'Content-Type': 'text/plain' }).end('injected fault: the answer was lost');
		else
			res.writeHead(answer.status, { 'Content-Type': answer.headers['content-type'] ?? 'text/plain' }).end(answer.text);
	};
	const server = http.createServer((req, res) => {
		pass(req, res).catch((error: Error) => {
			if (!res.headersSent) res.writeHead(502, { 'Content-Type': 'text/plain' });
			res.end(`proxy: ${error.message}`);
		});
	});
	return new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, '127.0.0.1', () =>
			resolve({
				url: (path) => `http://127.0.0.1:${port}${path}`,
				injected,
				close: () =>
					new Promise((done) => {
						agent.destroy();
						server.closeAllConnections();
						server.close(() => done());
					}),
			}),
		);
	});
}
