import { amount, appId, email, englishName, orderId, partnerUserId, phone, sign, text, TWO_DECIMALS_PATTERN, url, type Schema } from './common';

/** Contract 4.1: the only apply whose required fields are all given, and the only one closed to unknown fields. */
export const tzsPayApply: Schema = {
	type: 'object',
	additionalProperties: false,
	required: ['appId', 'orderId', 'amount', 'accountType', 'bankCode', 'accountNo', 'name', 'phone', 'email', 'partnerUserId', 'sign'],
	properties: {
		appId,
		orderId,
		amount: amount(TWO_DECIMALS_PATTERN, { min: '1000', max: '5000000' }),
		accountType: { type: 'string', enum: ['EWALLET'] },
		bankCode: { type: 'string', enum: ['AIRTEL', 'HALOPESA', 'TIGO', 'VODACOM'] },
		accountNo: { type: 'string', pattern: '^255[0-9]{9}$' },
		name: englishName,
		phone,
		email,
		notifyUrl: url,
		subject: text,
		body: text,
		partnerUserId,
		sign,
	},
};
