import { createHash } from 'crypto';

import { keccak256Hex } from './keccak';

/*
 * Crypto addresses whose form is public, checked whole, checksum included: a transfer to a mistyped address is lost
 * for good, with no bank to call it back. TRON (TRC-20 USDT): Base58Check of 0x41 and 20 bytes, "T" and 33 characters.
 * EVM chains (Ethereum's ERC-20, BNB Smart Chain's BEP-20, Polygon, Arbitrum ...): "0x" and 40 hex digits, one form
 * on every such chain; written in mixed case, the case is EIP-55's checksum (Keccak-256 of the lower-case hex).
 */

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** The bytes a Base58 text stands for, or undefined when it holds a character Base58 has not. */
function base58Bytes(text: string): Uint8Array | undefined {
	let value = 0n;
	for (const character of text) {
		const digit = BASE58.indexOf(character);
		if (digit < 0) return undefined;
		value = value * 58n + BigInt(digit);
	}
	const bytes: number[] = [];
	for (; value > 0n; value >>= 8n) bytes.unshift(Number(value & 0xffn));
	const zeros = text.length - text.replace(/^1+/, '').length;
	return Uint8Array.from([...new Array<number>(zeros).fill(0), ...bytes]);
}

const sha256 = (bytes: Uint8Array): Buffer => createHash('sha256').update(bytes).digest();

/** What is wrong with an address: its form (`address`), its checksum (`checksum`), or its chain (`network`). */
export interface AddressProblem {
	rule: 'address' | 'checksum' | 'network';
	reason: string;
}

function tronProblem(text: string): AddressProblem | undefined {
	const address = (reason: string): AddressProblem => ({ rule: 'address', reason });
	if (!/^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(text))
		return address('must be a TRON address: "T" and 33 Base58 characters (no 0, O, I or l)');
	const bytes = base58Bytes(text);
	if (bytes === undefined || bytes.length !== 25 || bytes[0] !== 0x41)
		return address('must be a TRON address: its Base58 text does not hold a TRON version byte and 20 bytes');
	const checksum = sha256(sha256(bytes.subarray(0, 21))).subarray(0, 4);
	if (!checksum.equals(Buffer.from(bytes.subarray(21))))
		return { rule: 'checksum', reason: 'is not a TRON address: its checksum does not match (a character is mistyped)' };
	return undefined;
}

/** Why `text` is not a TRON address (Base58Check, version byte 0x41), or undefined when it is one. */
export function tronAddressProblem(text: string): string | undefined {
	return tronProblem(text)?.reason;
}

/** A text of TRON's form ("T" and 33 Base58 characters), whatever its checksum: an address meant for TRON. */
export function looksLikeTron(text: string): boolean {
	return /^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(text);
}

/** A text of an EVM address's form ("0x" and 40 hex digits), whatever its case: an address meant for an EVM chain. */
export function looksLikeEvm(text: string): boolean {
	return /^0[xX][0-9A-Fa-f]{40}$/.test(text);
}

/** The EIP-55 writing of an address's 40 hex digits: a letter is upper case where Keccak-256 of the lower-case hex has a nibble of 8 or more. */
export function eip55(hexDigits: string): string {
	const lower = hexDigits.toLowerCase();
	const hash = keccak256Hex(lower);
	return [...lower].map((digit, i) => (parseInt(hash[i], 16) >= 8 ? digit.toUpperCase() : digit)).join('');
}

function evmProblem(text: string): AddressProblem | undefined {
	if (!/^0x[0-9A-Fa-f]{40}$/.test(text))
		return {
			rule: 'address',
			reason: 'must be an EVM address: "0x" and 40 hex digits (0-9, a-f), 42 characters in all',
		};
	const digits = text.slice(2);
	if (digits === digits.toLowerCase() || digits === digits.toUpperCase()) return undefined;
	if (eip55(digits) === digits) return undefined;
	return {
		rule: 'checksum',
		reason: 'is not an EVM address: its mixed case does not match its EIP-55 checksum (a character is mistyped)',
	};
}

/**
 * Why `text` is not an EVM address, or undefined when it is one. All lower or all upper case carries no checksum
 * (EIP-55 leaves such addresses unchecked) and is taken as written; mixed case must be EIP-55's exactly.
 */
export function evmAddressProblem(text: string): string | undefined {
	return evmProblem(text)?.reason;
}

/** The chains whose address form the package checks. */
export type CheckedChain = 'TRON' | 'EVM';

const CHAINS: Record<CheckedChain, { problem: (text: string) => AddressProblem | undefined; looks: string }> = {
	TRON: { problem: tronProblem, looks: 'a TRON address (T…)' },
	EVM: { problem: evmProblem, looks: 'an EVM address (0x…)' },
};

/** The chain whose form a text has, whatever its checksum, or undefined. */
export function chainOf(text: string): CheckedChain | undefined {
	if (looksLikeTron(text)) return 'TRON';
	return looksLikeEvm(text) ? 'EVM' : undefined;
}

/**
 * What is wrong with `text` as an address on `chain`: an address of the other chain is refused as such (`network`),
 * before its form or checksum is read, so that the message says which choice to correct.
 */
export function addressProblem(chain: CheckedChain, text: string): AddressProblem | undefined {
	const other = chainOf(text);
	if (other !== undefined && other !== chain) {
		return {
			rule: 'network',
			reason: `is ${CHAINS[other].looks}, but Network is ${chain}: a transfer on one chain to the other's address is lost; choose the network the address is on, or correct the address`,
		};
	}
	return CHAINS[chain].problem(text);
}

/** Whether an EVM address carries no checksum (all one case), so that a mistyped character cannot be told. */
export function evmWithoutChecksum(text: string): boolean {
	const digits = text.slice(2);
	return /^0x[0-9A-Fa-f]{40}$/.test(text) && (digits === digits.toLowerCase() || digits === digits.toUpperCase());
}
