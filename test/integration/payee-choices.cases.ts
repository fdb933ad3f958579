/**
 * No silent default for who is paid. A drop-down that decides who or what identity is paid (the
 * kind of account, BRL's PIX key type, TZS's operator, PKR's gender) is sent only as the user chose it or as the row
 * gives it: never as the first value n8n fills in. Real n8n-core executions against the sandbox over HTTP; the
 * sandbox's request log shows what reached it.
 */
import type { ICredentialDataDecryptedObject, IDataObject, INodeParameters } from 'n8n-workflow';

import { parameterNames } from '../../nodes/HaiPay/descriptions/fieldNames';
import { appFieldNames } from '../../nodes/shared/signing/apps';
import type { Sandbox } from '../../sandbox';
import { APP_IDS, PAYOUTS, type PayoutCurrency } from '../fixtures/bodies';
import { credentialFor, NODE, runNode, sandboxPerFile, uniqueOrderId } from './helpers';

const running = sandboxPerFile({ manual: true });
const keepGoing = { onError: 'continueRegularOutput' };

/** One credential holding an App ID for each of the given currencies. */
function credential(sandbox: Sandbox, [first, ...others]: PayoutCurrency[]): ICredentialDataDecryptedObject {
	const data = credentialFor(sandbox, first, { otherCurrencies: others });
	for (const currency of others) {
		const names = appFieldNames(currency);
		data[names.appId] = APP_IDS[currency];
		data[names.secretKey] = `test-only-secret-${currency.toLowerCase()}`;
	}
	return data;
}

/** The fields a person maps with expressions on a mixed sheet: every text field, none of the drop-downs below. */
const MAPPED = [
	'orderId',
	'amount',
	'accountType',
	'bankCode',
	'accountNo',
	'name',
	'phone',
	'email',
	'partnerUserId',
	'subject',
	'birth',
];

function mixedSheet(extra: INodeParameters = {}): INodeParameters {
	const parameters: INodeParameters = {
		resource: 'payout',
		operation: 'create',
		currency: '={{ $json.currency }}',
		options: { notFoundAfter: 1 },
	};
	// With the currency mapped, every kind of a field shows (version 4 names them apart): each is mapped.
	for (const field of MAPPED) for (const name of parameterNames(field)) parameters[name] = `={{ $json.${field} }}`;
	return { ...parameters, ...extra };
}

function row(currency: PayoutCurrency, overrides: IDataObject = {}): IDataObject {
	return { currency, orderId: uniqueOrderId(`WHO-${currency}`), ...PAYOUTS[currency], ...overrides };
}

/** A BRL row whose PIX key is a phone number of 11 digits: sent as a CPF it would pay whoever holds that CPF. */
const phoneKey = (overrides: IDataObject = {}) =>
	row('BRL', { identifyType: 'PHONE', accountNo: '11987654321', ...overrides });
const female = (overrides: IDataObject = {}) => row('PKR', { gender: 'FEMALE', ...overrides });

function sent(sandbox: Sandbox, orderId: unknown): IDataObject[] {
	return sandbox.requests
		.filter((entry) => entry.path.endsWith('/pay/apply') && (entry.body as IDataObject)?.orderId === orderId)
		.map((entry) => entry.body as IDataObject);
}

describe('a mixed sheet mapped by expressions, its drop-downs left alone', () => {
	it('refuses the rows a drop-down decides, naming the field, and sends nothing for them', async () => {
		const sandbox = running();
		const rows = [phoneKey(), female(), row('TZS')];
		const result = await runNode(sandbox, {
			parameters: mixedSheet(),
			items: rows,
			credential: credential(sandbox, ['BRL', 'PKR', 'TZS']),
			settings: keepGoing,
		});
		const out = result.jsonOf(NODE);
		expect(out[0]).toMatchObject({
			outcome: 'invalid',
			field: 'identifyType',
			rule: 'required',
			orderId: rows[0].orderId,
		});
		expect(String(out[0].error)).toMatch(/decides who is paid/);
		expect(out[1]).toMatchObject({ outcome: 'invalid', field: 'gender', rule: 'required', orderId: rows[1].orderId });
		expect(out[2]).toMatchObject({ outcome: 'accepted', orderId: rows[2].orderId });
		expect(sent(sandbox, rows[0].orderId)).toEqual([]);
		expect(sent(sandbox, rows[1].orderId)).toEqual([]);
	});

	it('sends each row as its own column says once the drop-downs are mapped too', async () => {
		const sandbox = running();
		const rows = [phoneKey(), female()];
		const parameters = mixedSheet({ identifyType: '={{ $json.identifyType }}', gender: '={{ $json.gender }}' });
		const result = await runNode(sandbox, {
			parameters,
			items: rows,
			credential: credential(sandbox, ['BRL', 'PKR']),
			settings: keepGoing,
		});
		expect(result.jsonOf(NODE).map((item) => item.outcome)).toEqual(['accepted', 'accepted']);
		expect(sent(sandbox, rows[0].orderId)).toEqual([
			expect.objectContaining({ identifyType: 'PHONE', accountNo: '11987654321' }),
		]);
		expect(sent(sandbox, rows[1].orderId)).toEqual([expect.objectContaining({ gender: 'FEMALE' })]);
	});
});

