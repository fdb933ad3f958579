import { DEFAULT_APP_IDS } from './merchants';

/**
 * Every currency the sandbox has a default merchant for (merchants.ts): the contract's, then the further payout rails;
 * the generic query and ledger paths exist for each.
 */
export const KNOWN_CURRENCIES = [...new Set(DEFAULT_APP_IDS.map(([, currency]) => currency))];

export const SUCCESS_CODE = '00000000';

/** The error codes this gateway answers with (docs/sandbox.md lists them with their causes). */
export const ERROR_CODES = {
	badRequest: '4000',
	validation: '4001',
	unknownChannel: '4002',
	signature: '4003',
	unknownAppId: '4004',
	currencyMismatch: '4005',
	duplicateOrderId: '4006',
	insufficientBalance: '4007',
	voucherNotAvailable: '4008',
	unknownToken: '4009',
	noPermission: '4010',
	badTransition: '4011',
	unknownEndpoint: '4040',
	methodNotAllowed: '4050',
	internal: '5000',
	refundRefused: '4012',
	unknownRefund: '4013',
	unknownSubscription: '4014',
} as const;
