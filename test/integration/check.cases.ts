/**
 * Payout → Check: a sheet run through every rule of Payout → Create, the credential's App IDs and orderIds repeated
 * within the run, with nothing signed and nothing sent; and the same items then paid by Payout → Create. Real
 * n8n-core executions against the sandbox, whose request log shows what reached it.
 */
import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import { startSandbox, type Sandbox } from '../../sandbox';
import { APP_IDS, PAYOUTS, type PayoutCurrency } from '../fixtures/bodies';
import { TEST_KEYS } from '../helpers/keys';
import { NODE, runNode, uniqueOrderId } from './helpers';

function row(currency: PayoutCurrency, overrides: IDataObject = {}): IDataObject {
	return { currency, orderId: uniqueOrderId(`CHK-${currency}`), ...PAYOUTS[currency], ...overrides };
}

function credential(sandbox: Sandbox): ICredentialDataDecryptedObject {
	return {
		environment: 'custom',
		baseUrl: sandbox.baseUrl,
		appId: APP_IDS.TZS,
		currency: 'TZS',
		secretKey: 'test-only-secret-tzs',
		privateKey: TEST_KEYS.merchantPkcs8,
		haipayPublicKey: TEST_KEYS.platformPublic,
		otherCurrencies: ['ZAR'],
		appIdZar: APP_IDS.ZAR,
		secretKeyZar: 'test-only-secret-zar',
	};
}

const fromSheet = (operation: 'check' | 'create') => ({
	resource: 'payout',
	operation,
	currency: '={{ $json.currency }}',
	fieldsFrom: 'input',
	options: operation === 'create' ? { notFoundAfter: 1 } : {},
});

describe('Payout → Check', () => {
	let sandbox: Sandbox;
	beforeAll(async () => {
		sandbox = await startSandbox({ manual: true });
	});
	afterAll(async () => await sandbox.close());

	function lastRequest(): number | undefined {
		return sandbox.requests.at(-1)?.seq;
	}

	it('marks every row valid or invalid, with the field and rule, keeps its own columns, and sends nothing', async () => {
		const rows = [
			row('TZS', { note: 'salary' }),
			row('ZAR', { amount: '150.50' }),
			row('TZS', { amount: '150' }),
			row('NGN'),
			row('ZAR', { accountType: 'EWALLET' }),
		];
		const before = lastRequest();
		const result = await runNode(sandbox, {
			parameters: fromSheet('check'),
			items: rows,
			credential: credential(sandbox),
		});
		const out = result.jsonOf(NODE);
		expect(out[0]).toMatchObject({
			outcome: 'valid',
			valid: true,
			note: 'salary',
			currency: 'TZS',
			amount: '15000',
			amountValue: 15000,
			appId: APP_IDS.TZS,
		});
		expect(out[1]).toMatchObject({
			outcome: 'valid',
			currency: 'ZAR',
			amount: '150.50',
			amountValue: 150.5,
			appId: APP_IDS.ZAR,
		});
		expect(out[2]).toMatchObject({
			outcome: 'invalid',
			valid: false,
			field: 'amount',
			rule: 'amount',
			orderId: rows[2].orderId,
			currency: 'TZS',
		});
		expect(out[3]).toMatchObject({ outcome: 'invalid', field: 'currency', rule: 'credential' });
		expect(String(out[3].error)).toMatch(/the operation is in NGN/);
		expect(out[4]).toMatchObject({ outcome: 'invalid', field: 'accountType' });
		expect(out.map((item) => item.orderId)).toEqual(rows.map((entry) => entry.orderId));
		expect(result.outputOf(NODE).map((item) => item.pairedItem)).toEqual(rows.map((_, item) => ({ item })));
		expect(lastRequest()).toBe(before);
		expect(sandbox.orders.filter((order) => rows.some((entry) => entry.orderId === order.orderId))).toEqual([]);
	});

	it('refuses an orderId that an earlier row already has, in the check and in the create, which sends it once', async () => {
		const first = row('TZS');
		const rows = [first, row('TZS'), { ...first, amount: '20000' }];
		const checked = (
			await runNode(sandbox, { parameters: fromSheet('check'), items: rows, credential: credential(sandbox) })
		).jsonOf(NODE);
		expect(checked.map((item) => item.outcome)).toEqual(['valid', 'valid', 'invalid']);
		expect(checked[2]).toMatchObject({ field: 'orderId', rule: 'unique' });
		expect(String(checked[2].error)).toContain('is also the orderId of item 0 of this run');

		const before = sandbox.appliesReceived(APP_IDS.TZS);
		const paid = await runNode(sandbox, {
			parameters: fromSheet('create'),
			items: rows,
			credential: credential(sandbox),
			settings: { onError: 'continueRegularOutput' },
		});
		expect(paid.jsonOf(NODE).map((item) => item.outcome)).toEqual(['accepted', 'accepted', 'invalid']);
		expect(sandbox.appliesReceived(APP_IDS.TZS) - before).toBe(2);
		expect(sandbox.orders.filter((order) => order.orderId === first.orderId).map((order) => order.amount)).toEqual([
			expect.stringMatching(/^15000(\.0+)?$/),
		]);
	});

	it('without Continue, a create stops on a repeated orderId before anything is sent', async () => {
		const first = row('TZS');
		const before = sandbox.appliesReceived();
		const result = await runNode(sandbox, {
			parameters: fromSheet('create'),
			items: [first, row('TZS'), first],
			credential: credential(sandbox),
		});
		expect(result.status).toBe('error');
		expect(result.error).toMatchObject({ itemIndex: 2 });
		expect(sandbox.appliesReceived() - before).toBe(0);
	});

	it("passes the checked items on to Payout → Create, whose requests carry none of the check's columns", async () => {
		const rows = [row('TZS'), row('ZAR'), row('TZS', { amount: '1' })];
		const checked = await runNode(sandbox, {
			parameters: fromSheet('check'),
			items: rows,
			credential: credential(sandbox),
		});
		const paid = await runNode(sandbox, {
			parameters: fromSheet('create'),
			items: checked.jsonOf(NODE),
			credential: credential(sandbox),
			settings: { onError: 'continueRegularOutput' },
		});
		expect(paid.jsonOf(NODE).map((item) => [item.orderId, item.outcome])).toEqual([
			[rows[0].orderId, 'accepted'],
			[rows[1].orderId, 'accepted'],
			[rows[2].orderId, 'invalid'],
		]);
		const sent = sandbox.requests.filter((entry) =>
			rows.some((candidate) => (entry.body as IDataObject | undefined)?.orderId === candidate.orderId),
		);
		expect(sent).toHaveLength(2);
		for (const entry of sent) {
			for (const column of ['outcome', 'valid', 'amountValue', 'currency', 'error'])
				expect(entry.body).not.toHaveProperty(column);
		}
	});

	it('checks Extra Fields too, and needs neither Retry On Fail off nor any option of a create', async () => {
		const rows = [row('ZAR')];
		const parameters = { ...fromSheet('check'), options: { extraFields: '{"amount": "1"}' } };
		const result = await runNode(sandbox, {
			parameters,
			items: rows,
			credential: credential(sandbox),
			settings: { retryOnFail: true },
		});
		expect(result.jsonOf(NODE)[0]).toMatchObject({ outcome: 'invalid', field: 'extraFields' });
	});
});
