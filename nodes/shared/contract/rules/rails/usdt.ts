import { accountNo, accountType, bankCode } from '../common';
import { addressProblem, chainOf, evmWithoutChecksum, type CheckedChain } from '../addresses';
import type { FieldRule, RuleProblem } from '../types';
import { amount, contact, lettersName, payApply, rail } from './fields';

/**
 * USDT payouts to a wallet address, as HaiPay's usdtPayApply page states them (docs/haipay-facts.md, "USDT and KRW
 * payouts"). The page names no network or chain field and lists no values for accountType or bankCode: both are
 * sent as given, and HaiPay's configuration for the merchant decides (a wrong code answers 4002).
 *
 * The amount's text says "accurate to two decimal places" and "Range: 0.0001-5000000"; the range's own minimum has
 * four decimals, so four are allowed and the range is checked. Whether HaiPay takes a third and fourth decimal is
 * left to it: a refusal creates nothing.
 *
 * The USDT query page (usdtPayQuery) publishes no answer for an order HaiPay does not have, so no answer of it
 * proves a payout absent: an open payout stays unknown until HaiPay shows it.
 */

/**
 * The node's Network (from node version 4): the chain the wallet address is on, which decides the address check. It
 * is never sent and is no HaiPay code (HaiPay publishes no list of networks; the code it configured for the merchant
 * goes in bankCode). TRON and the EVM chains have public address forms with checksums; By Code is any other network,
 * whose address is sent as given (docs/haipay-node.md, "USDT: network and address").
 */
export const USDT_NETWORKS = ['TRON', 'EVM', 'BY_CODE'] as const;
export type UsdtNetwork = (typeof USDT_NETWORKS)[number];

const NETWORK: FieldRule = {
	name: 'network',
	displayName: 'Network',
	required: true,
	nodeOnly: true,
	since: 4,
	enum: [...USDT_NETWORKS],
	enumLabels: {
		TRON: 'TRON (TRC-20), Address Checked',
		EVM: 'EVM Chain (ERC-20, BEP-20, Polygon …), Address Checked',
		BY_CODE: 'By Code, Address Not Checked',
	},
	description:
		"The chain the wallet address is on. It decides the address check (TRON: T… with its Base58Check checksum; EVM: 0x… with its EIP-55 checksum when in mixed case) and is not sent: the network HaiPay pays on is the Bank Code it set up for you. By Code sends any other network's address as given",
	decidesPayee: 'the chain of the wallet address in accountNo, and so its check',
};

function chosen(fields: Record<string, unknown>): string | undefined {
	return typeof fields.network === 'string' ? fields.network.trim() : undefined;
}

/** A wallet address against the chosen Network: refused when it is not that chain's address, checksum included. */
export function usdtAddressCheck(address: string, fields: Record<string, unknown>): RuleProblem | undefined {
	const network = chosen(fields);
	if (network !== 'TRON' && network !== 'EVM') return undefined;
	return addressProblem(network as CheckedChain, address);
}

/** What Payout → Check says of an address the node sends as given, or of an EVM address without a checksum. */
export function usdtAddressWarning(address: string, fields: Record<string, unknown>): string | undefined {
	const network = chosen(fields);
	const reads = chainOf(address);
	const hint =
		reads !== undefined && addressProblem(reads, address) === undefined
			? ` It reads as a valid ${reads} address: Network ${reads} would check it.`
			: '';
	if (network === undefined)
		return `was not checked and is sent as given: node versions 1 to 3 name no Network (version 4 does, and checks TRON and EVM addresses).${hint}`;
	if (network === 'BY_CODE')
		return `is sent as given: Network is By Code, whose address form the node does not check; compare it with the payee's own copy.${hint}`;
	if (network === 'EVM' && evmWithoutChecksum(address))
		return "carries no EIP-55 checksum (all one case): a mistyped character cannot be detected; compare it with the payee's own copy, or ask for the mixed-case form.";
	return undefined;
}

export const USDT = rail('USDT', 'Tether USD', {
	...payApply(
		'USDT',
		'official',
		[
			amount(
				{ maxDecimals: 4, min: '0.0001', max: '5000000', unit: 'USDT' },
				'Amount in USDT, 0.0001 to 5,000,000, up to 4 decimals, no commas',
				'100.00',
			),
			NETWORK,
			accountType(true, 'The account type HaiPay set up for your USDT payouts (its page lists no values)'),
			{
				...bankCode(
					true,
					'The network or channel code HaiPay set up for your USDT payouts, sent as given (its pages publish no list)',
				),
				placeholder: 'Code from HaiPay',
			},
			{
				...accountNo(
					true,
					"The recipient's wallet address on the Network chosen: TRON T… (34 characters) or EVM 0x… (42), checksum checked",
				),
				placeholder: 'TXYZ…',
				check: usdtAddressCheck,
				warn: usdtAddressWarning,
			},
			{ ...lettersName(), placeholder: 'Maria Santos' },
			...contact(),
		],
		'https://doc.haipay.net/docs/en/api-reference/usdtc/api/usdtPayApply',
	),
	queryShowsAbsence: false,
});
