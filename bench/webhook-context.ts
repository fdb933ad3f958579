import { createPublicKey } from 'crypto';
import { IncomingMessage, ServerResponse } from 'http';
import { Socket } from 'net';
import { join } from 'path';

import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

import { APP_IDS } from '../test/fixtures/bodies';
import { asWebhookResponse } from '../test/harness/http';

/** The trigger's webhook() as the in-process measures call it: real node code, real signing, no n8n. */

export type Webhook = (this: IWebhookFunctions) => Promise<IWebhookResponseData>;

export async function triggerWebhook(): Promise<Webhook> {
	// By its full name: tsx resolves `HaiPayTrigger.node` to the codex file HaiPayTrigger.node.json beside it.
	const { HaiPayTrigger } = (await import(
		join(__dirname, '..', 'nodes', 'HaiPayTrigger', 'HaiPayTrigger.node.ts')
	)) as typeof import('../nodes/HaiPayTrigger/HaiPayTrigger.node');
	return new HaiPayTrigger().webhook;
}

/**
 * A webhook context around one request. The response is a real node:http ServerResponse with the express methods
 * n8n's webhook server adds (the harness's): a hand-made stand-in lacked the `once` the trigger came to use, and the
 * refusal figure was lost to "res.once is not a function". With `credentialId`, the node names its stored
 * credential as n8n's does, so the trigger reads it from its cache as it does in a burst of callbacks.
 */
export function webhookContext(
	raw: Buffer,
	parsed: unknown,
	credential: ICredentialDataDecryptedObject,
	credentialId?: string,
) {
	const res = asWebhookResponse(new ServerResponse(new IncomingMessage(new Socket())));
	const answer = { status: 0, body: '' };
	const end = res.end.bind(res) as (...args: unknown[]) => unknown;
	res.end = ((...args: unknown[]) => {
		answer.status = res.statusCode;
		if (typeof args[0] === 'string' || Buffer.isBuffer(args[0])) answer.body = String(args[0]);
		return end(...args);
	}) as typeof res.end;
	const quiet = () => undefined;
	const staticData: IDataObject = {};
	const credentials = credentialId === undefined ? undefined : { haiPayApi: { id: credentialId, name: credentialId } };
	const context = {
		getResponseObject: () => res,
		getRequestObject: () => ({ rawBody: raw }),
		getBodyData: () => parsed,
		getCredentials: async () => credential,
		getNodeParameter: (_name: string, fallback?: unknown) => fallback,
		getWorkflowStaticData: () => staticData,
		getWorkflow: () => ({ id: 'bench-refusal', active: true }),
		getNode: () => ({ id: 'bench-refusal-trigger', name: 'HaiPay Trigger', credentials }),
		logger: { info: quiet, warn: quiet, debug: quiet, error: quiet, verbose: quiet },
	} as unknown as IWebhookFunctions;
	return { context, answer };
}

/** The TZS credential with the platform's key pair, as the trigger reads it. */
export function refusalCredential(platformPrivateKey: string): ICredentialDataDecryptedObject {
	return {
		environment: 'custom',
		baseUrl: 'http://127.0.0.1:9',
		appId: APP_IDS.TZS,
		currency: 'TZS',
		secretKey: 'test-only-secret-tzs',
		privateKey: platformPrivateKey,
		haipayPublicKey: createPublicKey(platformPrivateKey).export({ type: 'spki', format: 'pem' }).toString(),
		arrayStyle: 'json',
	};
}
