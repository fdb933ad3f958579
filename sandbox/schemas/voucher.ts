import { appId, sign, type Schema } from './common';

/** Contract 4.8. */
export const voucherPdf: Schema = {
	type: 'object',
	required: ['appId', 'orderNos', 'sign'],
	properties: {
		appId,
		orderNos: { type: 'array', minItems: 1, maxItems: 100, items: { type: 'string', minLength: 1 } },
		sign,
		getFee: { type: 'integer', enum: [0, 1] },
		isAmount: { type: 'integer', enum: [0, 1] },
		getSubject: { type: 'integer', enum: [0, 1] },
		lang: { type: 'string', enum: ['zh', 'en'] },
	},
};
