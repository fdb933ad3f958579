/**
 * The payout rails beyond the contract in real n8n-core executions against the sandbox over HTTP: in each currency
 * a payout made from the node's own parameters is accepted, verified and queried back; bad rail-specific input is
 * refused before anything is sent; one node pays a sheet of every rail under one credential, and one HaiPay Trigger
 * receives each one's signed callback.
 */
import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import { PAYOUT_RULES } from '../../nodes/shared/contract/rules/payout';
import { RAIL_CURRENCIES, type RailCurrency } from '../../nodes/shared/contract/rules/rails';
import { appFieldNames } from '../../nodes/shared/signing/apps';
import type { Sandbox } from '../../sandbox';
import { APP_IDS, PAYOUTS } from '../fixtures/bodies';
import type { WebhookServer } from '../harness';
import { credentialFor, NODE, payoutFromItem, payoutTrigger, runNode, sandboxPerFile, uniqueOrderId } from './helpers';

const running = sandboxPerFile({ manual: true });

function row(currency: RailCurrency, overrides: IDataObject = {}): IDataObject {
	return { orderId: uniqueOrderId(`RAIL-${currency}`), ...PAYOUTS[currency], ...overrides };
}

/** Every required field as a top-level parameter, the row's optional ones under Additional Fields: the panel's way. */
function fromPanel(currency: RailCurrency, item: IDataObject) {
	const fields = PAYOUT_RULES[currency].fields;
	const required = fields.filter((field) => field.required).map((field) => field.name);
	const optional = fields
		.filter((field) => !field.required && item[field.name] !== undefined)
		.map((field) => field.name);
	return { ...payoutFromItem(currency, required, optional), options: { notFoundAfter: 1 } };
}

function lastBody(sandbox: Sandbox, path: string): IDataObject {
	return sandbox.requests.filter((entry) => entry.path === path).pop()?.body as IDataObject;
}

describe.each(RAIL_CURRENCIES)('%s payout from the panel', (currency) => {
	it('is accepted and verified, sends its own fields, makes one order, and is queried back', async () => {
		const sandbox = running();
		const item = row(currency);
		const credential = credentialFor(sandbox, currency);
		const result = await runNode(sandbox, {
			currency,
			credential,
			parameters: fromPanel(currency, item),
			items: [item],
		});
		expect(result.status).toBe('success');
		const [created] = result.jsonOf(NODE);
		expect(created).toMatchObject({ orderId: item.orderId, currency, outcome: 'accepted', verified: true });
		const sent = lastBody(sandbox, `/${currency.toLowerCase()}/pay/apply`);
		// A node-only field (USDT's network) is checked and never sent.
		const nodeOnly = PAYOUT_RULES[currency].fields.filter((field) => field.nodeOnly).map((field) => field.name);
		const own = Object.fromEntries(Object.entries(PAYOUTS[currency]).filter(([name]) => !nodeOnly.includes(name)));
		expect(sent).toMatchObject({ ...own, orderId: item.orderId, appId: APP_IDS[currency] });
		for (const name of nodeOnly) expect(sent).not.toHaveProperty(name);
		const orders = sandbox.orders.filter((order) => order.orderId === item.orderId);
		expect(orders.map((order) => [order.orderNo, order.appId])).toEqual([[created.orderNo, APP_IDS[currency]]]);

		const read = await runNode(sandbox, {
			currency,
			credential,
			parameters: { resource: 'payout', operation: 'get', currency, orderId: String(item.orderId) },
		});
		expect(read.jsonOf(NODE)[0]).toMatchObject({
			orderId: item.orderId,
			orderNo: created.orderNo,
			status: 1,
			currency,
			verified: true,
		});
	});
});

describe('rail-specific input the node refuses before sending', () => {
	const cases: Array<[RailCurrency, IDataObject, string, RegExp]> = [
		['INR', { bankCode: 'HDFC1001234' }, 'bankCode', /IFSC/],
		['INR', { email: 'ravi@yahoo.com' }, 'email', /@gmail\.com/],
		['BRL', { identifyType: 'CPF', accountNo: '0987654321' }, 'accountNo', /CPF of 11 digits/],
		['MXN', { accountType: 'BANK_CARD' }, 'accountNo', /16 digits/],
		['EUR', { swiftCode: 'BNPAFRP' }, 'swiftCode', /SWIFT\/BIC/],
		['PKR', { birth: '1990-02-30' }, 'birth', /date that exists/],
		[
			'TRY',
			{ accountType: 'EWALLET', bankCode: 'PAPARA', accountNo: '1234567890' },
			'identifyType',
			/required when bankCode is PAPARA/,
		],
		['USD', { accountNo: '123465' }, 'accountNo', /PayPal email/],
	];

	it.each(cases)('%s %j: invalid on %s, nothing sent', async (currency, overrides, field, message) => {
		const sandbox = running();
		const before = sandbox.appliesReceived();
		const item = row(currency, overrides);
		const result = await runNode(sandbox, {
			currency,
			parameters: { ...fromPanel(currency, item), fieldsFrom: 'input' },
			items: [item],
			settings: { onError: 'continueRegularOutput' },
		});
		expect(result.jsonOf(NODE)[0]).toMatchObject({ outcome: 'invalid', field, orderId: item.orderId });
		expect(String(result.jsonOf(NODE)[0].error)).toMatch(message);
		expect(sandbox.appliesReceived()).toBe(before);
	});
});

/** One credential holding an App ID for every rail: BRL first, the others under Other Currencies. */
function railsCredential(sandbox: Sandbox): ICredentialDataDecryptedObject {
	const [first, ...others] = RAIL_CURRENCIES;
	const credential = credentialFor(sandbox, first, { otherCurrencies: others });
	for (const currency of others) {
		const names = appFieldNames(currency);
		credential[names.appId] = APP_IDS[currency];
		credential[names.secretKey] = `test-only-secret-${currency.toLowerCase()}`;
	}
	return credential;
}

describe('every rail from one node and one trigger', () => {
	let server: WebhookServer | undefined;
	afterAll(async () => await server?.close());

	it('pays a sheet of every rail, each under its own App ID, and receives each signed callback once', async () => {
		const sandbox = running();
		const credential = railsCredential(sandbox);
		server = await payoutTrigger(credential);
		const notifyUrl = server.url('Trigger');
		const rows: IDataObject[] = RAIL_CURRENCIES.map((currency) => ({ currency, ...row(currency), notifyUrl }));
		const sheet = {
			resource: 'payout',
			operation: 'create',
			currency: '={{ $json.currency }}',
			fieldsFrom: 'input',
			options: { notFoundAfter: 1 },
		};
		const result = await runNode(sandbox, { parameters: sheet, items: rows, credential });
		const out = result.jsonOf(NODE);
		expect(out.map((item) => [item.currency, item.outcome, item.verified])).toEqual(
			rows.map((entry) => [entry.currency, 'accepted', true]),
		);

		for (const item of out) sandbox.control.settle(String(item.orderNo), 'success');
		const executions = await server.waitForExecutions(rows.length);
		const received = executions.map((execution) => execution.items[0].json);
		expect(received.map((json) => [json.currency, json.orderId, json.status, json.verified]).sort()).toEqual(
			rows.map((entry) => [entry.currency, entry.orderId, 2, true]).sort(),
		);
	});
});
