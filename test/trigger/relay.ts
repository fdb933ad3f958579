import { createServer, request, type IncomingHttpHeaders } from 'http';
import type { AddressInfo } from 'net';

/** What the relay does with one request: forward it (changed or not), and whether the answer reaches the sender. */
export interface RelayStep {
	body?: string;
	/** The request reaches the receiver, but its answer is lost on the way back (the connection is cut). */
	loseAnswer?: boolean;
}

export interface Relay {
	url: string;
	/** Bodies as they arrived from the sender, in order. */
	received: string[];
	close(): Promise<void>;
}

/**
 * A man in the middle between the sandbox gateway and the n8n webhook, on 127.0.0.1: it can change a callback in
 * flight (a forgery that arrives over the wire exactly as the gateway would send it) or lose the receiver's
 * answer (which makes the gateway retry a callback the workflow already received).
 */
export async function relay(
	target: string,
	step: (body: string, index: number) => RelayStep = () => ({}),
): Promise<Relay> {
	const received: string[] = [];
	const server = createServer((incoming, outgoing) => {
		const chunks: Buffer[] = [];
		incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
		incoming.on('end', () => {
			const original = Buffer.concat(chunks).toString('utf8');
			const decision = step(original, received.length);
			received.push(original);
			const payload = Buffer.from(decision.body ?? original, 'utf8');
			const headers: IncomingHttpHeaders = {
				'content-type': incoming.headers['content-type'] ?? 'application/json',
				'content-length': String(payload.length),
			};
			const forward = request(target, { method: incoming.method, headers, agent: false }, (answer) => {
				const parts: Buffer[] = [];
				answer.on('data', (chunk: Buffer) => parts.push(chunk));
				answer.on('end', () => {
					if (decision.loseAnswer) {
						incoming.socket.destroy();
						return;
					}
					outgoing.writeHead(answer.statusCode ?? 502, {
						'content-type': answer.headers['content-type'] ?? 'text/plain',
					});
					outgoing.end(Buffer.concat(parts));
				});
			});
			forward.on('error', () => incoming.socket.destroy());
			forward.end(payload);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/notify`,
		received,
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
