import { BALANCE_ENDPOINTS } from './balance';
import { CASHIER_ENDPOINTS } from './cashier';
import { COLLECTION_ENDPOINTS } from './collection';
import { LOCAL_COLLECTION_ENDPOINTS } from './local-collection';
import { REFUND_ENDPOINTS } from './refund';
import { PAYOUT_ENDPOINTS } from './payout';
import { QUERY_ENDPOINTS } from './query';
import { SUBSCRIPTION_ENDPOINTS } from './subscription';
import type { Endpoint } from './shared';
import { VOUCHER_ENDPOINTS } from './voucher';

/** The gateway's API: every path it answers, as the node's resources group them. Any other path is unknown (4040). */
const ROUTES = new Map<string, Endpoint>(
	[
		...PAYOUT_ENDPOINTS,
		...COLLECTION_ENDPOINTS,
		...QUERY_ENDPOINTS,
		...VOUCHER_ENDPOINTS,
		...BALANCE_ENDPOINTS,
		...LOCAL_COLLECTION_ENDPOINTS,
		...REFUND_ENDPOINTS,
		...SUBSCRIPTION_ENDPOINTS,
		...CASHIER_ENDPOINTS,
	].map((endpoint) => [endpoint.path, endpoint]),
);

export function endpointOf(path: string): Endpoint | undefined {
	return ROUTES.get(path);
}
