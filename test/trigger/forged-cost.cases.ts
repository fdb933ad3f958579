/**
 * A forged body is cheap to refuse (issue 41, point 4): nothing costly runs before the signature is opened. The body's
 * names and places are scanned, `appId` and `sign` alone decoded, and a signature the private key did not make is
 * refused at one public-key operation (signature.ts `mayBeSigned`): the rest of the body is never decoded, its string
 * to sign never built or hashed. Its log line redacts only the start of each value it shows. Measured as
 * bench/forged.ts measures it (CPU of the trigger's webhook(), the least batch of many rounds, which the machine's
 * other work can only make slower, never faster); its row in bench/results.md comes from
 * `npx tsx bench/callbacks.ts refusal`. Bodies shaped to slow the scan (bench/forged.ts FORGED_SHAPES) are held to a
 * looser bound. Then what no load can change: which work ran. Over real HTTP, the log line.
 */

import {
	FORGED_SHAPES,
	forgedCallbackText,
	fullSizeSignature,
	manyAppsCredential,
	measureForgedRefusal,
} from '../../bench/forged';
import { triggerWebhook, webhookContext } from '../../bench/webhook-context';
import { ScannedBody } from '../../nodes/shared/callback/body';
import { loadPrivateKey, signBody } from '../../sandbox/signing';
import { APP_IDS, callbackBody } from '../fixtures/bodies';
import { TEST_KEYS } from '../helpers/keys';
import { serveTrigger, TRIGGER } from './callbacks';

const platformKey = () => TEST_KEYS.platformPrivate;
const ROUNDS = { rounds: 30, batch: 32 };

describe('HaiPay Trigger: a forged body costs little to refuse', () => {
	it('a forged 62 KB body at 19 App IDs costs less than twice a small forged body (CPU, least of 30 batches)', async () => {
		const figures = await measureForgedRefusal(platformKey(), { apps: 19, ...ROUNDS });
		expect(figures.bytes).toBeGreaterThan(60_000);
		// Before, every member of the unverified body was decoded, and its string to sign built and hashed: 2.6 times.
		expect(figures.largeMs / figures.smallMs).toBeLessThan(2);
	});

	it('the App IDs of the credential add little to refusing a forged 62 KB body (the body names its one secret)', async () => {
		const [many, one] = [
			await measureForgedRefusal(platformKey(), { apps: 19, ...ROUNDS }),
			await measureForgedRefusal(platformKey(), { apps: 1, ...ROUNDS }),
		];
		// Before, each secret was case-folded again for every value the log line redacts: 19 App IDs cost 5 times one.
		expect(many.largeMs / one.largeMs).toBeLessThan(2);
	});

	it('a forged 62 KB body shaped to slow its reading (escapes, arrays, empty strings) costs under 4 times a small one', async () => {
		for (const shape of Object.keys(FORGED_SHAPES).filter((name) => name !== 'long text')) {
			const figures = await measureForgedRefusal(platformKey(), { apps: 19, shape, ...ROUNDS });
			expect(figures.bytes).toBeGreaterThan(55_000);
			// The scan reads these at about 1.5 ns a character, where long text is skipped at the speed of indexOf.
			expect(figures.largeMs / figures.smallMs).toBeLessThan(4);
		}
	});

	it('refuses a forged body without decoding its values, and decodes a genuine one once', async () => {
		const webhook = await triggerWebhook();
		const credential = manyAppsCredential(platformKey(), 19);
		const decode = jest.spyOn(ScannedBody.prototype, 'decode');
		try {
			const forged = forgedCallbackText(APP_IDS.TZS, 62_000, 7, fullSizeSignature(platformKey()));
			const refused = webhookContext(Buffer.from(forged), JSON.parse(forged), credential, 'forged-decode');
			await webhook.call(refused.context);
			expect(refused.answer.status).toBe(401);
			expect(decode).not.toHaveBeenCalled();

			const fields = callbackBody('payout', { orderId: 'DECODED-1', orderNo: 'HPDECODED0001' });
			const genuine = JSON.stringify({
				...fields,
				sign: signBody(fields, 'test-only-secret-tzs', loadPrivateKey(platformKey())),
			});
			const accepted = webhookContext(Buffer.from(genuine), JSON.parse(genuine), credential, 'forged-decode');
			const result = await webhook.call(accepted.context);
			expect(result.workflowData).toBeDefined();
			expect(decode).toHaveBeenCalledTimes(1);
		} finally {
			decode.mockRestore();
		}
	});

	it('a forged body echoing a secret (percent-encoded) still logs it redacted', async () => {
		const credential = manyAppsCredential(platformKey(), 19);
		const server = await serveTrigger({}, credential);
		try {
			const secret = String(credential.secretKeyZar);
			const text = forgedCallbackText(APP_IDS.TZS, 20_000).replace(
				'FORGED-0',
				`FORGED-${encodeURIComponent(secret).replace(/-/g, '%2D')}`,
			);
			const reply = await server.send(TRIGGER, text, { headers: { 'Content-Type': 'application/json' } });
			expect(reply.status).toBe(401);
			const logs = JSON.stringify(server.calls[0].logs);
			expect(logs).toMatch(/refused a callback with 401/);
			expect(logs).toContain('FORGED-[redacted]');
			expect(logs).not.toMatch(/%2D/);
		} finally {
			await server.close();
		}
	});
});
