import type { IDataObject } from 'n8n-workflow';

import { mismatchOf } from '../../shared/gateway/lookup';
import type { Answer } from '../../shared/gateway/request';
import type { Prepared } from './types';
import { exactText } from '../../shared/text';

/** A query's answer must be a data object about the order asked for. */
export function distrustQuery(answer: Answer, prepared: Prepared): string | undefined {
	if (answer.type !== 'data') return 'HaiPay answered without a data object';
	return mismatchOf(
		{ orderId: prepared.body.orderId as string | undefined, orderNo: prepared.body.orderNo as string | undefined },
		answer.data,
	);
}

/** A balance answer is a data object about the account, never about an order. */
export function distrustBalance(answer: Answer): string | undefined {
	if (answer.type !== 'data') return 'HaiPay answered without a data object';
	const data: IDataObject = answer.data;
	if (exactText(data.orderId) !== '' || exactText(data.orderNo) !== '')
		return 'the answer is about an order, not a balance';
	return undefined;
}
