import { readFileSync } from 'fs';
import { join } from 'path';

/**
 * The test-only key pairs (keys/README.md). They live with the gateway, which signs with them by default, and the
 * tests, benchmarks and playground read them from here, so nothing in the sandbox reaches into test/.
 */
export const TEST_KEY_DIR = join(__dirname, 'keys');

export function testKey(name: string): string {
	return readFileSync(join(TEST_KEY_DIR, name), 'utf8');
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
