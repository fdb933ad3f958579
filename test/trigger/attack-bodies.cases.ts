/**
 * Attacks on the HaiPay Trigger with bodies shaped to break its reading of them: 300,000 forged fields or more than
 * 200 (413 before any signature work), the signature's name spelled `\u0073ign` to slip past the redaction of
 * rawBody, numbers where HaiPay writes strings (an orderNo above 2^53 checked over its exact digits), and empty
 * fields named like Object.prototype members. Callbacks come from the sandbox gateway or are signed here with the
 * platform key.
 */
import type { IDataObject } from 'n8n-workflow';

import { parsePrivateKey } from '../../nodes/shared/signing/keys';
import { APP_IDS, callbackBody } from '../fixtures/bodies';
import { sandboxCredential } from '../helpers/credentials';
import { TEST_KEYS } from '../helpers/keys';
import { withSignature } from '../helpers/signing';
import { lastAttempt, lastAttemptOfJob, sandboxTrigger, TRIGGER } from './sandbox-trigger';

describe('HaiPay Trigger under attack, with callbacks from the sandbox gateway', () => {
	// A bound on waiting, not a claim about speed: building and posting 300,000 fields took over 10 s on a loaded 2-core machine.
	const trigger = sandboxTrigger({ prefix: 'ATK', callbackTimeoutMs: 40_000, parameters: { kind: 'payout' } });

	describe('3. oversized bodies', () => {
		it('refuses 300,000 forged fields with 413 before reading the credential or checking any signature', async () => {
			const server = await trigger.serve();
			const order = trigger.payout(server.url(TRIGGER));
			trigger.sandbox.control.settle(order.orderNo, 'success');
			await lastAttempt(trigger.sandbox, order.orderNo);
			await server.idle();
			const job = trigger.sandbox.control.attackCallback(order.orderNo, 'oversized', { fields: 300_000 });
			const final = await lastAttemptOfJob(trigger.sandbox, job);
			await server.idle();
			expect(final).toMatchObject({
				httpStatus: 413,
				response: 'Rejected: the body is too large',
				acknowledged: false,
			});
			expect(server.executions).toHaveLength(1);
			expect(trigger.logsOf(job)).toMatch(/more than the 65536 a callback may have/);
		}, 60_000);

		it('refuses a body within the byte cap but with more than 200 fields with 413', async () => {
			const server = await trigger.serve();
			const fields: IDataObject = { appId: APP_IDS.TZS };
			for (let index = 0; index < 201; index++) fields[`f${index}`] = 1;
			const reply = await server.send(TRIGGER, fields);
			expect([reply.status, reply.text]).toEqual([413, 'Rejected: the body has too many fields']);
			expect(server.executions).toHaveLength(0);
		});
	});

	describe('4. the signature in rawBody', () => {
		it('is redacted when its name is spelled \\u0073ign', async () => {
			const server = await trigger.serve({ options: { includeRawBody: true } });
			const order = trigger.payout('http://127.0.0.1:9/unused');
			trigger.sandbox.control.settle(order.orderNo, 'success');
			const job = trigger.sandbox.control.attackCallback(order.orderNo, 'respelled', { url: server.url(TRIGGER) });
			expect(job.payload).toContain('"\\u0073ign":');
			await lastAttemptOfJob(trigger.sandbox, job);
			await server.idle();
			expect(server.executions).toHaveLength(1);
			const rawBody = String(server.executions[0].items[0].json.rawBody);
			expect(rawBody).toContain('"\\u0073ign":"[redacted]"');
			expect(rawBody).not.toContain(String(job.body.sign).slice(0, 24));
		});
	});

	describe('5. types', () => {
		const platformKey = parsePrivateKey(TEST_KEYS.platformPrivate);
		/** A body HaiPay signed with `fields`, written as `text` (numbers unquoted where it chose). */
		function signedText(
			sandboxSecret: string,
			fields: Record<string, unknown>,
			write: (json: string) => string = (json) => json,
		): string {
			return write(JSON.stringify(withSignature(fields, sandboxSecret, platformKey)));
		}
		const secret = () => String(sandboxCredential(trigger.sandbox, APP_IDS.TZS).secretKey);
		const base = callbackBody('payout', { orderId: 'BIG-1', amount: '1500', fee: '15' });

		it('emits a status sent as a string as an integer', async () => {
			const server = await trigger.serve();
			const reply = await server.send(TRIGGER, signedText(secret(), { ...base, orderNo: 'HPS1', status: '2' }), {
				headers: { 'Content-Type': 'application/json' },
			});
			expect(reply.text).toBe('SUCCESS');
			expect(server.executions[0].items[0].json).toMatchObject({ status: 2, statusLabel: 'success' });
		});

		it('verifies an orderNo above 2^53 sent as a number over its exact digits, and emits the digits as a string', async () => {
			const server = await trigger.serve();
			const digits = '12345678901234567891';
			const text = signedText(secret(), { ...base, orderNo: digits, status: 2 }, (json) =>
				json.replace(`"${digits}"`, digits),
			);
			expect(text).toContain(`"orderNo":${digits},`);
			const reply = await server.send(TRIGGER, text, { headers: { 'Content-Type': 'application/json' } });
			expect([reply.status, reply.text]).toEqual([200, 'SUCCESS']);
			expect(server.executions[0].items[0].json).toMatchObject({ orderNo: digits, status: 2 });

			// Digits that a JavaScript number rounds to the same value are another order: refused.
			const changed = text.replace(`"orderNo":${digits}`, '"orderNo":12345678901234567890');
			const forged = await server.send(TRIGGER, changed, { headers: { 'Content-Type': 'application/json' } });
			expect(forged.status).toBe(401);
			expect(server.executions).toHaveLength(1);
		});

		it('never emits unsigned empty fields under the names of Object.prototype members, and emits other empty ones as ""', async () => {
			const server = await trigger.serve();
			const text = signedText(secret(), { ...base, orderNo: 'HPP1', status: 2 }, (json) =>
				json.replace(
					'{',
					'{"constructor":null,"toString":"","hasOwnProperty":"","__proto__":null,"valueOf":"","remark":null,',
				),
			);
			const reply = await server.send(TRIGGER, text, { headers: { 'Content-Type': 'application/json' } });
			expect(reply.text).toBe('SUCCESS');
			const json = server.executions[0].items[0].json;
			for (const name of ['constructor', 'toString', 'hasOwnProperty', '__proto__', 'valueOf']) {
				expect(Object.prototype.hasOwnProperty.call(json, name)).toBe(false);
			}
			expect(json.remark).toBe('');
			expect(Object.getPrototypeOf(json)).toBe(Object.prototype);
		});
	});
});
