/**
 * What the trigger's tests send and how they read the outcome: callbacks signed as the gateway signs them, a
 * merchant credential, and delivery over real HTTP into n8n-core's webhook machinery (test/harness's
 * webhookServer), read back as the HTTP reply, the execution it started and the call's log lines.
 */
import type { ICredentialDataDecryptedObject, IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { HaiPayTrigger } from '../../nodes/HaiPayTrigger/HaiPayTrigger.node';
import { FLUSH_MS, setMemoryClock } from '../../nodes/HaiPayTrigger/memory';
import { parsePrivateKey } from '../../nodes/shared/signing/keys';
import { APP_IDS, callbackBody } from '../fixtures/bodies';
import {
	NO_OP_NODE_TYPE,
	webhookServer,
	type HttpReply,
	type LogLine,
	type WebhookCall,
	type WebhookExecution,
	type WebhookServer,
} from '../harness';
import { withSignature } from '../helpers/signing';
import { bareBase64, TEST_KEYS } from '../helpers/keys';

export const SECRET = 'test-only-secret-tzs';
export const TRIGGER = 'HaiPay Trigger';

export function credentials(overrides: Partial<ICredentialDataDecryptedObject> = {}): ICredentialDataDecryptedObject {
	return {
		environment: 'custom',
		baseUrl: 'http://127.0.0.1:8642',
		appId: APP_IDS.TZS,
		currency: 'TZS',
		secretKey: SECRET,
		privateKey: TEST_KEYS.merchantPkcs8,
		haipayPublicKey: TEST_KEYS.platformPublic,
		arrayStyle: 'json',
		...overrides,
	};
}

/** A callback as the gateway signs it: with the platform key, over every field, with the App ID's secret. */
export function signedByPlatform(body: Record<string, unknown>, secret = SECRET, key = TEST_KEYS.platformPrivate) {
	return withSignature(body, secret, parsePrivateKey(key));
}

export function payoutCallback(overrides: Record<string, unknown> = {}): Record<string, unknown> {
	return callbackBody('payout', overrides);
}

/** What the trigger adds to a verified payout callback of status 2 that carries only known fields. */
export function paidPayoutFields(orderNo: unknown): IDataObject {
	return {
		statusLabel: 'success',
		statusGroup: 'success',
		kind: 'payout',
		verified: true,
		dedupKey: `no:${String(orderNo)}|2`,
		ambiguousText: [],
		unknownFields: [],
	};
}

let orders = 0;
/** An order of its own, so that a trigger served to several tests never takes one test's callback for another's repeat. */
export function freshOrder(prefix = 'PO'): { orderId: string; orderNo: string } {
	orders += 1;
	return { orderId: `${prefix}-${orders}`, orderNo: `HP${prefix}${String(orders).padStart(6, '0')}` };
}

/** A workflow of the trigger (with `parameters`, on a credential with `data`) and a No-Op after it, served over HTTP. */
export async function serveTrigger(
	parameters: INodeParameters = {},
	data = credentials(),
	staticData?: IDataObject,
): Promise<WebhookServer> {
	return await webhookServer({
		nodeTypes: [HaiPayTrigger],
		credentials: { haipay: { type: 'haiPayApi', data } },
		nodes: [
			{ name: TRIGGER, type: 'haiPayTrigger', parameters },
			{ name: 'Next', type: NO_OP_NODE_TYPE },
		],
		staticData,
	});
}

/**
 * Servers shared by the tests of a describe block: one per parameters and credential, started on first use and
 * closed after the block. Tests on one server send orders of their own (`freshOrder`).
 */
export function sharedTriggers(): (
	parameters?: INodeParameters,
	data?: ICredentialDataDecryptedObject,
) => Promise<WebhookServer> {
	const started = new Map<string, Promise<WebhookServer>>();
	afterAll(async () => {
		for (const server of started.values()) await (await server).close();
	});
	return async (parameters = {}, data = credentials()) => {
		const key = JSON.stringify([parameters, data]);
		if (!started.has(key)) started.set(key, serveTrigger(parameters, data));
		return await (started.get(key) as Promise<WebhookServer>);
	};
}

/** One request's outcome: the HTTP reply, the call as the server recorded it, and the run it started, if any. */
export interface Delivery {
	reply: HttpReply;
	call: WebhookCall;
	logs: LogLine[];
	executions: WebhookExecution[];
	items: INodeExecutionData[];
	json: IDataObject | undefined;
}

/*
 * The repeat memory saves at most once per FLUSH_MS: a callback within FLUSH_MS of the last save waits out the rest
 * (memory.ts, saveBurst). Tests that deliver one callback after another would wait about FLUSH_MS each on a real
 * clock; on this one each delivery comes FLUSH_MS after the one before, as HaiPay's callbacks of different orders
 * may. Callbacks sent together still arrive within FLUSH_MS of each other, so a burst still waits (memory.cases.ts
 * and webhook-repeats.cases.ts see it). A test that moves the memory's clock itself sets its own in place of this.
 */
let stepped = 0;
/** The monotonic clock as it runs, whatever a test's spy on `performance.now` says. */
export const monotonicNow = performance.now.bind(performance);
/**
 * Moves the monotonic clock the trigger's answer deadline counts on (`performance.now()`) `ms` ahead until jest's mocks
 * are restored: a copy's wait or a query comes to its deadline without the test waiting 10 seconds. The memory's clock
 * below does not follow it.
 */
export const stepMonotonicClock = (ms: number) =>
	jest.spyOn(performance, 'now').mockImplementation(() => monotonicNow() + ms);
/** Moves the wall clock (`Date.now()`) `ms` (back when negative) until jest's mocks are restored. */
export function stepWallClock(ms: number) {
	const now = Date.now.bind(Date);
	return jest.spyOn(Date, 'now').mockImplementation(() => now() + ms);
}
/** Puts back the clock of the deliveries below: real time plus FLUSH_MS for each delivery so far. */
export const stepMemoryClockPerDelivery = (): number => setMemoryClock(() => monotonicNow() + stepped);
stepMemoryClockPerDelivery();

/** Posts `body` (an object as JSON, a string as given) to the trigger and waits for the run it started. */
export async function deliver(
	server: WebhookServer,
	body?: unknown,
	headers?: Record<string, string>,
): Promise<Delivery> {
	stepped += FLUSH_MS;
	const reply = await server.send(TRIGGER, body, { headers });
	const bytes =
		body === undefined ? Buffer.alloc(0) : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body), 'utf8');
	const call = [...server.calls].reverse().find((candidate) => candidate.rawBody.equals(bytes));
	if (call === undefined) throw new Error('The server recorded no call with the body sent');
	expect(call.harnessError).toBeUndefined();
	const executions = server.executions.filter((execution) => execution.call === call);
	const items = executions[0]?.items ?? [];
	return { reply, call, logs: call.logs, executions, items, json: items[0]?.json };
}

