/*
 * Keccak-256 as Ethereum uses it (the original Keccak padding, 0x01 ... 0x80), which EIP-55's address checksum is
 * made from. It is not NIST's SHA3-256 (padding 0x06 ... 0x80), the only one of the two Node's crypto offers: the two
 * give different digests of the same bytes (of nothing: c5d2...a470 here, a7ff...434a for SHA3-256). The tables are
 * computed from their definitions (FIPS 202, 3.2.2 and 3.2.5) rather than typed in; test/unit/usdt-address.test.ts holds
 * the published vectors.
 */

const MASK = (1n << 64n) - 1n;
/** Bytes absorbed per block: 1600 bits of state less twice the 256-bit capacity. */
const RATE = 136;

function rotl(lane: bigint, by: number): bigint {
	const n = BigInt(by % 64);
	return n === 0n ? lane : ((lane << n) | (lane >> (64n - n))) & MASK;
}

/** The rotation of each lane (index x + 5y): the triangular numbers along the walk (1, 0) → (y, 2x + 3y). */
const ROTATIONS: number[] = (() => {
	const offsets = new Array<number>(25).fill(0);
	let [x, y] = [1, 0];
	for (let t = 0; t < 24; t++) {
		offsets[x + 5 * y] = ((t + 1) * (t + 2)) / 2;
		[x, y] = [y, (2 * x + 3 * y) % 5];
	}
	return offsets;
})();

/** The round constants, from the degree-8 LFSR x^8 + x^6 + x^5 + x^4 + 1. */
const ROUND_CONSTANTS: bigint[] = (() => {
	let register = 1;
	const nextBit = (): number => {
		const bit = register & 1;
		register = register & 0x80 ? ((register << 1) ^ 0x171) & 0xff : register << 1;
		return bit;
	};
	const constants: bigint[] = [];
	for (let round = 0; round < 24; round++) {
		let constant = 0n;
		for (let j = 0; j < 7; j++) if (nextBit()) constant |= 1n << BigInt((1 << j) - 1);
		constants.push(constant);
	}
	return constants;
})();

function permute(state: bigint[]): void {
	for (const constant of ROUND_CONSTANTS) {
		const columns = [0, 1, 2, 3, 4].map((x) => state[x] ^ state[x + 5] ^ state[x + 10] ^ state[x + 15] ^ state[x + 20]);
		for (let x = 0; x < 5; x++) {
			const d = columns[(x + 4) % 5] ^ rotl(columns[(x + 1) % 5], 1);
			for (let y = 0; y < 25; y += 5) state[x + y] ^= d;
		}
		const moved = new Array<bigint>(25);
		for (let x = 0; x < 5; x++) {
			for (let y = 0; y < 5; y++) moved[y + 5 * ((2 * x + 3 * y) % 5)] = rotl(state[x + 5 * y], ROTATIONS[x + 5 * y]);
		}
		for (let y = 0; y < 25; y += 5) {
			for (let x = 0; x < 5; x++) {
				state[x + y] = moved[x + y] ^ (~moved[((x + 1) % 5) + y] & MASK & moved[((x + 2) % 5) + y]);
			}
		}
		state[0] ^= constant;
	}
}

/** Keccak-256 of `bytes`: 32 bytes. */
export function keccak256(bytes: Uint8Array): Uint8Array {
	const blocks = Math.floor(bytes.length / RATE) + 1;
	const padded = new Uint8Array(blocks * RATE);
	padded.set(bytes);
	padded[bytes.length] ^= 0x01;
	padded[padded.length - 1] ^= 0x80;
	const state = new Array<bigint>(25).fill(0n);
	for (let offset = 0; offset < padded.length; offset += RATE) {
		for (let lane = 0; lane < RATE / 8; lane++) {
			let value = 0n;
			for (let k = 7; k >= 0; k--) value = (value << 8n) | BigInt(padded[offset + lane * 8 + k]);
			state[lane] ^= value;
		}
		permute(state);
	}
	const digest = new Uint8Array(32);
	for (let i = 0; i < 32; i++) digest[i] = Number((state[i >> 3] >> BigInt(8 * (i & 7))) & 0xffn);
	return digest;
}

/** Keccak-256 of a text's UTF-8 bytes, as lower-case hex. */
export function keccak256Hex(text: string): string {
	return [...keccak256(Buffer.from(text, 'utf8'))].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}
