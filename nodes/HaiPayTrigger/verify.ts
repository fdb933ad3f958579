import { appsLacking } from '../shared/signing/apps';
import { KeyFormatError } from '../shared/signing/keys';
import { signerOfAppId, type HaiPaySettings } from '../shared/signing/credential';
import { verifySigned } from '../shared/signing/verification';
import type { Callback } from './callback';
import type { RejectReason } from './reply';

/** A callback HaiPay is proven to have sent (or taken as sent, with verification off), or why it is refused. */
type Verdict = { ok: true; signer: HaiPaySettings } | Rejection;

type Rejection = { ok: false; reason: RejectReason; log: string };

function rejection(reason: RejectReason, log: string): Rejection {
	return { ok: false, reason, log };
}

/**
 * The credential seen through the App ID the callback names, or why the callback cannot be about any of the
 * credential's App IDs. A credential with several currencies receives each one's callbacks, each checked with its
 * own App ID's secret.
 */
function signerOfCallback(signed: Record<string, unknown>, settings: HaiPaySettings): HaiPaySettings | Rejection {
	if (!Number.isSafeInteger(settings.appId) || settings.appId <= 0) {
		return rejection('noAppIdInCredential', 'the HaiPay credential has no App ID to compare the callback with');
	}
	const incomplete = appsLacking(settings.apps);
	if (incomplete !== undefined)
		return rejection('noAppIdInCredential', `the HaiPay credential is incomplete: ${incomplete}`);
	const signer = signerOfAppId(settings, signed.appId);
	if (signer !== undefined) return signer;
	const held = settings.apps.map((app) => app.appId).join(', ');
	return rejection('appIdMismatch', `the callback's appId is not the credential's App ID ${held}`);
}

/** Why the callback's signature does not prove HaiPay sent it, or undefined when it does. */
async function signatureRefusal(
	signed: Record<string, unknown>,
	settings: HaiPaySettings,
): Promise<Rejection | undefined> {
	if (settings.haipayPublicKey === '') {
		return rejection(
			'noPublicKey',
			'the HaiPay credential has no HaiPay public key, so the signature cannot be checked; add the platform public key from the merchant backend to the credential',
		);
	}
	let outcome;
	try {
		outcome = await verifySigned(signed, settings);
	} catch (error) {
		// Only key parsing can fail here; its message names the formats tried, never the key text.
		const why = error instanceof KeyFormatError ? ` (${error.message})` : '';
		return rejection('unreadablePublicKey', `the HaiPay public key in the credential could not be read${why}`);
	}
	if (outcome === 'verified') return undefined;
	const hint = settings.secretKey === '' ? ' (the credential has no secret key)' : '';
	const missing =
		typeof signed.sign !== 'string' || signed.sign === '' ? 'the signature is missing' : 'the signature does not match';
	return rejection('badSignature', `${missing}${hint}`);
}

/**
 * Whether the callback is about one of the credential's App IDs and, unless verification is turned off, signed by
 * HaiPay with that App ID's secret over every field but `sign`. Free of n8n, so that every branch is testable on
 * its own.
 */
export async function verifyCallback(
	callback: Callback,
	settings: HaiPaySettings,
	verifySignature: boolean,
): Promise<Verdict> {
	if (callback.body.members.length === 0) return rejection('notJson', 'the body is not a JSON object');
	const signer = signerOfCallback(callback.signed, settings);
	if ('reason' in signer) return signer;
	const refused = verifySignature ? await signatureRefusal(callback.signed, signer) : undefined;
	return refused ?? { ok: true, signer };
}