/** Material that must never appear in a log line, an answer or an output item. */
function secretsOf(sign?: unknown): string[] {
	const keyChunks = [TEST_KEYS.platformPublic, TEST_KEYS.platformPrivate, TEST_KEYS.merchantPkcs8].map((pem) =>
		bareBase64(pem).slice(60, 100),
	);
	return [SECRET, ...keyChunks, ...(typeof sign === 'string' ? [sign, sign.slice(0, 40)] : [])];
}

export function expectNoSecrets(where: unknown, sign?: unknown): void {
	const text = JSON.stringify(where);
	for (const secret of secretsOf(sign)) expect(text).not.toContain(secret);
}

/**
 * The node wrote the answer itself (`noWebhookResponse`): n8n adds its Content-Security-Policy header to every
 * answer it writes (the emission's SUCCESS among them), and to none a node wrote.
 */
export function expectNodeAnswered(outcome: Delivery): void {
	expect(outcome.reply.headers['content-type']).toMatch(/^text\/plain/);
	expect(outcome.reply.headers['content-security-policy']).toBeUndefined();
}

/** Refused with 401 in plain text, no run started, and a warning that says why. */
export function expectRejected(outcome: Delivery, logPart: RegExp): void {
	expect(outcome.reply.status).toBe(401);
	expect(outcome.reply.text).toMatch(/^Rejected: /);
	expect(outcome.reply.text).not.toBe('SUCCESS');
	expectNodeAnswered(outcome);
	expect(outcome.executions).toHaveLength(0);
	expect(outcome.call.executionId).toBeUndefined();
	const warning = outcome.logs.find((line) => line.level === 'warn');
	expect(warning?.message).toMatch(logPart);
}

/** SUCCESS, so HaiPay stops sending it, and no run. */
export function expectAcknowledgedOnly(outcome: Delivery): void {
	expect(outcome.reply.status).toBe(200);
	expect(outcome.reply.text).toBe('SUCCESS');
	expectNodeAnswered(outcome);
	expect(outcome.executions).toHaveLength(0);
	expect(outcome.call.executionId).toBeUndefined();
}

/** SUCCESS written by n8n once the run started, and the one item the trigger emitted. */
export function expectEmitted(outcome: Delivery): IDataObject {
	expect(outcome.reply.status).toBe(200);
	expect(outcome.reply.text).toBe('SUCCESS');
	expect(outcome.executions).toHaveLength(1);
	expect(outcome.items).toHaveLength(1);
	return outcome.json as IDataObject;
}
