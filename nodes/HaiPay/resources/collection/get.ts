import { CURRENCIES, type Currency } from '../../../shared/contract/currencies';
import { queryOperation } from '../query';

/** SAR, IDR and USDC are the contract's own collection queries; the others use the same generic path. */
const QUERY_CURRENCIES = Object.keys(CURRENCIES) as Currency[];

export const getCollection = queryOperation(
	'collection',
	QUERY_CURRENCIES,
	"The currency of the collection order. USDC answers are passed through whole, as the gateway's contract does not list their fields.",
);
