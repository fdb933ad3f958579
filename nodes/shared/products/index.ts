import { CASHIER_ENDPOINTS, CASHIER_ORDER } from './cashier';
import { COLLECTION_ORDER, PAYOUT_ORDER } from './order';
import { REFUND } from './refund';
import { CANCELLATION, SUBSCRIPTION, SUBSCRIPTION_ENDPOINTS } from './subscription';
import type { Product } from './types';

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

/** The product whose own App ID `currency` names (the Cashier App ID's cashier orders), or undefined. */
export function productOfApp(currency: string): Product | undefined {
	return Object.values<Product>(PRODUCTS).find((product) => product.app !== undefined && product.app === currency);
}
