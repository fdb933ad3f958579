/**
 * A callback's order is asked about as HaiPay signed it. HaiPay takes an ID as sent and compares IDs as sent: a row
 * whose orderId was " X " is held as "X" (the create sends it trimmed), and a callback naming " X " is about another
 * order, so Confirm With HaiPay asks for " X " and confirms nothing from the answer about "X" (nodes/shared/text.ts).
 * The fake gateway answers as HaiPay does: the order it holds, for exactly its IDs, and "no such order" otherwise.
 */
import { NOT_YET } from '../../nodes/HaiPayTrigger/reply';
import type { Answering } from './fake-gateway';
import { outcomeTrigger, payoutCallback, signedAnswer, type Fields } from './outcome-setup';

/** HaiPay holding `order`: asked by its exact orderId and orderNo (either may be left out), it answers with it. */
function holding(order: Fields): Answering {
	return (query, res) => {
		const { orderId, orderNo } = query.body;
		const names =
			(orderId === undefined || orderId === order.orderId) && (orderNo === undefined || orderNo === order.orderNo);
		const data = names
			? { orderId: order.orderId, orderNo: order.orderNo, amount: '1500.00', fee: '15.00', status: 2 }
			: { orderId, orderNo, status: 3, errorMsg: 'order does not exist' };
		signedAnswer(data)(query, res);
	};
}

describe('HaiPay Trigger: a callback naming an orderId with spaces around it', () => {
	const trigger = outcomeTrigger();

	it('is asked about with the spaces, as signed: HaiPay holds the trimmed ID, so nothing is confirmed (503)', async () => {
		const held = payoutCallback({ status: 2 });
		const padded = { ...held, orderId: ` ${String(held.orderId)} ` };
		await trigger.confirmingAgainst(holding(held));
		const reply = await trigger.send(padded);
		expect([reply.status, reply.text]).toEqual([503, NOT_YET]);
		expect(trigger.server.executions).toHaveLength(0);
		expect(trigger.gateway.queries.map((query) => query.body.orderId)).toEqual([padded.orderId]);
	});

	it('the same gateway confirms the callback naming the ID HaiPay holds (the spaces are what fails above)', async () => {
		const held = payoutCallback({ status: 2 });
		await trigger.confirmingAgainst(holding(held));
		const reply = await trigger.send(held);
		expect([reply.status, reply.text]).toEqual([200, 'SUCCESS']);
		expect(trigger.server.executions).toHaveLength(1);
		expect(trigger.server.executions[0].items[0].json).toMatchObject({
			orderId: held.orderId,
			status: 2,
			confirmed: true,
		});
		expect(trigger.gateway.queries.map((query) => query.body.orderId)).toEqual([held.orderId]);
	});
});
