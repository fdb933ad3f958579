import http from 'http';

/**
 * The business step's stand-in for the queue tests and the end-to-end benchmark: an HTTP server that counts the
 * requests a workflow's last node makes, per label and per key, so that a step run twice for one payment shows.
 */

/** Counts business-step requests per key: the body's `dedupKey`, or `orderNo|status` for bodies without one. */
export interface EffectCounter {
	url(label: string): string;
	/** Requests received for a label, and how many distinct keys they carried. */
	of(label: string): { total: number; distinct: number };
	/** The distinct keys received for a label. */
	keys(label: string): string[];
	/** The keys received more than once for a label. */
	repeated(label: string): string[];
	close(): Promise<void>;
}

export function startEffectCounter(port: number): Promise<EffectCounter> {
	const seen = new Map<string, Map<string, number>>();
	const server = http.createServer((req, res) => {
		let body = '';
		req.on('data', (chunk: Buffer) => (body += chunk.toString()));
		req.on('end', () => {
			const label = (req.url ?? '/').replace(/^\/effect\//, '');
			let key = body;
			try {
				const parsed = JSON.parse(body) as { dedupKey?: unknown; orderNo?: unknown; status?: unknown };
				key =
					typeof parsed.dedupKey === 'string' ? parsed.dedupKey : `${String(parsed.orderNo)}|${String(parsed.status)}`;
			} catch {
				// counted under the raw body
			}
			const keys = seen.get(label) ?? new Map<string, number>();
			seen.set(label, keys);
			keys.set(key, (keys.get(key) ?? 0) + 1);
			res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"ok":true}');
		});
	});
	return new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, '127.0.0.1', () =>
			resolve({
				url: (label) => `http://127.0.0.1:${port}/effect/${label}`,
				of: (label) => {
					const keys = seen.get(label) ?? new Map<string, number>();
					return { total: [...keys.values()].reduce((sum, n) => sum + n, 0), distinct: keys.size };
				},
				keys: (label) => [...(seen.get(label)?.keys() ?? [])],
				repeated: (label) => [...(seen.get(label)?.entries() ?? [])].filter(([, n]) => n > 1).map(([key]) => key),
				close: () =>
					new Promise((done) => {
						server.closeAllConnections();
						server.close(() => done());
					}),
			}),
		);
	});
}
