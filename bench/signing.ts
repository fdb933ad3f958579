import { execFileSync } from 'child_process';
import { readFileSync } from 'fs';
import { cpus } from 'os';

import { canonicalString } from '../nodes/shared/signing/canonical';
import { parsePrivateKey, parsePublicKey } from '../nodes/shared/signing/keys';
import { sign, verify } from '../nodes/shared/signing/signature';
import { payoutBody } from '../test/fixtures/bodies';
import { TEST_KEYS } from '../test/helpers/keys';
import { loadSentence, machine, type Machine } from './machine';
import { signingLines } from './report';
import { RESULTS_FILE, sectionMarkdown, writeResults } from './results-file';
import type { SigningFigures } from './signing-figures';

export type { SigningFigures } from './signing-figures';

const BODY = payoutBody('TZS', 'BENCH-000001', { notifyUrl: 'https://n8n.example.com/webhook/haipay' });

/** libuv's default unless the environment sets it (the package runs in n8n's process, which does not). */
const THREAD_POOL_SIZE = Number(process.env.UV_THREADPOOL_SIZE ?? 4);

/** Operations per second over `seconds`, with `inFlight` kept outstanding, after a warm-up. */
async function rate(seconds: number, inFlight: number, step: (index: number) => Promise<unknown>): Promise<number> {
	for (let index = 0; index < 50; index++) await step(index);
	const start = process.hrtime.bigint();
	const until = start + BigInt(Math.round(seconds * 1e9));
	let done = 0;
	const lane = async (): Promise<void> => {
		while (process.hrtime.bigint() < until) {
			await step(done);
			done++;
		}
	};
	await Promise.all(Array.from({ length: inFlight }, lane));
	return done / (Number(process.hrtime.bigint() - start) / 1e9);
}

function syncRate(seconds: number, step: () => void): number {
	for (let index = 0; index < 50; index++) step();
	const start = process.hrtime.bigint();
	const until = start + BigInt(Math.round(seconds * 1e9));
	let count = 0;
	while (process.hrtime.bigint() < until) {
		step();
		count++;
	}
	return count / (Number(process.hrtime.bigint() - start) / 1e9);
}

/** `openssl speed` ends with "rsa 2048 bits 0.000712s 0.000021s 1404.5 47160.3": sign/s and verify/s last. */
function opensslSpeed(seconds: number, processes = 1): { sign: number; verify: number } {
	const multi = processes > 1 ? ['-multi', String(processes)] : [];
	const out = execFileSync('openssl', ['speed', '-seconds', String(seconds), ...multi, 'rsa2048'], {
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'ignore'],
	});
	const line = out.split('\n').find((text) => /^rsa\s+2048 bits/.test(text.trim()));
	if (!line) throw new Error(`unexpected openssl speed output:\n${out}`);
	const numbers = line.trim().split(/\s+/).slice(-2).map(Number);
	return { sign: numbers[0], verify: numbers[1] };
}

export async function measureSigning(seconds = 3): Promise<SigningFigures> {
	const privateKey = parsePrivateKey(TEST_KEYS.merchantPkcs8);
	const publicKey = parsePublicKey(TEST_KEYS.merchantPublic);
	const secret = 'test-only-secret-tzs';
	const signature = await sign(BODY, secret, privateKey);
	// A benchmark of a verify that says false would measure the wrong path.
	if (!(await verify(BODY, signature, secret, publicKey)))
		throw new Error('the shipped verify() refused a genuine signature');
	const signOne = async (index: number) => await sign({ ...BODY, orderId: `BENCH-${index}` }, secret, privateKey);
	const verifyOne = async () => await verify(BODY, signature, secret, publicKey);
	const inFlight = THREAD_POOL_SIZE * 2;
	const cores = cpus().length;
	const figures = {
		signPerSecond: await rate(seconds, 1, signOne),
		verifyPerSecond: await rate(seconds, 1, verifyOne),
		poolSignPerSecond: await rate(seconds, inFlight, signOne),
		poolVerifyPerSecond: await rate(seconds, inFlight, verifyOne),
		inFlight,
		threadPoolSize: THREAD_POOL_SIZE,
		canonicalPerSecond: syncRate(1, () => canonicalString(BODY, secret)),
	};
	const single = opensslSpeed(seconds);
	const multi = opensslSpeed(seconds, cores);
	return {
		...figures,
		opensslSignPerSecond: single.sign,
		opensslVerifyPerSecond: single.verify,
		cores,
		opensslMultiSignPerSecond: multi.sign,
		opensslMultiVerifyPerSecond: multi.verify,
		ratioToOpenssl: figures.signPerSecond / single.sign,
	};
}

/** What the figures depend on: no n8n runs in this benchmark, so none of its versions are named. */
export function signingMachineLine(m: Machine): string {
	return `Machine: ${m.cores} cores (${m.cpu}), ${m.memoryGb} GB, Linux ${m.kernel}; Node ${m.benchNode}; ${m.openssl}. ${loadSentence(m)}`;
}

/** Measures, prints the table, and rewrites the signing section of bench/results.md (the others are kept). */
async function main(): Promise<void> {
	const seconds = Number(process.env.BENCH_SECONDS ?? 3);
	const host = machine({ n8n: false });
	const figures = await measureSigning(seconds);
	const command = `${process.env.BENCH_SECONDS ? `BENCH_SECONDS=${seconds} ` : ''}npx tsx bench/signing.ts`;
	const section = {
		id: 'signing',
		title: 'Signing',
		date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
		command,
		body: [...signingLines(figures), '', signingMachineLine(host)].join('\n'),
	};
	// The file's head stays as the full benchmark wrote it: this run measures one section.
	const head = readFileSync(RESULTS_FILE, 'utf8').split(/^## /m)[0];
	writeResults([section], head);
	console.log(sectionMarkdown(section));
}

if (require.main === module) {
	main().catch((error: Error) => {
		console.error(error.stack ?? error.message);
		process.exit(1);
	});
}
