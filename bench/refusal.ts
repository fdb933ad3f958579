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

import { send } from '../dev/http';
import { loadPrivateKey, signBody } from '../sandbox/signing';
import { APP_IDS, callbackBody } from '../test/fixtures/bodies';
import { asWebhookResponse } from '../test/harness/http';

/**
 * The cost of refusing a body built to exhaust the trigger, measured where it is paid: CPU time in the
 * trigger's webhook(), for the largest body n8n accepts (16 MiB of short members, forged) against a genuine
 * callback. n8n parses the body before the node runs; that cost, which no node can avoid, is given beside it.
 */

/** n8n's default N8N_PAYLOAD_SIZE_MAX (MiB): the largest body its webhook server reads. */
export const N8N_PAYLOAD_MAX_BYTES = 16 * 1024 * 1024;

/** A forged body of `bytes` made of short members, the shape that cost the most before the caps: only appId is real. */
export function largestForgedBody(bytes = N8N_PAYLOAD_MAX_BYTES): string {
	const parts: string[] = [`"appId":${APP_IDS.TZS}`, '"status":2', '"sign":"forged"'];
	let size = 2 + parts.join(',').length;
	for (let index = 0; ; index++) {
		const member = `"k${index}":"v"`;
		if (size + member.length + 1 > bytes) break;
		parts.push(member);
		size += member.length + 1;
	}
	return `{${parts.join(',')}}`;
}

export interface RefusalFigures {
	/** Bytes and members of the largest body. */
	bytes: number;
	fields: number;
	/** CPU ms the trigger's webhook() takes to refuse it (median of runs), and its answer. */
	refuseMs: number;
	refusedWith: number;
	/** CPU ms for a genuine callback, verified and emitted (median of runs). */
	genuineMs: number;
	/** What n8n's own body parser spends on the largest body before the node runs (JSON.parse, median). */
	n8nParseMs: number;
	/** The same body posted to a real n8n's production URL: the whole round trip, when a URL was given. */
	httpMs?: number;
	httpStatus?: number;
	/** A forged 62 KB body against a small forged one, at 19 App IDs (forgedRow). */
	forged?: ForgedFigures;
}

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)];
}

/**
 * A webhook context around one request: real node code, real signing, no n8n. The response is a real node:http
 * ServerResponse with the express methods n8n's webhook server adds (the harness's): a hand-made stand-in lacked
 * the `once` the trigger came to use, and the refusal figure was lost to "res.once is not a function".
 */
function webhookContext(raw: Buffer, parsed: unknown, credential: ICredentialDataDecryptedObject) {
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
	const context = {
		getResponseObject: () => res,
		getRequestObject: () => ({ rawBody: raw }),
		getBodyData: () => parsed,
		getCredentials: async () => credential,
		getNodeParameter: (_name: string, fallback?: unknown) => fallback,
		getWorkflowStaticData: () => staticData,
		getWorkflow: () => ({ id: 'bench-refusal', active: true }),
		getNode: () => ({ id: 'bench-refusal-trigger', name: 'HaiPay Trigger' }),
		logger: { info: quiet, warn: quiet, debug: quiet, error: quiet, verbose: quiet },
	} as unknown as IWebhookFunctions;
	return { context, answer };
}

