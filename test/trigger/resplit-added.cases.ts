/**
 * Round 4 of the callback attacks (issue 41, point 1): a re-split that adds a deciding field the genuine body lacked.
 * HaiPay publishes no payout callback, so nothing but the orderId and the status is taken to be in every callback: a
 * currency, an amount, an orderNo or a card token present in one reading of the signed text and absent in another is
 * in doubt, and only HaiPay's signed query settles it (Confirm With HaiPay off or on). A deciding field that HaiPay's
 * answer does not carry is dropped from the item, never kept under `confirmed: true`, and a re-split and its genuine
 * body are one result, keyed as HaiPay's answer names the order. Over real HTTP into n8n-core's webhook machinery,
 * with a fake HaiPay answering the trigger's queries.
 */
import { canonicalString } from '../../nodes/shared/signing/canonical';
import { APP_IDS, callbackBody } from '../fixtures/bodies';
import { withSignature } from '../helpers/signing';
import { fakeGateway, type Answering, type FakeGateway } from './fake-gateway';
import {
	credentialFor,
	nextId,
	outcomeTrigger,
	PLATFORM_KEY,
	SECRET,
	signedAnswer,
	TRIGGER,
	type Fields,
} from './outcome-setup';

describe('HaiPay Trigger: a re-split cannot add a deciding field the genuine body lacked', () => {
	const trigger = outcomeTrigger();
	let gateway: FakeGateway | undefined;
	afterEach(async () => {
		await gateway?.close();
		gateway = undefined;
	});

	/** A trigger (Confirm With HaiPay off unless asked) whose HaiPay answers every query as `answering` does. */
	async function serve(answering: Answering, kind = 'payout', confirm = false) {
		gateway = await fakeGateway(answering);
		const [appId, currency] = kind === 'collection' ? [APP_IDS.USD, 'USD'] : [APP_IDS.TZS, 'TZS'];
		const parameters = { kind, ...(confirm ? { options: { confirmWithHaiPay: true } } : {}) };
		return await trigger.serve(parameters, credentialFor(gateway.baseUrl, appId, currency));
	}

	/** The genuine body, signed, and its re-split: the same signature over `split` in place of `genuine`'s fields. */
	function pair(base: Fields, genuine: Fields, split: Fields): { signed: Fields; resplit: Fields } {
		const signed = withSignature({ ...base, ...genuine }, SECRET, PLATFORM_KEY);
		const resplit = { ...base, ...split, sign: signed.sign };
		expect(canonicalString(resplit, SECRET)).toBe(canonicalString(signed, SECRET));
		return { signed, resplit };
	}

	const send = async (body: Fields) => await trigger.server.send(TRIGGER, body);
	const payout = (overrides: Fields = {}) => {
		const id = nextId('RA');
		return callbackBody('payout', { orderId: id, orderNo: `HP${id}`, status: 2, ...overrides });
	};

	it('a currency split out of a bank name is not emitted: HaiPay decides, so only the genuine body runs', async () => {
		const base = payout();
		delete base.currency;
		const { signed, resplit } = pair(base, { bankName: 'CRDB&currency=USD' }, { bankName: 'CRDB', currency: 'USD' });
		const answer = { orderId: base.orderId, orderNo: base.orderNo, amount: '1500.00', status: 2 };
		await serve(signedAnswer(answer));
		// The re-split's USD names a path the TZS App ID cannot ask: no trusted answer, 503, no run.
		expect((await send(resplit)).status).toBe(503);
		expect(trigger.server.executions).toHaveLength(0);
		expect((await send(signed)).text).toBe('SUCCESS');
		expect(trigger.server.executions).toHaveLength(1);
		const item = trigger.server.executions[0].items[0].json;
		expect(item).not.toHaveProperty('currency');
		expect(JSON.stringify(item)).not.toContain('"USD"');
		expect(item).toMatchObject({ confirmed: true, orderNo: base.orderNo, status: 2 });
		expect(gateway?.queries.length).toBeGreaterThan(0);
	});

	it("an amount split out of a payee's name is not emitted: HaiPay's amount stands in", async () => {
		const base = payout();
		delete base.amount;
		const { resplit } = pair(
			base,
			{ accountName: 'Mallory&amount=99999.00' },
			{ accountName: 'Mallory', amount: '99999.00' },
		);
		await serve(signedAnswer({ orderId: base.orderId, orderNo: base.orderNo, amount: '15.00', status: 2 }));
		expect((await send(resplit)).text).toBe('SUCCESS');
		expect(trigger.server.executions).toHaveLength(1);
		expect(trigger.server.executions[0].items[0].json).toMatchObject({ amount: '15.00', confirmed: true });
	});

	it.each(['re-split first', 'genuine first'])(
		'an orderNo split into a payout without one is the same result as its genuine body (%s): one run',
		async (order) => {
			const base = payout({ status: 3, errorMsg: undefined, payTime: undefined });
			const orderNo = String(base.orderNo);
			delete base.orderNo;
			const { signed, resplit } = pair(base, { orderInfo: `x&orderNo=${orderNo}` }, { orderInfo: 'x', orderNo });
			await serve(signedAnswer({ orderId: base.orderId, orderNo, amount: '1500.00', status: 3 }));
			for (const body of order === 're-split first' ? [resplit, signed] : [signed, resplit])
				expect((await send(body)).text).toBe('SUCCESS');
			expect(trigger.server.executions).toHaveLength(1);
			expect(trigger.server.executions[0].items[0].json).toMatchObject({ dedupKey: `no:${orderNo}|3` });
		},
	);

	it("a card token split out of a collection's text is not kept under confirmed: true when HaiPay's answer has none", async () => {
		const id = nextId('RT');
		const base = callbackBody('collection', { orderId: id, orderNo: `HC${id}`, status: 2 });
		delete base.tokenID;
		const { resplit } = pair(base, { subject: 'x&tokenID=tok_evil' }, { subject: 'x', tokenID: 'tok_evil' });
		await serve(signedAnswer({ orderId: id, orderNo: `HC${id}`, amount: '10.00', status: 2 }), 'collection', true);
		expect((await send(resplit)).text).toBe('SUCCESS');
		const item = trigger.server.executions[0].items[0].json;
		expect(item).toMatchObject({ confirmed: true, tokenID: null });
		expect(JSON.stringify(item)).not.toContain('tok_evil');
	});

	it('a partial result whose payTime a re-split joins into text is one result with its genuine body: one run', async () => {
		const id = nextId('RP');
		const base = callbackBody('collection', { orderId: id, orderNo: `HC${id}`, status: 4, amount: '4.00' });
		delete base.tokenID;
		const payTime = String(base.payTime);
		delete base.payTime;
		const { signed, resplit } = pair(base, { ourRef: 'r', payTime }, { ourRef: `r&payTime=${payTime}` });
		await serve(signedAnswer({ orderId: id, orderNo: `HC${id}`, amount: '10.00', status: 4 }), 'collection', true);
		expect((await send(signed)).text).toBe('SUCCESS');
		expect((await send(resplit)).text).toBe('SUCCESS');
		expect(trigger.server.executions).toHaveLength(1);
	});
});
