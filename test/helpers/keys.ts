/** The repository's test-only key pairs live with the sandbox (see sandbox/keys/README.md). */
export { testKey, TEST_KEYS } from '../../sandbox/keys';

/** A PEM key as HaiPay's backend hands it out: the base64 body only, armour and line breaks stripped. */
export function bareBase64(pem: string): string {
	return pem.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, '');
}
