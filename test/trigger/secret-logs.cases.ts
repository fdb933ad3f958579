/**
 * Secrets a verified callback echoes never reach a log line: not in the warning that names a field HaiPay added,
 * not in the fields and values of a refusal's or a 503's log context, not in the reason a 503 gives. The item's
 * side (fields, unknownFields, rawBody) is test/trigger/readings.cases.ts's.
 */
import { APP_IDS } from '../fixtures/bodies';
import {
	credentials,
	deliver,
	expectEmitted,
	freshOrder,
	payoutCallback,
	SECRET,
	sharedTriggers,
	signedByPlatform,
	type Delivery,
} from './callbacks';

const trigger = sharedTriggers();
const ZAR_SECRET = 'test-only-secret-zar-(.*)+?';
const both = credentials({
	baseUrl: 'http://127.0.0.1:9',
	otherCurrencies: ['ZAR'],
	appIdZar: APP_IDS.ZAR,
	secretKeyZar: ZAR_SECRET,
});

function expectNoSecretLogged(outcome: Delivery): void {
	expect(outcome.logs.length).toBeGreaterThan(0);
	for (const line of outcome.logs) {
		// Nor a part of one: a name shortened for the line before it was redacted would keep the secret's start.
		for (const secret of [SECRET, ZAR_SECRET])
			expect(line.text.toLowerCase()).not.toContain(secret.slice(0, 12).toLowerCase());
	}
}

describe('HaiPay Trigger: secrets a callback echoes, in the log', () => {
	it('the warning that names a new field names it redacted', async () => {
		// Each name is announced once per process: a name of its own per run of this test.
		const name = `echo_${Date.now()}_${SECRET.toUpperCase()}`;
		const outcome = await deliver(
			await trigger({ kind: 'payout' }, both),
			signedByPlatform(payoutCallback({ ...freshOrder(), [name]: 'x' })),
		);
		expect(expectEmitted(outcome).unknownFields).toEqual([expect.stringMatching(/^echo_\d+_\[redacted\]$/)]);
		expect(outcome.logs.some((line) => line.message.includes('[redacted]'))).toBe(true);
		expectNoSecretLogged(outcome);
	});

	it('a 503 for a deciding field in doubt says why without the secret, in its message or its context', async () => {
		const body = signedByPlatform(
			payoutCallback({ ...freshOrder(), [`r_${ZAR_SECRET}`]: 'x&status=2&zz=y', orderId: `PO-${SECRET}` }),
		);
		const outcome = await deliver(await trigger({ kind: 'payout' }, both), body);
		expect(outcome.reply.status).toBe(503);
		expectNoSecretLogged(outcome);
	});

	it('a name longer than a log line shows is redacted before it is shortened', async () => {
		const long = `r${'n'.repeat(50)}${SECRET}`;
		const body = signedByPlatform(payoutCallback({ ...freshOrder(), [long]: 'x&status=2&zz=y' }));
		const outcome = await deliver(await trigger({ kind: 'payout' }, both), body);
		expect(outcome.reply.status).toBe(503);
		expectNoSecretLogged(outcome);
	});

	it('a 422 for a name no HaiPay field has says why without the secret', async () => {
		const body = signedByPlatform(payoutCallback({ ...freshOrder(), [`a&${SECRET}`]: '1' }));
		const outcome = await deliver(await trigger({ kind: 'payout' }, both), body);
		expect(outcome.reply.status).toBe(422);
		expectNoSecretLogged(outcome);
	});
	it('a 503 of Confirm With HaiPay names a value longer than a log line shows redacted before it is shortened', async () => {
		// A currency that is no currency code: Confirm With HaiPay says why, quoting it.
		const body = signedByPlatform(payoutCallback({ ...freshOrder(), currency: `X${'x'.repeat(48)}${SECRET}` }));
		const outcome = await deliver(await trigger({ kind: 'payout', options: { confirmWithHaiPay: true } }, both), body);
		expect(outcome.reply.status).toBe(503);
		expect(outcome.logs.some((line) => /is no currency code/.test(line.message))).toBe(true);
		expectNoSecretLogged(outcome);
	});
});
