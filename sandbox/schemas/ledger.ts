import { appId, sign, type Schema } from './common';

/** `/{ccy}/account/ledger` (facts sheet): appId and sign only. */
export const accountLedger: Schema = {
	type: 'object',
	required: ['appId', 'sign'],
	properties: { appId, sign },
};
