import type { ICredentialDataDecryptedObject, IHttpRequestOptions } from 'n8n-workflow';
import { UserError } from 'n8n-workflow';

import { ambiguityOf } from './canonical';
import { privateKeyOf, settingsFor, signerFor, type PathSigners } from './credential';
import { sign } from './signature';

/**
 * The credential's `authenticate`: adds the appId of the path's currency, signs the body that will be sent with
 * that App ID's secret and points the request at the environment's base URL. The object that is signed is the
 * object that is sent. An appId already in the body only chooses among the credential's own App IDs on the
 * voucher's path, which serves every currency; anything else in it is replaced. `signers`: the paths that name a
 * product instead of a currency (products/index.ts `PATH_SIGNERS`).
 */
export async function signRequest(
	credentials: ICredentialDataDecryptedObject,
	requestOptions: IHttpRequestOptions,
	signers: PathSigners,
): Promise<IHttpRequestOptions> {
	const body = (
		typeof requestOptions.body === 'object' && requestOptions.body !== null ? requestOptions.body : {}
	) as object;
	const settings = signerFor(
		settingsFor(credentials),
		requestOptions.url,
		signers,
		(body as { appId?: unknown }).appId,
	);
	const privateKey = privateKeyOf(settings);
	// One copy, sent as signed: its canonical string is taken before `sign` is set (and leaves any old one out).
	const signed: Record<string, unknown> = { ...body, appId: settings.appId };
	// The last line of defence: the node refuses such values with a clear error long before they get here.
	const ambiguity = ambiguityOf(signed, { arrayStyle: settings.arrayStyle });
	if (ambiguity !== undefined) {
		throw new UserError(
			`HaiPay: "${ambiguity.field}" holds "${ambiguity.character}", which would let the signature stand for other fields: nothing was signed or sent.`,
		);
	}
	signed.sign = await sign(signed, settings.secretKey, privateKey, { arrayStyle: settings.arrayStyle });
	return {
		...requestOptions,
		baseURL: requestOptions.baseURL || settings.baseUrl,
		headers: { ...requestOptions.headers, 'Content-Type': 'application/json' },
		body: signed,
		json: requestOptions.json ?? true,
	};
}
