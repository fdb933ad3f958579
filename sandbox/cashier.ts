import type { IncomingMessage, ServerResponse } from 'http';

import type { Gateway } from './gateway';
import { escapeHtml, readBody, sendHtml } from './http-util';
import type { Order } from './orders';

/**
 * The page a collection's `payUrl` points at: the card form of a USD MIT order, or HaiPay's page for a local
 * collection (its QR code's text and account). It stands in for the payer: one button pays (the order succeeds, and a
 * card's callback carries a new tokenID), the other declines.
 */

function page(title: string, body: string): string {
	return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#222}
.card{border:1px solid #ddd;border-radius:8px;padding:1.5rem}dt{color:#666;font-size:.85rem}dd{margin:0 0 .8rem}
button{font-size:1rem;padding:.6rem 1.2rem;margin-right:.5rem;border-radius:6px;border:1px solid #888;cursor:pointer}
.pay{background:#1a7f37;color:#fff;border-color:#1a7f37}.note{color:#888;font-size:.8rem;margin-top:1.5rem}</style>
</head><body><div class="card">${body}</div><p class="note">HaiPay local sandbox: test data, no card is charged.</p></body></html>`;
}

function orderPage(order: Order): string {
	const mit = order.mit;
	if (order.status !== 0) {
		const outcome = order.status === 2 ? 'Paid' : order.status === 3 ? 'Declined' : `Status ${order.status}`;
		return page(
			'Payment',
			`<h1>${escapeHtml(outcome)}</h1><p>Order <code>${escapeHtml(order.orderNo)}</code> is no longer waiting for payment.</p>`,
		);
	}
	if (order.local) return localPage(order);
	const details =
		mit?.loadingType === 1
			? '<p>Loading...</p>'
			: `<dl><dt>Order</dt><dd><code>${escapeHtml(order.orderNo)}</code> (${escapeHtml(order.orderId)})</dd>
<dt>Amount</dt><dd>${escapeHtml(order.amount)} ${escapeHtml(order.currency)}</dd>
${order.subject ? `<dt>For</dt><dd>${escapeHtml(order.subject)}</dd>` : ''}
<dt>Card</dt><dd>VISA **** 4242 (sandbox)</dd></dl>`;
	const back = mit?.cancelUrl ? `<p><a href="${escapeHtml(mit.cancelUrl)}">Back</a></p>` : '';
	return page(
		'Pay',
		`<h1>Card payment</h1>${details}
<form method="post" style="display:inline" action="/cashier/${encodeURIComponent(order.orderNo)}/pay"><button class="pay" type="submit" id="pay">Pay</button></form>
<form method="post" style="display:inline" action="/cashier/${encodeURIComponent(order.orderNo)}/fail"><button type="submit" id="fail">Decline</button></form>${back}`,
	);
}

function buttons(order: Order): string {
	const action = (what: string) => `/cashier/${encodeURIComponent(order.orderNo)}/${what}`;
	return `<form method="post" style="display:inline" action="${action('pay')}"><button class="pay" type="submit" id="pay">Pay</button></form>
<form method="post" style="display:inline" action="${action('fail')}"><button type="submit" id="fail">Decline</button></form>`;
}

/** A local collection waiting for its payer: what the payer's bank or wallet app would read, and the two outcomes. */
function localPage(order: Order): string {
	const local = order.local;
	const rows = [
		['Order', `<code>${escapeHtml(order.orderNo)}</code> (${escapeHtml(order.orderId)})`],
		['Amount', `${escapeHtml(order.amount)} ${escapeHtml(order.currency)}`],
		['Pay with', escapeHtml(`${local?.payType ?? ''} ${local?.inBankCode ?? ''}`.trim())],
		...(local?.qrCode ? [['QR code', `<code style="word-break:break-all">${escapeHtml(local.qrCode)}</code>`]] : []),
		...(local?.bankNo ? [['Account', `<code>${escapeHtml(local.bankNo)}</code>`]] : []),
	];
	const details = `<dl>${rows.map(([term, value]) => `<dt>${term}</dt><dd>${value}</dd>`).join('')}</dl>`;
	return page('Pay', `<h1>${escapeHtml(order.currency)} payment</h1>${details}${buttons(order)}`);
}

/** Pays or declines a waiting collection (a card's or a local one), as the buttons of its page do. */
export function cashierAct(gateway: Gateway, order: Order, action: 'pay' | 'fail'): void {
	if (order.kind !== 'collection' || (!order.mit && !order.local) || order.status !== 0) {
		throw new Error(`order ${order.orderNo} is not waiting on the cashier page`);
	}
	if (action === 'pay') gateway.clock.advance(order, 2);
	else
		gateway.clock.advance(order, 3, {
			errorMsg: order.failReason ?? (order.mit ? 'Card declined by the payer' : 'Payment declined by the payer'),
		});
}

export async function handleCashier(
	gateway: Gateway,
	req: IncomingMessage,
	res: ServerResponse,
	path: string,
): Promise<void> {
	const match = /^\/cashier\/([^/]+)(?:\/(pay|fail))?$/.exec(path);
	const order = match ? gateway.book.orders.get(decodeURIComponent(match[1])) : undefined;
	if (!match || !order || (!order.mit && !order.local)) {
		sendHtml(res, 404, page('Not found', '<h1>No such payment</h1>'));
		return;
	}
	const action = match[2] as 'pay' | 'fail' | undefined;
	if (!action) {
		sendHtml(res, 200, orderPage(order));
		return;
	}
	if (req.method !== 'POST') {
		sendHtml(res, 405, page('Method not allowed', '<h1>Use the buttons of the payment page</h1>'));
		return;
	}
	await readBody(req);
	if (order.status === 0) cashierAct(gateway, order, action);
	const redirects = order.mit ?? order.local;
	const target =
		order.status === 2 ? redirects?.callBackUrl : order.status === 3 ? redirects?.callBackFailUrl : undefined;
	if (target) {
		res.writeHead(303, { Location: target });
		res.end();
		return;
	}
	sendHtml(res, 200, orderPage(order));
}
