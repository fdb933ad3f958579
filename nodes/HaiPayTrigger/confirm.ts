import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	IDataObject,
	IWebhookFunctions,
} from 'n8n-workflow';

import { CASHIER_ORDER, lookupCashierOrder } from '../shared/products/cashier';
import { judge } from '../shared/products/judge';
import { COLLECTION_ORDER, PAYOUT_ORDER } from '../shared/products/order';
import type { Product } from '../shared/products/types';
import { lookupOrder, type LookupResult } from '../shared/gateway/lookup';
import { ItemFailure } from '../shared/gateway/outcome';
import { lookupRefund } from '../shared/products/refund';
import { redactText } from '../shared/gateway/redact';
import type { GatewayContext } from '../shared/gateway/request';
import type { HaiPaySettings } from '../shared/signing/credential';
import { CURRENCIES } from '../shared/contract/currencies';
import { exactStatus, isFinalStatus, type OrderKind } from '../shared/contract/statuses';
import type { Callback, OrderFacts } from './callback';
import { isCashierApp, type CallbackKind } from './filters';
import { shown } from './shown';
import { exactText } from '../shared/text';

/**
 * The trigger's deadline for its answer to one callback: every order query of Confirm With HaiPay, retries and
 * waits included, ends within this time of the callback's arrival, and the callback is answered 503 (HaiPay sends
 * it again) when no trusted answer came by then.
 */
export const ANSWER_DEADLINE_MS = 10_000;
/** How long one query attempt may take (less when the deadline is nearer), and how often a failed one is tried again. */
const CONFIRM_TIMEOUT_MS = 4_000;
const CONFIRM_RETRIES = 1;

/**
 * A value for a log line, its secrets redacted before it is shortened: a secret cut short by `shown` would no longer
 * be found, and its first characters would reach the log.
 */
function told(value: unknown, settings: HaiPaySettings): string {
	return shown(
		redactText(typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value)), settings.secrets),
	);
}

/**
 * What HaiPay's own answer says of a callback:
 * - `confirmed`: HaiPay's signed, verified answer about this order has the callback's status: emit it.
 * - `stale`: HaiPay's order is in another state the callback cannot reach (a replay of an old status, or a state
 *   that has moved on): acknowledge without emitting, since HaiPay's resends of this body would be as stale.
 * - `retry`: no trusted answer yet (HaiPay unreachable, an unverified answer, or an order HaiPay's query does not
 *   show yet or shows behind the callback): answer 503 so that HaiPay resends it within its retry series.
 */
type Confirmation =
	{ result: 'confirmed'; data: IDataObject } | { result: 'stale'; log: string } | { result: 'retry'; log: string };

/** An ISO code, or a currency of the package's own longer than three letters (USDT, USDC): a path prefix either way. */
function isCurrency(code: string): boolean {
	return /^[A-Z]{3}$/.test(code) || Object.prototype.hasOwnProperty.call(CURRENCIES, code);
}

/** Payouts and collections share a URL when the trigger takes either and the body does not prove which: ask both, payouts first. */
function kindsToAsk(kind: Exclude<CallbackKind, 'refund' | 'subscription'>): OrderKind[] {
	return kind === 'unknown' ? ['payout', 'collection'] : [kind];
}

/** Whether a failed query asked to be left alone until after the deadline: then nothing more is asked. */
function toldToWait(error: unknown, deadline: number): boolean {
	const wait = error instanceof ItemFailure ? error.details.retryAfterMs : undefined;
	return wait !== undefined && Date.now() + wait >= deadline;
}

/**
 * A refund-shaped callback (HaiPay documents none): confirmed only when HaiPay's signed refund query shows the refund
 * it names with the very status it carries. Refund status values are not published, so no order between them is
 * known: any other answer is "not yet" (503), and HaiPay's resends end its retries.
 */
