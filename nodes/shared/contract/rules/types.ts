/**
 * One field of a gateway request, as the contract states it. The same record drives the node's parameter
 * (name, label, type, options, description) and the check made before anything is signed.
 */
export interface FieldRule {
	/** The gateway's field name, which is also the node parameter's name. */
	name: string;
	displayName: string;
	/** Required fields are top-level parameters; the others live in "Additional Fields". */
	required: boolean;
	description: string;
	placeholder?: string;
	/** The value must be one of these; shown as a drop-down. */
	enum?: string[];
	/** Labels for `enum` values in the drop-down. */
	enumLabels?: Record<string, string>;
	/** The whole value must match. `patternText` says it in words for the error message. */
	pattern?: RegExp;
	patternText?: string;
	/** Characters the field may hold, used to point at the offending ones when `pattern` fails. */
	allowedChars?: RegExp;
	minLength?: number;
	maxLength?: number;
	/** Decimal amount rules; set on `amount` fields only. */
	amount?: AmountRule;
	format?: 'email' | 'url';
	/** An integer field with an enum, such as `loadingType` (0 or 1). */
	integerEnum?: number[];
	/** A whole number sent as a JSON number, at least `min` (a subscription's `recurringIntervalCount`, "x >= 1"). */
	integer?: { min: number };
	/**
	 * Extra checks that need more than a pattern (e.g. EGP wallet numbers); return a reason (rule `pattern`), a reason
	 * under a rule of its own (a USDT address: `address`, `checksum`, `network`), or undefined.
	 */
	check?: (value: string, fields: Record<string, unknown>) => string | RuleProblem | undefined;
	/**
	 * What deserves a reviewer's look in a valid value, which is sent as given (Payout → Check's warnings): a USDT
	 * address on a network whose address form the package does not check.
	 */
	warn?: (value: string, fields: Record<string, unknown>) => string | undefined;
	/**
	 * The node's own choice, never sent to HaiPay (USDT's Network, which decides the address check): shown and checked
	 * as a field, left out of the signed body.
	 */
	nodeOnly?: boolean;
	/**
	 * The first HaiPay node version that shows and reads this field (docs/haipay-node.md, "Node versions"). Before it
	 * the field is neither shown nor read, so that a saved workflow runs as it did.
	 */
	since?: number;
	/**
	 * What the field decides about how much is paid, how often, to whom or where (a subscription's billing unit), beyond
	 * who is paid (`decidesPayee`): from node version 4 its drop-down starts on nothing, and an item without a value is
	 * refused, never charged on a default.
	 */
	decidesMoney?: string;
	/** An optional field that another field's value makes required (TRY: the Papara ID type when bankCode is PAPARA). */
	requiredWhen?: RequiredWhen;
	/**
	 * What the field decides about who is paid, in words ("the kind of PIX key in accountNo"): it is sent only as the
	 * user chose it or the item gives it, never from a drop-down's first value (docs/haipay-node.md, "Who is paid").
	 */
	decidesPayee?: string;
	/**
	 * The merchant's own ID for a create (orderId, a Refund ID): it may hold no invisible character, and two IDs of one
	 * run that read alike are one (identifiers.ts).
	 */
	identifier?: boolean;
}

/** A check's finding under a rule of its own name. */
export interface RuleProblem {
	rule: string;
	reason: string;
}

interface RequiredWhen {
	/** The condition in words, for the error and docs/haipay-node.md's tables: "bankCode is PAPARA". */
	when: string;
	/** Whether it holds for an item's values, as given (untrimmed, any case). */
	applies: (fields: Record<string, unknown>) => boolean;
}

export interface AmountRule {
	/** Most decimal places allowed; 0 means whole numbers only. */
	maxDecimals: number;
	/** Exactly this many decimals are required (USD MIT: `^\d+\.\d{2}$`). */
	exactDecimals?: number;
	/** Inclusive bounds as decimal strings, in the currency's unit. */
	min?: string;
	max?: string;
	/** An extra pattern the contract (NGN) or HaiPay's page (BRL) gives verbatim. */
	pattern?: RegExp;
	/** The pattern in words, for docs/haipay-node.md's tables ("contract pattern" when absent) and the error message. */
	patternText?: string;
	unit: string;
}

export interface RequestRules {
	/** The gateway path, e.g. `/tzs/pay/apply`. */
	path: string;
	fields: FieldRule[];
	/** TZS rejects unknown properties; the others let the gateway decide. */
	additionalProperties: boolean;
	/** Where rules beyond docs/contract.md come from: HaiPay's page for the currency, and how much of it could be read. */
	source?: PageSource;
	/**
	 * False where the query that settles this create publishes no "no such order" answer (docs/haipay-facts.md): the
	 * node then never concludes that the order does not exist. Contract §4.7 publishes one (status 3, no order).
	 */
	queryShowsAbsence?: boolean;
}

/**
 * A HaiPay API page a currency's rules were taken from (docs/haipay-facts.md, "Payout rails"). Official: the page
 * was read whole; partial: part of it could not be read, so only what was read is checked.
 */
export interface PageSource {
	certainty: 'official' | 'partial';
	page: string;
}
