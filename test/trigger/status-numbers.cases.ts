/**
 * A callback's status written as a JSON number with a fraction or an exponent (`2.0`, `2e0`, `-0`, `1e400`): a
 * verified status that is an integer is that status, for the Statuses filter, repeat detection and the order of
 * statuses; one that states no integer is emitted as its digits and matches no status group; a status string is
 * never read as a number; and the signature is still checked over the exact text sent.
 */
import { credentialFor, outcomeTrigger, payoutCallback, signedAnswer, signedText } from './outcome-setup';

describe('HaiPay Trigger: outcomes in doubt', () => {
	const trigger = outcomeTrigger();

	describe('10. a status written as a JSON number with a fraction or an exponent', () => {
		const successOnly = { kind: 'payout', statuses: ['success'] };

		it.each(['2.0', '2e0', '2.00', '2E0', '20e-1'])(
			'a verified success with status %s is emitted under Success, as status 2',
			async (literal) => {
				await trigger.serve(successOnly, credentialFor('http://127.0.0.1:9'));
				const body = payoutCallback();
				const reply = await trigger.send(signedText(body, { status: literal }));
				expect([reply.status, reply.text]).toEqual([200, 'SUCCESS']);
				expect(trigger.server.executions).toHaveLength(1);
				expect(trigger.server.executions[0].items[0].json).toMatchObject({
					orderNo: body.orderNo,
					status: 2,
					statusLabel: 'success',
					statusGroup: 'success',
				});
			},
		);

		it('a status 2 after 2.0 for the same order is a repeat, and 1.0 after it an old callback', async () => {
			await trigger.serve({ kind: 'payout' }, credentialFor('http://127.0.0.1:9'));
			const body = payoutCallback();
			expect((await trigger.send(signedText(body, { status: '2.0' }))).text).toBe('SUCCESS');
			expect((await trigger.send({ ...body, status: 2 })).text).toBe('SUCCESS');
			expect((await trigger.send(signedText(body, { status: '1.0' }))).text).toBe('SUCCESS');
			expect(trigger.server.executions).toHaveLength(1);
			expect(trigger.logs()).toMatch(/a repeated callback/);
			expect(trigger.logs()).toMatch(/status 1 comes before the final status 2/);
		});

		it('a status string "2.0" or " 2 " is no success: not matched by Success, emitted under Other as it came', async () => {
			await trigger.serve(successOnly, credentialFor('http://127.0.0.1:9'));
			for (const status of ['2.0', ' 2 '])
				expect((await trigger.send(payoutCallback({ status }))).text).toBe('SUCCESS');
			expect(trigger.server.executions).toHaveLength(0);
			expect(trigger.logs()).toMatch(/is not one of the selected statuses/);
			await trigger.server.close();

			await trigger.serve({ kind: 'payout', statuses: ['other'] }, credentialFor('http://127.0.0.1:9'));
			for (const status of ['2.0', ' 2 '])
				expect((await trigger.send(payoutCallback({ status }))).text).toBe('SUCCESS');
			expect(trigger.server.executions.map((execution) => execution.items[0].json)).toMatchObject([
				{ status: '2.0', statusLabel: null, statusGroup: 'unknown' },
				{ status: ' 2 ', statusLabel: null, statusGroup: 'unknown' },
			]);
		});

		it('with Confirm With HaiPay on, a status 2.0 is confirmed by an answer with status 2', async () => {
			const body = payoutCallback();
			await trigger.confirmingAgainst(
				signedAnswer({ orderId: body.orderId, orderNo: body.orderNo, amount: '1500.00', status: 2 }),
			);
			const reply = await trigger.send(signedText(body, { status: '2.0' }));
			expect([reply.status, reply.text]).toEqual([200, 'SUCCESS']);
			expect(trigger.server.executions[0].items[0].json).toMatchObject({ status: 2, confirmed: true });
		});

		it('attack: -0 is status 0, and after a final status an old callback', async () => {
			await trigger.serve({ kind: 'payout' }, credentialFor('http://127.0.0.1:9'));
			const first = payoutCallback();
			expect((await trigger.send(signedText(first, { status: '-0' }))).text).toBe('SUCCESS');
			expect(trigger.server.executions[0].items[0].json).toMatchObject({
				status: 0,
				statusLabel: 'not started',
				statusGroup: 'pending',
			});
			expect(Object.is(trigger.server.executions[0].items[0].json.status, -0)).toBe(false);

			const second = payoutCallback();
			expect((await trigger.send({ ...second, status: 2 })).text).toBe('SUCCESS');
			expect((await trigger.send(signedText(second, { status: '-0' }))).text).toBe('SUCCESS');
			expect(trigger.server.executions).toHaveLength(2);
			expect(trigger.logs()).toMatch(/status 0 comes before the final status 2/);
		});

		it.each(['1e400', '2.0000000000000001', '1.9999999999999999e0', '2.5'])(
			'attack: %s states no status: not Success, emitted under Any as its digits with group unknown',
			async (literal) => {
				await trigger.serve(successOnly, credentialFor('http://127.0.0.1:9'));
				expect((await trigger.send(signedText(payoutCallback(), { status: literal }))).text).toBe('SUCCESS');
				expect(trigger.server.executions).toHaveLength(0);
				await trigger.server.close();

				await trigger.serve({ kind: 'payout' }, credentialFor('http://127.0.0.1:9'));
				expect((await trigger.send(signedText(payoutCallback(), { status: literal }))).text).toBe('SUCCESS');
				expect(trigger.server.executions[0].items[0].json).toMatchObject({ statusLabel: null, statusGroup: 'unknown' });
				expect(trigger.server.executions[0].items[0].json.status).not.toBe(2);
			},
		);

		it('the signature is still checked over the exact text: 2.0 signed, 2 sent is refused', async () => {
			await trigger.serve({ kind: 'payout' }, credentialFor('http://127.0.0.1:9'));
			const text = signedText(payoutCallback(), { status: '2.0' });
			const reply = await trigger.send(text.replace('"status":2.0', '"status":2'));
			expect(reply.status).toBe(401);
			expect(trigger.server.executions).toHaveLength(0);
		});
	});
});
