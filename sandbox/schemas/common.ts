/**
 * Field shapes shared by several endpoints, written from the contract (docs/contract.md). Where the
 * contract leaves a rule open the sandbox is lenient and docs/sandbox.md says so: it should reject what the
 * contract forbids, never what it allows.
 */

export type Schema = Record<string, unknown>;

/** Contract 4.1-4.6: digits, letters and the symbols -~!@#$%&*()_ only. */
export const PARTNER_USER_ID_PATTERN = '^[A-Za-z0-9\\-~!@#$%&*()_]+$';

/** A plain decimal with no sign, no leading zeros and at most two decimals. */
export const TWO_DECIMALS_PATTERN = '^(0|[1-9]\\d*)(\\.\\d{1,2})?$';

export const appId: Schema = { type: 'integer' };
export const orderId: Schema = { type: 'string', minLength: 1, maxLength: 48 };
export const sign: Schema = { type: 'string', minLength: 1 };
/** A number HaiPay gave: an orderNo, a refundNo, a subscriptionNo. */
export const haiPayNo: Schema = { type: 'string', minLength: 1, maxLength: 64 };
export const text: Schema = { type: 'string' };
export const nonEmptyText: Schema = { type: 'string', minLength: 1 };
export const url: Schema = { type: 'string', format: 'uri' };
export const email: Schema = { type: 'string', format: 'email' };
/** "A real phone number": digits with an optional leading +, 6 to 20 digits. */
export const phone: Schema = { type: 'string', pattern: '^\\+?[0-9]{6,20}$' };
export const partnerUserId: Schema = { type: 'string', pattern: PARTNER_USER_ID_PATTERN };

/** The collections' payer name: "firstName lastName", two or more words separated by a space. */
export const fullName: Schema = {
	type: 'string',
	pattern: '^\\S+(?: \\S+)+$',
	hint: 'firstName lastName separated by a space',
};

/** A request that names one order by the merchant's orderId and HaiPay's orderNo, both required. */
export const byOrderIdAndNo: Schema = {
	type: 'object',
	required: ['appId', 'orderId', 'orderNo', 'sign'],
	properties: { appId, orderId, orderNo: haiPayNo, sign },
};

/**
 * 'firstName middleName lastName', middleName optional, English letters only, 1-30 characters. One word is
 * accepted, since the contract's own minimum is one character.
 */
export const englishName: Schema = {
	type: 'string',
	minLength: 1,
	maxLength: 30,
	pattern: '^[A-Za-z]+(?: [A-Za-z]+){0,2}$',
};

/**
 * The most digits before the decimal point the sandbox's books take, in every currency. HaiPay publishes no upper
 * limit for NGN and others, yet refused an NGN amount of 30 digits: its books, like any, hold so many digits. 15 is
 * beyond any merchant's balance (999 trillion VND is about US$40 billion); the node refuses more too (docs/sandbox.md).
 */
export const MAX_WHOLE_DIGITS = 15;

/** `decimal` is the sandbox's own keyword (see schemas/index.ts): an exact range check on a decimal string. */
export function amount(pattern: string, range: { min?: string; max?: string; minExclusive?: string }): Schema {
	return { type: 'string', pattern, decimal: { ...range, maxWholeDigits: MAX_WHOLE_DIGITS } };
}

/*
 * Shapes of the payout rails beyond the contract, as HaiPay's page for each currency gives them
 * (docs/haipay-facts.md, "Payout rails").
 */

/** `^\d+\.\d{2}$` on most rails' pages: exactly two decimals (and, here as for every amount, no leading zero). */
export const EXACT_TWO_DECIMALS_PATTERN = '^(0|[1-9]\\d*)\\.\\d{2}$';

/** `^[A-Za-z\s'.-]+$`, 1-30 characters: the recipient name of most rails' pages. */
export const lettersName: Schema = { type: 'string', minLength: 1, maxLength: 30, pattern: "^[A-Za-z\\s'.-]+$" };

/** An IBAN's shape, as HaiPay's EUR page gives it. */
export const IBAN_PATTERN = '^[A-Z]{2}[0-9]{2}[A-Z0-9]{1,30}$';

/** An enum of text values. */
export function oneOf(...values: string[]): Schema {
	return { type: 'string', enum: values };
}

/** `then` when `field` has `value`: a rule of one field that depends on another's value. */
export function when(field: string, value: string, then: Schema): Schema {
	return {
		if: { type: 'object', required: [field], properties: { [field]: { const: value } } },
		then: { type: 'object', ...then },
	};
}

/** What most payout pages list after the payee's phone, in their order: the email, the merchant's user, the signature and three optional texts. */
export const payoutTail: Schema = { email, partnerUserId, sign, notifyUrl: url, subject: text, body: text };

/** The payee fields most rails' payout pages list, in the pages' order, all required but the three texts. */
const RAIL_PAYOUT_REQUIRED = [
	'appId',
	'orderId',
	'amount',
	'accountType',
	'bankCode',
	'accountNo',
	'name',
	'phone',
	'email',
	'partnerUserId',
	'sign',
];

/**
 * A rail's payout request whose page lists that payee block: the page's own shapes for the amount and account type,
 * and for the fields it narrows; every other field as most pages give it.
 */
export function railPayApply(own: { amount: Schema; accountType: Schema; phone?: Schema }): Schema {
	return {
		type: 'object',
		required: RAIL_PAYOUT_REQUIRED,
		properties: {
			appId,
			orderId,
			amount: own.amount,
			accountType: own.accountType,
			bankCode: nonEmptyText,
			accountNo: nonEmptyText,
			name: lettersName,
			phone: own.phone ?? phone,
			...payoutTail,
		},
	};
}
