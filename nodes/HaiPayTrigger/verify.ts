import type { KeyObject } from 'crypto';

import type { ScannedBody } from '../shared/callback/body';
import { appsLacking } from '../shared/signing/apps';
import { KeyFormatError } from '../shared/signing/keys';
import { publicKeyOf, signerOfAppId, type HaiPaySettings } from '../shared/signing/credential';
import { mayBeSigned } from '../shared/signing/signature';
import { verifySigned } from '../shared/signing/verification';
import { parseCallback, type Callback } from './callback';
import type { RejectReason } from './reply';

/** A callback HaiPay is proven to have sent (or taken as sent, with verification off), or why it is refused. */
type Verdict = { ok: true; signer: HaiPaySettings; callback: Callback } | Rejection;

type Rejection = { ok: false; reason: RejectReason; log: string };

function rejection(reason: RejectReason, log: string): Rejection {
	return { ok: false, reason, log };
}

/**
 * The credential seen through the App ID the callback names, or why the callback cannot be about any of the
 * credential's App IDs. A credential with several currencies receives each one's callbacks, each checked with its
 * own App ID's secret.
 */
function signerOfCallback(appId: unknown, settings: HaiPaySettings): HaiPaySettings | Rejection {
	if (!Number.isSafeInteger(settings.appId) || settings.appId <= 0) {
		return rejection('noAppIdInCredential', 'the HaiPay credential has no App ID to compare the callback with');
	}
	const incomplete = appsLacking(settings.apps);
	if (incomplete !== undefined)
		return rejection('noAppIdInCredential', `the HaiPay credential is incomplete: ${incomplete}`);
	const signer = signerOfAppId(settings, appId);
	if (signer !== undefined) return signer;
	const held = settings.apps.map((app) => app.appId).join(', ');
	return rejection('appIdMismatch', `the callback's appId is not the credential's App ID ${held}`);
}

/** The credential's HaiPay public key, or why no signature can be checked with it. */
function publicKeyFor(settings: HaiPaySettings): KeyObject | Rejection {
	if (settings.haipayPublicKey === '') {
		return rejection(
			'noPublicKey',
			'the HaiPay credential has no HaiPay public key, so the signature cannot be checked; add the platform public key from the merchant backend to the credential',
		);
	}
	try {
		return publicKeyOf(settings);
	} catch (error) {
		// Only key parsing can fail here; its message names the formats tried, never the key text.
		const why = error instanceof KeyFormatError ? ` (${error.message})` : '';
		return rejection('unreadablePublicKey', `the HaiPay public key in the credential could not be read${why}`);
	}
}

function badSignature(sign: unknown, settings: HaiPaySettings): Rejection {
	const hint = settings.secretKey === '' ? ' (the credential has no secret key)' : '';
	const missing = typeof sign !== 'string' || sign === '' ? 'the signature is missing' : 'the signature does not match';
	return rejection('badSignature', `${missing}${hint}`);
}

/**
 * Whether the callback is about one of the credential's App IDs and, unless verification is turned off, signed by
 * HaiPay with that App ID's secret over every field but `sign`; with the callback read whole when it is. Nothing but
 * `appId` and `sign` is decoded before the signature is opened (signature.ts `mayBeSigned`): a forged one is refused
 * at the cost of scanning the body and one public-key operation, whatever the body holds and however many App IDs
 * the credential has (the body's appId picks the one secret). Free of n8n, so that every branch is testable alone.
 */
export async function verifyCallback(
	body: ScannedBody,
	settings: HaiPaySettings,
	verifySignature: boolean,
): Promise<Verdict> {
	if (body.size === 0) return rejection('notJson', 'the body is not a JSON object');
	const signer = signerOfCallback(body.signedValue('appId'), settings);
	if ('reason' in signer) return signer;
	if (verifySignature) {
		const key = publicKeyFor(signer);
		if ('reason' in key) return key;
		if (!mayBeSigned(body.signedValue('sign'), key)) return badSignature(body.signedValue('sign'), signer);
	}
	const read = parseCallback(body.decode());
	if (!read.ok) return rejection(read.problem, read.log);
	const { callback } = read;
	if (verifySignature && (await verifySigned(callback.signed, signer)) !== 'verified')
		return badSignature(callback.signed.sign, signer);
	return { ok: true, signer, callback };
}
