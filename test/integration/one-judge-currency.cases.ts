/**
 * A fixed currency pays no row of another currency. Payout → Create and Check with Currency fixed to ZAR refuse a row
 * whose own `currency` says KRW, NGN or IDR (`invalid`, field `currency`, nothing sent); a USDT collection is never
 * sent as USDT for a row priced in BRL, and one whose Priced In names another currency than the row's is refused; the
 * global cashier refuses a row whose currency is not its Transaction Currency. Real n8n-core executions over real
 * HTTP to a small gateway that signs with the test platform key; its request log shows what was sent.
 */
import type { ICredentialDataDecryptedObject, IDataObject, INodeParameters } from 'n8n-workflow';

import { parsePrivateKey } from '../../nodes/shared/signing/keys';
import { CASHIER_APP_ID } from '../../sandbox/merchants';
import { CASHIER_PAYMENT, COIN_COLLECTION, PAYOUTS } from '../fixtures/bodies';
import { TEST_KEYS } from '../helpers/keys';
import { signBody } from '../helpers/signing';
import { named, uniqueOrderId } from './helpers';
import { credentialOf, runAgainst, secretOf, signingGateway, type SigningGateway } from './signing-gateway';

const CASHIER_APPLY = '/global/cashier/collect/apply';
const PLATFORM = parsePrivateKey(TEST_KEYS.platformPrivate);
const [CASHIER_ID, CASHIER] = CASHIER_APP_ID;

let gateway: SigningGateway;

beforeAll(async () => {
	// Every create is taken: { orderId, orderNo }, signed; the cashier's with its own App ID's secret.
	gateway = await signingGateway((path, body) => {
		const data = { orderId: body.orderId, orderNo: `HP-${String(body.orderId)}`, payUrl: 'https://pay.example/x' };
		if (path !== CASHIER_APPLY) return { data };
		return { data: { ...data, sign: signBody(data, secretOf(CASHIER), PLATFORM) } };
	});
});

afterAll(async () => {
	await gateway.close();
});

const resolveOff = { resolveUnknown: false };

/** The row came back invalid for its currency, and the gateway was sent nothing. */
function refusedUnsent(item: IDataObject, sent: unknown[], orderId: unknown): void {
	expect(item).toMatchObject({ outcome: 'invalid', errorType: 'invalid', field: 'currency', orderId });
	expect(sent).toEqual([]);
}

/** Runs one node over `rows`; the items, and how many requests reached the gateway meanwhile. */
async function run(credential: ICredentialDataDecryptedObject, parameters: INodeParameters, rows: IDataObject[]) {
	const before = gateway.requests.length;
	const items = await runAgainst(credential, parameters, rows);
	return { items, sent: gateway.requests.slice(before) };
}

/** Parameters that map each field from the item, as `{{ $json.field }}`. */
const mapped = (fields: string[]): IDataObject =>
	Object.fromEntries(fields.map((field) => [field, `={{ $json.${field} }}`]));

describe('5. Payout with Currency fixed to ZAR pays no row of another currency', () => {
	const credential = () => credentialOf(gateway.url, ['ZAR', 'KRW', 'NGN', 'IDR']);
	const payout = (operation: 'create' | 'check'): INodeParameters => ({
		resource: 'payout',
		operation,
		currency: 'ZAR',
		fieldsFrom: 'input',
		options: operation === 'create' ? resolveOff : {},
	});
	/** A ZAR payee's row, labelled `currency`. */
	const zarRow = (currency: string, amount: string = PAYOUTS.ZAR.amount): IDataObject => ({
		currency,
		orderId: uniqueOrderId(`CCY-${currency}`),
		...PAYOUTS.ZAR,
		amount,
	});

	it.each([
		['KRW', '50000.00'],
		['NGN', PAYOUTS.NGN.amount],
		['IDR', PAYOUTS.IDR.amount],
	])('Create: a row whose currency is %s is invalid (field currency), and nothing is sent', async (ccy, amount) => {
		const row = zarRow(ccy, amount);
		const { items, sent } = await run(credential(), payout('create'), [row]);
		refusedUnsent(items[0], sent, row.orderId);
	});

	it.each(['ZAR', 'zar'])(
		'Create: a row whose currency is "%s" is sent to /zar/pay/apply and accepted',
		async (ccy) => {
			const row = zarRow(ccy);
			const { items, sent } = await run(credential(), payout('create'), [row]);
			expect(items[0]).toMatchObject({ outcome: 'accepted', orderId: row.orderId, verified: true });
			expect(sent.map((request) => [request.path, request.body.orderId])).toEqual([['/zar/pay/apply', row.orderId]]);
		},
	);

	it('Check: the KRW row is invalid (field currency), the ZAR row valid, nothing sent', async () => {
		const rows = [zarRow('KRW', '50000.00'), zarRow('ZAR')];
		const { items, sent } = await run(credential(), payout('check'), rows);
		expect(items[0]).toMatchObject({ outcome: 'invalid', field: 'currency', orderId: rows[0].orderId });
		expect(items[1]).toMatchObject({ outcome: 'valid', orderId: rows[1].orderId });
		expect(sent).toEqual([]);
	});
});