/** The TZS credential with the platform's key pair, as the trigger reads it. */
function refusalCredential(platformPrivateKey: string): ICredentialDataDecryptedObject {
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

type Webhook = (this: IWebhookFunctions) => Promise<IWebhookResponseData>;

/**
 * CPU ms of one webhook() call per request made by `request(run)` (the process's CPU, the thread pool's signature
 * check included), and what each answered. CPU, not the time until it returns: a genuine callback waits up to a
 * second for the repeat memory's save, which costs nothing.
 */
async function timeWebhook(
	webhook: Webhook,
	runs: number,
	request: (run: number) => { raw: Buffer; parsed: unknown },
	credential: ICredentialDataDecryptedObject,
	check: (result: IWebhookResponseData, answer: { status: number; body: string }) => void,
): Promise<number[]> {
	const times: number[] = [];
	for (let run = 0; run < runs; run++) {
		const { raw, parsed } = request(run);
		const { context, answer } = webhookContext(raw, parsed, credential);
		const started = process.cpuUsage();
		const result = await webhook.call(context);
		const used = process.cpuUsage(started);
		times.push((used.user + used.system) / 1000);
		check(result, answer);
	}
	return times;
}

/** A genuine payout callback, signed with the platform key, as text. */
function genuineCallback(run: number, signer: ReturnType<typeof loadPrivateKey>): string {
	const fields = callbackBody('payout', { orderId: `REF-${run}`, orderNo: `HPREF${String(run).padStart(8, '0')}` });
	return JSON.stringify({ ...fields, sign: signBody(fields, 'test-only-secret-tzs', signer) });
}

/** The largest body posted to a real n8n: the round trip's ms and n8n's status. */
async function overHttp(url: string, body: string): Promise<{ httpMs: number; httpStatus: number }> {
	const started = performance.now();
	const reply = await send(url, body, { headers: { 'Content-Type': 'application/json' } });
	return { httpMs: performance.now() - started, httpStatus: reply.status };
}

export async function measureRefusal(
	platformPrivateKey: string,
	options: { runs?: number; url?: string } = {},
): Promise<RefusalFigures> {
	const runs = options.runs ?? 5;
	// By its full name: tsx resolves `HaiPayTrigger.node` to the codex file HaiPayTrigger.node.json beside it.
	const { HaiPayTrigger } = (await import(
		join(__dirname, '..', 'nodes', 'HaiPayTrigger', 'HaiPayTrigger.node.ts')
	)) as typeof import('../nodes/HaiPayTrigger/HaiPayTrigger.node');
	const { webhook } = new HaiPayTrigger();
	const credential = refusalCredential(platformPrivateKey);
	const largest = largestForgedBody();
	const raw = Buffer.from(largest, 'utf8');
	const parseTimes: number[] = [];
	let parsed: unknown;
	for (let run = 0; run < Math.min(runs, 3); run++) {
		const started = performance.now();
		parsed = JSON.parse(largest);
		parseTimes.push(performance.now() - started);
	}
	let refusedWith = 0;
	const refuseTimes = await timeWebhook(
		webhook,
		runs,
		() => ({ raw, parsed }),
		credential,
		(result, answer) => {
			if (result.workflowData !== undefined || answer.status < 400)
				throw new Error(`the largest forged body was not refused: ${answer.status} ${answer.body}`);
			refusedWith = answer.status;
		},
	);
	const signer = loadPrivateKey(platformPrivateKey);
	const genuine = (run: number) => {
		const text = genuineCallback(run, signer);
		return { raw: Buffer.from(text, 'utf8'), parsed: JSON.parse(text) as unknown };
	};
	const genuineTimes = await timeWebhook(webhook, Math.max(runs, 50), genuine, credential, (result, answer) => {
		if (result.workflowData === undefined)
			throw new Error(`the genuine callback was not emitted: ${answer.status} ${answer.body}`);
	});
	return {
		bytes: raw.length,
		fields: (largest.match(/":/g) ?? []).length,
		refuseMs: median(refuseTimes),
		refusedWith,
		genuineMs: median(genuineTimes),
		n8nParseMs: median(parseTimes),
		forged: await measureForgedRefusal(platformPrivateKey),
		...(options.url === undefined ? {} : await overHttp(options.url, largest)),
	};
}

/** The bench table's row for the refusal cost. */
export function refusalRow(figures: RefusalFigures): string {
	const mb = (figures.bytes / 1024 / 1024).toFixed(0);
	const http =
		figures.httpMs === undefined
			? ''
			: `; over HTTP to n8n ${figures.httpMs.toFixed(0)} ms (HTTP ${figures.httpStatus})`;
	return `| refusing the largest body n8n accepts (${mb} MiB, ${figures.fields.toLocaleString('en-US')} fields, forged) | trigger ${figures.refuseMs.toFixed(2)} ms of CPU (HTTP ${figures.refusedWith}), genuine callback ${figures.genuineMs.toFixed(2)} ms; n8n's own JSON parse before the node ${figures.n8nParseMs.toFixed(0)} ms${http} | goal < 50 ms |${figures.forged === undefined ? '' : `\n${forgedRow(figures.forged)}`}`;
}

/** What refusing a forged body costs against a small forged one, at a credential of `apps` App IDs. */
export interface ForgedFigures {
	apps: number;
	/** Bytes of the large forged body (under the 64 KiB cap, so that it is read and its signature checked). */
	bytes: number;
	/** Median CPU ms of webhook() refusing the large and the small forged body. */
	largeMs: number;
	smallMs: number;
}

/** A forged payout callback of about `bytes` for `appId`, its extra fields long text, within the trigger's caps. */
export function forgedCallbackText(appId: number, bytes: number, run = 0): string {
	const body: Record<string, unknown> = { ...callbackBody('payout', { orderId: `FORGED-${run}` }), appId };
	for (let index = 0; JSON.stringify(body).length < bytes - 400; index++)
		body[`remark${String(index).padStart(3, '0')}`] = `x${run}`.padEnd(320, 'y');
	body.sign = 'Zm9yZ2VkIHNpZ25hdHVyZQ==';
	return JSON.stringify(body);
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
 * CPU ms of webhook() refusing a forged 62 KB body and a small forged one (a genuine callback's size), at a
 * credential of 19 App IDs, interleaved so that both meet the same machine; medians of `runs` each.
 */
export async function measureForgedRefusal(platformPrivateKey: string, runs = 31, apps = 19): Promise<ForgedFigures> {
	const { HaiPayTrigger } = (await import(
		join(__dirname, '..', 'nodes', 'HaiPayTrigger', 'HaiPayTrigger.node.ts')
	)) as typeof import('../nodes/HaiPayTrigger/HaiPayTrigger.node');
	const { webhook } = new HaiPayTrigger();
	const credential = manyAppsCredential(platformPrivateKey, apps);
	const times = { large: [] as number[], small: [] as number[] };
	let bytes = 0;
	const refused = (_result: IWebhookResponseData, answer: { status: number; body: string }) => {
		if (answer.status !== 401) throw new Error(`a forged body was not refused: ${answer.status} ${answer.body}`);
	};
	for (let run = 0; run < runs; run++) {
		for (const size of ['large', 'small'] as const) {
			const text = forgedCallbackText(APP_IDS.TZS, size === 'large' ? 62_000 : 0, run);
			if (size === 'large') bytes = text.length;
			const request = () => ({ raw: Buffer.from(text, 'utf8'), parsed: JSON.parse(text) as unknown });
			times[size].push(...(await timeWebhook(webhook, 1, request, credential, refused)));
		}
	}
	return { apps, bytes, largeMs: median(times.large.slice(1)), smallMs: median(times.small.slice(1)) };
}

/** The bench table's row for a forged body's refusal against a small one's. */
export function forgedRow(figures: ForgedFigures): string {
	const ratio = figures.largeMs / figures.smallMs;
	return `| refusing a forged ${(figures.bytes / 1000).toFixed(0)} KB body at ${figures.apps} App IDs, against a small forged body | trigger ${figures.largeMs.toFixed(2)} ms of CPU against ${figures.smallMs.toFixed(2)} ms (${ratio.toFixed(2)}x) | goal <= 2x |`;
}
