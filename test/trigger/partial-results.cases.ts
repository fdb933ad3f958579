/**
 * Two results of one partially collected order (status 4, and over-collected 5): each partial result is emitted
 * once, told apart by its amount and pay time, an exact repeat is dropped, `4.0` and `4` are one result, and an
 * earlier status after them is an old callback.
 */
import { APP_IDS, callbackBody } from '../fixtures/bodies';
import { credentialFor, nextId, outcomeTrigger, signedText, type Fields } from './outcome-setup';

describe('HaiPay Trigger: outcomes in doubt', () => {
	const trigger = outcomeTrigger();

	describe('12. two results of one partially collected order', () => {
		function partial(orderNo: string, amount: string, payTime: string, status = 4): Fields {
			return callbackBody('collection', { orderId: `ID${orderNo}`, orderNo, amount, payTime, status });
		}

		it.each([true, false])(
			'both partial results are emitted, each exact repeat is refused (Ignore Repeated Callbacks %s)',
			async (deduplicate) => {
				await trigger.serve(
					{ kind: 'collection', options: { deduplicate } },
					credentialFor('http://127.0.0.1:9', APP_IDS.USD, 'USD'),
				);
				const orderNo = `HPC${nextId('P')}`;
				const first = partial(orderNo, '10.00', '2024-05-01 10:00:00');
				const second = partial(orderNo, '15.00', '2024-05-01 11:00:00');
				for (const body of [first, second, first, second]) expect((await trigger.send(body)).text).toBe('SUCCESS');
				const emitted = trigger.server.executions.map((execution) => execution.items[0].json);
				if (deduplicate) {
					expect(emitted).toMatchObject([
						{ orderNo, status: 4, amount: '10.00', statusGroup: 'partial' },
						{ orderNo, status: 4, amount: '15.00', statusGroup: 'partial' },
					]);
					expect(trigger.logs()).toMatch(/a repeated callback/);
				} else {
					expect(emitted).toHaveLength(4);
				}
				// The regression check still sees that a final status was emitted for the order.
				expect((await trigger.send(partial(orderNo, '10.00', '', 1))).text).toBe('SUCCESS');
				expect(trigger.server.executions).toHaveLength(emitted.length);
				expect(trigger.logs()).toMatch(/status 1 comes before the final status 4/);
			},
		);

		it('attack: a partial result with status 4.0 and its resend with status 4 are one result', async () => {
			await trigger.serve({ kind: 'collection' }, credentialFor('http://127.0.0.1:9', APP_IDS.USD, 'USD'));
			const orderNo = `HPC${nextId('R')}`;
			const body = partial(orderNo, '10.00', '2024-05-01 10:00:00');
			expect((await trigger.send(signedText(body, { status: '4.0', amount: '10.00' }))).text).toBe('SUCCESS');
			expect((await trigger.send(body)).text).toBe('SUCCESS');
			expect((await trigger.send({ ...body, status: '4' })).text).toBe('SUCCESS');
			expect(trigger.server.executions.map((execution) => execution.items[0].json)).toMatchObject([
				{ orderNo, status: 4, amount: '10.00' },
			]);
		});

		it('the same amount at another time is another result; over-collected results are told apart the same way', async () => {
			await trigger.serve({ kind: 'collection' }, credentialFor('http://127.0.0.1:9', APP_IDS.USD, 'USD'));
			const orderNo = `HPC${nextId('Q')}`;
			const bodies = [
				partial(orderNo, '10.00', '2024-05-01 10:00:00'),
				partial(orderNo, '10.00', '2024-05-01 10:05:00'),
				partial(orderNo, '30.00', '2024-05-01 12:00:00', 5),
				partial(orderNo, '31.00', '2024-05-01 12:00:00', 5),
				partial(orderNo, '31.00', '2024-05-01 12:00:00', 5),
			];
			for (const body of bodies) expect((await trigger.send(body)).text).toBe('SUCCESS');
			expect(
				trigger.server.executions.map((execution) => [execution.items[0].json.status, execution.items[0].json.amount]),
			).toEqual([
				[4, '10.00'],
				[4, '10.00'],
				[5, '30.00'],
				[5, '31.00'],
			]);
		});
	});
});
