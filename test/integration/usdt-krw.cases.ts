/**
 * USDT and KRW payouts in real n8n-core executions against the sandbox over HTTP: every amount rule on both sides of
 * its edge (refused before anything is sent, or accepted by the sandbox's own schema), and a gateway that lies, echoes
 * the request or answers too late, each settled by the currency's own query. Their query pages publish no "no such
 * order" answer, so an open payout is never called not_found, where a TZS payout (contract 4.7) is.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { PAYOUT_RULES } from '../../nodes/shared/contract/rules/payout';
import type { Sandbox } from '../../sandbox';
import { PAYOUTS } from '../fixtures/bodies';
import { NODE, payoutFromItem, runNode, sandboxPerFile, TZS_FIELDS, tzsRow, uniqueOrderId } from './helpers';

type Rail = 'USDT' | 'KRW';

const running = sandboxPerFile({ manual: true, hangMs: 4_000 });
let sandbox: Sandbox;
beforeAll(() => {
	sandbox = running();
});

const keepGoing = { onError: 'continueRegularOutput' };

function row(currency: Rail, overrides: IDataObject = {}): IDataObject {
	return { orderId: uniqueOrderId(currency), ...PAYOUTS[currency], ...overrides };
}

function sheet(currency: 'USDT' | 'KRW' | 'TZS', options: IDataObject = {}): INodeParameters {
	const fields =
		currency === 'TZS'
			? TZS_FIELDS
			: PAYOUT_RULES[currency].fields.filter((field) => field.required).map((field) => field.name);
	return {
		...payoutFromItem(currency, fields),
		options: { timeout: 1000, resolveWithin: 20, notFoundAfter: 1, ...options },
	};
}

async function pay(
	currency: 'USDT' | 'KRW' | 'TZS',
	rows: IDataObject[],
	options: IDataObject = {},
): Promise<IDataObject[]> {
	const result = await runNode(sandbox, {
		currency,
		parameters: sheet(currency, options),
		items: rows,
		settings: keepGoing,
	});
	return result.jsonOf(NODE);
}

function ordersWith(orderId: unknown) {
	return sandbox.orders.filter((order) => order.orderId === orderId);
}

describe('amounts on both sides of each edge, in one run per currency', () => {
	it.each([
		[
			'USDT',
			['0.0001', '5000000', '1234.5678', [250.5, '250.5']],
			['0.00009', '0', '5000000.0001', '1.23456', '1,000'],
		],
		['KRW', ['0.01', '50000.00', [50000.5, '50000.50']], ['50000', '50000.5', '0.00', '50,000.00']],
	] as const)(
		'%s: the valid ones accepted by the sandbox as sent, the others invalid and never sent',
		async (currency, valid, invalid) => {
			const good = valid.map(
				(entry) => (Array.isArray(entry) ? entry : [entry, entry]) as readonly [string | number, string],
			);
			const rows = [
				...good.map(([amount]) => row(currency, { amount })),
				...invalid.map((amount) => row(currency, { amount })),
			];
			const before = sandbox.appliesReceived();
			const out = await pay(currency, rows);
			expect(out.map((item) => item.outcome)).toEqual([...good.map(() => 'accepted'), ...invalid.map(() => 'invalid')]);
			expect(out.slice(good.length).map((item) => item.field)).toEqual(invalid.map(() => 'amount'));
			expect(sandbox.appliesReceived() - before).toBe(good.length);
			// The sandbox prints a whole amount with two decimals, as HaiPay prints its amounts.
			good.forEach(([, sent], index) =>
				expect(ordersWith(rows[index].orderId).map((order) => Number(order.amount))).toEqual([Number(sent)]),
			);
		},
	);

	it('USDT: a wallet address and any network code HaiPay configures are sent as given', async () => {
		const wallet = row('USDT', {
			network: 'EVM',
			bankCode: 'ERC20',
			accountNo: '0x52908400098527886E0F7030069857D2E4169EE7',
		});
		const [item] = await pay('USDT', [wallet]);
		expect(item).toMatchObject({ outcome: 'accepted', currency: 'USDT', verified: true });
		const sent = sandbox.requests.filter(
			(request) => request.path === '/usdt/pay/apply' && request.orderId === wallet.orderId,
		);
		expect(
			sent.map((request) => [(request.body as IDataObject).bankCode, (request.body as IDataObject).accountNo]),
		).toEqual([['ERC20', wallet.accountNo]]);
	});
});

describe("a hostile gateway, settled by the currency's own query", () => {
	it.each(['USDT', 'KRW'] as const)(
		'%s: a signed lie ("no such order") answering the payout it made is not an acceptance; its query shows the order',
		async (currency) => {
			const lie = row(currency);
			const path = `/${currency.toLowerCase()}/pay`;
			sandbox.control.addFault({
				type: 'replaceData',
				path: `${path}/apply`,
				times: 1,
				data: { orderId: String(lie.orderId), status: 3, errorMsg: 'order does not exist' },
			});
			const [item] = await pay(currency, [lie]);
			const [order] = ordersWith(lie.orderId);
			expect(item).toMatchObject({ outcome: 'accepted', resolvedBy: 'query', orderNo: order.orderNo, verified: true });
			expect(
				sandbox.requests.filter((request) => request.path === `${path}/query` && request.orderId === lie.orderId)
					.length,
			).toBeGreaterThan(0);
			expect(ordersWith(lie.orderId)).toHaveLength(1);
		},
	);

	it('USDT: an answer echoing the request (signed, no orderNo) is not an acceptance; the query settles it', async () => {
		const echoed = row('USDT');
		sandbox.control.addFault({
			type: 'replaceData',
			path: '/usdt/pay/apply',
			times: 1,
			data: { ...PAYOUTS.USDT, orderId: String(echoed.orderId) },
		});
		const [item] = await pay('USDT', [echoed]);
		expect(item).toMatchObject({
			outcome: 'accepted',
			resolvedBy: 'query',
			verified: true,
			orderNo: ordersWith(echoed.orderId)[0].orderNo,
		});
	});

	it('USDT: a payout answered after the time-out, and absent from the first queries, is waited for, never called not_found', async () => {
		const slow = row('USDT');
		sandbox.control.addFault({ type: 'latency', when: 'before', path: '/usdt/pay/apply', times: 1, ms: 2_500 });
		const [item] = await pay('USDT', [slow], { resolveWithin: 15 });
		expect(item).toMatchObject({ outcome: 'accepted', resolvedBy: 'query', verified: true });
		expect(ordersWith(slow.orderId)).toHaveLength(1);
	});

	it('a payout lost before HaiPay took it: TZS is proven not_found (contract 4.7); USDT and KRW stay unknown, never resent', async () => {
		const lost: Array<[Rail | 'TZS', IDataObject]> = [
			['TZS', tzsRow()],
			['USDT', row('USDT')],
			['KRW', row('KRW')],
		];
		const out: IDataObject[] = [];
		for (const [currency, entry] of lost) {
			sandbox.control.addFault({
				type: 'drop',
				when: 'before',
				path: `/${currency.toLowerCase()}/pay/apply`,
				times: 1,
			});
			out.push(...(await pay(currency, [entry], { resolveWithin: 3 })));
		}
		expect(out.map((item) => item.outcome)).toEqual(['not_found', 'unknown', 'unknown']);
		expect(String(out[1].error)).toMatch(/publishes no "no such order" answer/);
		expect(String(out[2].error)).toMatch(/publishes no "no such order" answer/);
		for (const [currency, entry] of lost) {
			expect(ordersWith(entry.orderId)).toHaveLength(0);
			const applies = sandbox.requests.filter(
				(request) => request.path === `/${currency.toLowerCase()}/pay/apply` && request.orderId === entry.orderId,
			);
			expect(applies.length).toBeLessThanOrEqual(1);
		}
	});
});
