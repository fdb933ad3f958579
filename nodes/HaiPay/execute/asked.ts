import { plainDecimal } from '../../shared/decimal';
import type { Asked, Product } from '../../shared/products/types';
import { exactText } from '../../shared/text';
import type { Prepared } from './types';

/**
 * What a prepared request asked for, as the product's judge holds HaiPay's answers against it: its own ID, the
 * amount and currencies it was sent with, and for a refund the payment. A stablecoin collection priced in another
 * currency asks no amount: HaiPay may answer it in the coin, converted, and no page says which.
 */
export function askedOf(prepared: Prepared, product: Product): Asked {
	const pricedIn = exactText(prepared.body.currency);
	const currencies = [...new Set([prepared.currency, pricedIn].filter((code) => code !== ''))];
	const converted = pricedIn !== '' && pricedIn !== prepared.currency;
	const amount = converted ? undefined : plainDecimal(prepared.body.amount);
	return {
		ownId: prepared.orderId ?? '',
		currencies,
		...(amount !== undefined ? { amount } : {}),
		...(product.paymentMember !== undefined ? { payment: exactText(prepared.body[product.paymentMember]) } : {}),
	};
}
