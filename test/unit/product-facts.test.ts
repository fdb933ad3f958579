/**
 * What a product module declares (its endpoints, its App ID and the paths it signs, how a callback names it, its
 * repeat-key form, its trigger option) is read by shared code that names no product. Saved workflows and credentials,
 * the trigger's output and the repeat keys kept in live workflows' static data must read exactly as they did when
 * that shared code named each product itself: these are the values it gave, written out.
 */
import type { ICredentialDataDecryptedObject, IHttpRequestOptions, INodeProperties } from 'n8n-workflow';

import { HaiPayApi } from '../../credentials/HaiPayApi.credentials';
import { repeatedOrderIds } from '../../nodes/HaiPay/execute/repeats';
import type { Prepared } from '../../nodes/HaiPay/execute/types';
import { triggerProperties } from '../../nodes/HaiPayTrigger/description';
import { filteredOutBy, kindOf } from '../../nodes/HaiPayTrigger/filters';
import { repeatKeys } from '../../nodes/HaiPayTrigger/keys';
import { CALLBACK_FIELDS, DECIDING_FIELDS } from '../../nodes/shared/contract/callback';
import { ENDPOINTS } from '../../nodes/shared/contract/endpoints';
import { TEST_KEYS } from '../helpers/keys';

const credential = new HaiPayApi();

const held: ICredentialDataDecryptedObject = {
	environment: 'custom',
	baseUrl: 'http://127.0.0.1:8642/',
	appId: 1001,
	currency: 'USD',
	secretKey: 'test-only-secret-usd',
	otherCurrencies: ['CASHIER', 'ZAR'],
	appIdCashier: 3003,
	secretKeyCashier: 'test-only-secret-cashier',
	appIdZar: 2002,
	secretKeyZar: 'test-only-secret-zar',
	privateKey: TEST_KEYS.merchantPkcs8,
	haipayPublicKey: TEST_KEYS.platformPublic,
	arrayStyle: 'json',
};

async function appIdSigning(url: string, body: object = {}): Promise<unknown> {
	const request: IHttpRequestOptions = { method: 'POST', url, body };
	return ((await credential.authenticate(held, request)).body as Record<string, unknown>).appId;
}

describe("a product's App ID and paths", () => {
	it('signs the global cashier with the CASHIER App ID, by its /global/ prefix', async () => {
		expect(await appIdSigning('/global/cashier/collect/apply')).toBe(3003);
		expect(await appIdSigning('/global/cashier/collect/query', { appId: 2002 })).toBe(3003);
	});

	it("signs a subscription's path with the App ID its body names, else the first", async () => {
		expect(await appIdSigning('/subscription/apply')).toBe(1001);
		expect(await appIdSigning('/subscription/cancel', { appId: 2002 })).toBe(2002);
		expect(await appIdSigning('/subscription/query', { appId: '3003' })).toBe(3003);
	});

	it("signs a currency's path with that currency's App ID, whatever the body names", async () => {
		expect(await appIdSigning('/zar/pay/apply', { appId: 1001 })).toBe(2002);
		await expect(appIdSigning('/ngn/pay/apply')).rejects.toThrow(/but the operation is in NGN/);
	});

	it('offers the CASHIER App ID after the currencies, with its fields', () => {
		const byName = (name: string) => credential.properties.find((property) => property.name === name);
		const options = (byName('otherCurrencies')?.options ?? []) as Array<{ name: string; value: string }>;
		expect(options[options.length - 1]).toEqual({ name: 'CASHIER (Global Cashier)', value: 'CASHIER' });
		expect(byName('appIdCashier')).toBeDefined();
		expect(byName('secretKeyCashier')).toBeDefined();
	});

	it('lists the endpoints of the products under their names, at their paths', () => {
		const paths = Object.fromEntries(Object.entries(ENDPOINTS).map(([name, endpoint]) => [name, endpoint.path('USD')]));
		expect(paths).toMatchObject({
			subscriptionApply: '/subscription/apply',
			subscriptionQuery: '/subscription/query',
			subscriptionCancel: '/subscription/cancel',
			cashierApply: '/global/cashier/collect/apply',
			cashierQuery: '/global/cashier/collect/query',
		});
		const names = Object.keys(ENDPOINTS);
		expect(names.slice(names.indexOf('refundQuery') + 1)).toEqual([
			'subscriptionApply',
			'subscriptionQuery',
			'subscriptionCancel',
			'cashierApply',
			'cashierQuery',
			'fixedAddressApply',
		]);
		expect(ENDPOINTS.subscriptionCancel).toMatchObject({ kind: 'change', makes: 'cancellation' });
		expect(ENDPOINTS.cashierApply).toMatchObject({ kind: 'create', makes: 'cashierOrder' });
	});
});

