/**
 * Amounts an approver can read: an amount whose whole part has more than 15 digits is refused,
 * in Payout → Check and in Payout → Create alike, with `field: "amount"` and `rule: "maxDigits"`, before anything is
 * signed. NGN has no upper limit of its own, so it shows the bound alone. Real n8n-core executions against the
 * sandbox over HTTP.
 */
import type { IDataObject } from 'n8n-workflow';

import { APP_IDS, PAYOUTS } from '../fixtures/bodies';
import { NODE, runNode, sandboxPerFile, uniqueOrderId } from './helpers';

const running = sandboxPerFile({ manual: true });
const keepGoing = { onError: 'continueRegularOutput' };

const DIGITS_15 = '999999999999999';
const DIGITS_16 = '1000000000000000';

function row(amount: string | number): IDataObject {
	return { orderId: uniqueOrderId('DIG-NGN'), ...PAYOUTS.NGN, amount };
}

const sheet = (operation: 'check' | 'create') => ({
	resource: 'payout',
	operation,
	currency: 'NGN',
	fieldsFrom: 'input',
	options: operation === 'create' ? { resolveUnknown: false } : {},
});

describe('an NGN amount past 15 whole digits', () => {
	it('Check: 15 digits (with or without cents) are valid, 16, 30 and 400 digits invalid, and no amountValue is Infinity', async () => {
		const sandbox = running();
		const rows = [
			row(DIGITS_15),
			row(`${DIGITS_15}.99`),
			row(DIGITS_16),
			row('1'.repeat(30)),
			row(`9${'0'.repeat(399)}`),
			row(1e20),
		];
		const out = (await runNode(sandbox, { currency: 'NGN', parameters: sheet('check'), items: rows })).jsonOf(NODE);
		expect(out.map((item) => item.outcome)).toEqual(['valid', 'valid', 'invalid', 'invalid', 'invalid', 'invalid']);
		expect(out[0]).toMatchObject({ amount: DIGITS_15, amountValue: 999999999999999 });
		for (const item of out.slice(2)) {
			expect(item).toMatchObject({ field: 'amount', rule: 'maxDigits' });
			expect(String(item.error)).toMatch(/at most 15 digits before the decimal point/);
			expect(item.amountValue).toBeUndefined();
		}
		expect(String(out[2].error)).toContain('(got 16)');
		expect(String(out[4].error)).toContain('(got 400)');
		expect(out.some((item) => item.amountValue === Infinity)).toBe(false);
	});

	it('Create: 16 digits are refused unsent; 15 digits are sent, and a merchant whose balance holds them is paid', async () => {
		const sandbox = running();
		sandbox.control.setBalance(APP_IDS.NGN, `1${'0'.repeat(20)}.00`);
		const rows = [row(DIGITS_16), row(DIGITS_15)];
		const before = sandbox.appliesReceived(APP_IDS.NGN);
		const out = (
			await runNode(sandbox, { currency: 'NGN', parameters: sheet('create'), items: rows, settings: keepGoing })
		).jsonOf(NODE);
		expect(out[0]).toMatchObject({ outcome: 'invalid', field: 'amount', rule: 'maxDigits', orderId: rows[0].orderId });
		expect(out[1]).toMatchObject({ outcome: 'accepted', orderId: rows[1].orderId });
		expect(sandbox.appliesReceived(APP_IDS.NGN) - before).toBe(1);
		expect(sandbox.orders.filter((order) => order.orderId === rows[1].orderId).map((order) => order.amount)).toEqual([
			expect.stringMatching(/^999999999999999(\.0+)?$/),
		]);
	});

	it('Collection → Create follows the same rule', async () => {
		const sandbox = running();
		const parameters = {
			resource: 'collection',
			operation: 'create',
			currency: 'USD',
			fieldsFrom: 'input',
			options: { resolveUnknown: false },
		};
		const item = {
			orderId: uniqueOrderId('DIG-USD'),
			amount: `${DIGITS_16}.00`,
			payType: 'CARD',
			inBankCode: 'VISA',
			name: 'John Smith',
			phone: '14155550100',
			email: 'john@example.com',
			clientIp: '203.0.113.7',
			partnerUserId: 'user-5',
		};
		const out = (await runNode(sandbox, { currency: 'USD', parameters, items: [item], settings: keepGoing })).jsonOf(
			NODE,
		);
		expect(out[0]).toMatchObject({ outcome: 'invalid', field: 'amount', rule: 'maxDigits' });
	});
});
