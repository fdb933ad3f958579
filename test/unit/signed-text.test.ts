/**
 * Property: for every operation, the string to sign of any body the node accepts parses back into exactly that
 * body's fields, so one signature can never stand for another set of fields. Bodies come from random items whose
 * values mix ordinary text with the characters that could re-split the string (& = and control characters).
 */
import type { IExecuteFunctions, INode, INodeExecutionData } from 'n8n-workflow';

import { canonicalFields } from '../../nodes/shared/signing/canonical';
import { settingsOf } from '../../nodes/shared/signing/credential';
import { MIT_RULES } from '../../nodes/shared/contract/rules/collection';
import { CASHIER_RULES } from '../../nodes/shared/contract/rules/cashierCollection';
import { LOCAL_COLLECTION_RULES } from '../../nodes/shared/contract/rules/localCollection';
import { PAYOUT_RULES } from '../../nodes/shared/contract/rules/payout';
import { SUBSCRIPTION_RULES } from '../../nodes/shared/contract/rules/subscription';
import type { RequestRules } from '../../nodes/shared/contract/rules/types';
import { OPERATIONS } from '../../nodes/HaiPay/resources';
import { preparedRequest } from '../../nodes/HaiPay/execute/runner';
import type { Operation, Prepared } from '../../nodes/HaiPay/execute/types';
import type { HaiPaySettings } from '../../nodes/shared/signing/credential';
import { CASHIER_PAYMENT, LOCAL_COLLECTIONS, PAYOUTS, SUBSCRIPTION } from '../fixtures/bodies';
import { TEST_KEYS } from '../helpers/keys';
import { BASES } from '../helpers/rows';

/** A small seeded generator, so a failure can be replayed. */
function random(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state * 1664525 + 1013904223) >>> 0;
		return state / 2 ** 32;
	};
}

const PIECES = [
	'a',
	'Z',
	'7',
	' ',
	'-',
	'_',
	'.',
	'@',
	'&',
	'=',
	'&x=1',
	'\n',
	'\u0000',
	'\u007f',
	'é',
	'你',
	'1000',
	PAYOUTS.TZS.accountNo,
	PAYOUTS.TZS.name,
	'x@y.co',
];

function text(next: () => number): string {
	const length = Math.floor(next() * 5);
	let value = '';
	for (let index = 0; index < length; index++) value += PIECES[Math.floor(next() * PIECES.length)];
	return value;
}

/** HaiPay's rule for reading the signed text back: split on &, then on the first =. */
function parse(fields: string): Record<string, string> {
	const parsed: Record<string, string> = {};
	if (fields === '') return parsed;
	for (const pair of fields.split('&')) {
		const at = pair.indexOf('=');
		parsed[pair.slice(0, at)] = pair.slice(at + 1);
	}
	return parsed;
}

function rendered(body: Record<string, unknown>): Record<string, string> {
	const out: Record<string, string> = {};
	for (const [key, value] of Object.entries(body)) {
		if (value === undefined || value === null || value === '') continue;
		out[key] = typeof value === 'string' ? value : JSON.stringify(value);
	}
	return out;
}

function context(parameters: Record<string, unknown>, json: Record<string, unknown>): IExecuteFunctions {
	const node = { name: 'HaiPay', type: 'haiPay', typeVersion: 1, position: [0, 0], parameters } as unknown as INode;
	const items: INodeExecutionData[] = [{ json: json as INodeExecutionData['json'] }];
	return {
		getNode: () => node,
		getInputData: () => items,
		getNodeParameter: (name: string, _index: number, fallback?: unknown) => {
			let value: unknown = parameters;
			for (const key of name.split('.')) value = (value as Record<string, unknown> | undefined)?.[key];
			return value ?? fallback;
		},
	} as unknown as IExecuteFunctions;
}

const settings = settingsOf({
	environment: 'custom',
	baseUrl: 'http://127.0.0.1:1',
	appId: 1001,
	currency: '',
	secretKey: 'test-only-secret',
	privateKey: TEST_KEYS.merchantPkcs8,
});

/** Subscriptions are signed by the credential's USD App ID, which the other operations' credential lacks. */
const usdSettings = {
	...settings,
	...settingsOf({
		environment: 'custom',
		baseUrl: 'http://127.0.0.1:1',
		appId: 1001,
		currency: 'USD',
		secretKey: 'test-only-secret',
		privateKey: TEST_KEYS.merchantPkcs8,
	}),
};

/** The global cashier is signed by the credential's CASHIER App ID. */
const cashierSettings = {
	...settings,
	...settingsOf({
		environment: 'custom',
		baseUrl: 'http://127.0.0.1:1',
		appId: 1022,
		currency: 'CASHIER',
		secretKey: 'test-only-secret',
		privateKey: TEST_KEYS.merchantPkcs8,
	}),
};

