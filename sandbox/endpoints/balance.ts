import { KNOWN_CURRENCIES } from '../constants';
import type { Endpoint } from './shared';

/** `/{ccy}/account/ledger`: the appId's balances, for every currency the contract's paths know. */
export const BALANCE_ENDPOINTS: Endpoint[] = KNOWN_CURRENCIES.map((currency) => ({
	path: `/${currency.toLowerCase()}/account/ledger`,
	currency,
	schema: 'accountLedger',
	handle: (gateway, merchant) => ({ type: 'ok', merchant, data: gateway.book.ledger(merchant.appId) }),
}));
