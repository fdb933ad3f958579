/**
 * Subscription → Create, Get and Cancel through real n8n-core executions against the sandbox over HTTP: rules checked
 * before signing and by the sandbox's own schema; a create and a cancel sent once; a lying, an echoing and a slow
 * answer settled by the subscription query, never by a resend; a subscription found unchanged never called cancelled.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { Sandbox } from '../../sandbox';
import { SUBSCRIPTION } from '../fixtures/bodies';
import { until } from '../sandbox/helpers';
import { NODE, runNode, sandboxPerFile, uniqueOrderId } from './helpers';

const running = sandboxPerFile({ manual: true, hangMs: 4_000 });
let sandbox: Sandbox;

beforeAll(() => {
	sandbox = running();
});

const keepGoing = { onError: 'continueRegularOutput' };

function createParameters(
	subscriptionOrderId: string,
	overrides: IDataObject = {},
	options: IDataObject = {},
): INodeParameters {
	return {
		resource: 'subscription',
		operation: 'create',
		currency: 'USD',
		subscriptionOrderId,
		...SUBSCRIPTION,
		...overrides,
		options: { timeout: 1500, resolveWithin: 8, ...options },
	} as INodeParameters;
}

async function run(parameters: INodeParameters): Promise<IDataObject> {
	const result = await runNode(sandbox, { currency: 'USD', parameters, settings: keepGoing });
	return result.jsonOf(NODE)[0];
}

const applies = (id: string) =>
	sandbox.requests.filter(
		(request) =>
			request.path === '/subscription/apply' && (request.body as IDataObject | undefined)?.subscriptionOrderId === id,
	);
const subscriptionOf = (id: string) => sandbox.subscriptions.filter((sub) => sub.subscriptionOrderId === id);

describe('a subscription created, read and cancelled', () => {
	it("Create answers HaiPay's subscriptionNo, Get finds it by either number, Cancel proves the cancel by its signed answer", async () => {
		const id = uniqueOrderId('SUB');
		const made = await run(createParameters(id));
		const [sub] = subscriptionOf(id);
		expect(made).toMatchObject({
			outcome: 'accepted',
			verified: true,
			subscriptionNo: sub.subscriptionNo,
			subscriptionOrderId: id,
			status: '2',
			recurringIntervalCount: 1,
		});
		// HaiPay's pages show two subscription statuses, each in one answer: "2" in apply's, "4" in cancel's.
		expect(made).toMatchObject({ statusLabel: 'created' });
		expect(String(made.nextStep)).toMatch(/^HaiPay’s answer gives no payUrl or clientToken: the subscriber authorizes/);
		expect(applies(id)[0].body).toMatchObject({ recurringIntervalCount: 1, amount: '9.99', payType: 'SUBSCRIPTION' });

		const byId = await run({ resource: 'subscription', operation: 'get', currency: 'USD', subscriptionOrderId: id });
		expect(byId).toMatchObject({ subscriptionNo: sub.subscriptionNo, status: '2', verified: true });

		const cancelled = await run({
			resource: 'subscription',
			operation: 'cancel',
			currency: 'USD',
			subscriptionNo: sub.subscriptionNo,
			options: {},
		});
		expect(cancelled).toMatchObject({
			outcome: 'changed',
			status: '4',
			statusLabel: 'cancelled',
			subscriptionNo: sub.subscriptionNo,
			verified: true,
		});
		expect(sub.status).toBe('4');
	});

	it('refuses a broken row before signing: interval, count and amount, each named', async () => {
		const id = uniqueOrderId('SUB');
		const out = await run(createParameters(id, { recurringInterval: 'Q', recurringIntervalCount: '0', amount: '9.9' }));
		expect(out.outcome ?? out.error).toBeDefined();
		expect(JSON.stringify(out)).toMatch(/recurringInterval/);
		expect(JSON.stringify(out)).toMatch(/recurringIntervalCount/);
		expect(applies(id)).toHaveLength(0);
	});
});

describe('what a subscription item says', () => {
	it("names the subscriber's next step by what HaiPay's answer gives: its payUrl, else its clientToken", async () => {
		const withUrl = uniqueOrderId('SUB');
		const data = (id: string, extra: IDataObject) => ({
			subscriptionOrderId: id,
			subscriptionNo: `40${Date.now()}`,
			status: '2',
			...extra,
		});
		sandbox.control.addFault({
			type: 'replaceData',
			path: '/subscription/apply',
			times: 1,
			data: data(withUrl, { payUrl: 'https://pay.example/sub/1' }),
		});
		expect(await run(createParameters(withUrl))).toMatchObject({
			outcome: 'accepted',
			statusLabel: 'created',
			nextStep: expect.stringMatching(/^Send the subscriber to payUrl/),
		});
		const withToken = uniqueOrderId('SUB');
		sandbox.control.addFault({
			type: 'replaceData',
			path: '/subscription/apply',
			times: 1,
			data: data(withToken, { clientToken: 'ct_1' }),
		});
		expect(await run(createParameters(withToken))).toMatchObject({
			outcome: 'accepted',
			nextStep: expect.stringMatching(/^Show HaiPay’s payment component to the subscriber with clientToken/),
		});
	});

	it('a cancel of a subscription already cancelled says so: duplicate, not a change, once the query shows it cancelled', async () => {
		const id = uniqueOrderId('SUB');
		await run(createParameters(id));
		const [sub] = subscriptionOf(id);
		const cancel = {
			resource: 'subscription',
			operation: 'cancel',
			currency: 'USD',
			subscriptionNo: sub.subscriptionNo,
		};
		expect(await run({ ...cancel, options: {} })).toMatchObject({ outcome: 'changed', statusLabel: 'cancelled' });
		const again = await run({ ...cancel, options: { resolveWithin: 8 } });
		expect(again).toMatchObject({ outcome: 'duplicate' });
		expect(String(again.error)).toMatch(/already cancelled.*HaiPay's signed query shows it/);
	});

	it('an unsigned "already cancelled" of a subscription the query shows active is not believed: unknown', async () => {
		const id = uniqueOrderId('SUB');
		await run(createParameters(id));
		const [sub] = subscriptionOf(id);
		sandbox.control.addFault({
			type: 'statusZero',
			path: '/subscription/cancel',
			times: 1,
			code: '4011',
			msg: `subscription ${sub.subscriptionNo} is already cancelled`,
		});
		const out = await run({
			resource: 'subscription',
			operation: 'cancel',
			currency: 'USD',
			subscriptionNo: sub.subscriptionNo,
			options: { resolveWithin: 3 },
		});
		expect(out.outcome).toBe('unknown');
		expect(sub.status).toBe('2');
	});
});

describe('hostile answers to a create, settled by the subscription query', () => {
	it('a lying answer (signed, another subscriptionOrderId) is not an acceptance: the query shows the real one', async () => {
		const id = uniqueOrderId('SUB');
		sandbox.control.addFault({
			type: 'replaceData',
			path: '/subscription/apply',
			times: 1,
			data: { subscriptionOrderId: 'SUB-SOMEONE-ELSE', subscriptionNo: '4099', status: '2' },
		});
		const out = await run(createParameters(id));
		expect(out).toMatchObject({
			outcome: 'accepted',
			resolvedBy: 'query',
			subscriptionNo: subscriptionOf(id)[0].subscriptionNo,
		});
		expect(applies(id)).toHaveLength(1);
	});

	it('an answer echoing the request (no subscriptionNo) is not an acceptance; the query settles it, nothing resent', async () => {
		const id = uniqueOrderId('SUB');
		sandbox.control.addFault({
			type: 'replaceData',
			path: '/subscription/apply',
			times: 1,
			data: { subscriptionOrderId: id, amount: '9.99', recurringInterval: 'M' },
		});
		const out = await run(createParameters(id));
		expect(out).toMatchObject({ outcome: 'accepted', resolvedBy: 'query' });
		expect(applies(id)).toHaveLength(1);
	});

	it('a slow answer past the time-out is waited for by the query, never called not_found, never resent', async () => {
		const id = uniqueOrderId('SUB');
		sandbox.control.addFault({ type: 'latency', when: 'before', path: '/subscription/apply', times: 1, ms: 2_500 });
		const out = await run(createParameters(id));
		expect(out).toMatchObject({ outcome: 'accepted', resolvedBy: 'query' });
		expect(subscriptionOf(id)).toHaveLength(1);
		// The sandbox logs the late request once its signed answer is out, which can be after the query found the
		// subscription: wait for the log, not for a time.
		await until(() => applies(id).length > 0);
		expect(applies(id)).toHaveLength(1);
	});

	it('a create lost before HaiPay took it stays unknown (no "no such subscription" is published)', async () => {
		const id = uniqueOrderId('SUB');
		sandbox.control.addFault({ type: 'drop', when: 'before', path: '/subscription/apply', times: 1 });
		const out = await run(createParameters(id, {}, { resolveWithin: 3 }));
		expect(out.outcome).toBe('unknown');
		expect(subscriptionOf(id)).toHaveLength(0);
	});
});

describe('a cancel whose answer proves nothing', () => {
	it('a cancel answer that shows the subscription unchanged is never "changed": the query finds it unchanged, so unknown', async () => {
		const id = uniqueOrderId('SUB');
		await run(createParameters(id));
		const [sub] = subscriptionOf(id);
		sandbox.control.addFault({
			type: 'replaceData',
			path: '/subscription/cancel',
			times: 1,
			data: { subscriptionNo: sub.subscriptionNo, status: '2' },
		});
		sandbox.control.addFault({
			type: 'replaceData',
			path: '/subscription/query',
			data: { subscriptionNo: sub.subscriptionNo, subscriptionOrderId: id, status: '2' },
			times: 20,
		});
		const out = await run({
			resource: 'subscription',
			operation: 'cancel',
			currency: 'USD',
			subscriptionNo: sub.subscriptionNo,
			options: { resolveWithin: 3 },
		});
		expect(out.outcome).toBe('unknown');
		expect(
			sandbox.requests.filter(
				(request) =>
					request.path === '/subscription/cancel' &&
					(request.body as IDataObject | undefined)?.subscriptionNo === sub.subscriptionNo,
			),
		).toHaveLength(1);
	});

	it('a cancel whose answer is lost is settled "changed" only when the query shows the cancelled state', async () => {
		const id = uniqueOrderId('SUB');
		await run(createParameters(id));
		const [sub] = subscriptionOf(id);
		sandbox.control.addFault({ type: 'drop', when: 'after', path: '/subscription/cancel', times: 1 });
		const out = await run({
			resource: 'subscription',
			operation: 'cancel',
			currency: 'USD',
			subscriptionNo: sub.subscriptionNo,
			options: { resolveWithin: 8 },
		});
		expect(out).toMatchObject({ outcome: 'changed', resolvedBy: 'query', status: '4' });
	});

	it('a query answer naming the subscriptionNo with spaces around it is about another subscription: unknown', async () => {
		const id = uniqueOrderId('SUB');
		await run(createParameters(id));
		const [sub] = subscriptionOf(id);
		sandbox.control.addFault({ type: 'drop', when: 'after', path: '/subscription/cancel', times: 1 });
		const padded = { subscriptionNo: ` ${sub.subscriptionNo} `, subscriptionOrderId: id, status: '4' };
		sandbox.control.addFault({ type: 'replaceData', path: '/subscription/query', data: padded, times: 20 });
		const out = await run({
			resource: 'subscription',
			operation: 'cancel',
			currency: 'USD',
			subscriptionNo: sub.subscriptionNo,
			options: { resolveWithin: 3 },
		});
		expect(out.outcome).toBe('unknown');
		expect(String(out.error)).toContain(`the answer is about the subscriptionNo "${padded.subscriptionNo}"`);
	});
});

describe('one run, one subscription', () => {
	const twoItems = async (parameters: INodeParameters) =>
		(await runNode(sandbox, { currency: 'USD', parameters, settings: keepGoing, items: [{}, {}] })).jsonOf(NODE);

	it('a subscriptionOrderId repeated in a run is refused unsent, in the words of a subscriptionOrderId', async () => {
		const id = uniqueOrderId('SUB');
		const [first, second] = await twoItems(createParameters(id));
		expect(first).toMatchObject({ outcome: 'accepted' });
		expect(second).toMatchObject({ outcome: 'invalid', field: 'subscriptionOrderId', rule: 'unique' });
		expect(String(second.error)).toMatch(/HaiPay takes a subscriptionOrderId once/);
		expect(String(second.error)).not.toMatch(/orderId\b(?<!subscriptionOrderId)/);
		expect(applies(id)).toHaveLength(1);
	});

	it('a subscriptionNo cancelled twice in a run: the second is refused unsent, in the words of a subscriptionNo', async () => {
		const id = uniqueOrderId('SUB');
		await run(createParameters(id));
		const [sub] = subscriptionOf(id);
		const [first, second] = await twoItems({
			resource: 'subscription',
			operation: 'cancel',
			currency: 'USD',
			subscriptionNo: sub.subscriptionNo,
			options: {},
		});
		expect(first).toMatchObject({ outcome: 'changed' });
		expect(second).toMatchObject({ outcome: 'invalid', field: 'subscriptionNo', rule: 'unique' });
		expect(String(second.error)).toMatch(/subscription is cancelled once/);
		expect(String(second.error)).not.toMatch(/orderId/);
	});

	it("the sandbox answers a subscription it does not have with its own code, not a refund's", async () => {
		const out = await run({ resource: 'subscription', operation: 'get', currency: 'USD', subscriptionNo: '40999999' });
		expect(out).toMatchObject({ errorCode: '4014', gatewayMessage: 'subscription does not exist' });
	});
});

describe("the sandbox's charge route", () => {
	const charge = async (body: IDataObject) => {
		const response = await fetch(`${sandbox.baseUrl}/__sandbox/subscriptions/charge`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(body),
		});
		return { status: response.status, json: (await response.json()) as IDataObject };
	};

	it('charges an active subscription, signed, each charge its own orderNo; refuses unknown (404), a bad status (400), a cancelled one (409)', async () => {
		const id = uniqueOrderId('SUB');
		await run(createParameters(id));
		const [sub] = subscriptionOf(id);
		const url = 'http://127.0.0.1:9/charges';
		const first = await charge({ subscriptionNo: sub.subscriptionNo, url });
		const second = await charge({ subscriptionNo: sub.subscriptionNo, status: 3, url });
		expect(first).toMatchObject({
			status: 200,
			json: {
				url,
				body: {
					subscriptionNo: sub.subscriptionNo,
					subscriptionOrderId: id,
					orderNo: `${sub.subscriptionNo}-1`,
					status: 2,
					amount: '9.99',
				},
			},
		});
		expect((first.json.body as IDataObject).sign).toEqual(expect.any(String));
		expect(second.json.body).toMatchObject({
			orderNo: `${sub.subscriptionNo}-2`,
			status: 3,
			errorMsg: expect.any(String),
		});
		expect((await charge({ subscriptionNo: 'NO-SUCH' })).status).toBe(404);
		expect((await charge({ subscriptionNo: sub.subscriptionNo, status: 5 })).status).toBe(400);
		await run({
			resource: 'subscription',
			operation: 'cancel',
			currency: 'USD',
			subscriptionNo: sub.subscriptionNo,
			options: {},
		});
		expect((await charge({ subscriptionNo: sub.subscriptionNo, url })).status).toBe(409);
	});
});
