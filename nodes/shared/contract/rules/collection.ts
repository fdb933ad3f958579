import { MIT_APPLY_PATH } from '../paths';
import { body, email, firstLastName, isIpAddress, notifyUrl, orderId, partnerUserId, phone, subject } from './common';
import type { RequestRules } from './types';

/** USD collection in MIT mode (docs/contract.md §4.3): a card payment now, and later charges with the saved `tokenID`. */
export const MIT_RULES: RequestRules = {
	path: MIT_APPLY_PATH,
	additionalProperties: true,
	fields: [
		orderId(),
		{
			name: 'amount',
			displayName: 'Amount',
			required: true,
			amount: { maxDecimals: 2, exactDecimals: 2, unit: 'USD' },
			description: 'Amount in USD with exactly two decimals and no commas, e.g. 25.00',
			placeholder: '25.00',
		},
		{
			name: 'payType',
			displayName: 'Pay Type',
			required: true,
			description: 'Payment type: the card type enabled for your merchant account',
			placeholder: 'CARD',
		},
		{
			name: 'inBankCode',
			displayName: 'Payment Channel Code',
			required: true,
			description:
				'Payment channel code (for example the card scheme: VISA or MASTER), as enabled for your merchant account',
			placeholder: 'VISA',
		},
		firstLastName('John Smith'),
		phone(true, "Payer's real phone number"),
		email(true),
		{
			name: 'clientIp',
			displayName: 'Client IP',
			required: true,
			maxLength: 45,
			check: (value) =>
				isIpAddress(value) ? undefined : `must be an IPv4 or IPv6 address such as 203.0.113.7 (got "${value}")`,
			description: "The payer's IP address",
			placeholder: '203.0.113.7',
		},
		partnerUserId(true),
		{
			name: 'tokenID',
			displayName: 'Token ID',
			required: false,
			description:
				'The saved-card token from an earlier payment\'s callback (HaiPay Trigger output "tokenID"). Leave empty for the first payment; set it to charge the saved card without a payment page.',
		},
		{
			name: 'callBackUrl',
			displayName: 'Success Redirect URL',
			required: false,
			format: 'url',
			description: 'Page the payer returns to after a successful payment',
		},
		{
			name: 'callBackFailUrl',
			displayName: 'Failure Redirect URL',
			required: false,
			format: 'url',
			description: 'Page the payer returns to after a failed payment',
		},
		{
			name: 'cancelUrl',
			displayName: 'Cancel URL',
			required: false,
			format: 'url',
			description: "If set, the payment page offers 'Back' to this page after the payer cancels",
		},
		{
			name: 'loadingType',
			displayName: 'Loading Type',
			required: false,
			integerEnum: [0, 1],
			enum: ['0', '1'],
			enumLabels: { '0': 'Show Payment Result (0)', '1': 'Show Loading Spinner Only (1)' },
			description: 'What the payment page shows while it completes',
		},
		notifyUrl(),
		subject(),
		body(),
	],
};
