import type { Operation } from '../execute/types';
import { getBalance } from './account/getBalance';
import { createCollection } from './collection/create';
import { getCollection } from './collection/get';
import { createPayout } from './payout/create';
import { getPayout } from './payout/get';
import { downloadVoucher } from './voucher/download';

export const OPERATIONS: Operation[] = [createPayout, getPayout, createCollection, getCollection, downloadVoucher, getBalance];

export function findOperation(resource: string, operation: string): Operation | undefined {
	return OPERATIONS.find((candidate) => candidate.resource === resource && candidate.operation === operation);
}
