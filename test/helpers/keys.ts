import { readFileSync } from 'fs';
import { join } from 'path';

/** The repository's test-only key pairs (see test/fixtures/keys/README.md). */
const dir = join(__dirname, '..', 'fixtures', 'keys');

export function testKey(name: string): string {
	return readFileSync(join(dir, name), 'utf8');
}

/** A PEM key as HaiPay's backend hands it out: the base64 body only, armour and line breaks stripped. */
export function bareBase64(pem: string): string {
	return pem.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, '');
}

export const TEST_KEYS = {
	merchantPkcs8: testKey('merchant-test-only.pkcs8.pem'),
	merchantPkcs1: testKey('merchant-test-only.pkcs1.pem'),
	merchantPublic: testKey('merchant-test-only.public.pem'),
	platformPrivate: testKey('platform-test-only.pkcs8.pem'),
	platformPublic: testKey('platform-test-only.public.pem'),
	otherPrivate: testKey('other-test-only.pkcs8.pem'),
	otherPublic: testKey('other-test-only.public.pem'),
};
