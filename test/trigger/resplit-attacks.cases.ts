/**
 * Re-split replays against the HaiPay Trigger, over real HTTP into n8n-core's webhook machinery: someone holding
 * one genuine signed callback sends the same signed string cut at other `&` (test/unit/readings-search.test.ts
 * finds every such reading). Whatever they send must not make a run act on another order, status, amount, currency,
 * refund or token: such a body goes to HaiPay's query (here unreachable, so 503 and no run). Re-splits that change
 * only free text still run once, and are recognised as repeats of the genuine result.
 */
import { NOT_YET } from '../../nodes/HaiPayTrigger/reply';
import { canonicalFields } from '../../nodes/shared/signing/canonical';
import { APP_IDS } from '../fixtures/bodies';
import {
	credentials,
	deliver,
	expectAcknowledgedOnly,
	expectEmitted,
	freshOrder,
	payoutCallback,
	sharedTriggers,
	signedByPlatform,
	type Delivery,
} from './callbacks';

const trigger = sharedTriggers();
// HaiPay's query cannot be reached: a callback in doubt is never settled, so it never runs.
const unreachable = credentials({ baseUrl: 'http://127.0.0.1:9' });
const usd = credentials({ baseUrl: 'http://127.0.0.1:9', appId: APP_IDS.USD, currency: 'USD' });

/** `replayed` carries the genuine signature, and signs exactly like the genuine body: a re-split of it. */
function resplit(genuine: Record<string, unknown>, replayed: Record<string, unknown>): Record<string, unknown> {
	expect(canonicalFields(replayed)).toBe(canonicalFields(genuine));
	return { ...replayed, sign: genuine.sign };
}

function expectNotRun(outcome: Delivery, why: RegExp): void {
	expect([outcome.reply.status, outcome.reply.text]).toEqual([503, NOT_YET]);
	expect(outcome.executions).toHaveLength(0);
	expect(outcome.logs.find((line) => line.level === 'warn' && line.message.includes('503'))?.message).toMatch(why);
}

describe('HaiPay Trigger: re-splits that join fields and split them again', () => {
	it("a failed payout whose added remark holds an order of the sender's choosing cannot be replayed as that order's success", async () => {
		const order = freshOrder();
		const remark = `w&fee=0.00&orderId=VICTIM-${order.orderId}&orderNo=HPVICTIM&status=2&zz=x`;
		const genuine = signedByPlatform(
			payoutCallback({ ...order, status: 3, payTime: undefined, errorMsg: 'declined', remark }),
		);
		// errorMsg swallows the real fee, order and remark; the remark's text becomes the fields.
		const replayed = resplit(genuine, {
			amount: genuine.amount,
			appId: genuine.appId,
			currency: 'TZS',
			errorMsg: `declined&fee=15.00&orderId=${order.orderId}&orderNo=${order.orderNo}&remark=w`,
			fee: '0.00',
			orderId: `VICTIM-${order.orderId}`,
			orderNo: 'HPVICTIM',
			status: 2,
			zz: 'x&status=3',
		});
		const server = await trigger({ kind: 'payout' }, unreachable);
		// The genuine one is in doubt too (its remark could end in a status): only HaiPay's query can tell them apart.
		expectNotRun(await deliver(server, genuine), /remark could be read as ending in a field (orderId|orderNo|status)/);
		expectNotRun(await deliver(server, replayed), /errorMsg could be read as ending in a field orderId/);
	});

	it("a failed collection whose errorMsg holds the sender's text cannot be replayed with another amount, order and status", async () => {
		const order = freshOrder('MIT');
		const errorMsg = `w&amount=99999.00&appId=${APP_IDS.USD}&currency=USD&fee=0&orderId=VICTIM&orderNo=HPCV&status=2&zz=x`;
		const body = {
			appId: APP_IDS.USD,
			currency: 'USD',
			...order,
			actualAmount: '10.00',
			amount: '10.00',
			fee: '0.30',
			status: 3,
			errorMsg,
		};
		const genuine = signedByPlatform(body);
		// actualAmount, which decides nothing, swallows everything up to errorMsg's text.
		const replayed = resplit(genuine, {
			actualAmount: `10.00&amount=10.00&appId=${APP_IDS.USD}&currency=USD&errorMsg=w`,
			amount: '99999.00',
			appId: APP_IDS.USD,
			currency: 'USD',
			fee: '0',
			orderId: 'VICTIM',
			orderNo: 'HPCV',
			status: 2,
			zz: `x&fee=0.30&orderId=${order.orderId}&orderNo=${order.orderNo}&status=3`,
		});
		expectNotRun(
			await deliver(await trigger({ kind: 'collection' }, usd), replayed),
			/actualAmount could be read as ending in a field amount/,
		);
	});
});

