/**
 * The method catalogue and the credential's Default Notify URL in real n8n-core executions against the sandbox,
 * whose request log shows what reached HaiPay: a code picked from the list or given By Code is sent as the code;
 * saved version-2 workflows send their text as before; Payout → Check warns about a code outside the catalogue and
 * still calls the item valid; an item's notifyUrl wins over the credential's default, which fills an empty one.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { PAYOUT_RULES } from '../../nodes/shared/contract/rules/payout';
import { LOCAL_COLLECTIONS, PAYOUTS } from '../fixtures/bodies';
import { credentialFor, named, NODE, payoutFromItem, runNode, sandboxPerFile, uniqueOrderId } from './helpers';

const sandbox = sandboxPerFile({ manual: true });
const DEFAULT_URL = 'https://n8n.example.com/webhook/0f5e-haipay/haipay';
const ITEM_URL = 'https://hooks.example.org/haipay/item';
const BRL_FIELDS = PAYOUT_RULES.BRL.fields
	.filter((field) => field.required && field.name !== 'bankCode')
	.map((field) => field.name);

function brlRow(overrides: IDataObject = {}): IDataObject {
	return { orderId: uniqueOrderId('CAT-BRL'), ...PAYOUTS.BRL, ...overrides };
}

/** A BRL payout whose fields are mapped from the item, and whose bankCode is the given parameter value. */
function brlPayout(bankCode: unknown, operation: 'create' | 'check' = 'create', version?: number): INodeParameters {
	return named(
		{
			...payoutFromItem('BRL', BRL_FIELDS),
			operation,
			bankCode: bankCode as INodeParameters[string],
			options: { notFoundAfter: 1 },
		},
		version,
	);
}

/** The body of the apply the sandbox received for an orderId. */
function sentBody(orderId: unknown): IDataObject | undefined {
	const entry = sandbox().requests.find(
		(request) => request.path.endsWith('/apply') && (request.body as IDataObject | undefined)?.orderId === orderId,
	);
	return entry?.body as IDataObject | undefined;
}

describe('codes from the catalogue reach HaiPay as codes', () => {
	it('version 3: picked From List, given By Code, or mapped By Code from the item', async () => {
		const picked = brlRow();
		const typed = brlRow();
		const mapped = brlRow({ code: 'PIX_NEW' });
		for (const [row, bankCode] of [
			[picked, { __rl: true, mode: 'list', value: 'PIX' }],
			[typed, { __rl: true, mode: 'id', value: 'PIX2' }],
			[mapped, { __rl: true, mode: 'id', value: '={{ $json.code }}' }],
		] as const) {
			const out = (
				await runNode(sandbox(), {
					parameters: brlPayout(bankCode),
					items: [row],
					credential: credentialFor(sandbox(), 'BRL'),
				})
			).jsonOf(NODE);
			expect(out[0]).toMatchObject({ outcome: 'accepted', orderId: row.orderId });
		}
		expect([picked, typed, mapped].map((row) => sentBody(row.orderId)?.bankCode)).toEqual(['PIX', 'PIX2', 'PIX_NEW']);
	});

	it('version 3: an empty pick stops n8n itself, and a mapped code that comes out empty is refused; nothing is sent', async () => {
		const unpicked = brlRow();
		const run = runNode(sandbox(), {
			parameters: brlPayout({ __rl: true, mode: 'list', value: '' }, 'create', 3),
			items: [unpicked],
			credential: credentialFor(sandbox(), 'BRL'),
			settings: { typeVersion: 3 },
		});
		await expect(run).rejects.toThrow('Parameter "Bank Code" is required');
		// Version 4 marks no field of more than one kind required (a currency mapped from a sheet shows every kind):
		// the item is refused instead, naming the field.
		const [unpicked4] = (
			await runNode(sandbox(), {
				parameters: brlPayout({ __rl: true, mode: 'list', value: '' }),
				items: [unpicked],
				credential: credentialFor(sandbox(), 'BRL'),
				settings: { onError: 'continueRegularOutput' },
			})
		).jsonOf(NODE);
		expect(unpicked4).toMatchObject({ outcome: 'invalid', field: 'bankCode', rule: 'required' });
		const empty = brlRow({ code: '' });
		const result = await runNode(sandbox(), {
			parameters: brlPayout({ __rl: true, mode: 'id', value: '={{ $json.code }}' }),
			items: [empty],
			credential: credentialFor(sandbox(), 'BRL'),
			settings: { onError: 'continueRegularOutput' },
		});
		expect(result.jsonOf(NODE)[0]).toMatchObject({ outcome: 'invalid', field: 'bankCode', rule: 'required' });
		expect([sentBody(unpicked.orderId), sentBody(empty.orderId)]).toEqual([undefined, undefined]);
	});

	it("version 2: a saved workflow's text bankCode is sent as it was", async () => {
		const row = brlRow();
		const out = await runNode(sandbox(), {
			parameters: brlPayout('PIX', 'create', 2),
			items: [row],
			credential: credentialFor(sandbox(), 'BRL'),
			settings: { typeVersion: 2 },
		});
		expect(out.jsonOf(NODE)[0]).toMatchObject({ outcome: 'accepted' });
		expect(sentBody(row.orderId)?.bankCode).toBe('PIX');
	});

	it("version 3: a local collection's pay type and payment method picked from the lists", async () => {
		const orderId = uniqueOrderId('CAT-PHP');
		const fields = Object.keys(LOCAL_COLLECTIONS.PHP).filter((name) => !['payType', 'inBankCode'].includes(name));
		const parameters: INodeParameters = named({
			resource: 'collection',
			operation: 'create',
			currency: 'PHP',
			orderId,
			...Object.fromEntries(fields.map((name) => [name, LOCAL_COLLECTIONS.PHP[name]])),
			payType: { __rl: true, mode: 'list', value: 'QR' },
			inBankCode: { __rl: true, mode: 'list', value: 'PH_QRPH_DYNAMIC' },
		});
		const out = (await runNode(sandbox(), { parameters, credential: credentialFor(sandbox(), 'PHP') })).jsonOf(NODE);
		expect(out[0]).toMatchObject({ outcome: 'accepted', orderId });
		expect(sentBody(orderId)).toMatchObject({ payType: 'QR', inBankCode: 'PH_QRPH_DYNAMIC' });
	});
});