const RULES: Record<string, RequestRules | undefined> = {
	...PAYOUT_RULES,
	MIT: MIT_RULES,
	SUBSCRIPTION: SUBSCRIPTION_RULES,
	CASHIER: CASHIER_RULES,
};

/** A valid global cashier payment, as Collection → Create Cashier Payment reads it from an input item. */
const CASHIER_ITEM: Record<string, unknown> = { orderId: 'CASHIER-1', ...CASHIER_PAYMENT };

/** A valid subscription, as Subscription → Create reads it from an input item. */
const SUBSCRIPTION_ITEM: Record<string, unknown> = {
	subscriptionOrderId: 'SUB-1',
	...SUBSCRIPTION,
	recurringIntervalCount: 1,
	currency: 'USD',
};

/** A valid item per currency: the payouts', the USD card collection's, and the local collections'. */
const ITEMS: Record<string, Record<string, unknown>> = {
	...BASES,
	SUBSCRIPTION: SUBSCRIPTION_ITEM,
	CASHIER: CASHIER_ITEM,
	...Object.fromEntries(
		Object.entries(LOCAL_COLLECTIONS).map(([currency, fields]) => [
			`local:${currency}`,
			{ orderId: `${currency}-1`, ...fields },
		]),
	),
};

/** The currencies an operation takes, as it would be asked for them: a create's own, and reads of several kinds. */
function currenciesOf(operation: Operation): string[] {
	if (operation.resource === 'subscription') return ['USD', 'TZS'];
	if (operation.operation === 'createCashier') return ['CASHIER'];
	if (operation.operation === 'getFixedAddress') return ['USDT', 'USDC'];
	if (operation.kind === 'read') return ['TZS', 'USDC', 'BRL', 'USD', 'TZS&x=1'];
	if (operation.resource === 'payout') return Object.keys(PAYOUT_RULES);
	return operation.operation === 'create' ? ['USD', ...Object.keys(LOCAL_COLLECTION_RULES)] : ['USD'];
}

function prepare(
	ctx: IExecuteFunctions,
	operation: Operation,
	using: HaiPaySettings,
): { prepared: Prepared } | { problem: unknown } {
	try {
		return { prepared: preparedRequest(ctx, operation, using, 0) };
	} catch (problem) {
		return { problem };
	}
}

describe.each(OPERATIONS.map((operation) => [`${operation.resource} ${operation.operation}`, operation] as const))(
	'%s',
	(_name, operation) => {
		it('signs only bodies whose signed text reads back as exactly their fields', () => {
			const next = random(operation.resource.length * 31 + operation.operation.length);
			let accepted = 0;
			let refused = 0;
			for (let round = 0; round < 400; round++) {
				const currencies = currenciesOf(operation);
				const currency = currencies[Math.floor(next() * currencies.length)];
				// The USD card collection's rules and base item are MIT's (a payout in USD has its own); the other
				// collections are the local ones.
				const local = operation.resource === 'collection' && operation.operation === 'create' && currency !== 'USD';
				const key =
					operation.operation === 'createCashier'
						? 'CASHIER'
						: operation.resource === 'subscription'
							? 'SUBSCRIPTION'
							: operation.resource === 'collection' && currency === 'USD'
								? 'MIT'
								: currency;
				const rules = local ? LOCAL_COLLECTION_RULES[currency as keyof typeof LOCAL_COLLECTION_RULES] : RULES[key];
				const json: Record<string, unknown> = { ...(local ? ITEMS[`local:${currency}`] : ITEMS[key]) };
				for (const rule of rules?.fields ?? []) if (next() < 0.15) json[rule.name] = text(next);
				const parameters: Record<string, unknown> = {
					resource: operation.resource,
					operation: operation.operation,
					currency,
					fieldsFrom: 'input',
					orderId: text(next),
					orderNo: text(next),
					orderNos: `${text(next)},${text(next)}`,
					subscriptionOrderId: text(next),
					subscriptionNo: text(next),
					inBankCode: next() < 0.5 ? 'FIX_TRX' : text(next),
					lang: 'en',
					options: next() < 0.3 ? { extraFields: JSON.stringify({ [text(next) || 'note']: text(next) }) } : {},
				};
				const using =
					operation.resource === 'subscription'
						? usdSettings
						: operation.operation === 'createCashier'
							? cashierSettings
							: settings;
				const outcome = prepare(context(parameters, json), operation, using);
				if ('problem' in outcome) {
					refused++;
					continue;
				}
				accepted++;
				const signed = { ...outcome.prepared.body, appId: using.appId };
				expect(parse(canonicalFields(signed))).toEqual(rendered(signed));
			}
			expect(refused).toBeGreaterThan(0);
			expect(accepted).toBeGreaterThan(0);
		});
	},
);
