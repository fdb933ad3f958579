import type { IDataObject } from 'n8n-workflow';

import { tronAddressProblem } from '../contract/rules/addresses';
import type { RequestRules } from '../contract/rules/types';
import { exactText } from '../text';

/*
 * HaiPay's crypto collection to a fixed address (the version2 page "Crypto Payment (Fixed Address) API",
 * docs/haipay-facts.md): the merchant asks once per network and gets a permanent deposit address (`bankNo`) and a
 * page (`payUrl`). Asking again answers the address already bound to the network, so the request moves no money
 * and may be sent again. Every deposit to it is a collection order of its own, made by HaiPay: its callback carries
 * a new orderId and orderNo, the amount received, status 2, payTime and the transaction `hash`, and repeats of
 * one deposit carry the same values. The HaiPay Trigger therefore runs once per deposit, keyed as any collection.
 */

/** The newer page's path; an older copy of the page gives `/usdt/collect/apply`, the single-use collection's path. */
export const FIXED_ADDRESS_PATH = '/usdt/collect/apply/multiple';

/** The currencies HaiPay offers a fixed address in: USDT, settled in USDT. */
export const FIXED_ADDRESS_CURRENCIES = ['USDT'] as const;

/** HaiPay's payment type for it: "Fixed value: EWALLET". */
export const FIXED_ADDRESS_PAY_TYPE = 'EWALLET';

/**
 * The zone of a deposit callback's payTime: the page gives it as "Payment successful time (New York time)", the only
 * HaiPay page that names one (docs/haipay-facts.md, "payTime").
 */
export const DEPOSIT_PAY_TIME_ZONE = 'America/New_York';

/** A deposit to a fixed address, told by the transaction `hash` that only its callback carries. */
export function isDepositCallback(body: Record<string, unknown>): boolean {
	return typeof body.hash === 'string' && body.hash.trim() !== '';
}

/** The networks the page's table lists, with the check of their address form (TRON: Base58Check). */
export const FIXED_ADDRESS_NETWORKS: Readonly<Record<string, (address: string) => string | undefined>> = {
	FIX_TRX: tronAddressProblem,
};

export const FIXED_ADDRESS_RULES: RequestRules = {
	path: FIXED_ADDRESS_PATH,
	additionalProperties: false,
	fields: [
		{
			name: 'inBankCode',
			displayName: 'Network',
			required: true,
			enum: Object.keys(FIXED_ADDRESS_NETWORKS),
			enumLabels: { FIX_TRX: 'TRON (TRC-20 USDT)' },
			description: "The network the address is on: HaiPay's page lists FIX_TRX, USDT on TRON (TRC-20)",
			decidesPayee: 'the network the merchant is paid on',
		},
	],
	source: { certainty: 'official', page: 'https://doc.haipay.net/docs/en/api/version2/coinpay-fixed_address' },
};

/**
 * Why an answer does not show a deposit address of the network asked for, or undefined when it does: a payer told
 * a mistyped or foreign address loses the transfer, so the address must be one of that network's, checksum included.
 */
export function addressDoubt(data: IDataObject, network: string): string | undefined {
	const address = exactText(data.bankNo);
	if (address === '') return 'the answer carries no deposit address (bankNo)';
	const problem = FIXED_ADDRESS_NETWORKS[network]?.(address);
	return problem === undefined ? undefined : `its deposit address ${problem}`;
}
