import type { Sandbox } from '../../sandbox';
import { APP, call, mitApply, payoutFor, withSandbox } from './helpers';

/**
 * The sandbox's books hold amounts of at most 15 whole digits, as the node checks before signing: HaiPay refused an
 * NGN amount of 30 digits, though NGN has no upper limit of its own. Signed HTTP requests, each side of the edge,
 * with balances large enough that only the digits decide.
 */

let sandbox: Sandbox;
beforeAll(async () => {
	sandbox = await withSandbox();
	for (const appId of [APP.NGN, APP.USD]) sandbox.control.setBalance(appId, `1${'0'.repeat(20)}.00`);
});
afterAll(() => sandbox.close());

describe('amounts past 15 whole digits', () => {
	const bodies = {
		'/ngn/pay/apply': (amount: string) => payoutFor('NGN', { amount }),
		'/usd/mit/apply': (amount: string) => mitApply({ amount }),
	};
	it.each([
		['/ngn/pay/apply', '999999999999999.99', true],
		['/ngn/pay/apply', '1000000000000000', false],
		['/ngn/pay/apply', '1'.repeat(30), false],
		['/usd/mit/apply', '999999999999999.00', true],
		['/usd/mit/apply', '1000000000000000.00', false],
	] as const)('%s amount %s: accepted %s', async (path, amount, accepted) => {
		const answer = await call(sandbox, path, bodies[path](amount));
		if (accepted) {
			expect(answer).toMatchObject({ status: '1' });
		} else {
			expect(answer).toMatchObject({ status: '0', error: '4001' });
			expect(answer.msg).toContain('amount must have at most 15 digits before the decimal point');
		}
	});
});
