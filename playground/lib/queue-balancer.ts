import http from 'http';

/**
 * A round-robin HTTP proxy in front of the webhook processors, as a load balancer stands in front of them in a
 * deployment: WEBHOOK_URL names it, and each request goes to the next processor. It counts what each one got.
 */
export interface Balancer {
	url: string;
	port: number;
	/** Requests passed to each target URL so far. */
	counts: Map<string, number>;
	/** Where the next requests go: a processor added or stopped is taken in or out here. */
	setTargets(targets: string[]): void;
	close(): Promise<void>;
}

export function startBalancer(port: number, targets: string[]): Promise<Balancer> {
	// A new connection per request: a kept-alive one that the processor closes just as a request goes out ends in
	// ECONNRESET, and a proxy must not send a POST twice to find out whether it arrived.
	const agent = new http.Agent({ keepAlive: false, maxSockets: 64 });
	const counts = new Map<string, number>();
	let current = [...targets];
	let next = 0;
	const server = http.createServer((req, res) => {
		if (current.length === 0) {
			res.writeHead(503, { 'Content-Type': 'text/plain' }).end('no webhook processor');
			return;
		}
		const base = current[next % current.length];
		next = (next + 1) % current.length;
		counts.set(base, (counts.get(base) ?? 0) + 1);
		const target = new URL(req.url ?? '/', base);
		const upstream = http.request(
			target,
			{ method: req.method, headers: { ...req.headers, host: target.host }, agent },
			(answer) => {
				res.writeHead(answer.statusCode ?? 502, answer.headers);
				answer.pipe(res);
			},
		);
		upstream.on('error', (error) => {
			if (!res.headersSent) res.writeHead(502, { 'Content-Type': 'text/plain' });
			res.end(`webhook processor ${base} failed: ${error.message}`);
		});
		req.pipe(upstream);
	});
	server.keepAliveTimeout = 30_000;
	return new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, '127.0.0.1', () =>
			resolve({
				url: `http://localhost:${port}`,
				port,
				counts,
				setTargets: (targets) => {
					current = [...targets];
					next = 0;
				},
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