describe('5, the other side: a read names no amount, so an item of another currency feeding it is no contradiction', () => {
	it('Payout → Get with Currency fixed to ZAR, fed an item whose currency is TZS, asks the ZAR query', async () => {
		const orderId = uniqueOrderId('CCY-READ');
		const parameters: INodeParameters = { resource: 'payout', operation: 'get', currency: 'ZAR', orderId };
		const { items, sent } = await run(credentialOf(gateway.url, ['ZAR']), parameters, [{ currency: 'TZS' }]);
		expect(sent.map((request) => request.path)).toEqual(['/zar/pay/query']);
		expect(items[0]).not.toMatchObject({ field: 'currency' });
	});
});

describe("6. a USDT collection priced in the row's own currency, never silently in USDT", () => {
	const credential = () => credentialOf(gateway.url, ['USDT']);
	const FIELDS = ['orderId', ...Object.keys(COIN_COLLECTION)];
	const coinRow = (overrides: IDataObject = {}): IDataObject => ({
		orderId: uniqueOrderId('CCY-USDT'),
		...COIN_COLLECTION,
		amount: '500.00',
		currency: 'BRL',
		...overrides,
	});

	const fromItem = { resource: 'collection', operation: 'create', currency: 'USDT', fieldsFrom: 'input' };
	const fromParameters = (pricedIn: string): INodeParameters =>
		named({
			...fromItem,
			fieldsFrom: 'parameters',
			...mapped(FIELDS),
			additionalFields: { pricedIn },
			options: resolveOff,
		} as INodeParameters);

	it.each([
		['no pricedIn', {}],
		['pricedIn ""', { pricedIn: '' }],
	])("a BRL row with %s: the row's currency wins, sent as BRL, never as USDT", async (_w, fields) => {
		const row = coinRow(fields);
		const { items, sent } = await run(credential(), { ...fromItem, options: resolveOff }, [row]);
		expect(sent.map((request) => [request.body.currency, request.body.amount])).toEqual([['BRL', '500.00']]);
		expect(items[0]).toMatchObject({ outcome: 'accepted', orderId: row.orderId });
	});

	it('a row whose currency is no currency code is refused (field currency), not sent as USDT', async () => {
		const row = coinRow({ currency: 'Brazilian real' });
		const { items, sent } = await run(credential(), { ...fromItem, options: resolveOff }, [row]);
		expect(items[0]).toMatchObject({ outcome: 'invalid', field: 'currency', rule: 'pattern' });
		expect(sent).toEqual([]);
	});

	it.each([
		['from the item', { ...fromItem, options: resolveOff }, { pricedIn: 'EUR' }],
		['as a parameter', fromParameters('EUR'), {}],
	])('Priced In EUR %s, the row in BRL: invalid (field currency), nothing sent', async (_w, parameters, fields) => {
		const row = coinRow(fields);
		const { items, sent } = await run(credential(), parameters as INodeParameters, [row]);
		refusedUnsent(items[0], sent, row.orderId);
	});
});

describe('6. the global cashier charges only in its Transaction Currency', () => {
	const credential = (): ICredentialDataDecryptedObject => ({
		...credentialOf(gateway.url, ['USD']),
		otherCurrencies: [CASHIER],
		appIdCashier: CASHIER_ID,
		secretKeyCashier: secretOf(CASHIER),
	});
	const FIELDS = ['orderId', 'name', 'email', 'amount', 'callBackUrl', 'callBackFailUrl', 'subject', 'region'];
	const cashier = { resource: 'collection', operation: 'createCashier', options: resolveOff };
	const forms: Array<[string, INodeParameters, IDataObject]> = [
		[
			'as a parameter',
			{ ...cashier, fieldsFrom: 'parameters', ...mapped([...FIELDS, 'partnerUserId']), transactionCurrency: 'EUR' },
			{},
		],
		['from the item', { ...cashier, fieldsFrom: 'input' }, { transactionCurrency: 'EUR' }],
	];
	const cashierRow = (currency: string, fields: IDataObject): IDataObject => ({
		orderId: uniqueOrderId('CCY-CASHIER'),
		...CASHIER_PAYMENT,
		...fields,
		currency,
	});

	it.each(forms)(
		'Transaction Currency EUR %s, the row in BRL: invalid (field currency), nothing sent',
		async (_w, p, f) => {
			const row = cashierRow('BRL', f);
			const { items, sent } = await run(credential(), p, [row]);
			expect(items[0]).toMatchObject({
				outcome: 'invalid',
				errorType: 'invalid',
				field: 'currency',
				orderId: row.orderId,
			});
			expect(sent).toEqual([]);
		},
	);

	it.each(forms)('Transaction Currency EUR %s, the row in EUR: sent as EUR, accepted', async (_w, p, f) => {
		const row = cashierRow('EUR', f);
		const { items, sent } = await run(credential(), p, [row]);
		expect(items[0]).toMatchObject({ outcome: 'accepted', orderId: row.orderId, verified: true });
		expect(sent.map((request) => [request.path, request.body.currency])).toEqual([[CASHIER_APPLY, 'EUR']]);
	});
});
