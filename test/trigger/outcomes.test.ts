/**
 * What the HaiPay Trigger makes of callbacks whose outcome is in doubt: an order query answered with a signed
 * answer about nothing, a gateway that is slow or asks to wait, a status written `2.0`, a re-split free-text
 * field, and two partial-collection results of one order. Every callback goes over real HTTP into n8n-core's
 * webhook machinery (test/harness), signed with the test platform key. Confirm With HaiPay asks either the sandbox
 * gateway (real order state) or a small fake gateway on 127.0.0.1 written here, for answers that lie or never come.
 *
 * No test reads a clock: a deadline shows as the answer HaiPay gets (503) and as what the fake gateway saw (how
 * many queries, each cut off by the trigger). Where only the absence of a 60-second wait can show a bound, the
 * bound is the test's own timeout (30 s, three times the trigger's 10-second deadline).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'http';
import type { AddressInfo } from 'net';
import type { ICredentialDataDecryptedObject, INodeParameters } from 'n8n-workflow';

import { HaiPayTrigger } from '../../nodes/HaiPayTrigger/HaiPayTrigger.node';
import { NOT_YET } from '../../nodes/HaiPayTrigger/reply';
import { canonicalString } from '../../nodes/shared/signing/canonical';
import { parsePrivateKey } from '../../nodes/shared/signing/keys';
import { startSandbox, type CallbackAttempt, type Sandbox } from '../../sandbox';
import { APP_IDS, callbackBody } from '../fixtures/bodies';
import { NO_OP_NODE_TYPE, webhookServer, type HttpReply, type WebhookServer } from '../harness';
import { sandboxCredential } from '../helpers/credentials';
import { TEST_KEYS } from '../helpers/keys';
import { withSignature } from '../helpers/signing';

const TRIGGER = 'HaiPay Trigger';
const SECRET = 'outcomes-test-secret';
const PLATFORM_KEY = parsePrivateKey(TEST_KEYS.platformPrivate);
const OTHER_KEY = parsePrivateKey(TEST_KEYS.otherPrivate);
const JSON_HEADERS = { 'Content-Type': 'application/json' };

type Fields = Record<string, unknown>;

/** A merchant credential whose HaiPay is at `baseUrl`, with this file's secret and the test key pairs. */
function credentialFor(baseUrl: string, appId = APP_IDS.TZS, currency = 'TZS'): ICredentialDataDecryptedObject {
	return {
		environment: 'custom',
		baseUrl,
		appId,
		currency,
		secretKey: SECRET,
		privateKey: TEST_KEYS.merchantPkcs8,
		haipayPublicKey: TEST_KEYS.platformPublic,
		arrayStyle: 'json',
	};
}

/**
 * A callback body as HaiPay would write it, signed with the platform key over its exact text: members named in
 * `literals` are written as the JSON number literal given (`2.0`, `1e400`), and signed as that text.
 */
function signedText(fields: Fields, literals: Record<string, string> = {}, secret = SECRET): string {
	const signing: Fields = { ...fields, ...literals };
	let text = JSON.stringify(withSignature(signing, secret, PLATFORM_KEY));
	for (const [name, literal] of Object.entries(literals)) text = text.replace(`"${name}":${JSON.stringify(literal)}`, `"${name}":${literal}`);
	for (const literal of Object.values(literals)) expect(text).toContain(`:${literal}`);
	return text;
}

let sequence = 0;
function nextId(prefix: string): string {
	sequence += 1;
	return `${prefix}-${Date.now()}-${sequence}`;
}

/** A payout callback for a fresh order, unsigned. */
function payoutCallback(overrides: Fields = {}): Fields {
	const id = nextId('OUT');
	return callbackBody('payout', { orderId: id, orderNo: `HP${id}`, ...overrides });
}

