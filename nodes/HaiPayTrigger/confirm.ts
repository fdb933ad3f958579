import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	IDataObject,
	IWebhookFunctions,
} from 'n8n-workflow';

import { namedProductOfKind, productOfApp } from '../shared/products';
import { judge, statusText } from '../shared/products/judge';
import { COLLECTION_ORDER, PAYOUT_ORDER } from '../shared/products/order';
import { REFUND } from '../shared/products/refund';
import type { Product, ProductQuery, QueryRef } from '../shared/products/types';
import { ItemFailure } from '../shared/gateway/outcome';
import { redactText } from '../shared/gateway/redact';
import type { GatewayContext } from '../shared/gateway/request';
import type { HaiPaySettings } from '../shared/signing/credential';
import { CURRENCIES } from '../shared/contract/currencies';
import { exactStatus, isFinalStatus } from '../shared/contract/statuses';
import type { Callback, OrderFacts } from './callback';
import type { CallbackKind } from './filters';
import { shown } from './shown';
import { exactText } from '../shared/text';

/**
 * The trigger's deadline for its answer to one callback: every order query of Confirm With HaiPay, retries and
 * waits included, and a copy's wait for its first delivery (memory.ts `repeatOf`) end within this time of the
 * callback's arrival, and the callback is answered 503 (HaiPay sends it again) when no trusted answer came by then.
 * Counted on the monotonic clock (`performance.now()`): a step of the wall clock neither ends nor extends it.
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

/**
 * The products a callback of this kind may report, in the order they are asked: a refund's, a subscription charge's,
 * the Cashier App ID's cashier order, else an order of the kind, payouts first when the body does not say which.
 */
function productsOf(kind: CallbackKind, settings: HaiPaySettings): Product[] {
	if (kind === 'refund') return [REFUND];
	const named = namedProductOfKind(kind);
	if (named !== undefined) return [named];
	const own = productOfApp(settings.currency);
	if (own !== undefined) return [own];
	if (kind === 'payout') return [PAYOUT_ORDER];
	if (kind === 'collection') return [COLLECTION_ORDER];
	return [PAYOUT_ORDER, COLLECTION_ORDER];
}

/** Whether a failed query asked to be left alone until after the deadline: then nothing more is asked. */
function toldToWait(error: unknown, deadlineAt: number): boolean {
	const wait = error instanceof ItemFailure ? error.details.retryAfterMs : undefined;
	return wait !== undefined && performance.now() + wait >= deadlineAt;
}

/** What the product's query asks about the callback: its orderId, and HaiPay's number for it (a refund's refundNo). */
function refOf(product: Product, facts: OrderFacts, currency: string): QueryRef {
	return { ownId: facts.orderId, number: product === REFUND ? facts.refundNo : facts.orderNo, currency };
}

/**
 * Why no query HaiPay publishes can confirm this verified callback, or undefined when one can. Such a callback runs
 * flagged `confirmed: false` under Confirm With HaiPay (HaiPayTrigger.node.ts): a 503 until HaiPay gives up would lose
 * a result whose signature HaiPay made.
 */
export function unaskableWhy(kind: CallbackKind, facts: OrderFacts, settings: HaiPaySettings): string | undefined {
	const [product] = productsOf(kind, settings);
	if (product.query === undefined)
		return `HaiPay publishes no query that shows a ${product.makes}, so it cannot be confirmed`;
	if (product.query.needsNumber === true && (facts.orderId === undefined || facts.orderNo === undefined))
		return `HaiPay's ${product.makes} query needs the orderId and the orderNo, and the callback lacks one, so it cannot be confirmed`;
	return undefined;
}

/**
 * Why no reading of this callback's signed string could be asked about, or undefined: its product has no query, or
 * the query needs the orderId, which every reading lacks alike (it is carried: shared/contract/callback.ts).
 */
export function neverAskableWhy(kind: CallbackKind, facts: OrderFacts, settings: HaiPaySettings): string | undefined {
	const [product] = productsOf(kind, settings);
	const needsId = product.query?.needsNumber === true && facts.orderId === undefined;
	return product.query === undefined || needsId ? unaskableWhy(kind, facts, settings) : undefined;
}

/**
 * What HaiPay's current status makes of the callback's, once a proven answer shows the thing: the product's judge
 * (shared/products/judge.ts) reads the answer as the node's settlement does, so that an answer in a status HaiPay
 * publishes for nothing of the kind, a second status, or another payment confirms nothing. Where HaiPay publishes
 * the product's statuses, a final callback ahead of the query may be confirmed on a resend, and one behind it is
 * stale; where it publishes none (a refund's), only the very status confirms.
 */