async function confirmRefund(
	ctx: GatewayContext,
	settings: HaiPaySettings,
	facts: OrderFacts,
	how: { deadline: number; credential?: ICredentialsDecrypted },
): Promise<Confirmation> {
	if (facts.statusText === undefined) return { result: 'retry', log: 'the refund callback carries no status' };
	let data: IDataObject;
	try {
		const options = {
			timeoutMs: CONFIRM_TIMEOUT_MS,
			retries: CONFIRM_RETRIES,
			deadline: how.deadline,
			...(how.credential !== undefined ? { credential: how.credential } : {}),
		};
		data = await lookupRefund(ctx, settings, { orderId: facts.orderId, refundNo: facts.refundNo }, options);
	} catch (error) {
		const why = error instanceof ItemFailure ? `${error.kind}: ${error.message}` : 'the query failed';
		return { result: 'retry', log: `HaiPay's refund query could not confirm it (${told(why, settings)})` };
	}
	if (exactText(data.status) === facts.statusText) return { result: 'confirmed', data };
	return {
		result: 'retry',
		log: `HaiPay says the refund's status is ${told(data.status, settings)}, the callback says ${told(facts.statusText, settings)}; not confirmed`,
	};
}

/**
 * Why no query HaiPay publishes can confirm this verified callback, or undefined when one can. Such a callback runs
 * flagged `confirmed: false` under Confirm With HaiPay (HaiPayTrigger.node.ts): a 503 until HaiPay gives up would lose
 * a result whose signature HaiPay made.
 */
export function unaskableWhy(kind: CallbackKind, facts: OrderFacts, settings: HaiPaySettings): string | undefined {
	if (kind === 'subscription') return SUBSCRIPTION_UNASKABLE;
	if (
		kind !== 'refund' &&
		isCashierApp(settings.currency) &&
		(facts.orderId === undefined || facts.orderNo === undefined)
	)
		return CASHIER_UNASKABLE;
	return undefined;
}

const SUBSCRIPTION_UNASKABLE = 'HaiPay publishes no query that shows a subscription charge, so it cannot be confirmed';
const CASHIER_UNASKABLE =
	"HaiPay's cashier query needs the orderId and the orderNo, and the callback lacks one, so it cannot be confirmed";

/**
 * What HaiPay's current status makes of the callback's, once a proven answer shows the order: the order's product
 * judge (shared/products/judge.ts) first reads the answer as the node's settlement does, so that an answer in a
 * status HaiPay publishes for no order, or with a second status, confirms nothing.
 */
function judged(
	data: IDataObject,
	facts: OrderFacts & { status: number },
	how: { settings: HaiPaySettings; product: Product },
): Confirmation {
	const { settings } = how;
	const judgement = judge(how.product, data, { ownId: facts.orderId ?? exactText(data.orderId) });
	if (judgement.verdict !== 'this' || judgement.state === 'unlisted')
		return { result: 'retry', log: `HaiPay's answer confirms nothing: ${told(judgement.why, settings)}` };
	const current = exactStatus(data.status);
	if (current === facts.status) return { result: 'confirmed', data };
	const said = `HaiPay says the order's status is ${told(data.status, settings)}, the callback says ${facts.status}`;
	// A final callback ahead of a query that still shows the order in progress may be confirmed on a resend.
	if (isFinalStatus(facts.status) && !isFinalStatus(current))
		return { result: 'retry', log: `${said}; not confirmed yet` };
	return { result: 'stale', log: `${said}; the callback is not HaiPay's current state` };
}

/**
 * A global cashier collection (signed with the Cashier App ID): its own query, which takes the orderId and the orderNo
 * together and is signed with the Cashier App ID; never a currency's collection query.
 */
async function confirmCashier(
	ctx: GatewayContext,
	settings: HaiPaySettings,
	facts: OrderFacts & { status: number },
	how: { deadline: number; credential?: ICredentialsDecrypted },
): Promise<Confirmation> {
	const { orderId, orderNo } = facts;
	if (orderId === undefined || orderNo === undefined) return { result: 'retry', log: CASHIER_UNASKABLE };
	let data: IDataObject;
	try {
		const options = {
			timeoutMs: CONFIRM_TIMEOUT_MS,
			retries: CONFIRM_RETRIES,
			deadline: how.deadline,
			...(how.credential !== undefined ? { credential: how.credential } : {}),
		};
		data = await lookupCashierOrder(ctx, settings, { orderId, orderNo }, options);
	} catch (error) {
		const failure = error instanceof ItemFailure ? `${error.kind}: ${error.message}` : 'the query failed';
		return { result: 'retry', log: `HaiPay's cashier query could not confirm it (${told(failure, settings)})` };
	}
	return judged(data, facts, { settings, product: CASHIER_ORDER });
}

