import { execFile } from 'child_process';
import { readFileSync } from 'fs';
import http from 'http';
import { join } from 'path';

import { startSandbox, type Sandbox, type SandboxOptions } from '../../sandbox';
import { TEST_KEY_DIR } from '../../sandbox/keys';
import { loadPrivateKey, loadPublicKey, signBody, verifyBody } from '../../sandbox/signing';
import { APP_IDS, mitBody, payoutBody, type PayoutCurrency, type SandboxCurrency } from '../fixtures/bodies';

const keyDir = TEST_KEY_DIR;
const pem = (name: string) => readFileSync(join(keyDir, name), 'utf8');

export const MERCHANT_KEY = loadPrivateKey(pem('merchant-test-only.pkcs8.pem'));
export const OTHER_KEY = loadPrivateKey(pem('other-test-only.pkcs8.pem'));
export const PLATFORM_PUBLIC = loadPublicKey(pem('platform-test-only.public.pem'));

export const APP = APP_IDS;
export type Ccy = SandboxCurrency;

export function secretOf(appId: number): string {
	const currency = (Object.keys(APP) as Ccy[]).find((c) => APP[c] === appId) ?? 'TZS';
	return `test-only-secret-${currency.toLowerCase()}`;
}

export type Body = Record<string, unknown>;

/** Signs a body as a merchant would, for the appId it names (or with an explicit secret/key). */
export function signed(
	body: Body,
	options: { secret?: string; key?: typeof MERCHANT_KEY; arrayStyle?: 'json' | 'list' } = {},
): Body {
	const secret = options.secret ?? secretOf(body.appId as number);
	return { ...body, sign: signBody(body, secret, options.key ?? MERCHANT_KEY, options.arrayStyle) };
}

export interface Envelope {
	status: string;
	error: string;
	msg: string;
	data: Record<string, unknown> | string | null;
}

export interface Raw {
	httpStatus: number;
	contentType: string;
	bytes: Buffer;
	json?: Envelope;
}

/**
 * One POST over a fresh connection, so that a test never reuses a socket a fault has broken. Only the test's own
 * timeout bounds the wait for an answer: `giveUp` is for answers that never come, the client gives up (a "client
 * timeout") when it resolves. With `release`, the last byte of the body waits for it: the sandbox holds the
 * request in flight until then.
 */
export function rawPost(
	base: string,
	path: string,
	body: unknown,
	giveUp?: Promise<unknown>,
	release?: Promise<unknown>,
): Promise<Raw> {
	return new Promise((resolve, reject) => {
		const payload = Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
		const request = http.request(
			`${base}${path}`,
			{
				method: 'POST',
				headers: { 'Content-Type': 'application/json', 'Content-Length': payload.length },
				agent: false,
			},
			(response) => {
				const chunks: Buffer[] = [];
				response.on('data', (chunk: Buffer) => chunks.push(chunk));
				response.on('end', () => {
					const bytes = Buffer.concat(chunks);
					const contentType = String(response.headers['content-type'] ?? '');
					resolve({
						httpStatus: response.statusCode ?? 0,
						contentType,
						bytes,
						json: contentType.startsWith('application/json')
							? (JSON.parse(bytes.toString('utf8')) as Envelope)
							: undefined,
					});
				});
				response.on('error', reject);
			},
		);
		void giveUp?.then(() => request.destroy(new Error('client timeout')));
		request.on('error', reject);
		if (release === undefined) request.end(payload);
		else {
			request.write(payload.subarray(0, -1));
			void release.then(() => request.end(payload.subarray(-1)));
		}
	});
}

/** The longest delay a Node.js timer takes (about 24.8 days): a deadline that never comes during a test. */
export const NEVER_MS = 2 ** 31 - 1;

