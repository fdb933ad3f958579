/**
 * Attacks on the HaiPay Trigger by someone who captured genuine callbacks (signed with the real platform key) and
 * knows the URL: each one arrives over real HTTP from the sandbox gateway's own dispatcher (its attack routes, with
 * HaiPay's retries), into n8n-core's webhook machinery, and must start no workflow. Confirm With HaiPay queries the
 * sandbox over real HTTP through the credential.
 */
import type { ICredentialDataDecryptedObject, IDataObject, INodeParameters } from 'n8n-workflow';

import { HaiPayTrigger } from '../../nodes/HaiPayTrigger/HaiPayTrigger.node';
import { digestOf } from '../../nodes/HaiPayTrigger/memory';
import { parsePrivateKey } from '../../nodes/shared/signing/keys';
import { withSignature } from '../helpers/signing';
import { startSandbox, type CallbackAttempt, type CallbackJob, type Sandbox } from '../../sandbox';
import { APP_IDS, callbackBody } from '../fixtures/bodies';
import { NO_OP_NODE_TYPE, webhookServer, type WebhookServer } from '../harness';
import { sandboxCredential } from '../helpers/credentials';
import { TEST_KEYS } from '../helpers/keys';

const TRIGGER = 'HaiPay Trigger';
const SCHEDULE = [150, 150];

function credential(sandbox: Sandbox, appId = APP_IDS.TZS): ICredentialDataDecryptedObject {
	return sandboxCredential(sandbox, appId);
}

let sequence = 0;

