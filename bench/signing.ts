import { execFileSync } from 'child_process';

import { canonicalString } from '../nodes/shared/signing/canonical';
import { parsePrivateKey, parsePublicKey } from '../nodes/shared/signing/keys';
import { payoutBody } from '../test/fixtures/bodies';
import { signBody, verifyBody } from '../test/helpers/signing';
import { TEST_KEYS } from '../test/helpers/keys';

/**
 * Signatures per second of the package's signing core on one core, beside `openssl speed rsa2048` on the same
 * machine in the same run: RSA-2048 private-key operations are the limit of this CPU, and the core should spend
 * almost nothing on top of them (canonical string, SHA-256, base64).
 */

export interface SigningFigures {
	signPerSecond: number;
	verifyPerSecond: number;
	canonicalPerSecond: number;
	opensslSignPerSecond: number;
	opensslVerifyPerSecond: number;
	ratioToOpenssl: number;
}

const BODY = payoutBody('TZS', 'BENCH-000001', { notifyUrl: 'https://n8n.example.com/webhook/haipay' });

function rate(seconds: number, step: () => void): number {
	for (let i = 0; i < 50; i++) step();
	const until = process.hrtime.bigint() + BigInt(Math.round(seconds * 1e9));
	const start = process.hrtime.bigint();
	let count = 0;
	while (process.hrtime.bigint() < until) {
		step();
		count++;
	}
	return count / (Number(process.hrtime.bigint() - start) / 1e9);
}

/** `openssl speed` prints "rsa 2048 bits 0.000712s 0.000021s 1404.5 47160.3": sign/s and verify/s last. */
function opensslSpeed(seconds: number): { sign: number; verify: number } {
	const out = execFileSync('openssl', ['speed', '-seconds', String(seconds), 'rsa2048'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
	const line = out.split('\n').find((text) => /^rsa\s+2048 bits/.test(text.trim()));
	if (!line) throw new Error(`unexpected openssl speed output:\n${out}`);
	const numbers = line.trim().split(/\s+/).slice(-2).map(Number);
	return { sign: numbers[0], verify: numbers[1] };
}

export function measureSigning(seconds = 3): SigningFigures {
	const privateKey = parsePrivateKey(TEST_KEYS.merchantPkcs8);
	const publicKey = parsePublicKey(TEST_KEYS.merchantPublic);
	const secret = 'test-only-secret-tzs';
	const signature = signBody(BODY, secret, privateKey);
	let n = 0;
	const signPerSecond = rate(seconds, () => signBody({ ...BODY, orderId: `BENCH-${n++}` }, secret, privateKey));
	const verifyPerSecond = rate(seconds, () => verifyBody(BODY, signature, secret, publicKey));
	const canonicalPerSecond = rate(1, () => canonicalString(BODY, secret));
	const openssl = opensslSpeed(seconds);
	return {
		signPerSecond,
		verifyPerSecond,
		canonicalPerSecond,
		opensslSignPerSecond: openssl.sign,
		opensslVerifyPerSecond: openssl.verify,
		ratioToOpenssl: signPerSecond / openssl.sign,
	};
}

if (require.main === module) {
	const figures = measureSigning(Number(process.env.BENCH_SECONDS ?? 3));
	const f = (value: number) => Math.round(value).toLocaleString('en-US');
	console.log('| measure | this package | openssl speed rsa2048 | ratio |');
	console.log('|---|---|---|---|');
	console.log(`| signatures/s (one core) | ${f(figures.signPerSecond)} | ${f(figures.opensslSignPerSecond)} | ${(figures.ratioToOpenssl * 100).toFixed(1)}% |`);
	console.log(`| verifications/s | ${f(figures.verifyPerSecond)} | ${f(figures.opensslVerifyPerSecond)} | ${((figures.verifyPerSecond / figures.opensslVerifyPerSecond) * 100).toFixed(1)}% |`);
	console.log(`| canonical strings/s | ${f(figures.canonicalPerSecond)} | | |`);
}
