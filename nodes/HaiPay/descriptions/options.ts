import type { INodeProperties } from 'n8n-workflow';

import { DEFAULT_CONCURRENCY, DEFAULT_READ_RETRIES, DEFAULT_REQUESTS_PER_SECOND, DEFAULT_TIMEOUT_MS } from '../execute/runner';

/** Run-wide settings: how fast and how politely a bulk run talks to the gateway. */
export const runOptions: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		{
			displayName: 'Concurrent Requests',
			name: 'concurrency',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 64 },
			default: DEFAULT_CONCURRENCY,
			description: 'How many items are in flight at once. Output order always follows input order.',
		},
		{
			displayName: 'Extra Fields (JSON)',
			name: 'extraFields',
			type: 'json',
			default: '{}',
			description:
				'Gateway fields this node does not list yet, as a JSON object. They are signed and sent as given. TZS payouts accept no extra fields.',
			displayOptions: { show: { operation: ['create'] } },
		},
		{
			displayName: 'Requests per Second',
			name: 'requestsPerSecond',
			type: 'number',
			typeOptions: { minValue: 0, numberPrecision: 2 },
			default: DEFAULT_REQUESTS_PER_SECOND,
			description: 'Spaces requests evenly to stay under a rate limit. 0 sends as fast as the concurrency allows.',
		},
		{
			displayName: 'Retries for Reads',
			name: 'retries',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: 10 },
			default: DEFAULT_READ_RETRIES,
			description:
				'Extra attempts for queries, balances and vouchers after a time-out, a 5xx or an unreadable answer, with backoff. Creates are never retried.',
		},
		{
			displayName: 'Timeout (Ms)',
			name: 'timeout',
			type: 'number',
			typeOptions: { minValue: 1000 },
			default: DEFAULT_TIMEOUT_MS,
			description:
				'How long to wait for an answer. A create that times out reports an unknown outcome: query it before sending it again.',
		},
	],
};
