import type { ICredentialDataDecryptedObject, IWebhookFunctions } from 'n8n-workflow';

import { settingsFor, type HaiPaySettings } from '../shared/signing/credential';

/*
 * n8n decrypts a credential for a webhook through a fresh expression isolate and a database read: about half of
 * what a callback cost on top of n8n's own Webhook node (bench/results.md, "Where a callback's time goes"). A burst
 * of callbacks reads it once per CREDENTIAL_TTL_MS instead. An edit of the credential (rotated keys, a fixed App
 * ID) takes effect within that time; a signature cannot be forged with a stale secret, since it needs HaiPay's
 * private key.
 */

const CREDENTIAL_TTL_MS = 10_000;

/** The credential as n8n gives it (Confirm With HaiPay hands it on to its query), and the settings derived from it. */
interface TriggerCredential {
	data: ICredentialDataDecryptedObject;
	settings: HaiPaySettings;
}

// The settings are kept with the credential they came from: deriving them digests every field of the credential.
const read = new Map<string, { at: number; credential: TriggerCredential }>();

/** The trigger's credential and its settings, read at most once per CREDENTIAL_TTL_MS for each stored credential. */
export async function triggerCredential(ctx: IWebhookFunctions): Promise<TriggerCredential> {
	const id = ctx.getNode().credentials?.haiPayApi?.id;
	const now = performance.now();
	const cached = id ? read.get(id) : undefined;
	if (cached !== undefined && now - cached.at >= 0 && now - cached.at < CREDENTIAL_TTL_MS) return cached.credential;
	const data = await ctx.getCredentials('haiPayApi');
	const credential = { data, settings: settingsFor(data) };
	if (id) read.set(id, { at: now, credential });
	return credential;
}