describe('Payout → Check and the catalogue', () => {
	it('warns about a code outside the catalogue, names none for a listed one or an uncatalogued currency, and sends nothing', async () => {
		const rows = [
			brlRow({ currency: 'BRL' }),
			brlRow({ currency: 'BRL', bankCode: 'TED' }),
			{ currency: 'NGN', orderId: uniqueOrderId('CAT-NGN'), ...PAYOUTS.NGN },
		];
		const before = sandbox().requests.length;
		const parameters = {
			resource: 'payout',
			operation: 'check',
			currency: '={{ $json.currency }}',
			fieldsFrom: 'input',
		};
		const credential = credentialFor(sandbox(), 'BRL', {
			otherCurrencies: ['NGN'],
			appIdNgn: credentialFor(sandbox(), 'NGN').appId,
			secretKeyNgn: 'test-only-secret-ngn',
		});
		const out = (await runNode(sandbox(), { parameters, items: rows, credential })).jsonOf(NODE);
		expect(out.map((item) => [item.outcome, item.warnings])).toEqual([
			['valid', []],
			['valid', [expect.stringContaining('bankCode "TED" is not in the method catalogue')]],
			['valid', []],
		]);
		expect(sandbox().requests.length).toBe(before);
	});
});

describe("the credential's Default Notify URL", () => {
	const withDefault = (url = DEFAULT_URL) => credentialFor(sandbox(), 'BRL', { defaultNotifyUrl: url });

	it("fills a create whose item gives no notifyUrl, and an item's own notifyUrl wins over it", async () => {
		const plain = brlRow();
		const own = brlRow();
		const parameters = brlPayout({ __rl: true, mode: 'list', value: 'PIX' });
		await runNode(sandbox(), { parameters, items: [plain], credential: withDefault() });
		await runNode(sandbox(), {
			parameters: { ...parameters, additionalFields: { notifyUrl: ITEM_URL } },
			items: [own],
			credential: withDefault(),
		});
		expect([sentBody(plain.orderId)?.notifyUrl, sentBody(own.orderId)?.notifyUrl]).toEqual([DEFAULT_URL, ITEM_URL]);
	});

	it("reads the item's field first when fields come from the item, and the default only where the field is empty", async () => {
		const given = brlRow({ notifyUrl: ITEM_URL });
		const empty = brlRow({ notifyUrl: '' });
		const parameters = {
			resource: 'payout',
			operation: 'create',
			currency: 'BRL',
			fieldsFrom: 'input',
			options: { notFoundAfter: 1 },
		};
		await runNode(sandbox(), { parameters, items: [given, empty], credential: withDefault() });
		expect([sentBody(given.orderId)?.notifyUrl, sentBody(empty.orderId)?.notifyUrl]).toEqual([ITEM_URL, DEFAULT_URL]);
	});

	it('sends no notifyUrl without a default, and refuses a default that is not a URL, naming the credential', async () => {
		const none = brlRow();
		const bad = brlRow();
		const parameters = brlPayout('PIX');
		await runNode(sandbox(), { parameters, items: [none], credential: credentialFor(sandbox(), 'BRL') });
		expect(sentBody(none.orderId)).toBeDefined();
		expect(sentBody(none.orderId)).not.toHaveProperty('notifyUrl');
		const out = await runNode(sandbox(), {
			parameters,
			items: [bad],
			credential: withDefault('webhook/haipay'),
			settings: { onError: 'continueRegularOutput' },
		});
		expect(out.jsonOf(NODE)[0]).toMatchObject({ outcome: 'invalid', field: 'notifyUrl', rule: 'format' });
		expect(String(out.jsonOf(NODE)[0].error)).toContain("The HaiPay credential's Default Notify URL");
		expect(sentBody(bad.orderId)).toBeUndefined();
	});

	it('fills a local collection too, and leaves a read without one', async () => {
		const orderId = uniqueOrderId('CAT-NOTIFY-PHP');
		const parameters: INodeParameters = named({
			resource: 'collection',
			operation: 'create',
			currency: 'PHP',
			orderId,
			...LOCAL_COLLECTIONS.PHP,
			options: { notFoundAfter: 1 },
		});
		await runNode(sandbox(), {
			parameters,
			credential: credentialFor(sandbox(), 'PHP', { defaultNotifyUrl: DEFAULT_URL }),
		});
		expect(sentBody(orderId)?.notifyUrl).toBe(DEFAULT_URL);
		await runNode(sandbox(), {
			parameters: { resource: 'collection', operation: 'get', currency: 'PHP', orderId },
			credential: credentialFor(sandbox(), 'PHP', { defaultNotifyUrl: DEFAULT_URL }),
		});
		const query = sandbox()
			.requests.filter((request) => request.path === '/php/collect/query')
			.at(-1);
		expect(query?.body).not.toHaveProperty('notifyUrl');
	});
});
