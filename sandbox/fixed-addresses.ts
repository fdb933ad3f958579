import { createHash } from 'crypto';

/*
 * Fixed deposit addresses (version2 "Crypto Payment (Fixed Address) API"): one permanent address per merchant and
 * network, the same however often it is asked for. A TRON address here is a real Base58Check one (0x41 and 20
 * bytes, with its checksum), made by this emulator's own encoder, so that a client's checksum check is tested.
 */

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

const sha256 = (bytes: Buffer): Buffer => createHash('sha256').update(bytes).digest();

/** The TRON address whose 20 bytes are the first 20 of `seed`'s SHA-256. */
export function tronAddress(seed: string): string {
	const body = Buffer.concat([Buffer.from([0x41]), sha256(Buffer.from(seed, 'utf8')).subarray(0, 20)]);
	const bytes = Buffer.concat([body, sha256(sha256(body)).subarray(0, 4)]);
	let value = BigInt(`0x${bytes.toString('hex')}`);
	let text = '';
	for (; value > 0n; value /= 58n) text = BASE58[Number(value % 58n)] + text;
	return text;
}

export interface FixedAddress {
	appId: number;
	network: string;
	address: string;
}

export class FixedAddressBook {
	private readonly addresses = new Map<string, FixedAddress>();

	/** The merchant's address on `network`, made on first request and the same ever after. */
	bind(appId: number, network: string): FixedAddress {
		const key = `${appId}|${network}`;
		const known = this.addresses.get(key);
		if (known !== undefined) return known;
		const made = { appId, network, address: tronAddress(`fixed-address|${key}`) };
		this.addresses.set(key, made);
		return made;
	}

	find(address: string): FixedAddress | undefined {
		return [...this.addresses.values()].find((entry) => entry.address === address);
	}

	clear(): void {
		this.addresses.clear();
	}
}
