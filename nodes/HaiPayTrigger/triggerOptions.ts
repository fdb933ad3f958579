import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import type { KindSetting, StatusChoice, TriggerFilters } from './filters';

/** How long an emitted result is remembered unless the Repeat Window says otherwise: a day. */
export const DEFAULT_WINDOW_MINUTES = 1440;

/** The trigger's parameters (description.ts), as one callback uses them. */
export interface TriggerOptions extends TriggerFilters {
	verifySignature: boolean;
	includeRawBody: boolean;
	deduplicate: boolean;
	windowMinutes: number;
	confirm: boolean;
}

export function readOptions(ctx: IWebhookFunctions): TriggerOptions {
	const options = ctx.getNodeParameter('options', {}) as IDataObject;
	const statuses = ctx.getNodeParameter('statuses', ['any']) as StatusChoice[];
	const window = Number(options.deduplicationWindow ?? DEFAULT_WINDOW_MINUTES);
	return {
		kind: ctx.getNodeParameter('kind', 'either') as KindSetting,
		statuses: Array.isArray(statuses) ? statuses : ['any'],
		currency: String(ctx.getNodeParameter('currency', '') ?? '').toUpperCase(),
		verifySignature: ctx.getNodeParameter('verifySignature', true) !== false,
		includeRawBody: options.includeRawBody === true,
		deduplicate: options.deduplicate !== false,
		windowMinutes: Number.isFinite(window) && window > 0 ? window : DEFAULT_WINDOW_MINUTES,
		confirm: options.confirmWithHaiPay === true,
	};
}
