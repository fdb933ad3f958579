import type { OrderKind } from '../statuses';

/**
 * HaiPay's method codes as data: which `bankCode` a payout names, which `payType` and `inBankCode` a collection
 * names, per currency, each with the page it was read from. The node offers them as a searchable list and Payout →
 * Check compares a row's code with them; neither refuses a code the catalogue lacks, since HaiPay adds methods and
 * enables them per merchant (docs/method-catalogue.md).
 */

/** The request fields whose codes the catalogue lists: a payout's `bankCode`, a collection's `payType` and `inBankCode`. */
export type CatalogueField = 'bankCode' | 'payType' | 'inBankCode';

/**
 * How a row came to be known. `listed`: the page gives the field's allowed values. `named`: the page's text names the
 * code in a rule ("Required when bankCode=PAPARA"). `example`: the code is in one of the page's example requests, the
 * only code it shows. `transcribed`: a merchant's public copy of HaiPay's method table, not a HaiPay page.
 */
export type Certainty = 'listed' | 'named' | 'example' | 'transcribed';

export interface CatalogueSource {
	/** The address of the page, or a description of the copy for a transcription. */
	page: string;
	certainty: Certainty;
	/** What on the page the rows rest on, in a few words. */
	basis: string;
}

/** An amount range an official page's limits table states for the currency and direction. */
export interface MethodLimits {
	min: string;
	max: string;
	/** A key of SOURCES: always an official page, whatever the row's own source. */
	source: string;
}

export interface MethodEntry {
	kind: OrderKind;
	currency: string;
	/** The code sent: a payout's `bankCode`, a collection's `inBankCode`. */
	code: string;
	name: string;
	/** A payout's account type for this code, when the page ties them; undefined when it names none. */
	accountType?: string;
	/** A collection's `payType` this code goes with. */
	payType?: string;
	limits?: MethodLimits;
	/** A key of SOURCES. */
	source: string;
}
