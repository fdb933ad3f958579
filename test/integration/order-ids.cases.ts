/**
 * Look-alike order IDs. An orderId or Refund ID holding a Unicode format (Cf) or control (Cc)
 * character is refused (`rule: "invisible"`); two IDs of one run that read the same once NFKC-normalised and
 * case-folded are one ID, and the later is refused (`rule: "unique"`, naming both items). Real n8n-core executions
 * against the sandbox over HTTP; its request log shows what reached it.
 */
import type { IDataObject } from 'n8n-workflow';

import { loadPrivateKey, signBody } from '../../sandbox/signing';
import { APP_IDS, mitBody, PAYOUTS } from '../fixtures/bodies';
import { TEST_KEYS } from '../helpers/keys';
import { NODE, runNode, sandboxPerFile, uniqueOrderId } from './helpers';

const running = sandboxPerFile({ manual: true });
const keepGoing = { onError: 'continueRegularOutput' };

const row = (orderId: string): IDataObject => ({ orderId, ...PAYOUTS.TZS });
const sheet = (operation: 'check' | 'create') => ({
	resource: 'payout',
	operation,
	currency: 'TZS',
	fieldsFrom: 'input',
	options: operation === 'create' ? { notFoundAfter: 1 } : {},
});
/** ASCII letters and digits as their fullwidth forms (U+FF01-U+FF5E). */
const fullwidth = (text: string) => text.replace(/[!-~]/g, (char) => String.fromCharCode(char.charCodeAt(0) + 0xfee0));
const inside = (text: string, char: string) => `${text.slice(0, 3)}${char}${text.slice(3)}`;

describe('Payout → Check and Create', () => {
	it('refuses an orderId holding a format or control character, and accepts its neighbours', async () => {
		const sandbox = running();
		const base = uniqueOrderId('inv');
		const ids = [
			inside(base, '\u200b'), // zero-width space, Cf
			inside(base, '\u202e'), // right-to-left override, Cf
			inside(base, '\u00ad'), // soft hyphen, Cf
			inside(base, '\u0085'), // next line, a C1 control
			inside(base, '\u2060'), // word joiner, Cf
			`${base}-a`, // neighbours: visible, distinct
			`${base} b`,
		];
		const out = (await runNode(sandbox, { parameters: sheet('check'), items: ids.map(row) })).jsonOf(NODE);
		expect(out.map((item) => item.outcome)).toEqual([
			'invalid',
			'invalid',
			'invalid',
			'invalid',
			'invalid',
			'valid',
			'valid',
		]);
		for (const item of out.slice(0, 5)) expect(item).toMatchObject({ field: 'orderId', rule: 'invisible' });
		expect(String(out[0].error)).toContain('U+200B');
		expect(String(out[1].error)).toContain('U+202E');
	});

	it('refuses the later of two orderIds equal once NFKC-normalised and case-folded, naming both items', async () => {
		const sandbox = running();
		const base = uniqueOrderId('look');
		const ids = [
			`${base}-strasse`,
			fullwidth(`${base}-STRASSE`), // fullwidth capitals: NFKC and case folding
			`${base}-straße`, // full case folding: ß is ss
			`${base}-café`, // precomposed é ...
			`${base}-cafe\u0301`, // ... and e with a combining acute: NFKC composes it
			`${base}-strasse-2`, // distinct
		];
		const out = (await runNode(sandbox, { parameters: sheet('check'), items: ids.map(row) })).jsonOf(NODE);
		expect(out.map((item) => item.outcome)).toEqual(['valid', 'invalid', 'invalid', 'valid', 'invalid', 'valid']);
		for (const index of [1, 2]) {
			expect(out[index]).toMatchObject({ field: 'orderId', rule: 'unique', orderId: ids[index] });
			expect(String(out[index].error)).toMatch(new RegExp(`item ${index}.*reads as.*item 0`));
		}
		expect(String(out[4].error)).toMatch(/item 4.*reads as.*item 3/);
	});

	it('sends the first of two look-alikes once and refuses the other unsent; an exact repeat keeps its message', async () => {
		const sandbox = running();
		const base = uniqueOrderId('pay');
		const ids = [base, base.toUpperCase(), inside(base, '\u200b'), base, `${base}-2`];
		const before = sandbox.appliesReceived(APP_IDS.TZS);
		const out = (
			await runNode(sandbox, { parameters: sheet('create'), items: ids.map(row), settings: keepGoing })
		).jsonOf(NODE);
		expect(out.map((item) => [item.outcome, item.rule ?? null])).toEqual([
			['accepted', null],
			['invalid', 'unique'],
			['invalid', 'invisible'],
			['invalid', 'unique'],
			['accepted', null],
		]);
		expect(String(out[3].error)).toContain('is also the orderId of item 0 of this run');
		expect(sandbox.appliesReceived(APP_IDS.TZS) - before).toBe(2);
	});
});

