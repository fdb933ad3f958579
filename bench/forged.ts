import { createPublicKey } from 'crypto';

import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { APP_IDS, callbackBody } from '../test/fixtures/bodies';
import { refusalCredential, triggerWebhook, webhookContext } from './webhook-context';

/**
 * What refusing a forged body costs, made to cost the most a forger can: a signature of the key's size, so that the
 * whole check runs (the body's signed string built and hashed), at a credential of 19 App IDs (19 secrets to keep
 * out of the log line), a 62 KB body (under the 64 KiB cap, so that it is read) against one of a genuine callback's
 * size. Measured as CPU of the trigger's webhook() (the thread pool's verification included) over a batch of
 * requests, the least of several rounds: the machine's other work can only add to a batch's CPU time, never take
 * from it, so the least is the figure nearest the work itself, and the ratio holds under load.
 */

/** What refusing a forged 62 KB body costs against a small forged one, at a credential of `apps` App IDs. */
export interface ForgedFigures {
	apps: number;
	/** Bytes of the large forged body. */
	bytes: number;
	/** CPU ms per request of webhook() refusing the large and the small forged body (the least batch of the rounds). */
	largeMs: number;
	smallMs: number;
	rounds: number;
	batch: number;
}

/** A signature of the key's size, well-formed base64, below the modulus: one the trigger must check in full. */
export function fullSizeSignature(platformPrivateKey: string): string {
	const bits = createPublicKey(platformPrivateKey).asymmetricKeyDetails?.modulusLength ?? 2048;
	return Buffer.alloc(Math.ceil(bits / 8), 0x5a).toString('base64');
}

/** A forged payout callback of about `bytes` for `appId`, its extra fields long text, within the trigger's caps. */
export function forgedCallbackText(appId: number, bytes: number, run = 0, sign = 'Zm9yZ2VkIHNpZ25hdHVyZQ=='): string {
	const body: Record<string, unknown> = { ...callbackBody('payout', { orderId: `FORGED-${run}` }), appId };
	for (let index = 0, size = JSON.stringify(body).length; size < bytes - 400 - sign.length; index++) {
		const [name, value] = [`remark${String(index).padStart(3, '0')}`, `x${run}`.padEnd(320, 'y')];
		body[name] = value;
		size += JSON.stringify(name).length + JSON.stringify(value).length + 2;
	}
	body.sign = sign;
	return JSON.stringify(body);
}

/**
 * Other shapes of a forged body of about 62 KB, each made to slow down reading it: every value a run of escaped
 * quotes, arrays of numbers, one array of empty strings. `long text` is forgedCallbackText's.
 */
export const FORGED_SHAPES: Record<string, (run: number, sign: string) => string> = {
	'long text': (run, sign) => forgedCallbackText(APP_IDS.TZS, 62_000, run, sign),
	'escaped quotes': (run, sign) => withExtra(run, sign, (index) => [`remark${index}`, '"'.repeat(160)], 185),
	'number arrays': (run, sign) => withExtra(run, sign, (index) => [`list${index}`, Array(160).fill(1)], 180),
	'an array of empty strings': (run, sign) => withExtra(run, sign, () => ['list', Array(19_000).fill('')], 1),
};

function withExtra(run: number, sign: string, member: (index: number) => [string, unknown], count: number): string {
	const body = { ...callbackBody('payout', { orderId: `FORGED-${run}` }), appId: APP_IDS.TZS };
	return JSON.stringify({ ...body, ...Object.fromEntries(Array.from({ length: count }, (_, i) => member(i))), sign });
}

/** A credential of the first `count` currencies of the sandbox, each App ID with its own secret. */
export function manyAppsCredential(platformPrivateKey: string, count: number): ICredentialDataDecryptedObject {
	const others = (Object.keys(APP_IDS) as Array<keyof typeof APP_IDS>).filter((currency) => currency !== 'TZS');
	const currencies = ['TZS', ...others].slice(0, count) as Array<keyof typeof APP_IDS>;
	const credential = refusalCredential(platformPrivateKey);
	credential.otherCurrencies = currencies.slice(1);
	for (const currency of currencies.slice(1)) {
		const suffix = currency.charAt(0) + currency.slice(1).toLowerCase();
		credential[`appId${suffix}`] = APP_IDS[currency];
		credential[`secretKey${suffix}`] = `test-only-secret-${currency.toLowerCase()}-${'s'.repeat(16)}`;
	}
	return credential;
}

/**
 * CPU ms per request of webhook() refusing a forged 62 KB body and a small forged one at a credential of `apps` App
 * IDs: `rounds` rounds (after one to warm up), each a batch of each size in turn, the least batch of each kept.
 */
export async function measureForgedRefusal(
	platformPrivateKey: string,
	{ apps = 19, rounds = 30, batch = 32, shape = 'long text' } = {},
): Promise<ForgedFigures> {
	const webhook = await triggerWebhook();
	const credential = manyAppsCredential(platformPrivateKey, apps);
	const sign = fullSizeSignature(platformPrivateKey);
	const least = { large: Infinity, small: Infinity };
	let bytes = 0;
	for (let round = 0; round <= rounds; round++) {
		for (const size of ['large', 'small'] as const) {
			const requests = Array.from({ length: batch }, (_, index) => {
				const run = round * batch + index;
				const text = size === 'large' ? FORGED_SHAPES[shape](run, sign) : forgedCallbackText(APP_IDS.TZS, 0, run, sign);
				if (size === 'large') bytes = text.length;
				return webhookContext(Buffer.from(text, 'utf8'), JSON.parse(text), credential, `bench-forged-${apps}`);
			});
			const started = process.cpuUsage();
			for (const { context } of requests) await webhook.call(context);
			const used = process.cpuUsage(started);
			const other = requests.find(({ answer }) => answer.status !== 401)?.answer;
			if (other !== undefined) throw new Error(`a forged body was not refused: ${other.status} ${other.body}`);
			if (round > 0) least[size] = Math.min(least[size], (used.user + used.system) / 1000 / batch);
		}
	}
	return { apps, bytes, largeMs: least.large, smallMs: least.small, rounds, batch };
}

/** The bench table's row for a forged body's refusal against a small one's, beside a genuine callback's cost. */
export function forgedRow(figures: ForgedFigures, genuineMs?: number): string {
	const ratio = figures.largeMs / figures.smallMs;
	const genuine = genuineMs === undefined ? '' : `; a genuine callback ${genuineMs.toFixed(2)} ms`;
	return `| refusing a forged ${(figures.bytes / 1000).toFixed(0)} KB body at ${figures.apps} App IDs, against a small forged body (signatures of the key's size) | trigger ${figures.largeMs.toFixed(2)} ms of CPU against ${figures.smallMs.toFixed(2)} ms (${ratio.toFixed(2)}x; least of ${figures.rounds} batches of ${figures.batch})${genuine} | goal <= 2x |`;
}
