import type { KeyObject } from 'crypto';

import type { MagicEffect } from './faults';
import type { Merchant } from './merchants';
import type { OrderKind } from './orders';

export type VoucherResponse = 'binary' | 'base64' | 'url';

export interface GatewayConfig {
	merchants: Map<number, Merchant>;
	platformKey: KeyObject;
	environment: 'sandbox' | 'production';
	callbackSchedule: number[];
	callbackTimeoutMs: number;
	/** Callback attempts on the wire at once; 0 for no limit. */
	callbackConcurrency: number;
	processingMs: number;
	finalMs: number;
	manual: boolean;
	voucherResponse: VoucherResponse;
	timeOffsetMinutes: number;
	requestLogLimit: number;
	stateFile?: string;
	persistDebounceMs: number;
}

export type Outcome =
	| { type: 'ok'; data: Record<string, unknown>; merchant: Merchant; lose?: MagicEffect & { kind: 'lose' } }
	| { type: 'error'; code: string; msg: string; lose?: MagicEffect & { kind: 'lose' } }
	| { type: 'file'; contentType: string; filename: string; bytes: Buffer }
	| { type: 'bare'; data: string };

export interface RequestLogEntry {
	seq: number;
	at: string;
	method: string;
	path: string;
	appId?: number;
	orderId?: string;
	/** The parsed request body, `sign` included: the sandbox's keys and secrets are test-only. */
	body?: unknown;
	/** '1' answered normally, '0' answered with an error envelope, 'fault' lost or spoiled on purpose. */
	outcome: '1' | '0' | 'file' | 'fault';
	error?: string;
	msg?: string;
	ms: number;
}

export interface SeedOrder {
	appId: number;
	kind?: OrderKind;
	orderId?: string;
	amount: string;
	status?: number;
	errorMsg?: string;
	notifyUrl?: string;
	subject?: string;
	name?: string;
	accountNo?: string;
	bankCode?: string;
	/** Payouts only: hold amount plus fee on the balance as an applied payout does (default true). */
	holdFunds?: boolean;
}

/** A file the gateway made (a voucher) and serves once from its own URL. */
export interface StoredFile {
	contentType: string;
	name: string;
	bytes: Buffer;
}
