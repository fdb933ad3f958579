import { CASHIER_ORDER } from './cashier';
import { COLLECTION_ORDER, PAYOUT_ORDER } from './order';
import { REFUND } from './refund';
import { CANCELLATION, SUBSCRIPTION } from './subscription';
import type { Product, ProductName } from './types';

/** Every thing HaiPay numbers, by the name an endpoint declares (contract/endpoints.ts `makes`). */
export const PRODUCTS: Record<ProductName, Product> = {
	payoutOrder: PAYOUT_ORDER,
	collectionOrder: COLLECTION_ORDER,
	refund: REFUND,
	subscription: SUBSCRIPTION,
	cancellation: CANCELLATION,
	cashierOrder: CASHIER_ORDER,
};

/** The product whose own App ID `currency` names (the Cashier App ID's cashier orders), or undefined. */
export function productOfApp(currency: string): Product | undefined {
	return Object.values(PRODUCTS).find((product) => product.app !== undefined && product.app === currency);
}