/**
 * Asks HaiPay for the callback's order, all queries within `deadline` (ms since the epoch; see
 * ANSWER_DEADLINE_MS), and says what its answer makes of the callback.
 */
async function confirmWithHaiPay(
	ctx: GatewayContext,
	settings: HaiPaySettings,
	facts: OrderFacts,
	how: { kind: CallbackKind; deadline: number; credential?: ICredentialsDecrypted },
): Promise<Confirmation> {
	if (facts.orderId === undefined && facts.orderNo === undefined) {
		return { result: 'retry', log: 'it names no order to ask HaiPay about' };
	}
	if (how.kind === 'refund') return await confirmRefund(ctx, settings, facts, how);
	// No published query shows a subscription's charge, so none can confirm one.
	if (how.kind === 'subscription') return { result: 'retry', log: SUBSCRIPTION_UNASKABLE };
	if (facts.status === undefined) return { result: 'retry', log: 'its status is not an integer' };
	if (isCashierApp(settings.currency))
		return await confirmCashier(ctx, settings, { ...facts, status: facts.status }, how);
	const currency = facts.currency ?? settings.currency.toUpperCase();
	if (!isCurrency(currency)) {
		const why =
			facts.currency !== undefined
				? `its currency ${told(facts.currency, settings)} is no currency code`
				: 'its currency is unknown (no currency field, and the credential has no currency set)';
		return { result: 'retry', log: why };
	}
	let answer: (LookupResult & { found: true }) | undefined;
	let asked: OrderKind = 'payout';
	const misses: string[] = [];
	const { credential, deadline } = how;
	for (asked of kindsToAsk(how.kind)) {
		try {
			const result = await lookupOrder(
				ctx,
				settings,
				{ kind: asked, currency, orderId: facts.orderId, orderNo: facts.orderNo },
				{
					timeoutMs: CONFIRM_TIMEOUT_MS,
					retries: CONFIRM_RETRIES,
					deadline,
					...(credential !== undefined ? { credential } : {}),
				},
			);
			if (result.found) {
				answer = result;
				break;
			}
			misses.push(`the ${asked} query does not know the order (yet)`);
		} catch (error) {
			const why = error instanceof ItemFailure ? `${error.kind}: ${error.message}` : 'the query failed';
			misses.push(`the ${asked} query gave no trusted answer (${told(why, settings)})`);
			if (toldToWait(error, deadline)) break;
		}
	}
	if (answer === undefined)
		return { result: 'retry', log: `HaiPay's order query could not confirm it: ${misses.join('; ')}` };
	const product = asked === 'payout' ? PAYOUT_ORDER : COLLECTION_ORDER;
	return judged(answer.data, { ...facts, status: facts.status }, { settings, product });
}

/**
 * Confirm With HaiPay for one callback, as the trigger's step, with the credential as read for this request, so that
 * n8n does not decrypt it again for the query. A copy arriving meanwhile waits for this one (memory.ts `repeatOf`).
 */
export async function confirmCallback(
	ctx: IWebhookFunctions,
	callback: Callback,
	how: {
		signer: HaiPaySettings;
		credentialData: ICredentialDataDecryptedObject;
		kind: CallbackKind;
		deadline: number;
		/** Why HaiPay is asked although Confirm With HaiPay is off (ambiguity.ts `settle`): said in the log. */
		why?: string;
	},
): Promise<Confirmation> {
	const reference = ctx.getNode().credentials?.haiPayApi;
	const credential = {
		id: reference?.id ?? '',
		name: reference?.name ?? 'HaiPay API',
		type: 'haiPayApi',
		data: how.credentialData,
	};
	const confirmation = await confirmWithHaiPay(ctx, how.signer, callback.order, {
		kind: how.kind,
		deadline: how.deadline,
		credential,
	});
	return confirmation.result === 'confirmed' || how.why === undefined
		? confirmation
		: { ...confirmation, log: `${how.why}: ${confirmation.log}` };
}