describe('HaiPay Trigger under attack, with callbacks from the sandbox gateway', () => {
	let sandbox: Sandbox;
	let server: WebhookServer | undefined;

	async function serve(parameters: INodeParameters = {}, staticData?: IDataObject): Promise<WebhookServer> {
		server = await webhookServer({
			nodeTypes: [HaiPayTrigger],
			credentials: { haipay: { type: 'haiPayApi', data: credential(sandbox) } },
			nodes: [
				{ name: TRIGGER, type: 'haiPayTrigger', parameters: { kind: 'payout', ...parameters } },
				{ name: 'Next', type: NO_OP_NODE_TYPE },
			],
			staticData,
		});
		return server;
	}

	function payout(notifyUrl: string) {
		sequence += 1;
		return sandbox.control.createOrder({ appId: APP_IDS.TZS, kind: 'payout', orderId: `ATK-${Date.now()}-${sequence}`, amount: '1500', notifyUrl });
	}

	async function lastAttemptOfOrder(orderNo: string): Promise<CallbackAttempt> {
		return await sandbox.waitForCallback((attempt) => attempt.orderNo === orderNo && attempt.last, 10_000);
	}

	async function lastAttemptOf(job: CallbackJob): Promise<CallbackAttempt> {
		return await sandbox.waitForCallback((attempt) => attempt.jobId === job.id && attempt.last, 10_000);
	}

	function attemptsOf(job: CallbackJob): CallbackAttempt[] {
		return sandbox.callbacks.filter((attempt) => attempt.jobId === job.id);
	}

	/** A settled payout whose genuine callback has started its one execution. */
	async function settled(outcome: 'success' | 'failed' = 'success', errorMsg?: string) {
		const order = payout(server!.url(TRIGGER));
		sandbox.control.settle(order.orderNo, outcome, { errorMsg });
		const attempt = await lastAttemptOfOrder(order.orderNo);
		await server!.idle();
		return { order, attempt };
	}

	function logsOf(job: CallbackJob): string {
		const bodies = new Set(attemptsOf(job).map((attempt) => attempt.at));
		expect(bodies.size).toBeGreaterThan(0);
		return JSON.stringify(server!.calls.map((call) => call.logs));
	}

	beforeAll(async () => {
		sandbox = await startSandbox({ manual: true, callbackSchedule: SCHEDULE, callbackTimeoutMs: 10_000 });
	});
	afterEach(async () => {
		await server?.close();
		server = undefined;
		sandbox.control.clearFaults();
	});
	afterAll(async () => {
		await sandbox.close();
	});

	describe('1. re-split signed strings', () => {
		it('settles a replay with orderNo folded into orderId by HaiPay\'s query, which knows no such order: 503 on every attempt, and nothing starts', async () => {
			await serve();
			const { order } = await settled();
			expect(server!.executions).toHaveLength(1);

			const job = sandbox.control.attackCallback(order.orderNo, 'resplit');
			expect(job.body).toMatchObject({ orderId: `${order.orderId}&orderNo=${order.orderNo}` });
			expect(job.body).not.toHaveProperty('orderNo');
			const final = await lastAttemptOf(job);
			await server!.idle();
			expect(final.acknowledged).toBe(false);
			expect(attemptsOf(job).map((attempt) => [attempt.httpStatus, attempt.response])).toEqual([
				[503, 'Not confirmed yet: send it again later'],
				[503, 'Not confirmed yet: send it again later'],
				[503, 'Not confirmed yet: send it again later'],
			]);
			expect(server!.executions).toHaveLength(1);
			expect(logsOf(job)).toMatch(/the value of the field orderId could be read as that field cut short plus orderNo.*HaiPay's order query decides/);
		});

		it('never emits a fee folded into the currency before it, even with Confirm With HaiPay on', async () => {
			await serve({ options: { confirmWithHaiPay: true } });
			const { order } = await settled();
			expect(server!.executions).toHaveLength(1);
			const job = sandbox.control.attackCallback(order.orderNo, 'resplit', { fold: 'fee' });
			expect(job.body).not.toHaveProperty('fee');
			const final = await lastAttemptOf(job);
			await server!.idle();
			// Its orderNo and status are the emitted result's: at most that result again, acknowledged as a repeat.
			expect(final).toMatchObject({ attempt: 1, acknowledged: true });
			expect(server!.executions).toHaveLength(1);
			expect(logsOf(job)).toMatch(/a repeated callback/);
		});

		it('with Confirm With HaiPay on, a fee folded into errorMsg is at most the true state again, which repeat detection drops', async () => {
			await serve({ options: { confirmWithHaiPay: true } });
			const { order, attempt } = await settled('failed', 'account frozen');
			expect(attempt.acknowledged).toBe(true);
			expect(server!.executions).toHaveLength(1);
			expect(server!.executions[0].items[0].json).toMatchObject({ status: 3, confirmed: true, errorMsg: 'account frozen' });

			const job = sandbox.control.attackCallback(order.orderNo, 'resplit', { fold: 'fee' });
			expect(job.body).toMatchObject({ errorMsg: expect.stringContaining('&fee=') });
			const final = await lastAttemptOf(job);
			await server!.idle();
			expect(final).toMatchObject({ attempt: 1, acknowledged: true });
			expect(server!.executions).toHaveLength(1);
		});

		it('a genuine callback whose errorMsg holds & and = (bank text, no field after the &) starts one execution unconfirmed', async () => {
			await serve();
			const { attempt } = await settled('failed', 'bank says: code=51 & account closed');
			expect(attempt).toMatchObject({ attempt: 1, acknowledged: true });
			expect(server!.executions).toHaveLength(1);
			expect(server!.executions[0].items[0].json).toMatchObject({ status: 3, errorMsg: 'bank says: code=51 & account closed', ambiguousText: [] });
			expect(server!.executions[0].items[0].json).not.toHaveProperty('confirmed');
		});

		it('with Confirm With HaiPay on, that genuine callback starts one execution with what HaiPay\'s query confirms', async () => {
			await serve({ options: { confirmWithHaiPay: true } });
			const { order, attempt } = await settled('failed', 'bank says: code=51 & account closed');
			expect(attempt).toMatchObject({ attempt: 1, acknowledged: true });
			expect(server!.executions).toHaveLength(1);
			expect(server!.executions[0].items[0].json).toMatchObject({
				orderNo: order.orderNo,
				status: 3,
				errorMsg: 'bank says: code=51 & account closed',
				confirmed: true,
				verified: true,
			});
		});
	});

	describe('2. replays of old genuine callbacks', () => {
		it('acknowledges an earlier status sent after the final one, starts nothing, and logs it', async () => {
			await serve();
			const { order } = await settled();
			const job = sandbox.control.attackCallback(order.orderNo, 'regressed', { status: 1 });
			const final = await lastAttemptOf(job);
			await server!.idle();
			expect(final).toMatchObject({ attempt: 1, acknowledged: true, response: 'SUCCESS' });
			expect(server!.executions).toHaveLength(1);
			expect(logsOf(job)).toMatch(/status 1 comes before the final status 2/);
		});

		it('the same with repeat detection turned off', async () => {
			await serve({ options: { deduplicate: false } });
			const { order } = await settled();
			const job = sandbox.control.attackCallback(order.orderNo, 'regressed', { status: 0 });
			expect(await lastAttemptOf(job)).toMatchObject({ acknowledged: true });
			await server!.idle();
			expect(server!.executions).toHaveLength(1);
		});

		it('with Confirm With HaiPay on, an old status is not emitted after the repeat window or 2,000 newer callbacks', async () => {
			const order = payout('http://127.0.0.1:9/unused');
			sandbox.control.settle(order.orderNo, 'success');
			// What a trigger remembers once the order's own entry has aged out of the window and been pushed out.
			const record = (key: string, age: number) => digestOf(key) + age.toString(36).padStart(5, '0');
			const entries = [record(`no:${order.orderNo}|2`, 3 * 86_400), ...Array.from({ length: 2000 }, (_, index) => record(`no:HPNEWER${index}|2`, 60))].join('');
			const saved = { [`node:${TRIGGER}`]: { repeatMemory: { v: 2, stamp: 'earlier.1', at: Math.floor(Date.now() / 1000), entries } } };
			await serve({ options: { confirmWithHaiPay: true } }, saved);

			const job = sandbox.control.attackCallback(order.orderNo, 'regressed', { status: 1, url: server!.url(TRIGGER) });
			const final = await lastAttemptOf(job);
			await server!.idle();
			expect(final).toMatchObject({ attempt: 1, acknowledged: true });
			expect(server!.executions).toHaveLength(0);
			expect(logsOf(job)).toMatch(/HaiPay says the order's status is 2, the callback says 1/);

			// An exact replay of the final callback can only announce the true current state, once.
			const replay = sandbox.control.attackCallback(order.orderNo, 'replay', { url: server!.url(TRIGGER) });
			const again = sandbox.control.attackCallback(order.orderNo, 'replay', { url: server!.url(TRIGGER) });
			await lastAttemptOf(replay);
			await lastAttemptOf(again);
			await server!.idle();
			expect(server!.executions).toHaveLength(1);
			expect(server!.executions[0].items[0].json).toMatchObject({ orderNo: order.orderNo, status: 2, confirmed: true });
		});

		it('with Confirm With HaiPay on, a callback HaiPay cannot confirm yet gets 503 and its resend starts the workflow once', async () => {
			await serve({ options: { confirmWithHaiPay: true } });
			sandbox.control.addFault({ type: 'httpError', status: 502, path: '/tzs/pay/query', times: 2 });
			const order = payout(server!.url(TRIGGER));
			sandbox.control.settle(order.orderNo, 'success');
			const final = await lastAttemptOfOrder(order.orderNo);
			await server!.idle();
			const attempts = sandbox.callbacks.filter((attempt) => attempt.orderNo === order.orderNo);
			expect(attempts.map((attempt) => [attempt.httpStatus, attempt.response])).toEqual([
				[503, 'Not confirmed yet: send it again later'],
				[200, 'SUCCESS'],
			]);
			expect(final.acknowledged).toBe(true);
			expect(server!.executions).toHaveLength(1);
			expect(JSON.stringify(server!.calls[0].logs)).toMatch(/answered a callback with 503.*no trusted answer/);
		});

		it('with Confirm With HaiPay on and Payouts or Collections, a collection is confirmed by the collection query', async () => {
			server = await webhookServer({
				nodeTypes: [HaiPayTrigger],
				credentials: { haipay: { type: 'haiPayApi', data: credential(sandbox, APP_IDS.USD) } },
				nodes: [{ name: TRIGGER, type: 'haiPayTrigger', parameters: { kind: 'either', options: { confirmWithHaiPay: true } } }],
			});
			sequence += 1;
			const order = sandbox.control.createOrder({ appId: APP_IDS.USD, kind: 'collection', orderId: `ATC-${Date.now()}-${sequence}`, amount: '49.00', notifyUrl: server.url(TRIGGER) });
			sandbox.control.setStatus(order.orderNo, 2);
			const final = await lastAttemptOfOrder(order.orderNo);
			await server.idle();
			expect(final).toMatchObject({ attempt: 1, acknowledged: true });
			expect(server.executions).toHaveLength(1);
			expect(server.executions[0].items[0].json).toMatchObject({ orderNo: order.orderNo, status: 2, confirmed: true });
			const queried = sandbox.requests.filter((entry) => JSON.stringify(entry).includes(order.orderNo)).map((entry) => entry.path);
			expect(queried).toEqual(expect.arrayContaining(['/usd/pay/query', '/usd/collect/query']));
		});

		it('with Confirm With HaiPay on, an answer HaiPay did not sign confirms nothing', async () => {
			await serve({ options: { confirmWithHaiPay: true } });
			sandbox.control.addFault({ type: 'badSignature', path: '/tzs/pay/query' });
			const order = payout(server!.url(TRIGGER));
			sandbox.control.settle(order.orderNo, 'success');
			const final = await lastAttemptOfOrder(order.orderNo);
			await server!.idle();
			expect(final.acknowledged).toBe(false);
			expect(sandbox.callbacks.filter((attempt) => attempt.orderNo === order.orderNo).map((attempt) => attempt.httpStatus)).toEqual([503, 503, 503]);
			expect(server!.executions).toHaveLength(0);
		});
	});

	describe('3. oversized bodies', () => {
		it('refuses 300,000 forged fields with 413 before reading the credential or checking any signature', async () => {
			await serve();
			const order = payout(server!.url(TRIGGER));
			sandbox.control.settle(order.orderNo, 'success');
			await lastAttemptOfOrder(order.orderNo);
			await server!.idle();
			const job = sandbox.control.attackCallback(order.orderNo, 'oversized', { fields: 300_000 });
			const final = await lastAttemptOf(job);
			await server!.idle();
			expect(final).toMatchObject({ httpStatus: 413, response: 'Rejected: the body is too large', acknowledged: false });
			expect(server!.executions).toHaveLength(1);
			expect(logsOf(job)).toMatch(/more than the 65536 a callback may have/);
		});

		it('refuses a body within the byte cap but with more than 200 fields with 413', async () => {
			await serve();
			const fields: IDataObject = { appId: APP_IDS.TZS };
			for (let index = 0; index < 201; index++) fields[`f${index}`] = 1;
			const reply = await server!.send(TRIGGER, fields);
			expect([reply.status, reply.text]).toEqual([413, 'Rejected: the body has too many fields']);
			expect(server!.executions).toHaveLength(0);
		});
	});

	describe('4. the signature in rawBody', () => {
		it('is redacted when its name is spelled \\u0073ign', async () => {
			await serve({ options: { includeRawBody: true } });
			const order = payout('http://127.0.0.1:9/unused');
			sandbox.control.settle(order.orderNo, 'success');
			const job = sandbox.control.attackCallback(order.orderNo, 'respelled', { url: server!.url(TRIGGER) });
			expect(job.payload).toContain('"\\u0073ign":');
			await lastAttemptOf(job);
			await server!.idle();
			expect(server!.executions).toHaveLength(1);
			const rawBody = String(server!.executions[0].items[0].json.rawBody);
			expect(rawBody).toContain('"\\u0073ign":"[redacted]"');
			expect(rawBody).not.toContain(String(job.body.sign).slice(0, 24));
		});
	});

	describe('5. types', () => {
		const platformKey = parsePrivateKey(TEST_KEYS.platformPrivate);
		/** A body HaiPay signed with `fields`, written as `text` (numbers unquoted where it chose). */
		function signedText(sandboxSecret: string, fields: Record<string, unknown>, write: (json: string) => string = (json) => json): string {
			return write(JSON.stringify(withSignature(fields, sandboxSecret, platformKey)));
		}
		const secret = () => String(credential(sandbox).secretKey);
		const base = callbackBody('payout', { orderId: 'BIG-1', amount: '1500', fee: '15' });

		it('emits a status sent as a string as an integer', async () => {
			await serve();
			const reply = await server!.send(TRIGGER, signedText(secret(), { ...base, orderNo: 'HPS1', status: '2' }), {
				headers: { 'Content-Type': 'application/json' },
			});
			expect(reply.text).toBe('SUCCESS');
			expect(server!.executions[0].items[0].json).toMatchObject({ status: 2, statusLabel: 'success' });
		});

		it('verifies an orderNo above 2^53 sent as a number over its exact digits, and emits the digits as a string', async () => {
			await serve();
			const digits = '12345678901234567891';
			const text = signedText(secret(), { ...base, orderNo: digits, status: 2 }, (json) => json.replace(`"${digits}"`, digits));
			expect(text).toContain(`"orderNo":${digits},`);
			const reply = await server!.send(TRIGGER, text, { headers: { 'Content-Type': 'application/json' } });
			expect([reply.status, reply.text]).toEqual([200, 'SUCCESS']);
			expect(server!.executions[0].items[0].json).toMatchObject({ orderNo: digits, status: 2 });

			// Digits that a JavaScript number rounds to the same value are another order: refused.
			const changed = text.replace(`"orderNo":${digits}`, '"orderNo":12345678901234567890');
			const forged = await server!.send(TRIGGER, changed, { headers: { 'Content-Type': 'application/json' } });
			expect(forged.status).toBe(401);
			expect(server!.executions).toHaveLength(1);
		});

		it('never emits unsigned empty fields under the names of Object.prototype members, and emits other empty ones as ""', async () => {
			await serve();
			const text = signedText(secret(), { ...base, orderNo: 'HPP1', status: 2 }, (json) =>
				json.replace('{', '{"constructor":null,"toString":"","hasOwnProperty":"","__proto__":null,"valueOf":"","remark":null,'),
			);
			const reply = await server!.send(TRIGGER, text, { headers: { 'Content-Type': 'application/json' } });
			expect(reply.text).toBe('SUCCESS');
			const json = server!.executions[0].items[0].json;
			for (const name of ['constructor', 'toString', 'hasOwnProperty', '__proto__', 'valueOf']) {
				expect(Object.prototype.hasOwnProperty.call(json, name)).toBe(false);
			}
			expect(json.remark).toBe('');
			expect(Object.getPrototypeOf(json)).toBe(Object.prototype);
		});
	});
});
