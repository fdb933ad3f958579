/**
 * A callback no query can settle whose deciding fields are in doubt (issue 41, point 1, narrowed to the real danger):
 * a declined subscription charge carries an errorMsg and no orderId, so its orderNo could be the end of that text.
 * It runs once, `confirmed: false`, every deciding field in doubt left off the item and named in `unproven`; its
 * re-splits are that result again. A product with a query still settles such a doubt by asking HaiPay. First, that
 * decidingDoubts (shared/signing/readings.ts) names every deciding field any reading HaiPay could sign would change.
 */
import type { IDataObject } from 'n8n-workflow';

import { CALLBACK_READINGS, PRODUCT_FIELDS } from '../../nodes/shared/contract/callback';
import { CASHIER_APP_ID } from '../../sandbox/merchants';
import { canonicalFields, canonicalString } from '../../nodes/shared/signing/canonical';
import { decidingDoubts } from '../../nodes/shared/signing/readings';
import { APP_IDS, callbackBody } from '../fixtures/bodies';
import { random, readingsOf, type Body } from '../helpers/readings';
import { withSignature } from '../helpers/signing';
import type { WebhookServer } from '../harness';
import { signedByPlatform } from './callbacks';
import { fakeGateway, type FakeGateway } from './fake-gateway';
import {
	credentialFor,
	nextId,
	outcomeTrigger,
	PLATFORM_KEY,
	SECRET,
	signedAnswer,
	type Fields,
} from './outcome-setup';
import { sandboxTrigger } from './sandbox-trigger';
import { TRIGGER, usdTriggerPerDescribe } from './usd-trigger';

const SHAPE = CALLBACK_READINGS;

const TEXT_NAMES = ['errorMsg', 'bankName', 'orderMemo', 'remark', 'zz'];
const OPTIONAL = ['refundNo', 'tokenID', 'fee', 'payTime', 'subscriptionNo', 'subscriptionOrderId', ...TEXT_NAMES];
const PIECES = ['&status=2', '&orderId=X', '&orderNo=N', '&amount=5', '&currency=USD', '&subscriptionNo=S'];
const MORE = [
	'&ra=x',
	'&pa=x',
	'&refundNo=R',
	'&tokenID=T',
	'&zz=w',
	'&fee=0',
	'&errorMsg=e',
	'&payTime=p',
	'&',
	'=',
	'v',
];

function generated(next: () => number): Body {
	const pick = <T>(from: T[]) => from[Math.floor(next() * from.length)];
	const text = () =>
		`t${Array.from({ length: 1 + Math.floor(next() * 4) }, () => pick([...PIECES, ...MORE])).join('')}`;
	const body: Body = { appId: '1', currency: 'USD', orderId: 'PO', orderNo: 'HP', amount: '10', status: '3' };
	for (const name of OPTIONAL) if (next() < 0.35) body[name] = TEXT_NAMES.includes(name) ? text() : 'v';
	if (next() < 0.2) body[pick(Object.keys(body))] = text();
	return body;
}

describe('decidingDoubts names every deciding field a reading changes, not only the first', () => {
	it('for generated bodies, and each lacking any one field (a charge has no orderId), against every reading', () => {
		const next = random(20261206);
		let [changed, several] = [0, 0];
		for (let count = 0; count < 500; count++) {
			const full = generated(next);
			for (const body of [full, ...Object.keys(full).map((name) => ({ ...full, [name]: '' }))]) {
				const present = Object.fromEntries(Object.entries(body).filter(([, value]) => value !== ''));
				const named = new Set(decidingDoubts(present, SHAPE).map((doubt) => doubt.field));
				const moved = new Set<string>();
				for (const reading of readingsOf(canonicalFields(present), { shape: SHAPE, carried: SHAPE.carried }))
					for (const name of SHAPE.deciding) if (reading[name] !== present[name]) moved.add(name);
				expect([present, moved.size > 0 && named.size === 0]).toEqual([present, false]);
				// A carried field or one naming the product in doubt holds the callback whatever else is: only otherwise
				// must every field that moves be named, and what no mark names is then the same in every reading.
				if ([...named].some((name) => SHAPE.carried.has(name) || PRODUCT_FIELDS.has(name))) continue;
				expect([present, [...moved].filter((name) => !named.has(name))]).toEqual([present, []]);
				if (moved.size > 0) changed += 1;
				if (moved.size > 1) several += 1;
			}
		}
		// The generator reaches the cases it is for, several fields in doubt at once among them.
		expect([changed, several]).toEqual([expect.any(Number), expect.any(Number)]);
		expect([changed > 300, several > 50]).toEqual([true, true]);
	});

	it('a charge whose errorMsg could absorb its orderNo, and the re-split that did, both name the orderNo', () => {
		const genuine = { appId: '1', amount: '9.99', errorMsg: 'card declined', orderNo: 'S1-1', status: '3' };
		const resplit = { appId: '1', amount: '9.99', errorMsg: 'card declined&orderNo=S1-1', status: '3' };
		expect(canonicalFields(resplit)).toBe(canonicalFields(genuine));
		for (const body of [genuine, resplit])
			expect(decidingDoubts({ ...body, subscriptionNo: 'S1' }, SHAPE).map((doubt) => doubt.field)).toEqual(['orderNo']);
	});
});