/** Resolves once `condition` holds; only the test's timeout bounds the wait. */
async function until(condition: () => boolean): Promise<void> {
	while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

// ---------------------------------------------------------------------------------------------------------------
// A fake HaiPay for answers the sandbox never gives: signed answers about nothing, silence, slow bodies, waits.

interface SeenQuery {
	path: string;
	body: Fields;
	/** The connection has closed. */
	closed: boolean;
	/** It closed before the gateway finished its answer: the trigger cut the query off. */
	cutOff: boolean;
}

type Answering = (query: SeenQuery, res: ServerResponse) => void;

interface FakeGateway {
	baseUrl: string;
	queries: SeenQuery[];
	close(): Promise<void>;
}

async function fakeGateway(answering: Answering): Promise<FakeGateway> {
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

function envelope(res: ServerResponse, data: unknown): void {
	res.writeHead(200, { 'Content-Type': 'application/json' });
	res.end(JSON.stringify({ status: '1', error: '00000000', msg: 'success', data }));
}

/** HaiPay's success envelope around `data`, signed with the platform key as HaiPay signs answers. */
function signedAnswer(data: Fields, key = PLATFORM_KEY): Answering {
	return (_query, res) => envelope(res, withSignature(data, SECRET, key));
}

/** Accepts the query and never answers it. */
const silent: Answering = () => {};

/** Answers headers at once, then a byte of the body every 200 ms, forever. */
const dribbling: Answering = (_query, res) => {
	res.writeHead(200, { 'Content-Type': 'application/json' });
	res.write('{');
	const timer = setInterval(() => res.write(' '), 200);
	res.on('close', () => clearInterval(timer));
};

function unavailable(retryAfter: string): Answering {
	return (_query, res) => {
		res.writeHead(503, { 'Content-Type': 'text/plain', 'Retry-After': retryAfter });
		res.end('busy');
	};
}

// ---------------------------------------------------------------------------------------------------------------

describe('HaiPay Trigger: outcomes in doubt', () => {
	let server: WebhookServer | undefined;
	let gateway: FakeGateway | undefined;

	async function serve(parameters: INodeParameters, credential: ICredentialDataDecryptedObject): Promise<WebhookServer> {
		server = await webhookServer({
			nodeTypes: [HaiPayTrigger],
			credentials: { haipay: { type: 'haiPayApi', data: credential } },
			nodes: [
				{ name: TRIGGER, type: 'haiPayTrigger', parameters },
				{ name: 'Next', type: NO_OP_NODE_TYPE },
			],
		});
		return server;
	}

	/** A trigger with Confirm With HaiPay on, whose queries go to a fake gateway answering as `answering` does. */
	async function confirmingAgainst(answering: Answering, kind: 'payout' | 'collection' | 'either' = 'payout'): Promise<WebhookServer> {
		gateway = await fakeGateway(answering);
		return await serve({ kind, options: { confirmWithHaiPay: true } }, credentialFor(gateway.baseUrl));
	}

	async function send(body: Fields | string): Promise<HttpReply> {
		const text = typeof body === 'string' ? body : JSON.stringify(withSignature(body, SECRET, PLATFORM_KEY));
		return await server!.send(TRIGGER, text, { headers: JSON_HEADERS });
	}

	function logs(): string {
		return JSON.stringify(server!.calls.map((call) => call.logs));
	}

	afterEach(async () => {
		await server?.close();
		server = undefined;
		await gateway?.close();
		gateway = undefined;
	});

	describe('1. an answer that names no order confirms nothing', () => {
		const callback = () => payoutCallback();
		const lies: Array<[string, (order: Fields) => Answering]> = [
			['a replayed balance answer', () => signedAnswer({ bal: '9000.00', availableBal: '9000.00', frzBal: '0.00', unSettleBal: '0.00' })],
			['{amount, status: 2}', () => signedAnswer({ amount: '1500.00', status: 2 })],
			['another order', () => signedAnswer({ orderId: 'OTHER-1', orderNo: 'HPOTHER1', amount: '1500.00', fee: '15.00', status: 2 })],
			['this orderId under another orderNo', (order) => signedAnswer({ orderId: order.orderId, orderNo: 'HPOTHER2', amount: '1500.00', status: 2 })],
			['this order, unsigned', (order) => (_query, res) => envelope(res, { orderId: order.orderId, orderNo: order.orderNo, amount: '1500.00', status: 2 })],
			['this order, signed with another key', (order) => signedAnswer({ orderId: order.orderId, orderNo: order.orderNo, amount: '1500.00', status: 2 }, OTHER_KEY)],
		];

		it.each(lies)('answered with %s: 503, nothing emitted', async (_name, lie) => {
			const body = callback();
			await confirmingAgainst(lie(body));
			const reply = await send(body);
			expect([reply.status, reply.text]).toEqual([503, NOT_YET]);
			expect(server!.executions).toHaveLength(0);
			expect(gateway!.queries.map((query) => query.path)).toEqual(['/tzs/pay/query']);
			expect(gateway!.queries[0].body).toMatchObject({ orderId: body.orderId, orderNo: body.orderNo });
			expect(logs()).toMatch(/answered a callback with 503.*no trusted answer/);
		});

		it.each(lies)('with Payouts or Collections, both queries answered with %s: 503, nothing emitted', async (_name, lie) => {
			const body = callback();
			await confirmingAgainst(lie(body), 'either');
			const reply = await send(body);
			expect([reply.status, reply.text]).toEqual([503, NOT_YET]);
			expect(server!.executions).toHaveLength(0);
			expect(gateway!.queries.map((query) => query.path)).toEqual(['/tzs/pay/query', '/tzs/collect/query']);
		});

		it('the same fake gateway, answering with the order proven, confirms it (the lies above are what fails)', async () => {
			const body = callback();
			await confirmingAgainst(signedAnswer({ orderId: body.orderId, orderNo: body.orderNo, amount: '1500.00', fee: '15.00', status: 2 }));
			const reply = await send(body);
			expect([reply.status, reply.text]).toEqual([200, 'SUCCESS']);
			expect(server!.executions).toHaveLength(1);
			expect(server!.executions[0].items[0].json).toMatchObject({ orderNo: body.orderNo, status: 2, confirmed: true });
		});
	});

	describe('5. every answer within one deadline', () => {
		/** Waits until the fake gateway has seen every query end, then says how they ended. */
		async function endedQueries(): Promise<SeenQuery[]> {
			await until(() => gateway!.queries.every((query) => query.closed));
			return gateway!.queries;
		}

		it.each([
			['a gateway that never answers', silent, /no complete answer within/],
			['answers that never finish', dribbling, /could not confirm it/],
		] as Array<[string, Answering, RegExp]>)('%s (Payouts or Collections): 503, at most 3 queries, each cut off', async (_what, answering, logged) => {
			await confirmingAgainst(answering, 'either');
			const reply = await send(payoutCallback());
			expect([reply.status, reply.text]).toEqual([503, NOT_YET]);
			expect(server!.executions).toHaveLength(0);
			const queries = await endedQueries();
			// 4 s per attempt within 10 s: two payout attempts, and at most one collection attempt with what remains.
			expect(queries.length).toBeGreaterThanOrEqual(1);
			expect(queries.length).toBeLessThanOrEqual(3);
			expect(queries.every((query) => query.cutOff)).toBe(true);
			expect(logs()).toMatch(logged);
		}, 60_000);

		it('503 with Retry-After: 60: answered 503 at once, with one query and no wait (bound: the test timeout)', async () => {
			await confirmingAgainst(unavailable('60'), 'either');
			const reply = await send(payoutCallback());
			expect([reply.status, reply.text]).toEqual([503, NOT_YET]);
			expect(server!.executions).toHaveLength(0);
			// The payout query was told to wait past the deadline: neither it nor the collection query is asked again.
			expect(gateway!.queries.map((query) => query.path)).toEqual(['/tzs/pay/query']);
			expect(logs()).toMatch(/HTTP 503/);
		});

		it('attack: Retry-After as an HTTP date an hour ahead stops the queries too', async () => {
			await confirmingAgainst(unavailable(new Date(Date.now() + 3_600_000).toUTCString()), 'payout');
			const reply = await send(payoutCallback());
			expect([reply.status, reply.text]).toEqual([503, NOT_YET]);
			expect(gateway!.queries).toHaveLength(1);
		});

		it('attack: Retry-After as an HTTP date a moment ahead, within the deadline, is waited for and the query tried again', async () => {
			await confirmingAgainst(unavailable(new Date(Date.now() + 2_000).toUTCString()), 'payout');
			const reply = await send(payoutCallback());
			expect([reply.status, reply.text]).toEqual([503, NOT_YET]);
			expect(gateway!.queries).toHaveLength(2);
		});

		it('attack: Retry-After as an HTTP date in the past is no wait: tried again at once, then 503', async () => {
			await confirmingAgainst(unavailable(new Date(Date.now() - 3_600_000).toUTCString()), 'payout');
			const reply = await send(payoutCallback());
			expect([reply.status, reply.text]).toEqual([503, NOT_YET]);
			expect(gateway!.queries).toHaveLength(2);
		});

		it('attack: Retry-After that is no number and no date falls back to the backoff, within the deadline', async () => {
			await confirmingAgainst(unavailable('in a while'), 'payout');
			const reply = await send(payoutCallback());
			expect([reply.status, reply.text]).toEqual([503, NOT_YET]);
			expect(gateway!.queries).toHaveLength(2);
		});
	});

	describe('10. a status written as a JSON number with a fraction or an exponent', () => {
		const successOnly = { kind: 'payout', statuses: ['success'] };

		it.each(['2.0', '2e0', '2.00', '2E0', '20e-1'])('a verified success with status %s is emitted under Success, as status 2', async (literal) => {
			await serve(successOnly, credentialFor('http://127.0.0.1:9'));
			const body = payoutCallback();
			const reply = await send(signedText(body, { status: literal }));
			expect([reply.status, reply.text]).toEqual([200, 'SUCCESS']);
			expect(server!.executions).toHaveLength(1);
			expect(server!.executions[0].items[0].json).toMatchObject({ orderNo: body.orderNo, status: 2, statusLabel: 'success', statusGroup: 'success' });
		});

		it('a status 2 after 2.0 for the same order is a repeat, and 1.0 after it an old callback', async () => {
			await serve({ kind: 'payout' }, credentialFor('http://127.0.0.1:9'));
			const body = payoutCallback();
			expect((await send(signedText(body, { status: '2.0' }))).text).toBe('SUCCESS');
			expect((await send({ ...body, status: 2 })).text).toBe('SUCCESS');
			expect((await send(signedText(body, { status: '1.0' }))).text).toBe('SUCCESS');
			expect(server!.executions).toHaveLength(1);
			expect(logs()).toMatch(/a repeated callback/);
			expect(logs()).toMatch(/status 1 comes before the final status 2/);
		});

		it('a status string "2.0" or " 2 " is no success: not matched by Success, emitted under Other as it came', async () => {
			await serve(successOnly, credentialFor('http://127.0.0.1:9'));
			for (const status of ['2.0', ' 2 ']) expect((await send(payoutCallback({ status }))).text).toBe('SUCCESS');
			expect(server!.executions).toHaveLength(0);
			expect(logs()).toMatch(/is not one of the selected statuses/);
			await server!.close();

			await serve({ kind: 'payout', statuses: ['other'] }, credentialFor('http://127.0.0.1:9'));
			for (const status of ['2.0', ' 2 ']) expect((await send(payoutCallback({ status }))).text).toBe('SUCCESS');
			expect(server!.executions.map((execution) => execution.items[0].json)).toMatchObject([
				{ status: '2.0', statusLabel: null, statusGroup: 'unknown' },
				{ status: ' 2 ', statusLabel: null, statusGroup: 'unknown' },
			]);
		});

		it('with Confirm With HaiPay on, a status 2.0 is confirmed by an answer with status 2', async () => {
			const body = payoutCallback();
			await confirmingAgainst(signedAnswer({ orderId: body.orderId, orderNo: body.orderNo, amount: '1500.00', status: 2 }));
			const reply = await send(signedText(body, { status: '2.0' }));
			expect([reply.status, reply.text]).toEqual([200, 'SUCCESS']);
			expect(server!.executions[0].items[0].json).toMatchObject({ status: 2, confirmed: true });
		});

		it('attack: -0 is status 0, and after a final status an old callback', async () => {
			await serve({ kind: 'payout' }, credentialFor('http://127.0.0.1:9'));
			const first = payoutCallback();
			expect((await send(signedText(first, { status: '-0' }))).text).toBe('SUCCESS');
			expect(server!.executions[0].items[0].json).toMatchObject({ status: 0, statusLabel: 'not started', statusGroup: 'pending' });
			expect(Object.is(server!.executions[0].items[0].json.status, -0)).toBe(false);

			const second = payoutCallback();
			expect((await send({ ...second, status: 2 })).text).toBe('SUCCESS');
			expect((await send(signedText(second, { status: '-0' }))).text).toBe('SUCCESS');
			expect(server!.executions).toHaveLength(2);
			expect(logs()).toMatch(/status 0 comes before the final status 2/);
		});

		it.each(['1e400', '2.0000000000000001', '1.9999999999999999e0', '2.5'])(
			'attack: %s states no status: not Success, emitted under Any as its digits with group unknown',
			async (literal) => {
				await serve(successOnly, credentialFor('http://127.0.0.1:9'));
				expect((await send(signedText(payoutCallback(), { status: literal }))).text).toBe('SUCCESS');
				expect(server!.executions).toHaveLength(0);
				await server!.close();

				await serve({ kind: 'payout' }, credentialFor('http://127.0.0.1:9'));
				expect((await send(signedText(payoutCallback(), { status: literal }))).text).toBe('SUCCESS');
				expect(server!.executions[0].items[0].json).toMatchObject({ statusLabel: null, statusGroup: 'unknown' });
				expect(server!.executions[0].items[0].json.status).not.toBe(2);
			},
		);

		it('the signature is still checked over the exact text: 2.0 signed, 2 sent is refused', async () => {
			await serve({ kind: 'payout' }, credentialFor('http://127.0.0.1:9'));
			const text = signedText(payoutCallback(), { status: '2.0' });
			const reply = await send(text.replace('"status":2.0', '"status":2'));
			expect(reply.status).toBe(401);
			expect(server!.executions).toHaveLength(0);
		});
	});

	describe('11. re-split fields', () => {
		let sandbox: Sandbox;
		beforeAll(async () => {
			sandbox = await startSandbox({ manual: true, callbackSchedule: [150, 150], callbackTimeoutMs: 10_000 });
		});
		afterEach(() => sandbox.control.clearFaults());
		afterAll(async () => {
			await sandbox.close();
		});

		async function serveSandbox(parameters: INodeParameters): Promise<WebhookServer> {
			return await serve({ kind: 'payout', ...parameters }, sandboxCredential(sandbox, APP_IDS.TZS));
		}

		/** A failed payout in the sandbox whose genuine callback, with `errorMsg`, went to `url`; its last attempt. */
		async function failedPayout(errorMsg: string, url: string): Promise<CallbackAttempt> {
			const order = sandbox.control.createOrder({ appId: APP_IDS.TZS, kind: 'payout', orderId: nextId('RS'), amount: '1500', notifyUrl: url });
			sandbox.control.settle(order.orderNo, 'failed', { errorMsg });
			return await sandbox.waitForCallback((attempt) => attempt.orderNo === order.orderNo && attempt.last, 10_000);
		}

		/** The same signature over `errorMsg` cut at its `&`, the rest sent as a field of its own. */
		function resplit(genuine: Fields): Fields {
			const [head, tail] = String(genuine.errorMsg).split(/&(.*)/s);
			const [name, value] = tail.split(/=(.*)/s);
			const body: Fields = { ...genuine, errorMsg: head, [name]: value };
			const secret = String(sandboxCredential(sandbox, APP_IDS.TZS).secretKey);
			expect(canonicalString(body, secret)).toBe(canonicalString(genuine, secret));
			return body;
		}

		it('Confirm off: a genuine callback whose errorMsg could end in another field runs once, naming errorMsg; its re-split is that result again', async () => {
			await serveSandbox({});
			const genuine = await failedPayout('card declined&errorNote=call the bank', server!.url(TRIGGER));
			await server!.idle();
			expect(sandbox.callbacks.filter((each) => each.orderNo === genuine.orderNo).map((each) => each.httpStatus)).toEqual([200]);
			expect(server!.executions[0].items[0].json).toMatchObject({ errorMsg: 'card declined&errorNote=call the bank', ambiguousText: ['errorMsg'], unknownFields: [] });
			expect(server!.executions[0].items[0].json).not.toHaveProperty('confirmed');

			const body = resplit(genuine.body);
			expect(body).toMatchObject({ errorMsg: 'card declined', errorNote: 'call the bank', sign: genuine.body.sign });
			// The re-split changes no order, status, amount or currency: the same result, which repeat detection drops.
			expect(await server!.send(TRIGGER, body)).toMatchObject({ status: 200, text: 'SUCCESS' });
			expect(server!.executions).toHaveLength(1);
			expect(logs()).toMatch(/a repeated callback/);
		});

		it('Confirm on: the re-split is confirmed by the sandbox and emitted with the fields of HaiPay\'s answer', async () => {
			const genuine = await failedPayout('card declined&errorNote=call the bank', 'http://127.0.0.1:9/unused');
			await serveSandbox({ options: { confirmWithHaiPay: true } });
			const reply = await server!.send(TRIGGER, resplit(genuine.body));
			expect([reply.status, reply.text]).toEqual([200, 'SUCCESS']);
			expect(server!.executions).toHaveLength(1);
			expect(server!.executions[0].items[0].json).toMatchObject({
				orderId: genuine.body.orderId,
				orderNo: genuine.orderNo,
				status: 3,
				errorMsg: 'card declined&errorNote=call the bank',
				unknownFields: ['errorNote'],
				confirmed: true,
				verified: true,
			});
			const queried = sandbox.requests.filter((entry) => JSON.stringify(entry).includes(genuine.orderNo)).map((entry) => entry.path);
			expect(queried).toContain('/tzs/pay/query');
		});

		it('a callback with only known fields is unaffected: emitted unconfirmed with Confirm off', async () => {
			await serveSandbox({});
			const order = sandbox.control.createOrder({ appId: APP_IDS.TZS, kind: 'payout', orderId: nextId('KN'), amount: '1500', notifyUrl: server!.url(TRIGGER) });
			sandbox.control.settle(order.orderNo, 'success');
			const attempt = await sandbox.waitForCallback((each) => each.orderNo === order.orderNo && each.last, 10_000);
			await server!.idle();
			expect(attempt).toMatchObject({ attempt: 1, acknowledged: true });
			expect(server!.executions).toHaveLength(1);
			expect(server!.executions[0].items[0].json).not.toHaveProperty('confirmed');

			// Every listed field at once (a collection's token and actualAmount), and an empty unlisted one, which is unsigned.
			await server!.close();
			await serve({ kind: 'collection' }, credentialFor('http://127.0.0.1:9', APP_IDS.USD, 'USD'));
			const collection = callbackBody('collection', { orderId: nextId('KC'), actualAmount: '9.70', remark: '' });
			const reply = await send(collection);
			expect([reply.status, reply.text]).toEqual([200, 'SUCCESS']);
			expect(server!.executions[0].items[0].json).toMatchObject({ tokenID: 'tok_abc', actualAmount: '9.70', remark: '', verified: true });
		});

		it.each(['errorMsg2', 'errorMsg ', 'feE', 'errorMsgs'])(
			'attack: a re-split into %j, named like a known field, is at most the same result again with a field added',
			async (name) => {
				await serve({ kind: 'payout' }, credentialFor('http://127.0.0.1:9'));
				const genuine = payoutCallback({ status: 3, payTime: undefined, errorMsg: `declined&${name}=0.00` });
				const signed = withSignature(genuine, SECRET, PLATFORM_KEY);
				const split = { ...signed, errorMsg: 'declined', [name]: '0.00' };
				expect(canonicalString(split, SECRET)).toBe(canonicalString(signed, SECRET));
				expect((await server!.send(TRIGGER, split)).text).toBe('SUCCESS');
				expect((await server!.send(TRIGGER, signed)).text).toBe('SUCCESS');
				expect(server!.executions).toHaveLength(1);
				expect(server!.executions[0].items[0].json).toMatchObject({ orderNo: genuine.orderNo, status: 3, amount: genuine.amount, unknownFields: [name] });
			},
		);

		it('attack: with Confirm on, HaiPay\'s answer stands in for the callback\'s fields, never for the node\'s own', async () => {
			const body = payoutCallback({ status: 3, payTime: undefined, errorMsg: 'declined&errorNote=x' });
			await confirmingAgainst(
				signedAnswer({ orderId: body.orderId, orderNo: body.orderNo, amount: '1500.00', status: 3, fee: '9.00', kind: 'refund', verified: 'no', statusLabel: 'paid' }),
			);
			const reply = await send(body);
			expect([reply.status, reply.text]).toEqual([200, 'SUCCESS']);
			expect(server!.executions[0].items[0].json).toMatchObject({ fee: '9.00', kind: 'payout', verified: true, statusLabel: 'failed', confirmed: true, ambiguousText: ['errorMsg'] });
		});

		it('attack: a re-split into the known field fee (of a callback sent without one) cannot change the order, its status or amount', async () => {
			await serve({ kind: 'payout' }, credentialFor('http://127.0.0.1:9'));
			const genuine = payoutCallback({ status: 3, payTime: undefined, fee: undefined, errorMsg: 'declined&fee=0.00' });
			const signed = withSignature(genuine, SECRET, PLATFORM_KEY);
			const split = { ...signed, errorMsg: 'declined', fee: '0.00' };
			expect(canonicalString(split, SECRET)).toBe(canonicalString(signed, SECRET));
			const reply = await server!.send(TRIGGER, split);
			// Indistinguishable from a callback HaiPay could send: the README names this bound.
			expect(reply.text).toBe('SUCCESS');
			expect(server!.executions[0].items[0].json).toMatchObject({
				orderId: genuine.orderId,
				orderNo: genuine.orderNo,
				amount: genuine.amount,
				status: 3,
			});
		});
	});

	describe('12. two results of one partially collected order', () => {
		function partial(orderNo: string, amount: string, payTime: string, status = 4): Fields {
			return callbackBody('collection', { orderId: `ID${orderNo}`, orderNo, amount, payTime, status });
		}

		it.each([true, false])('both partial results are emitted, each exact repeat is refused (Ignore Repeated Callbacks %s)', async (deduplicate) => {
			await serve({ kind: 'collection', options: { deduplicate } }, credentialFor('http://127.0.0.1:9', APP_IDS.USD, 'USD'));
			const orderNo = `HPC${nextId('P')}`;
			const first = partial(orderNo, '10.00', '2024-05-01 10:00:00');
			const second = partial(orderNo, '15.00', '2024-05-01 11:00:00');
			for (const body of [first, second, first, second]) expect((await send(body)).text).toBe('SUCCESS');
			const emitted = server!.executions.map((execution) => execution.items[0].json);
			if (deduplicate) {
				expect(emitted).toMatchObject([
					{ orderNo, status: 4, amount: '10.00', statusGroup: 'partial' },
					{ orderNo, status: 4, amount: '15.00', statusGroup: 'partial' },
				]);
				expect(logs()).toMatch(/a repeated callback/);
			} else {
				expect(emitted).toHaveLength(4);
			}
			// The regression check still sees that a final status was emitted for the order.
			expect((await send(partial(orderNo, '10.00', '', 1))).text).toBe('SUCCESS');
			expect(server!.executions).toHaveLength(emitted.length);
			expect(logs()).toMatch(/status 1 comes before the final status 4/);
		});

		it('attack: a partial result with status 4.0 and its resend with status 4 are one result', async () => {
			await serve({ kind: 'collection' }, credentialFor('http://127.0.0.1:9', APP_IDS.USD, 'USD'));
			const orderNo = `HPC${nextId('R')}`;
			const body = partial(orderNo, '10.00', '2024-05-01 10:00:00');
			expect((await send(signedText(body, { status: '4.0', amount: '10.00' }))).text).toBe('SUCCESS');
			expect((await send(body)).text).toBe('SUCCESS');
			expect((await send({ ...body, status: '4' })).text).toBe('SUCCESS');
			expect(server!.executions.map((execution) => execution.items[0].json)).toMatchObject([{ orderNo, status: 4, amount: '10.00' }]);
		});

		it('the same amount at another time is another result; over-collected results are told apart the same way', async () => {
			await serve({ kind: 'collection' }, credentialFor('http://127.0.0.1:9', APP_IDS.USD, 'USD'));
			const orderNo = `HPC${nextId('Q')}`;
			const bodies = [
				partial(orderNo, '10.00', '2024-05-01 10:00:00'),
				partial(orderNo, '10.00', '2024-05-01 10:05:00'),
				partial(orderNo, '30.00', '2024-05-01 12:00:00', 5),
				partial(orderNo, '31.00', '2024-05-01 12:00:00', 5),
				partial(orderNo, '31.00', '2024-05-01 12:00:00', 5),
			];
			for (const body of bodies) expect((await send(body)).text).toBe('SUCCESS');
			expect(server!.executions.map((execution) => [execution.items[0].json.status, execution.items[0].json.amount])).toEqual([
				[4, '10.00'],
				[4, '10.00'],
				[5, '30.00'],
				[5, '31.00'],
			]);
		});
	});
});
