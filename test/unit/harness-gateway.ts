/**
 * A local HTTP server standing in for a gateway in the harness's own tests: records every request, answers as each
 * test tells it to; and a HaiPay credential that points at it.
 */
import { createServer, type IncomingMessage, type Server } from 'http';
import type { AddressInfo } from 'net';
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { TEST_KEYS } from '../helpers/keys';

interface Received {
	method: string;
	url: string;
	headers: IncomingMessage['headers'];
	body: Record<string, unknown>;
}

/** What the stand-in received, and the status codes to answer with, consumed one per request (200 when empty). */
export const echo = { url: '', received: [] as Received[], statusPlan: [] as number[] };

/** Starts the stand-in for the file's tests, with nothing received and no status planned at each test's start. */
export function echoGateway(): void {
	let server: Server;
	beforeAll(async () => {
		server = createServer((req, res) => {
			const chunks: Buffer[] = [];
			req.on('data', (chunk: Buffer) => chunks.push(chunk));
			req.on('end', () => {
				const text = Buffer.concat(chunks).toString('utf8');
				const body = (text ? JSON.parse(text) : {}) as Record<string, unknown>;
				echo.received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
				const status = echo.statusPlan.shift() ?? 200;
				res.writeHead(status, { 'Content-Type': 'application/json' });
				res.end(
					JSON.stringify(status === 200 ? { status: '0', data: { echoed: body } } : { status: 'E', error: 'boom' }),
				);
			});
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		echo.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	});

	afterAll(async () => {
		await new Promise<void>((resolve) => server.close(() => resolve()));
	});

	beforeEach(() => {
		echo.received.length = 0;
		echo.statusPlan = [];
	});
}

export const SECRET = 'harness-secret-key-value';

export function haiPayCredential(): { type: string; data: ICredentialDataDecryptedObject } {
	return {
		type: 'haiPayApi',
		data: {
			environment: 'custom',
			baseUrl: echo.url,
			appId: 1001,
			currency: 'TZS',
			secretKey: SECRET,
			privateKey: TEST_KEYS.merchantPkcs8,
			haipayPublicKey: TEST_KEYS.platformPublic,
		},
	};
}
