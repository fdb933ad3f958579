/**
 * The method catalogue: its rows as data (sources, limits, what the node's own rules accept), the search behind the
 * node's lists, the check's warning, and the code fields each node version shows. The list searches run in
 * n8n-core's LoadOptionsContext, as the editor runs them.
 */
import { readFileSync } from 'fs';
import { join } from 'path';
import type { INode, INodeParameters, INodeProperties } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { HaiPay } from '../../nodes/HaiPay/HaiPay.node';
import { plainValue } from '../../nodes/HaiPay/descriptions/catalogue';
import {
	CATALOGUE_VERSION,
	METHODS,
	SOURCES,
	cataloguedCurrencies,
	hasCatalogue,
	payoutCodeWarning,
	searchCatalogue,
	sourceOf,
} from '../../nodes/shared/contract/catalogue';
import { LOCAL_COLLECTION_RULES } from '../../nodes/shared/contract/rules/localCollection';
import { PAYOUT_CURRENCIES, PAYOUT_RULES } from '../../nodes/shared/contract/rules/payout';
import type { RequestRules } from '../../nodes/shared/contract/rules/types';
import { runListSearch } from '../harness';

const description = new HaiPay().description;
const DOC = readFileSync(join(__dirname, '..', '..', 'docs', 'method-catalogue.md'), 'utf8');

function rulesOf(kind: 'payout' | 'collection', currency: string): RequestRules {
	const table: Record<string, RequestRules> = kind === 'payout' ? PAYOUT_RULES : LOCAL_COLLECTION_RULES;
	return table[currency];
}

describe('catalogue rows', () => {
	it.each(METHODS.map((entry) => [`${entry.kind} ${entry.currency} ${entry.code}`, entry] as const))(
		'%s: has a source, and the node accepts its codes',
		(_, entry) => {
			expect(Object.keys(SOURCES)).toContain(entry.source);
			if (entry.limits !== undefined) expect(sourceOf(entry.limits).certainty).not.toBe('transcribed');
			const rules = rulesOf(entry.kind, entry.currency);
			expect(rules).toBeDefined();
			const checks =
				entry.kind === 'payout'
					? [['bankCode', entry.code]]
					: [
							['payType', entry.payType],
							['inBankCode', entry.code],
						];
			for (const [field, value] of checks) {
				const rule = rules.fields.find((candidate) => candidate.name === field);
				expect({ field, required: rule?.required }).toEqual({ field, required: true });
				if (rule?.enum !== undefined)
					expect({ field, value, allowed: rule.enum.includes(String(value)) }).toEqual({ field, value, allowed: true });
				if (rule?.pattern !== undefined)
					expect({ field, value, matches: rule.pattern.test(String(value)) }).toEqual({ field, value, matches: true });
			}
			if (entry.accountType !== undefined) {
				const accountType = rules.fields.find((candidate) => candidate.name === 'accountType');
				if (accountType?.enum !== undefined) expect(accountType.enum).toContain(entry.accountType);
			}
		},
	);

	it('never lists a code twice for one currency and pay type', () => {
		const keys = METHODS.map((entry) => `${entry.kind}/${entry.currency}/${entry.payType ?? ''}/${entry.code}`);
		expect(new Set(keys).size).toBe(keys.length);
	});

	it('covers every currency whose page names its codes, and docs/method-catalogue.md names each one and each page', () => {
		expect(cataloguedCurrencies('payout').sort()).toEqual(['BRL', 'MXN', 'TRY', 'TZS', 'USD', 'ZAR']);
		expect(cataloguedCurrencies('collection').sort()).toEqual(['BDT', 'BRL', 'IDR', 'PHP']);
		const payouts = DOC.slice(DOC.indexOf('## Payouts'), DOC.indexOf('## Local collections'));
		for (const currency of PAYOUT_CURRENCIES)
			expect({ currency, inDocs: new RegExp(`\\| [A-Z, ]*\\b${currency}\\b`).test(payouts) }).toEqual({
				currency,
				inDocs: true,
			});
		for (const source of Object.values(SOURCES))
			expect({ page: source.page, inDocs: DOC.includes(source.page.split(' ')[0]) }).toEqual({
				page: source.page,
				inDocs: true,
			});
		expect(DOC).toContain(CATALOGUE_VERSION);
		for (const entry of METHODS)
			expect({ code: entry.code, inDocs: DOC.includes(`\`${entry.code}\``) }).toEqual({
				code: entry.code,
				inDocs: true,
			});
	});
});

