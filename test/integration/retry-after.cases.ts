/**
 * A read that meets 429 with Retry-After waits as told, then succeeds. A proxy in front of the sandbox answers
 * the first request itself and forwards the rest. What is asserted is the wait the node set between the two
 * requests (its length as set, and that the retry followed its end), never a time measured.
 */
import http from 'http';
import type { AddressInfo } from 'net';

import { retryAfterMs } from '../../nodes/shared/gateway/request';
import { startSandbox, type Sandbox } from '../../sandbox';
import { positions, recordTimers } from '../helpers/timers';
import { credentialFor, NODE, runNode } from './helpers';

let sandbox: Sandbox;
let proxy: http.Server;
let requests = 0;
/** The proxy's requests and the timers set and fired, in the order they happened. */
const events: string[] = [];

beforeAll(async () => {
	sandbox = await startSandbox({ manual: true });
	const target = new URL(sandbox.baseUrl);
	proxy = http.createServer((request, response) => {
		requests += 1;
		events.push(`request ${requests}`);
		if (requests === 1) {
			response.writeHead(429, { 'Retry-After': '2', 'Content-Type': 'text/plain' });
			response.end('slow down');
			return;
		}
		const forward = http.request(
			{ host: target.hostname, port: target.port, path: request.url, method: request.method, headers: request.headers },
			(answer) => {
				response.writeHead(answer.statusCode ?? 502, answer.headers);
				answer.pipe(response);
			},
		);
		request.pipe(forward);
	});
	await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
	await new Promise((resolve) => proxy.close(resolve));
	await sandbox.close();
});

it('a read retried after 429 waits what Retry-After says, then asks again', async () => {
	const port = (proxy.address() as AddressInfo).port;
	const stop = recordTimers(events);
	let result;
	try {
		result = await runNode(sandbox, {
			parameters: { resource: 'account', operation: 'getBalance', currency: 'TZS', options: { retries: 1 } },
			credential: credentialFor(sandbox, 'TZS', { baseUrl: `http://127.0.0.1:${port}` }),
		});
	} finally {
		stop();
	}
	expect(result.status).toBe('success');
	expect(result.jsonOf(NODE)[0]).toHaveProperty('availableBal');
	expect(requests).toBe(2);
	// The node's own backoff would be a wait of at most 625 ms; 2000 ms exactly is Retry-After's "2".
	const [first, set, fired, second] = positions(events, ['request 1', 'set 2000', 'fired 2000', 'request 2']);
	expect(first).toBeLessThan(set);
	expect(set).toBeLessThan(fired);
	expect(fired).toBeLessThan(second);
});

describe('Retry-After parsing', () => {
	it('reads seconds and HTTP dates, and caps both', () => {
		const now = Date.parse('2026-11-21T10:00:00Z');
		expect(retryAfterMs('3', now)).toBe(3000);
		expect(retryAfterMs('0', now)).toBe(0);
		expect(retryAfterMs('Sat, 21 Nov 2026 10:00:05 GMT', now)).toBe(5000);
		expect(retryAfterMs('Sat, 21 Nov 2026 09:00:00 GMT', now)).toBe(0);
		expect(retryAfterMs('86400', now)).toBe(60_000);
		expect(retryAfterMs('', now)).toBeUndefined();
		expect(retryAfterMs('soon', now)).toBeUndefined();
	});
});
