/**
 * A fake HaiPay on 127.0.0.1 for answers the sandbox never gives: signed answers about nothing, silence, slow
 * bodies, waits. It records every query it saw and whether the trigger cut it off, so that a deadline shows as
 * what the gateway saw rather than as a clock read in the test.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'http';
import type { AddressInfo } from 'net';

type Fields = Record<string, unknown>;

export interface SeenQuery {
	path: string;
	body: Fields;
	/** The connection has closed. */
	closed: boolean;
	/** It closed before the gateway finished its answer: the trigger cut the query off. */
	cutOff: boolean;
}

export type Answering = (query: SeenQuery, res: ServerResponse) => void;

export interface FakeGateway {
	baseUrl: string;
	queries: SeenQuery[];
	close(): Promise<void>;
}

/** Listens on a free port of 127.0.0.1 and answers every query as `answering` does. */
export async function fakeGateway(answering: Answering): Promise<FakeGateway> {
	const queries: SeenQuery[] = [];
	const server = createServer((req: IncomingMessage, res: ServerResponse) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			let body: Fields = {};
			try {
				body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Fields;
			} catch {
				// Recorded as an empty body.
			}
			const query: SeenQuery = { path: req.url ?? '', body, closed: false, cutOff: false };
			queries.push(query);
			res.on('close', () => {
				query.closed = true;
				query.cutOff = !res.writableFinished;
			});
			answering(query, res);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		baseUrl: `http://127.0.0.1:${port}`,
		queries,
		async close() {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

/** HaiPay's success envelope around `data`, as sent: whether `data` is signed is the caller's choice. */
export function envelope(res: ServerResponse, data: unknown): void {
	res.writeHead(200, { 'Content-Type': 'application/json' });
	res.end(JSON.stringify({ status: '1', error: '00000000', msg: 'success', data }));
}

/** Accepts the query and never answers it. */
export const silent: Answering = () => {};

/** Answers headers at once, then a byte of the body every 200 ms, forever. */
export const dribbling: Answering = (_query, res) => {
	res.writeHead(200, { 'Content-Type': 'application/json' });
	res.write('{');
	const timer = setInterval(() => res.write(' '), 200);
	res.on('close', () => clearInterval(timer));
};

/** Answers 503 with `Retry-After` as given, a number of seconds or an HTTP date (or neither). */
export function unavailable(retryAfter: string): Answering {
	return (_query, res) => {
		res.writeHead(503, { 'Content-Type': 'text/plain', 'Retry-After': retryAfter });
		res.end('busy');
	};
}