describe('searching the catalogue', () => {
	it('narrows to the currency and to the filter, ignoring case, across code and name', () => {
		expect(searchCatalogue('payout', 'bankCode', 'BRL').map((choice) => choice.value)).toEqual(['PIX']);
		expect(
			searchCatalogue('payout', 'bankCode', 'TZS', 'pesa')
				.map((choice) => choice.value)
				.sort(),
		).toEqual(['HALOPESA', 'TIGO', 'VODACOM']);
		expect(searchCatalogue('payout', 'bankCode', 'TZS', 'AIRTEL').map((choice) => choice.value)).toEqual(['AIRTEL']);
		expect(searchCatalogue('collection', 'inBankCode', 'BDT', 'nag').map((choice) => choice.value)).toEqual([
			'BDT_NAGAD',
		]);
		expect(searchCatalogue('payout', 'bankCode', 'TZS', 'no such method')).toEqual([]);
	});

	it('lists nothing for a currency without a catalogue, or one HaiPay has no such field for', () => {
		expect(searchCatalogue('payout', 'bankCode', 'NGN')).toEqual([]);
		expect(searchCatalogue('payout', 'bankCode', 'XYZ')).toEqual([]);
		expect(searchCatalogue('collection', 'inBankCode', 'USD')).toEqual([]);
		expect(hasCatalogue('payout', 'bankCode', 'NGN')).toBe(false);
		expect(hasCatalogue('payout', 'accountNo', 'BRL')).toBe(false);
		expect(hasCatalogue('collection', 'payType', 'PHP')).toBe(true);
	});

	it('with the currency unknown (an expression), lists every currency, each choice named with its currency', () => {
		const all = searchCatalogue('payout', 'bankCode', undefined);
		expect(all).toHaveLength(METHODS.filter((entry) => entry.kind === 'payout').length);
		expect(all.find((choice) => choice.value === 'PayPal')?.name).toBe('USD · PayPal (PayPal) · EWALLET');
	});

	it('names each choice with its source and, where an official table gives them, its limits', () => {
		const [pix] = searchCatalogue('collection', 'inBankCode', 'BRL');
		expect(pix).toEqual({
			value: 'PIX',
			name: 'PIX QR code (PIX) · QR',
			description: `example: ${SOURCES.brazilPage.page}; 1-10000 BRL (HaiPay's limits table)`,
		});
		expect(searchCatalogue('collection', 'payType', 'PHP').map((choice) => choice.value)).toEqual([
			'PAYMENT_GATEWAY',
			'QR',
		]);
	});
});

describe("the check's warning", () => {
	it('is silent for a listed code, or where the catalogue lists nothing', () => {
		expect(payoutCodeWarning('BRL', 'PIX', 'EWALLET')).toBeUndefined();
		expect(payoutCodeWarning('MXN', 'STP', 'BANK_CARD')).toBeUndefined();
		expect(payoutCodeWarning('NGN', '058', 'BANK_ACCOUNT')).toBeUndefined();
		expect(payoutCodeWarning('BRL', '', 'EWALLET')).toBeUndefined();
	});

	it('names a code outside the catalogue, the catalogue version and what it lists', () => {
		expect(payoutCodeWarning('BRL', 'TED', 'EWALLET')).toBe(
			`bankCode "TED" is not in the method catalogue ${CATALOGUE_VERSION} for BRL (it lists PIX): HaiPay may have added it since; check it with HaiPay before paying`,
		);
		expect(payoutCodeWarning('USD', 'paypal', 'EWALLET')).toContain('it lists "PayPal", written otherwise');
		expect(payoutCodeWarning('ZAR', '051001', 'EWALLET')).toContain('with accountType BANK_ACCOUNT, not EWALLET');
	});
});

