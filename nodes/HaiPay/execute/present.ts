import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { Answer } from '../../shared/gateway/request';
import { statusLabel, type OrderKind } from '../../shared/contract/statuses';
import type { Prepared } from './types';

/**
 * The gateway's `data` (its signature removed), with what a workflow needs beside it: the currency, whether
 * the answer's signature was verified, and a readable status. Money stays as the decimal strings it came as.
 */
export function dataItem(
	answer: Answer,
	prepared: Prepared,
	kind?: OrderKind,
	extra: IDataObject = {},
): INodeExecutionData['json'] {
	const data = answer.type === 'data' ? answer.data : answer.type === 'text' ? { data: answer.text } : {};
	const label = 'status' in data ? statusLabel(data.status, kind) : undefined;
	return {
		...data,
		...(label !== undefined ? { statusLabel: label } : {}),
		currency: prepared.currency,
		...extra,
		verified: answer.type !== 'file' && answer.verification === 'verified',
	};
}

/**
 * A card refund's answer as HaiPay sent it, its signature removed. HaiPay publishes no refund status values, so
 * `status` is never given a label or a group: the refund query (Collection → Get Refund) is what HaiPay asks
 * merchants to rely on.
 */
export function refundItem(answer: Answer, prepared: Prepared, extra: IDataObject = {}): INodeExecutionData['json'] {
	const data = answer.type === 'data' ? answer.data : {};
	return {
		...data,
		currency: prepared.currency,
		...extra,
		verified: answer.type !== 'file' && answer.verification === 'verified',
	};
}
