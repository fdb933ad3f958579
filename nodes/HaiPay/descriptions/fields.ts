import type { INodeProperties } from 'n8n-workflow';

import { currencyOptions, type Currency } from '../../shared/contract/currencies';

/** Parameters more than one operation shows, each limited to the operation that shows it. */

function shownFor(resource: string, operation: string): INodeProperties['displayOptions'] {
	return { show: { resource: [resource], operation: [operation] } };
}

export function currencyParameter(
	resource: string,
	operation: string,
	codes: readonly Currency[],
	description: string,
): INodeProperties {
	const [first] = codes;
	return {
		displayName: 'Currency',
		name: 'currency',
		type: 'options',
		options: currencyOptions(codes),
		default: first,
		description,
		displayOptions: shownFor(resource, operation),
	};
}

export function lookupParameters(resource: string, operation: string): INodeProperties[] {
	const displayOptions = shownFor(resource, operation);
	return [
		{
			displayName: 'Order ID',
			name: 'orderId',
			type: 'string',
			default: '',
			placeholder: 'PAYOUT-2026-000123',
			description: 'Your order ID, as sent when the order was created. Give this, the order number, or both.',
			displayOptions,
		},
		{
			displayName: 'Order Number',
			name: 'orderNo',
			type: 'string',
			default: '',
			description: "HaiPay's order number (orderNo) from the create answer. Faster to look up than the order ID.",
			displayOptions,
		},
	];
}

/** Shown on every create: what to set instead of n8n's Retry On Fail, which a create refuses (it would resend items). */
export function createSafetyNotice(resource: string, operation = 'create', id = 'Order ID'): INodeProperties {
	return {
		displayName: `Each item is sent once, never retried, and a create refuses to run with Settings → "Retry On Fail" on. For bulk runs set Settings → On Error to "Continue": items with outcome "unknown" must be queried by their ${id} before they are sent again.`,
		name: 'createNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { resource: [resource], operation: [operation] } },
	};
}