describe('one currency, set on the panel', () => {
	const brl = (extra: INodeParameters = {}) => ({ ...mixedSheet(extra), currency: 'BRL' });

	it('a PIX key type left unchosen is refused; one chosen is sent as chosen', async () => {
		const sandbox = running();
		const credentialData = credentialFor(sandbox, 'BRL');
		const unchosen = row('BRL');
		delete unchosen.identifyType;
		const left = await runNode(sandbox, {
			parameters: brl(),
			items: [unchosen],
			credential: credentialData,
			settings: keepGoing,
		});
		expect(left.jsonOf(NODE)[0]).toMatchObject({ outcome: 'invalid', field: 'identifyType', rule: 'required' });
		expect(sent(sandbox, unchosen.orderId)).toEqual([]);

		const chosen = row('BRL', { accountNo: 'joao@example.com', identifyType: undefined });
		const made = await runNode(sandbox, {
			parameters: brl({ identifyType: 'EMAIL' }),
			items: [chosen],
			credential: credentialData,
			settings: keepGoing,
		});
		expect(made.jsonOf(NODE)[0]).toMatchObject({ outcome: 'accepted' });
		expect(sent(sandbox, chosen.orderId)).toEqual([
			expect.objectContaining({ identifyType: 'EMAIL', accountNo: 'joao@example.com' }),
		]);
	});

	it("a chosen value the row's own column contradicts is refused (rule conflict), in every node version", async () => {
		const sandbox = running();
		for (const typeVersion of [1, 2]) {
			const item = phoneKey();
			const result = await runNode(sandbox, {
				parameters: brl({ identifyType: 'CPF' }),
				items: [item],
				credential: credentialFor(sandbox, 'BRL'),
				settings: { ...keepGoing, typeVersion },
			});
			expect(result.jsonOf(NODE)[0]).toMatchObject({ outcome: 'invalid', field: 'identifyType', rule: 'conflict' });
			expect(String(result.jsonOf(NODE)[0].error)).toMatch(/CPF on the node.*PHONE in the item/);
			expect(sent(sandbox, item.orderId)).toEqual([]);
		}
	});
});

describe('Fields From → Input Item Fields', () => {
	it("sends the row's own value, and refuses a row without one", async () => {
		const sandbox = running();
		const rows = [phoneKey(), female({ gender: undefined })];
		const parameters = {
			resource: 'payout',
			operation: 'create',
			currency: '={{ $json.currency }}',
			fieldsFrom: 'input',
			options: { notFoundAfter: 1 },
		};
		const result = await runNode(sandbox, {
			parameters,
			items: rows,
			credential: credential(sandbox, ['BRL', 'PKR']),
			settings: keepGoing,
		});
		expect(result.jsonOf(NODE)[0]).toMatchObject({ outcome: 'accepted' });
		expect(sent(sandbox, rows[0].orderId)).toEqual([expect.objectContaining({ identifyType: 'PHONE' })]);
		expect(result.jsonOf(NODE)[1]).toMatchObject({ outcome: 'invalid', field: 'gender', rule: 'required' });
	});
});

describe('node version 1, as saved workflows have it', () => {
	it('keeps its first-value defaults for a row that says nothing else', async () => {
		const sandbox = running();
		const item = row('BRL');
		delete item.identifyType;
		const result = await runNode(sandbox, {
			parameters: { ...mixedSheet(), currency: 'BRL' },
			items: [item],
			credential: credentialFor(sandbox, 'BRL'),
			settings: { ...keepGoing, typeVersion: 1 },
		});
		expect(result.jsonOf(NODE)[0]).toMatchObject({ outcome: 'accepted' });
		expect(sent(sandbox, item.orderId)).toEqual([expect.objectContaining({ identifyType: 'CPF' })]);
	});
});
