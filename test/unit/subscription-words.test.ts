/**
 * A subscription's status in words (nodes/shared/products/subscription.ts): only the two values HaiPay's pages
 * show are named, each by the answer it appears in; any other value keeps no label rather than a guessed one.
 */
import { subscriberNextStep, subscriptionStatusLabel } from '../../nodes/shared/products/subscription';

describe('subscription words', () => {
	it('names "2" (the apply example) created and "4" (the cancel example) cancelled, as written', () => {
		expect(subscriptionStatusLabel('2')).toBe('created');
		expect(subscriptionStatusLabel('4')).toBe('cancelled');
	});

	it('gives no label to any other status, a padded one or an empty one', () => {
		for (const status of ['0', '1', '3', '5', '7', ' 2', '2 ', '02', 'ACTIVE', '', null, undefined])
			expect([status, subscriptionStatusLabel(status)]).toEqual([status, null]);
	});

	it("says the subscriber's next step from the answer: payUrl first, then clientToken, else neither", () => {
		expect(subscriberNextStep({ payUrl: 'https://p', clientToken: 'c' })).toMatch(/^Send the subscriber to payUrl/);
		expect(subscriberNextStep({ payUrl: '', clientToken: 'c' })).toMatch(/with clientToken/);
		expect(subscriberNextStep({})).toMatch(/gives no payUrl or clientToken/);
	});
});
