import { createHash } from 'crypto';

/*
 * Crypto addresses whose form is public, checked whole, checksum included: a transfer to a mistyped address is lost
 * for good, with no bank to call it back. TRON (TRC-20 USDT): Base58Check of 0x41 and 20 bytes, "T" and 33 characters.
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

/** Why `text` is not a TRON address (Base58Check, version byte 0x41), or undefined when it is one. */
export function tronAddressProblem(text: string): string | undefined {
	if (!/^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(text))
		return 'must be a TRON address: "T" and 33 Base58 characters (no 0, O, I or l)';
	const bytes = base58Bytes(text);
	if (bytes === undefined || bytes.length !== 25 || bytes[0] !== 0x41)
		return 'must be a TRON address: its Base58 text does not hold a TRON version byte and 20 bytes';
	const checksum = sha256(sha256(bytes.subarray(0, 21))).subarray(0, 4);
	if (!checksum.equals(Buffer.from(bytes.subarray(21))))
		return 'is not a TRON address: its checksum does not match (a character is mistyped)';
	return undefined;
}
