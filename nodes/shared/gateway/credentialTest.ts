import type {
	ICredentialTestFunctions,
	ICredentialsDecrypted,
	IDataObject,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import { SUCCESS_STATUS } from '../contract/envelope';
import { balancePath } from '../contract/paths';
import { isProductApp, PATH_SIGNERS } from '../products';
import { privateKeyOf, settingsFor, signerFor, type HaiPaySettings } from '../signing/credential';
import { sign } from '../signing/signature';
import { verifySigned } from '../signing/verification';
import { gatewayText } from './outcome';
import { redactText } from './redact';

/** Long enough for HaiPay over the internet, short enough that the credential dialog does not seem to hang. */
const TEST_TIMEOUT_MS = 15_000;

const MISMATCH_HINT =
	'Check that the App ID, its currency, its secret key and the merchant private key belong together and to this environment (sandbox keys do not work in production).';

/** Why HaiPay's answer to one App ID's signed balance read does not prove the App ID works, or undefined. */
async function problemOf(answer: unknown, signer: HaiPaySettings): Promise<string | undefined> {
	if (answer === null || typeof answer !== 'object' || Array.isArray(answer))
		return 'HaiPay did not answer with a JSON object';
	const envelope = answer as IDataObject;
	if (String(envelope.status) !== SUCCESS_STATUS) {
		const said = [envelope.error, envelope.msg].filter((part) => typeof part === 'string' && part !== '').join(': ');
		const quoted = said === '' ? '' : ` (${gatewayText(redactText(said, signer.secrets))})`;
		return `HaiPay refused the signed request${quoted}. ${MISMATCH_HINT}`;
	}
	const data = envelope.data;
	// A signed answer that the configured public key does not verify means the key is not HaiPay's for this
	// environment: every answer and callback would then be refused.
	if (signer.haipayPublicKey !== '' && data !== null && typeof data === 'object' && 'sign' in data) {
		if ((await verifySigned(data as IDataObject, signer)) === 'invalid') {
			return 'HaiPay accepted the request, but the HaiPay Public Key in the credential does not verify its answer: download the platform public key of this environment again.';
		}
	}
	return undefined;
}

/** One App ID's signed, read-only balance call: it proves the App ID, its secret and the private key belong together. */
async function testApp(
	ctx: ICredentialTestFunctions,
	settings: HaiPaySettings,
	currency: string,
): Promise<string | undefined> {
	const path = balancePath(currency.toLowerCase());
	const signer = signerFor(settings, path, PATH_SIGNERS);
	const body: IDataObject = { appId: signer.appId };
	body.sign = await sign(body, signer.secretKey, privateKeyOf(signer), { arrayStyle: signer.arrayStyle });
	let answer: unknown;
	try {
		answer = await ctx.helpers.request({
			method: 'POST',
			uri: `${signer.baseUrl}${path}`,
			body,
			json: true,
			timeout: TEST_TIMEOUT_MS,
		});
	} catch (error) {
		const status = (error as { statusCode?: unknown }).statusCode;
		const why =
			typeof status === 'number'
				? `HaiPay answered HTTP ${status}`
				: `HaiPay could not be reached at ${signer.baseUrl}`;
		return `${why}. ${MISMATCH_HINT}`;
	}
	return await problemOf(answer, signer);
}

/**
 * The credential test of both nodes: every App ID the credential holds reads its balance, and the message names
 * each one that failed, so that a merchant with six currencies learns which App ID or secret is wrong.
 */
export async function testHaiPayCredential(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const settings = settingsFor(credential.data ?? {});
	try {
		signerFor(settings, balancePath(settings.currency === '' ? '-' : settings.currency.toLowerCase()), PATH_SIGNERS);
		privateKeyOf(settings);
	} catch (error) {
		return { status: 'Error', message: error instanceof Error ? error.message : String(error) };
	}
	// HaiPay publishes no balance read for a product's App ID (the cashier's): a read there would fail whatever the App ID is worth.
	const readable = settings.apps.filter((app) => !isProductApp(app.currency));
	const unread = settings.apps.filter((app) => isProductApp(app.currency));
	const problems = await Promise.all(readable.map(async (app) => await testApp(this, settings, app.currency)));
	const failed = readable.flatMap((app, index) =>
		problems[index] === undefined ? [] : [`App ID ${app.appId} (${app.currency}): ${problems[index]}`],
	);
	if (failed.length > 0) return { status: 'Error', message: failed.join(' ') };
	const held = readable.map((app) => `${app.appId} (${app.currency})`).join(', ');
	const untested =
		unread.length === 0
			? ''
			: `${readable.length === 0 ? '' : '.'} Not tested: ${unread.map((app) => `${app.appId} (${app.currency})`).join(', ')}, which HaiPay offers no balance read for; its first payment shows whether it works.`;
	const tested =
		readable.length === 0
			? 'The keys were read; no App ID of this credential has a balance read to test.'
			: `HaiPay accepted the signed balance read of every App ID: ${held}`;
	return { status: 'OK', message: `${tested}${untested}` };
}
