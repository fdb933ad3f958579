import { appId, sign, type Schema } from './common';

/**
 * HaiPay's crypto collection to a fixed address (version2 "Crypto Payment (Fixed Address) API"): `payType` is the
 * fixed value EWALLET, `inBankCode` a network code of the page's table (FIX_TRX, USDT on TRON). Nothing else.
 */
export const usdtFixedAddress: Schema = {
	type: 'object',
	required: ['appId', 'payType', 'inBankCode', 'sign'],
	additionalProperties: false,
	properties: {
		appId,
		payType: { type: 'string', enum: ['EWALLET'] },
		inBankCode: { type: 'string', enum: ['FIX_TRX'] },
		sign,
	},
};