function judged(
	data: IDataObject,
	facts: OrderFacts,
	how: { settings: HaiPaySettings; product: Product },
): Confirmation {
	const { settings, product } = how;
	const asked = { ownId: facts.orderId ?? exactText(data[product.ownMember]), payment: facts.orderNo };
	const judgement = judge(product, data, product.paymentMember === undefined ? { ownId: asked.ownId } : asked);
	if (judgement.verdict !== 'this' || judgement.state === 'unlisted')
		return { result: 'retry', log: `HaiPay's answer confirms nothing: ${told(judgement.why, settings)}` };
	const ordered = product.statuses !== undefined;
	const matches = ordered ? exactStatus(data.status) === facts.status : statusText(data.status) === facts.statusText;
	if (matches && statusText(data.status) !== undefined) return { result: 'confirmed', data };
	const theirs = ordered ? String(facts.status) : told(facts.statusText, settings);
	const said = `HaiPay says the ${product.makes}'s status is ${told(data.status, settings)}, the callback says ${theirs}`;
	if (!ordered) return { result: 'retry', log: `${said}; not confirmed` };
	// A final callback ahead of a query that still shows the order in progress may be confirmed on a resend.
	if (isFinalStatus(facts.status) && !isFinalStatus(exactStatus(data.status)))
		return { result: 'retry', log: `${said}; not confirmed yet` };
	return { result: 'stale', log: `${said}; the callback is not HaiPay's current state` };
}

/** The currency whose query path a callback is asked on, or why there is none. */
function currencyOf(facts: OrderFacts, settings: HaiPaySettings): string | { why: string } {
	const currency = facts.currency ?? settings.currency.toUpperCase();
	if (isCurrency(currency)) return currency;
	return {
		why:
			facts.currency !== undefined
				? `its currency ${told(facts.currency, settings)} is no currency code`
				: 'its currency is unknown (no currency field, and the credential has no currency set)',
	};
}

/** Why the callback cannot be asked about at all, before any query: nothing to name, no status to compare. */
function unaskable(facts: OrderFacts, products: Product[]): string | undefined {
	if (facts.orderId === undefined && facts.orderNo === undefined) return 'it names no order to ask HaiPay about';
	if (products[0] === REFUND)
		return facts.statusText === undefined ? 'the refund callback carries no status' : undefined;
	if (products[0].query !== undefined && facts.status === undefined) return 'its status is not an integer';
	return undefined;
}

/**
 * Asks HaiPay, through each product's own query, for the thing the callback reports, all queries by `deadlineAt`
 * (a `performance.now()` value; see ANSWER_DEADLINE_MS), and says what the product's judge makes of the answer.
 */
async function confirmWithHaiPay(
	ctx: GatewayContext,
	settings: HaiPaySettings,
	facts: OrderFacts,
	how: { kind: CallbackKind; deadlineAt: number; credential?: ICredentialsDecrypted },
): Promise<Confirmation> {
	const products = productsOf(how.kind, settings);
	const doubt = unaskable(facts, products) ?? unaskableWhy(how.kind, facts, settings);
	if (doubt !== undefined) return { result: 'retry', log: doubt };
	const currency = products[0] === REFUND || products[0].app !== undefined ? 'USD' : currencyOf(facts, settings);
	if (typeof currency !== 'string') return { result: 'retry', log: currency.why };
	const misses: string[] = [];
	const { credential, deadlineAt } = how;
	const options = {
		timeoutMs: CONFIRM_TIMEOUT_MS,
		retries: CONFIRM_RETRIES,
		deadlineAt,
		...(credential !== undefined ? { credential } : {}),
	};
	for (const product of products) {
		const name = product.orderKind ?? product.makes;
		try {
			const result = await (product.query as ProductQuery).ask(ctx, settings, refOf(product, facts, currency), options);
			if (result.found) return judged(result.data, facts, { settings, product });
			misses.push(`the ${name} query does not know the order (yet)`);
		} catch (error) {
			const why = error instanceof ItemFailure ? `${error.kind}: ${error.message}` : 'the query failed';
			misses.push(`the ${name} query gave no trusted answer (${told(why, settings)})`);
			if (toldToWait(error, deadlineAt)) break;
		}
	}
	const what = products[0].orderKind === undefined ? products[0].makes : 'order';
	return { result: 'retry', log: `HaiPay's ${what} query could not confirm it: ${misses.join('; ')}` };
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
		/** The callback's answer deadline, on the monotonic clock (HaiPayTrigger.node.ts). */
		deadlineAt: number;
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
		deadlineAt: how.deadlineAt,
		credential,
	});
	return confirmation.result === 'confirmed' || how.why === undefined
		? confirmation
		: { ...confirmation, log: `${how.why}: ${confirmation.log}` };
}
