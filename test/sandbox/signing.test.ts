import { readFileSync } from 'fs';
import { join } from 'path';

import { TEST_KEY_DIR } from '../../sandbox/keys';
import { canonicalString, loadPrivateKey, loadPublicKey, signBody, verifyBody } from '../../sandbox/signing';

/** The sandbox signs on its own; these vectors were made with the openssl command line, outside the project. */
interface Vector {
	name: string;
	secret: string;
	arrayStyle?: 'json' | 'list';
	body: Record<string, unknown>;
	canonical: string;
	signature: string;
}

const fixtures = join(__dirname, '..', 'fixtures');
const vectors = JSON.parse(readFileSync(join(fixtures, 'signing', 'vectors.json'), 'utf8')) as Vector[];
const key = (name: string) => readFileSync(join(TEST_KEY_DIR, name), 'utf8');
const bare = (pem: string) => pem.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, '');

describe('sandbox signing against the openssl vectors', () => {
	const privateKey = loadPrivateKey(key('merchant-test-only.pkcs8.pem'));
	const publicKey = loadPublicKey(key('merchant-test-only.public.pem'));

	it.each(vectors.map((v) => [v.name, v] as const))('%s', (_name, vector) => {
		expect(canonicalString(vector.body, vector.secret, vector.arrayStyle ?? 'json')).toBe(vector.canonical);
		expect(signBody(vector.body, vector.secret, privateKey, vector.arrayStyle ?? 'json')).toBe(vector.signature);
		expect(verifyBody(vector.body, vector.signature, vector.secret, publicKey, vector.arrayStyle ?? 'json')).toBe(true);
	});

	it('rejects a tampered field, a wrong secret, another key and a malformed signature', () => {
		const vector = vectors[1];
		expect(verifyBody({ ...vector.body, amount: '15000.51' }, vector.signature, vector.secret, publicKey)).toBe(false);
		expect(verifyBody(vector.body, vector.signature, `${vector.secret}x`, publicKey)).toBe(false);
		expect(
			verifyBody(vector.body, vector.signature, vector.secret, loadPublicKey(key('other-test-only.public.pem'))),
		).toBe(false);
		expect(verifyBody(vector.body, 'not base64!', vector.secret, publicKey)).toBe(false);
	});

	it('loads keys as PEM, bare base64, PKCS#1 and PKCS#8 alike', () => {
		const vector = vectors[0];
		for (const text of [
			key('merchant-test-only.pkcs1.pem'),
			bare(key('merchant-test-only.pkcs8.pem')),
			bare(key('merchant-test-only.pkcs1.pem')),
		]) {
			expect(signBody(vector.body, vector.secret, loadPrivateKey(text))).toBe(vector.signature);
		}
		expect(
			verifyBody(
				vector.body,
				vector.signature,
				vector.secret,
				loadPublicKey(bare(key('merchant-test-only.public.pem'))),
			),
		).toBe(true);
	});
});