describe('an orderId with spaces around it', () => {
	// HaiPay takes an ID as sent and compares IDs as sent: the create sends " X " as "X", so "X" is the order HaiPay
	// holds, and its answers are compared as HaiPay reads them (nodes/shared/text.ts).
	const padded = (base: string) => ` ${base} `;
	const creating = { ...sheet('create'), options: { notFoundAfter: 1, resolveWithin: 3 } };

	it('is sent trimmed, and the query that settles its lost answer asks for that ID: accepted', async () => {
		const sandbox = running();
		const id = uniqueOrderId('pad');
		// The order is made, then the answer is lost (HTTP 502): only HaiPay's query can settle it.
		const out = (
			await runNode(sandbox, {
				parameters: creating,
				items: [{ ...row(padded(id)), name: 'Server Error' }],
				settings: keepGoing,
			})
		).jsonOf(NODE);
		expect(out[0]).toMatchObject({ outcome: 'accepted', resolvedBy: 'query', orderId: id });
		expect(sandbox.orders.filter((order) => order.orderId === id)).toHaveLength(1);
		const queried = sandbox.requests
			.filter((entry) => entry.path === '/tzs/pay/query')
			.map((entry) => (entry.body as IDataObject).orderId);
		expect(queried).toContain(id);
		expect(queried).not.toContain(padded(id));
	});

	it('a signed query answer naming it with the spaces is about another order: the create stays unknown', async () => {
		const sandbox = running();
		const id = uniqueOrderId('pad');
		sandbox.control.addFault({ type: 'drop', when: 'before', path: '/tzs/pay/apply', times: 1 });
		sandbox.control.addFault({
			type: 'replaceData',
			path: '/tzs/pay/query',
			data: { orderId: padded(id), orderNo: 'HP-PADDED-1', amount: PAYOUTS.TZS.amount, fee: '0', status: 2 },
		});
		const out = (
			await runNode(sandbox, { parameters: creating, items: [row(padded(id))], settings: keepGoing })
		).jsonOf(NODE);
		expect(out[0]).toMatchObject({ outcome: 'unknown', orderId: id });
		expect(out[0]).not.toHaveProperty('orderNo');
		expect(String(out[0].error)).toContain(`the answer is about orderId "${padded(id)}", not "${id}"`);
	});
});

describe('Collection → Refund', () => {
	it('refuses a Refund ID with an invisible character, or one that reads as an earlier Refund ID of the run', async () => {
		const sandbox = running();
		const body = mitBody(uniqueOrderId('MIT'));
		const sign = signBody(body, 'test-only-secret-usd', loadPrivateKey(TEST_KEYS.merchantPkcs8), 'json');
		const made = await fetch(`${sandbox.baseUrl}/usd/mit/apply`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify({ ...body, sign }),
		});
		const orderNo = String(((await made.json()) as { data: IDataObject }).data.orderNo);
		sandbox.control.payCashier(orderNo, 'pay');

		const refundId = uniqueOrderId('rf');
		const items = [
			{ refundId, orderNo },
			{ refundId: fullwidth(refundId.toUpperCase()), orderNo: 'HP-OTHER-1' },
			{ refundId: inside(uniqueOrderId('rf'), '\ufeff'), orderNo: 'HP-OTHER-2' },
		];
		const parameters = {
			resource: 'collection',
			operation: 'refund',
			currency: 'USD',
			orderId: '={{ $json.refundId }}',
			orderNo: '={{ $json.orderNo }}',
			// HaiPay publishes no refund status: the sandbox's "PROCESSING" is settled by the refund query.
			options: {},
		};
		const out = (await runNode(sandbox, { currency: 'USD', parameters, items, settings: keepGoing })).jsonOf(NODE);
		expect(out[0]).toMatchObject({ outcome: 'accepted', orderId: refundId });
		expect(out[1]).toMatchObject({ outcome: 'invalid', field: 'orderId', rule: 'unique' });
		expect(String(out[1].error)).toMatch(/item 1.*reads as.*item 0/);
		expect(out[2]).toMatchObject({ outcome: 'invalid', field: 'orderId', rule: 'invisible' });
		expect(String(out[2].error)).toContain('U+FEFF');
		expect(
			sandbox.requests.filter(
				(entry) =>
					entry.path === '/usd/refund/apply' && String((entry.body as IDataObject).orderNo).startsWith('HP-OTHER'),
			),
		).toEqual([]);
	});
});
