import { ENDPOINTS } from '../../../shared/contract/endpoints';
import { queryOperation } from '../query';

export const getCollection = queryOperation(
	'collection',
	ENDPOINTS.collectionQuery,
	{ name: 'Get', description: 'Get the state of a collection order', action: 'Get a collection' },
	"The currency of the collection order. USDC answers are passed through whole, as the gateway's contract does not list their fields.",
);