const USD_SECRET = 'test-only-secret-usd';

function charge(overrides: IDataObject = {}): Record<string, unknown> {
	const body = {
		appId: APP_IDS.USD,
		currency: 'USD',
		subscriptionNo: 'S700',
		subscriptionOrderId: 'SUB-7',
		orderNo: 'S700-1',
		amount: '9.99',
		status: 3,
		payTime: '2026-03-01 00:00:00',
		...overrides,
	};
	return signedByPlatform(body, USD_SECRET);
}

/** The same signature over the charge with `errorMsg` absorbing its orderNo: the string HaiPay signed is unchanged. */
function absorbed(signed: Record<string, unknown>): Record<string, unknown> {
	const copy: Record<string, unknown> = {
		...signed,
		errorMsg: `${String(signed.errorMsg)}&orderNo=${String(signed.orderNo)}`,
	};
	delete copy.orderNo;
	expect(canonicalString(copy, USD_SECRET)).toBe(canonicalString(signed, USD_SECRET));
	return copy;
}

describe('a declined subscription charge reaches the workflow without what no query can prove', () => {
	const serve = usdTriggerPerDescribe().serve;
	let server: WebhookServer;

	it.each([false, true])(
		'Confirm With HaiPay %s: runs once, confirmed false, orderNo left out and named unproven; its re-splits are repeats',
		async (confirm) => {
			server = await serve({ kind: 'subscription', ...(confirm ? { options: { confirmWithHaiPay: true } } : {}) });
			const genuine = charge({ errorMsg: 'card declined', orderNo: `S700-${String(confirm)}` });
			const reply = await server.send(TRIGGER, genuine);
			expect([reply.status, reply.text]).toEqual([200, 'SUCCESS']);
			expect(server.executions).toHaveLength(1);
			const item = server.executions[0].items[0].json;
			expect(item).toMatchObject({
				kind: 'subscription',
				subscriptionNo: 'S700',
				status: 3,
				statusGroup: 'failed',
				errorMsg: 'card declined',
				confirmed: false,
				unproven: ['orderNo'],
			});
			expect(item).not.toHaveProperty('orderNo');
			expect(String(item.dedupKey)).not.toContain(String(genuine.orderNo));
			expect(String(item.unconfirmedWhy)).toMatch(/other orderNo, so the item leaves them out \(unproven\)/);
			// The re-split whose errorMsg holds the orderNo, and the genuine body again: one result, one run.
			const resplit = absorbed(genuine);
			expect((await server.send(TRIGGER, resplit)).text).toBe('SUCCESS');
			expect((await server.send(TRIGGER, genuine)).text).toBe('SUCCESS');
			expect(server.executions).toHaveLength(1);
		},
	);

	it('the re-split arriving first runs, and the genuine body after it is its repeat', async () => {
		server = await serve({ kind: 'subscription' });
		const genuine = charge({ errorMsg: 'card declined', orderNo: 'S700-9', payTime: '2026-03-09 00:00:00' });
		expect((await server.send(TRIGGER, absorbed(genuine))).text).toBe('SUCCESS');
		expect((await server.send(TRIGGER, genuine)).text).toBe('SUCCESS');
		expect(server.executions).toHaveLength(1);
		const item = server.executions[0].items[0].json;
		expect(item).toMatchObject({ unproven: ['orderNo'], confirmed: false, errorMsg: 'card declined&orderNo=S700-9' });
		expect(item).not.toHaveProperty('orderNo');
	});

	it('another declined charge of the subscription (another payTime) is its own run', async () => {
		server = await serve({ kind: 'subscription' });
		await server.send(TRIGGER, charge({ errorMsg: 'card declined', orderNo: 'S700-3' }));
		await server.send(
			TRIGGER,
			charge({ errorMsg: 'card declined', orderNo: 'S700-4', payTime: '2026-04-01 00:00:00' }),
		);
		expect(server.executions).toHaveLength(2);
	});

	it('a paid charge without errorMsg is unchanged: its orderNo shown, nothing unproven', async () => {
		server = await serve({ kind: 'subscription' });
		expect((await server.send(TRIGGER, charge({ status: 2, orderNo: 'S700-5' }))).text).toBe('SUCCESS');
		const item = server.executions[0].items[0].json;
		expect(item).toMatchObject({ orderNo: 'S700-5', statusGroup: 'success' });
		expect(item).not.toHaveProperty('unproven');
		expect(item).not.toHaveProperty('confirmed');
	});
});