describe('the list searches, run as the editor runs them', () => {
	const search = (parameters: INodeParameters, parameter: string, method: string, filter?: string) =>
		runListSearch({ nodeType: HaiPay, type: 'haiPay', parameters, parameter, method, filter });

	it('reads the fixed currency and the resource from the panel', async () => {
		const payout = await search(
			{ resource: 'payout', operation: 'create', currency: 'TZS' },
			'bankCode',
			'searchBankCodes',
			'voda',
		);
		expect(payout.results.map((result) => result.value)).toEqual(['VODACOM']);
		const collection = await search(
			{ resource: 'collection', operation: 'create', currency: 'PHP' },
			'inBankCode',
			'searchPaymentMethods',
			'gcash',
		);
		expect(collection.results.map((result) => result.value)).toEqual(['GCASH_URL', 'GCASH_QR']);
		const payTypes = await search(
			{ resource: 'collection', operation: 'create', currency: 'BRL' },
			'payType',
			'searchPayTypes',
		);
		expect(payTypes.results).toEqual([{ name: 'QR', value: 'QR', description: 'For PIX QR code' }]);
	});

	it('lists every currency under an expression, nothing for an unknown or uncatalogued one, and nothing the filter leaves out', async () => {
		const mapped = await search(
			{ resource: 'payout', operation: 'create', currency: '={{ $json.currency }}' },
			'bankCode',
			'searchBankCodes',
		);
		expect(new Set(mapped.results.map((result) => String(result.name).slice(0, 3)))).toEqual(
			new Set(cataloguedCurrencies('payout')),
		);
		expect(
			(await search({ resource: 'payout', operation: 'create', currency: 'XYZ' }, 'bankCode', 'searchBankCodes'))
				.results,
		).toEqual([]);
		expect(
			(await search({ resource: 'payout', operation: 'create', currency: 'INR' }, 'bankCode', 'searchBankCodes'))
				.results,
		).toEqual([]);
		expect(
			(await search({ resource: 'payout', operation: 'create', currency: 'BRL' }, 'bankCode', 'searchBankCodes', 'zzz'))
				.results,
		).toEqual([]);
	});
});

describe('code fields per node version', () => {
	const node = (typeVersion: number): INode => ({
		id: '1',
		name: 'HaiPay',
		type: 'haiPay',
		typeVersion,
		position: [0, 0],
		parameters: {},
	});
	function fieldOf(choices: INodeParameters, name: string, typeVersion: number): INodeProperties | undefined {
		return description.properties.find(
			(property) =>
				property.name === name && NodeHelpers.displayParameter(choices, property, node(typeVersion), description),
		);
	}

	it('version 3 lists catalogued codes, From List or By Code; versions 1 and 2 keep text', () => {
		const brl = { resource: 'payout', operation: 'create', currency: 'BRL', fieldsFrom: 'parameters' };
		const listed = fieldOf(brl, 'bankCode', 3);
		expect(listed?.type).toBe('resourceLocator');
		expect(listed?.default).toEqual({ mode: 'list', value: '' });
		expect(listed?.modes?.map((mode) => [mode.name, mode.type, mode.typeOptions?.searchListMethod])).toEqual([
			['list', 'list', 'searchBankCodes'],
			['id', 'string', undefined],
		]);
		for (const version of [1, 2]) expect(fieldOf(brl, 'bankCode', version)?.type).toBe('string');
		expect(fieldOf({ ...brl, operation: 'check' }, 'bankCode', 3)?.type).toBe('resourceLocator');
	});

	it('leaves uncatalogued currencies, drop-downs and the USD card collection as they were', () => {
		expect(
			fieldOf({ resource: 'payout', operation: 'create', currency: 'NGN', fieldsFrom: 'parameters' }, 'bankCode', 3)
				?.type,
		).toBe('string');
		expect(
			fieldOf({ resource: 'payout', operation: 'create', currency: 'TZS', fieldsFrom: 'parameters' }, 'bankCode', 3)
				?.type,
		).toBe('options');
		const idr = { resource: 'collection', operation: 'create', currency: 'IDR', fieldsFrom: 'parameters' };
		expect([fieldOf(idr, 'payType', 3)?.type, fieldOf(idr, 'inBankCode', 3)?.type]).toEqual([
			'options',
			'resourceLocator',
		]);
		const usd = { resource: 'collection', operation: 'create', currency: 'USD', fieldsFrom: 'parameters' };
		expect([fieldOf(usd, 'payType', 3)?.type, fieldOf(usd, 'inBankCode', 3)?.type]).toEqual(['string', 'string']);
	});

	it('reads a locator as the code it holds, and text as itself', () => {
		expect(plainValue({ __rl: true, mode: 'list', value: 'PIX' })).toBe('PIX');
		expect(plainValue({ __rl: true, mode: 'id', value: 'NEWCODE' })).toBe('NEWCODE');
		expect(plainValue('PIX')).toBe('PIX');
		expect(plainValue({ value: 'not a locator' })).toEqual({ value: 'not a locator' });
		expect(plainValue(undefined)).toBeUndefined();
	});
});
