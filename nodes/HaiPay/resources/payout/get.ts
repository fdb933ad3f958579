import { CURRENCIES, type Currency } from '../../../shared/contract/currencies';
import { queryOperation } from '../query';

/** BRL and MYR are the contract's own payout queries; every other currency uses the same generic path. */
const QUERY_CURRENCIES = (Object.keys(CURRENCIES) as Currency[]).filter((code) => code !== 'USDC');

export const getPayout = queryOperation('payout', QUERY_CURRENCIES, 'The currency of the payout order');
