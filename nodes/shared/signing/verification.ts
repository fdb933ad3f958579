import { publicKeyOf, type HaiPaySettings } from './credential';
import { verify } from './signature';

/**
 * `verified`: the HaiPay public key is configured and the signature holds over every member received.
 * `invalid`: a key is configured and the signature does not hold (or is missing): the data must not be trusted.
 * `unverified`: no HaiPay public key is configured, so nothing could be checked.
 */
export type Verification = 'verified' | 'invalid' | 'unverified';

/**
 * Verifies a flat signed object (a response's `data`, or a callback body) over every member it carries except
 * `sign`, never a fixed list, so that a field the gateway adds later cannot break or bypass verification.
 */
export async function verifySigned(signed: Record<string, unknown>, settings: HaiPaySettings): Promise<Verification> {
	if (settings.haipayPublicKey === '') return 'unverified';
	const ok = await verify(signed, signed.sign, settings.secretKey, publicKeyOf(settings), {
		arrayStyle: settings.arrayStyle,
	});
	return ok ? 'verified' : 'invalid';
}

/** A copy without `sign`: the full signature never reaches an output item or a log line. */
export function withoutSign<T extends Record<string, unknown>>(signed: T): Omit<T, 'sign'> {
	const rest: Record<string, unknown> = { ...signed };
	delete rest.sign;
	return rest as Omit<T, 'sign'>;
}