/** Resolves once `condition` holds, for sandbox state that emits no event; only the test's own timeout bounds it. */
export async function until(condition: () => boolean): Promise<void> {
	while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

/** Posts a body signed for its appId and returns the envelope (asserting HTTP 200 JSON). */
export async function call(sandbox: Sandbox, path: string, body: Body, sign = true): Promise<Envelope> {
	const raw = await rawPost(sandbox.baseUrl, path, sign ? signed(body) : body);
	if (raw.httpStatus !== 200 || !raw.json) throw new Error(`unexpected answer ${raw.httpStatus} ${raw.contentType}`);
	return raw.json;
}

/** Checks the answer's signature as a merchant would: over data without sign, with the platform key. */
export function dataVerifies(envelope: Envelope, appId: number, arrayStyle: 'json' | 'list' = 'json'): boolean {
	const data = envelope.data as Body;
	return verifyBody(data, String(data.sign), secretOf(appId), PLATFORM_PUBLIC, arrayStyle);
}

/** Checks a callback's signature as the merchant's trigger would: over the body without sign, with the platform key. */
export const callbackVerifies = (body: Body): boolean =>
	verifyBody(body, String(body.sign), secretOf(body.appId as number), PLATFORM_PUBLIC);

/** Creates a TZS payout through the sandbox's HTTP API; its orderNo. */
export async function applyPayout(sandbox: Sandbox, body: Body): Promise<string> {
	const answer = await call(sandbox, '/tzs/pay/apply', body);
	if (answer.status !== '1') throw new Error(answer.msg);
	return String((answer.data as Body).orderNo);
}

export function control(
	sandbox: Sandbox,
	method: string,
	path: string,
	body?: unknown,
): Promise<{ status: number; json: unknown }> {
	return new Promise((resolve, reject) => {
		const payload = body === undefined ? '' : JSON.stringify(body);
		const request = http.request(
			`${sandbox.baseUrl}/__sandbox${path}`,
			{
				method,
				headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) },
				agent: false,
			},
			(response) => {
				const chunks: Buffer[] = [];
				response.on('data', (chunk: Buffer) => chunks.push(chunk));
				response.on('end', () => {
					const text = Buffer.concat(chunks).toString('utf8');
					resolve({ status: response.statusCode ?? 0, json: text ? JSON.parse(text) : undefined });
				});
			},
		);
		request.on('error', reject);
		request.end(payload);
	});
}

let counter = 0;
export function uniqueId(prefix = 'T'): string {
	counter += 1;
	return `${prefix}-${process.pid}-${counter}`;
}

/** A TZS payout of 15000.50, whose fee (1%) tests read as 150.01. */
export function tzsPayout(overrides: Body = {}): Body {
	return payoutBody('TZS', uniqueId('TZS'), { amount: '15000.50', ...overrides });
}

export function payoutFor(currency: PayoutCurrency, overrides: Body = {}): Body {
	return currency === 'TZS' ? tzsPayout(overrides) : payoutBody(currency, uniqueId(currency), overrides);
}

export function mitApply(overrides: Body = {}): Body {
	return mitBody(uniqueId('USD'), overrides);
}

/** A notify receiver on loopback that answers from a script of replies, then SUCCESS. */
export async function startReceiver(replies: Array<{ status?: number; body: string }> = []): Promise<{
	url: string;
	received: Body[];
	close: () => Promise<void>;
}> {
	const received: Body[] = [];
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			received.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Body);
			const reply = replies[received.length - 1] ?? { status: 200, body: 'SUCCESS' };
			res.writeHead(reply.status ?? 200, { 'Content-Type': 'text/plain' });
			res.end(reply.body);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const address = server.address() as { port: number };
	return {
		url: `http://127.0.0.1:${address.port}/notify`,
		received,
		close: () =>
			new Promise<void>((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
			}),
	};
}

export async function withSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
	return startSandbox({ manual: true, callbackSchedule: [20, 20, 20], ...options });
}

export interface PdfText {
	pages: number;
	text: string;
	title: string;
}

/** Text of each PDF, read back by pdfjs-dist in a child process (see pdf-text.mjs). */
export function pdfText(pdfs: Buffer[]): Promise<PdfText[]> {
	return new Promise((resolve, reject) => {
		const child = execFile(
			process.execPath,
			[join(__dirname, 'pdf-text.mjs')],
			{ maxBuffer: 64 * 1024 * 1024, timeout: 30_000 },
			(error, stdout, stderr) => {
				if (error) reject(new Error(`pdf-text failed: ${error.message} ${stderr}`));
				else resolve(JSON.parse(stdout) as PdfText[]);
			},
		);
		child.stdin?.end(JSON.stringify(pdfs.map((pdf) => pdf.toString('base64'))));
	});
}