describe('a payout with the same doubt still settles by query', () => {
	const trigger = outcomeTrigger();
	let gateway: FakeGateway | undefined;
	afterEach(async () => {
		await gateway?.close();
		gateway = undefined;
	});

	it("an orderNo that could end the text before it: 503 until HaiPay's answer proves it, then one run, confirmed", async () => {
		const id = nextId('UP');
		const base: Fields = callbackBody('payout', { orderId: id, orderNo: `HP${id}`, status: 3 });
		// orderMemo sorts between orderId and orderNo: no carried field stops the join, as errorMsg in a charge.
		const signed = withSignature({ ...base, orderMemo: 'declined' }, SECRET, PLATFORM_KEY);
		let status = 1;
		gateway = await fakeGateway((query, res) =>
			signedAnswer({ orderId: id, orderNo: base.orderNo, amount: base.amount, status })(query, res),
		);
		await trigger.serve({ kind: 'payout' }, credentialFor(gateway.baseUrl, APP_IDS.TZS, 'TZS'));
		// HaiPay still shows the payout in progress: not proven yet, HaiPay sends it again.
		expect((await trigger.server.send(TRIGGER, signed)).status).toBe(503);
		expect(trigger.server.executions).toHaveLength(0);
		status = 3;
		expect((await trigger.server.send(TRIGGER, signed)).text).toBe('SUCCESS');
		expect(gateway.queries.length).toBeGreaterThan(1);
		const item = trigger.server.executions[0].items[0].json;
		expect(item).toMatchObject({ confirmed: true, orderNo: base.orderNo });
		expect(item).not.toHaveProperty('unproven');
	});
});

describe('a cashier collection without orderId whose orderNo is in doubt', () => {
	const trigger = sandboxTrigger({ callbackTimeoutMs: 10_000, prefix: 'UNPROVEN-CB' });
	const [cashierId] = CASHIER_APP_ID;
	const cashierSecret = 'test-only-secret-cashier';

	it('runs once keyed by the signed text (no order is left to key it by); its re-split and resend are repeats', async () => {
		const server = await trigger.serve({}, APP_IDS.TZS, undefined, {
			otherCurrencies: ['CASHIER'],
			appIdCashier: cashierId,
			secretKeyCashier: cashierSecret,
		});
		const fields = { appId: cashierId, currency: 'CASHIER', amount: '19.99', status: 3, errorMsg: 'card declined' };
		const genuine = signedByPlatform({ ...fields, orderNo: 'HPCASH-UNPROVEN-1' }, cashierSecret);
		const resplit: Record<string, unknown> = { ...genuine, errorMsg: 'card declined&orderNo=HPCASH-UNPROVEN-1' };
		delete resplit.orderNo;
		expect(canonicalString(resplit, cashierSecret)).toBe(canonicalString(genuine, cashierSecret));
		expect((await server.send(TRIGGER, genuine)).text).toBe('SUCCESS');
		expect((await server.send(TRIGGER, resplit)).text).toBe('SUCCESS');
		expect((await server.send(TRIGGER, genuine)).text).toBe('SUCCESS');
		expect(server.executions).toHaveLength(1);
		const item = server.executions[0].items[0].json;
		expect(item).toMatchObject({ kind: 'collection', confirmed: false, unproven: ['orderNo'] });
		expect(item).not.toHaveProperty('orderNo');
		expect(String(item.dedupKey)).toMatch(/^signed:[0-9a-f]{32}$/);
	});
});