describe('HaiPay Trigger: re-splits that add a refund number or a card token the genuine callback lacked', () => {
	it('a payout whose added reason ends in &refundNo= is settled by the query, and so is its split copy', async () => {
		const genuine = signedByPlatform(payoutCallback({ ...freshOrder(), reason: 'bank&refundNo=R-EVIL' }));
		const replayed = resplit(genuine, { ...genuine, reason: 'bank', refundNo: 'R-EVIL' });
		const server = await trigger({ kind: 'either' }, unreachable);
		expectNotRun(await deliver(server, genuine), /reason could be read as ending in a field refundNo/);
		expectNotRun(await deliver(server, replayed), /refundNo could be read as the end of the text of the field reason/);
	});

	it('a collection whose added subject ends in &tokenID= cannot be replayed with that token', async () => {
		const order = freshOrder('MIT');
		const genuine = signedByPlatform({
			appId: APP_IDS.USD,
			currency: 'USD',
			...order,
			amount: '10.00',
			fee: '0.30',
			status: 2,
			payTime: '2024-05-01 10:20:30',
			subject: 'x&tokenID=tok_evil',
		});
		const replayed = resplit(genuine, { ...genuine, subject: 'x', tokenID: 'tok_evil' });
		expectNotRun(
			await deliver(await trigger({ kind: 'collection' }, usd), replayed),
			/tokenID could be read as the end of the text of the field subject/,
		);
	});

	it('a genuine card collection, its token after its status, runs once without a query', async () => {
		const genuine = signedByPlatform({
			appId: APP_IDS.USD,
			currency: 'USD',
			...freshOrder('MIT'),
			amount: '10.00',
			fee: '0.30',
			status: 2,
			payTime: '2024-05-01 10:20:30',
			tokenID: 'tok_abc',
			settledVia: 'card',
		});
		expect(expectEmitted(await deliver(await trigger({ kind: 'collection' }, usd), genuine))).toMatchObject({
			tokenID: 'tok_abc',
			unknownFields: ['settledVia'],
		});
	});
});

describe('HaiPay Trigger: re-splits that change only free text (attacks that hold)', () => {
	it('errorMsg cut short with its tail as an added field is a repeat of the genuine result: acknowledged, no second run', async () => {
		const order = freshOrder();
		const genuine = signedByPlatform(
			payoutCallback({ ...order, status: 3, payTime: undefined, errorMsg: 'declined&errorNote=call the bank' }),
		);
		const replayed = resplit(genuine, { ...genuine, errorMsg: 'declined', errorNote: 'call the bank' });
		const server = await trigger({ kind: 'payout' }, unreachable);
		const first = expectEmitted(await deliver(server, genuine));
		expectAcknowledgedOnly(await deliver(server, replayed));
		expect(first).toMatchObject({ ambiguousText: ['errorMsg'], dedupKey: `no:${order.orderNo}|3` });
	});

	it("errorMsg holding &amount= runs once (amount is the first name of the string); holding &appId= it is HaiPay's to settle", async () => {
		const server = await trigger({ kind: 'payout' }, unreachable);
		const first = signedByPlatform(
			payoutCallback({ ...freshOrder(), status: 3, payTime: undefined, errorMsg: 'x&amount=1' }),
		);
		expect(expectEmitted(await deliver(server, first))).toMatchObject({ amount: '1500.00', errorMsg: 'x&amount=1' });
		// No field is taken to be in every callback but orderId and status (issue 41): an appId could stand there.
		const app = signedByPlatform(
			payoutCallback({ ...freshOrder(), status: 3, payTime: undefined, errorMsg: 'x&appId=1' }),
		);
		expectNotRun(await deliver(server, app), /errorMsg could be read as ending in a field appId/);
	});

	/*
	 * A partially collected result (status 4) keys on its amount and payTime, which a re-split can lengthen with an
	 * added field's text; HaiPay never writes `&` in either, so the key reads them only up to the first `&`.
	 */
	it('a partial collection replayed with payTime lengthened by a re-split is a repeat: a key reads a time only up to its first &', async () => {
		const body = {
			appId: APP_IDS.USD,
			currency: 'USD',
			...freshOrder('MIT'),
			amount: '4.00',
			fee: '0.10',
			status: 4,
			payTime: '2024-05-01 10:20:30',
			payerName: 'Bob',
		};
		const genuine = signedByPlatform(body);
		const replayed = resplit(genuine, {
			...genuine,
			payTime: '2024-05-01 10:20:30&payerName=Bob',
			payerName: undefined,
		});
		const server = await trigger({ kind: 'collection' }, usd);
		expectEmitted(await deliver(server, genuine));
		expectAcknowledgedOnly(await deliver(server, replayed));
	});
});
