import { ERROR_CODES } from './constants';
import type { Merchant } from './merchants';
import { GatewayError } from './orders';

/**
 * Subscriptions (`/subscription/apply`, `/cancel`, `/query`). HaiPay publishes no list of subscription statuses: the
 * apply page's example answers "2" and the cancel page's "4", and this sandbox uses just those two. HaiPay publishes
 * no recurring-charge callback either; the sandbox's (`chargeBody`) carries what a charge needs to be told apart:
 * the subscription's numbers, the charge's own orderNo, its amount, status and payTime.
 */

export const ACTIVE = '2';
export const CANCELLED = '4';

export interface Subscription {
	subscriptionNo: string;
	subscriptionOrderId: string;
	appId: number;
	request: Record<string, unknown>;
	status: string;
	charges: number;
}

export class SubscriptionBook {
	readonly subscriptions = new Map<string, Subscription>();
	private seq = 0;

	find(appId: number, subscriptionOrderId?: string, subscriptionNo?: string): Subscription | undefined {
		const found =
			subscriptionNo !== undefined
				? this.subscriptions.get(subscriptionNo)
				: [...this.subscriptions.values()].find(
						(sub) => sub.appId === appId && sub.subscriptionOrderId === subscriptionOrderId,
					);
		if (
			!found ||
			found.appId !== appId ||
			(subscriptionOrderId !== undefined && found.subscriptionOrderId !== subscriptionOrderId)
		)
			return undefined;
		return found;
	}

	create(merchant: Merchant, request: Record<string, unknown>): Subscription {
		const subscriptionOrderId = request.subscriptionOrderId as string;
		if (this.find(merchant.appId, subscriptionOrderId)) {
			throw new GatewayError(
				ERROR_CODES.duplicateOrderId,
				`subscriptionOrderId ${subscriptionOrderId} already exists for appId ${merchant.appId}`,
			);
		}
		this.seq += 1;
		const subscriptionNo = `40${Date.now()}${String(this.seq).padStart(4, '0')}`;
		const sub = { subscriptionNo, subscriptionOrderId, appId: merchant.appId, request, status: ACTIVE, charges: 0 };
		this.subscriptions.set(subscriptionNo, sub);
		return sub;
	}

	cancel(sub: Subscription): Subscription {
		if (sub.status === CANCELLED)
			throw new GatewayError(ERROR_CODES.badTransition, `subscription ${sub.subscriptionNo} is already cancelled`);
		sub.status = CANCELLED;
		return sub;
	}

	answer(sub: Subscription): Record<string, unknown> {
		const { request } = sub;
		return {
			subscriptionNo: sub.subscriptionNo,
			subscriptionOrderId: sub.subscriptionOrderId,
			appId: sub.appId,
			subject: request.subject,
			payType: request.payType,
			inBankCode: request.inBankCode,
			amount: Number(request.amount),
			recurringInterval: request.recurringInterval,
			recurringIntervalCount: request.recurringIntervalCount,
			status: sub.status,
		};
	}

	/** One recurring charge's callback, unsigned: 2 paid, 3 failed, as HaiPay's collection results read. */
	chargeBody(sub: Subscription, status: 2 | 3, payTime: string): Record<string, unknown> {
		if (sub.status === CANCELLED)
			throw new GatewayError(
				ERROR_CODES.badTransition,
				`subscription ${sub.subscriptionNo} is cancelled: it is charged no more`,
			);
		sub.charges += 1;
		const body: Record<string, unknown> = {
			appId: sub.appId,
			currency: 'USD',
			subscriptionNo: sub.subscriptionNo,
			subscriptionOrderId: sub.subscriptionOrderId,
			orderNo: `${sub.subscriptionNo}-${sub.charges}`,
			amount: String(sub.request.amount),
			status,
			payTime,
		};
		if (status === 3) body.errorMsg = 'card declined';
		return body;
	}

	clear(): void {
		this.subscriptions.clear();
	}
}
