/**
 * The envelope every JSON answer comes in (docs/contract.md §1 and §7): `status` "1" with `error` "00000000" is
 * success, `status` "0" an exception whose `error` and `msg` say which. Only `data` is signed (docs/haipay-facts.md).
 */
export interface Envelope {
	status?: unknown;
	error?: unknown;
	msg?: unknown;
	data?: unknown;
}

export const SUCCESS_STATUS = '1';
export const EXCEPTION_STATUS = '0';
export const SUCCESS_CODE = '00000000';
