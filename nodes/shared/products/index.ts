import type { INodePropertyOptions } from 'n8n-workflow';

import { CURRENCY_OPTIONS } from '../contract/currencies';
import type { PathSigners } from '../signing/credential';
import { CASHIER_ENDPOINTS, CASHIER_ORDER } from './cashier';
import { COLLECTION_ORDER, PAYOUT_ORDER } from './order';
import { REFUND } from './refund';
import { CANCELLATION, SUBSCRIPTION, SUBSCRIPTION_CHARGE, SUBSCRIPTION_ENDPOINTS } from './subscription';
import type { NamedProduct, Product } from './types';

/** Every thing HaiPay numbers, by the name an endpoint declares (contract/endpoints.ts `makes`). */
export const PRODUCTS = {
	payoutOrder: PAYOUT_ORDER,
	collectionOrder: COLLECTION_ORDER,
	refund: REFUND,
	subscription: SUBSCRIPTION,
	cancellation: CANCELLATION,
	cashierOrder: CASHIER_ORDER,
} satisfies Record<string, Product>;

/** What a request sent once makes, by the name of its product. */
export type ProductName = keyof typeof PRODUCTS;

/** The endpoints the product modules declare, in the order contract/endpoints.ts lists them. */
export const PRODUCT_ENDPOINTS = { ...SUBSCRIPTION_ENDPOINTS, ...CASHIER_ENDPOINTS };

const ALL: readonly Product[] = Object.values(PRODUCTS);

/** The product whose own App ID `currency` names (the Cashier App ID's cashier orders), or undefined. */
export function productOfApp(currency: string): Product | undefined {
	return ALL.find((product) => product.app !== undefined && product.app === currency);
}

/** The App IDs that belong to a product rather than a currency, each with the product's name. */
export const PRODUCT_APPS: Readonly<Record<string, string>> = Object.fromEntries(
	ALL.flatMap((product) => (product.app === undefined ? [] : [[product.app, product.appName ?? product.app]])),
);

/** Whether the App ID of this currency is a product's rather than a currency's. */
export function isProductApp(currency: string): boolean {
	return Object.prototype.hasOwnProperty.call(PRODUCT_APPS, currency);
}

/** Every App ID a credential can hold, as choices: the currencies', then the products' (`CODE (Product Name)`). */
export const APP_OPTIONS: INodePropertyOptions[] = [
	...CURRENCY_OPTIONS,
	...Object.entries(PRODUCT_APPS).map(([value, product]) => ({ name: `${value} (${product})`, value })),
];

/** The paths that name a product instead of a currency, by their first segment upper-cased, and who signs them. */
export const PATH_SIGNERS: PathSigners = new Map(
	ALL.flatMap((product) =>
		product.pathPrefix === undefined ? [] : [[product.pathPrefix.toUpperCase(), product.app ?? '']],
	),
);

/** The products a callback names by a member of its own (products/types.ts `CallbackNaming`), in the order asked. */
export const NAMED_BY_CALLBACK = [SUBSCRIPTION_CHARGE] as const satisfies readonly NamedProduct[];

/** The trigger's kinds of such callbacks. */
export type NamedKind = (typeof NAMED_BY_CALLBACK)[number]['callback']['kind'];

/** The product a trigger kind names, or undefined for a kind of no such product (a payout, a collection). */
export function namedProductOfKind(kind: string): NamedProduct | undefined {
	return NAMED_BY_CALLBACK.find((product) => product.callback.kind === kind);
}

/** Why each ID a request carries is sent once, by the field holding it, as the product modules say. */
export const TAKEN_ONCE: Readonly<Record<string, string>> = Object.assign(
	{},
	...ALL.map((product) => product.takenOnce ?? {}),
) as Record<string, string>;
