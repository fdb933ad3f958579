import { ENDPOINTS } from '../../../shared/contract/endpoints';
import { queryOperation } from '../query';

export const getPayout = queryOperation(
	'payout',
	ENDPOINTS.payoutQuery,
	{ name: 'Get', description: 'Get the state of a payout order', action: 'Get a payout' },
	'The currency of the payout order',
);