describe('how a callback names a subscription', () => {
	const charge = { subscriptionNo: 'SUB-1', orderNo: 'ORD-9', status: '2', amount: '9.9', payTime: '2026-01-01' };

	it("keeps a callback's known and deciding members, in their order", () => {
		expect(DECIDING_FIELDS).toEqual([
			...['appId', 'orderId', 'orderNo', 'status', 'currency', 'amount', 'refundNo', 'subscriptionNo'],
			...['tokenID', 'tokenId', 'tokenid', 'token_id'],
		]);
		expect(CALLBACK_FIELDS).toEqual([
			...['appId', 'currency', 'orderId', 'orderNo', 'amount', 'actualAmount', 'fee', 'status', 'payTime'],
			...['errorMsg', 'sign', 'subscriptionNo', 'subscriptionOrderId', 'hash'],
			...['tokenID', 'tokenId', 'tokenid', 'token_id'],
		]);
	});

	it("keeps the trigger's Callbacks For options, values and order", () => {
		const kind = triggerProperties.find((property: INodeProperties) => property.name === 'kind');
		expect(kind?.options?.map((option) => (option as { value: string }).value)).toEqual([
			'collection',
			'subscription',
			'either',
			'payout',
		]);
		expect(kind?.options?.[1]).toEqual({
			name: 'Subscriptions',
			value: 'subscription',
			description:
				'Recurring charges of subscriptions (they name a subscriptionNo); any other callback is acknowledged and not emitted',
		});
	});

	it('gives a charge its kind and its filter messages as before', () => {
		expect(kindOf(charge, 'payout')).toBe('subscription');
		expect(kindOf({ orderId: 'O-1' }, 'subscription')).toBe('unknown');
		expect(kindOf({ orderId: 'O-1', refundNo: 'R-1', subscriptionNo: 'SUB-1' }, 'either')).toBe('refund');
		const filters = { statuses: [], currency: '' };
		expect(filteredOutBy(charge, { ...filters, kind: 'payout' }, 'USD')).toBe(
			'it names a subscription (subscriptionNo), a recurring charge, and this trigger takes payouts only',
		);
		expect(filteredOutBy({ orderId: 'O-1' }, { ...filters, kind: 'subscription' }, 'USD')).toBe(
			'it names no subscription (subscriptionNo), and this trigger takes subscription results only',
		);
		expect(filteredOutBy(charge, { ...filters, kind: 'subscription' }, 'USD')).toBeUndefined();
		// A charge's status reads as a card collection's (its product's orderKind): 2 is a success, 3 is not.
		expect(filteredOutBy(charge, { kind: 'either', statuses: ['success'], currency: '' }, 'USD')).toBeUndefined();
		expect(
			filteredOutBy({ ...charge, status: 3 }, { kind: 'either', statuses: ['success'], currency: '' }, 'USD'),
		).toBe('its status (3) is not one of the selected statuses');
	});

	it('keys each charge as live workflows keep it', () => {
		expect(repeatKeys(charge)).toEqual({ dedupKey: 'sub:SUB-1|ORD-9|2|["9.90","2026-01-01"]' });
		expect(repeatKeys({ ...charge, status: 'X' })).toEqual({ dedupKey: 'sub:SUB-1|ORD-9|~X|["9.90","2026-01-01"]' });
		expect(repeatKeys({ ...charge, refundNo: 'R-1' })).toEqual({ dedupKey: 'refund:R-1|2' });
	});

	it("refuses a run's second subscription request with the product's reason", () => {
		const prepared = (field: string) => [{ body: { [field]: 'S-1' } }, { body: { [field]: 's-1' } }] as Prepared[];
		expect(repeatedOrderIds(prepared('subscriptionOrderId'), ['subscriptionOrderId']).get(1)?.message).toMatch(
			/HaiPay takes a subscriptionOrderId once, so this item was not sent$/,
		);
		expect(repeatedOrderIds(prepared('subscriptionNo'), ['subscriptionNo']).get(1)?.message).toMatch(
			/a subscription is cancelled once, and a second cancel in the run could only be refused or mistaken for the first, so this item was not sent$/,
		);
	});
});
