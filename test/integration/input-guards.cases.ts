/**
 * Guards on what the node is given: Extra Fields cannot smuggle a field of the operation or a number JSON changes, an
 * agent cannot switch "Allow Use by AI Agents" on through its own arguments, and a voucher entry cannot sign like two
 * under the Java-list array style. Real n8n-core executions against the sandbox over HTTP.
 */
import type { IDataObject } from 'n8n-workflow';

import { HaiPay } from '../../nodes/HaiPay/HaiPay.node';
import { startSandbox, type Sandbox } from '../../sandbox';
import { APP_IDS, PAYOUTS } from '../fixtures/bodies';
import { runWorkflow, type RunResult } from '../harness';
import {
	credentialFor,
	NODE,
	payoutFromItem,
	runNode,
	sandboxPerFile,
	TZS_FIELDS,
	tzsRow,
	uniqueOrderId,
} from './helpers';

const running = sandboxPerFile({ manual: true });
let sandbox: Sandbox;

beforeAll(() => {
	sandbox = running();
});

const createTzs = payoutFromItem('TZS', TZS_FIELDS);
const createZar = payoutFromItem('ZAR', TZS_FIELDS);
const keepGoing = { onError: 'continueRegularOutput' };

function zarRow(overrides: IDataObject = {}): IDataObject {
	return { orderId: uniqueOrderId('ZAR'), ...PAYOUTS.ZAR, ...overrides };
}

function requestsTo(path: string): number {
	return sandbox.requests.filter((request) => request.path === path).length;
}

function sentWith(orderId: unknown) {
	return sandbox.requests.filter((request) => request.orderId === orderId);
}

describe('Extra Fields (JSON): no second copy of a field, no number JSON changes', () => {
	async function withExtra(extraFields: string, row = zarRow()) {
		const result = await runNode(sandbox, {
			currency: 'ZAR',
			parameters: { ...createZar, options: { extraFields } },
			items: [row],
			settings: keepGoing,
		});
		return { item: result.jsonOf(NODE)[0], sent: sentWith(row.orderId), row };
	}

	it.each([
		['a_mount', 'amount'],
		['account_no', 'accountNo'],
		['app_id', 'appId'],
		['order_id', 'orderId'],
		['bank_code', 'bankCode'],
		['AMOUNT', 'amount'],
		['order.id', 'orderId'],
		['Order Id', 'orderId'],
		['Sign', 'sign'],
		['amount', 'amount'],
	])('refuses "%s", which reads as the field "%s", and sends nothing', async (name, twin) => {
		const { item, sent } = await withExtra(JSON.stringify({ [name]: '9000000' }));
		expect(item).toMatchObject({ outcome: 'invalid', field: 'extraFields', rule: 'reserved' });
		expect(String(item.error)).toContain(`"${name}"`);
		expect(String(item.error)).toContain(`"${twin}"`);
		expect(sent).toHaveLength(0);
	});

	it.each([
		['12345678901234567891', '12345678901234567000'],
		['1.50', '1.5'],
		['1e3', '1000'],
		['-0', '0'],
	])('refuses the number %s (JavaScript reads %s) and says to send it as a string', async (text) => {
		const { item, sent } = await withExtra(`{"branchRef": ${text}}`);
		expect(item).toMatchObject({ outcome: 'invalid', field: 'extraFields', rule: 'number' });
		expect(String(item.error)).toContain('"branchRef"');
		expect(String(item.error)).toContain(text);
		expect(String(item.error)).toContain('as a string');
		expect(sent).toHaveLength(0);
	});

	it('refuses an unsafe integer or a non-finite number given as an object', async () => {
		const unsafe = await withExtra('={{ $json.extra }}', zarRow({ extra: { branchRef: Number.MAX_SAFE_INTEGER + 2 } }));
		expect(unsafe.item).toMatchObject({ outcome: 'invalid', field: 'extraFields', rule: 'number' });
		expect(String(unsafe.item.error)).toContain('as a string');
		expect(unsafe.sent).toHaveLength(0);
		for (const value of [Number.POSITIVE_INFINITY, Number.NaN]) {
			const { item, sent } = await withExtra('={{ $json.extra }}', zarRow({ extra: { branchRef: value } }));
			expect(item).toMatchObject({ outcome: 'invalid' });
			expect(String(item.error)).toContain('not a number JSON can carry');
			expect(sent).toHaveLength(0);
		}
	});

	it('lets names that only look like fields, and exact numbers, through, signed', async () => {
		const json =
			'{"subjectLine": "May salaries", "account_holder": "Thabo", "bankBranch": "250655", "orderRef": 12, "rate": 1.5, "big": 9007199254740991, "neg": -3, "tiny": 0.001}';
		const { item, sent } = await withExtra(json);
		expect(item).toMatchObject({ outcome: 'accepted', verified: true });
		expect(sent).toHaveLength(1);
		expect(sent[0].body).toMatchObject({
			subjectLine: 'May salaries',
			account_holder: 'Thabo',
			bankBranch: '250655',
			orderRef: 12,
			rate: 1.5,
			big: 9007199254740991,
			neg: -3,
			tiny: 0.001,
		});
		const object = await withExtra(
			'={{ $json.extra }}',
			zarRow({ extra: { orderRef: Number.MAX_SAFE_INTEGER, rate: 2.25 } }),
		);
		expect(object.item).toMatchObject({ outcome: 'accepted' });
		expect(object.sent[0].body).toMatchObject({ orderRef: Number.MAX_SAFE_INTEGER, rate: 2.25 });
	});

	it.each([
		['Notify-URL', 'notifyUrl'],
		['e_mail', 'email'],
		['PARTNER user.id', 'partnerUserId'],
		['account__type_', 'accountType'],
		['key', 'key'],
		['KEY', 'key'],
	])('attack: refuses "%s" too (reads as "%s")', async (name, twin) => {
		const { item, sent } = await withExtra(JSON.stringify({ [name]: 'x' }));
		expect(item).toMatchObject({ outcome: 'invalid', field: 'extraFields', rule: 'reserved' });
		expect(String(item.error)).toContain(`"${twin}"`);
		expect(sent).toHaveLength(0);
	});

	it.each([
		['a full-width letter', '\uff41mount'],
		['a zero-width space', 'amount\u200b'],
		['a tab inside', 'order\tid'],
	])('attack: refuses a name with %s, and sends nothing', async (_what, name) => {
		const { item, sent } = await withExtra(JSON.stringify({ [name]: '9000000' }));
		expect(item).toMatchObject({ outcome: 'invalid' });
		expect(sent).toHaveLength(0);
	});

	it('attack: an inexact number inside a string of JSON text is not mistaken for a number', async () => {
		const { item, sent } = await withExtra('{"memo": "ref 1.50 and 12345678901234567891", "n": 2}');
		expect(item).toMatchObject({ outcome: 'accepted' });
		expect(sent[0].body).toMatchObject({ memo: 'ref 1.50 and 12345678901234567891', n: 2 });
	});
});

/** The node as n8n's tool generation registers it: the same class under the name with "Tool" appended. */
class HaiPayTool extends HaiPay {
	constructor() {
		super();
		this.description = { ...this.description, name: 'haiPayTool', displayName: 'HaiPay Tool' };
	}
}

const TOOL = 'HaiPay Tool';

async function runAsTool(parameters: IDataObject, items: IDataObject[]): Promise<RunResult> {
	return await runWorkflow({
		nodeTypes: [HaiPayTool],
		credentials: { hp: { type: 'haiPayApi', data: credentialFor(sandbox, 'TZS') } },
		nodes: [{ name: TOOL, type: 'haiPayTool', parameters: parameters as never }],
		items: items.map((json) => ({ json: json as never })),
		timeoutMs: 60_000,
	});
}

describe('Allow Use by AI Agents is a fixed switch', () => {
	it.each([
		['the model’s own argument', '={{ $json.allowAgents }}'],
		['a constant expression', '={{ true }}'],
	])('refuses an expression (%s), and sends nothing', async (_what, allowAgents) => {
		const before = sandbox.appliesReceived();
		const result = await runAsTool({ ...createTzs, options: { allowAgents } }, [
			tzsRow({ allowAgents: true }),
			tzsRow({ allowAgents: true }),
		]);
		expect(result.status).toBe('error');
		expect(result.error?.message).toContain('Allow Use by AI Agents');
		expect(`${result.error?.message} ${result.error?.description}`).toMatch(/fixed switch, not an expression/);
		expect(sandbox.appliesReceived() - before).toBe(0);
	});

	it.each([
		['the whole Options collection as an expression', '={{ { allowAgents: true } }}'],
		['the switch as $fromAI', { allowAgents: "={{ $fromAI('allowAgents', 'may I pay', 'boolean') }}" }],
		['the switch as an expression behind a space', { allowAgents: ' ={{ true }}' }],
		['the switch as text', { allowAgents: 'true' }],
	])('attack: refuses %s, and sends nothing', async (_what, options) => {
		const before = sandbox.appliesReceived();
		const result = await runAsTool({ ...createTzs, options }, [tzsRow()]);
		expect(result.status).toBe('error');
		expect(result.error?.message).toContain('An AI agent may not send money');
		expect(sandbox.appliesReceived() - before).toBe(0);
	});

	it('refuses a switch that is off, and sends nothing', async () => {
		const before = sandbox.appliesReceived();
		const off = await runAsTool({ ...createTzs, options: { allowAgents: false } }, [tzsRow(), tzsRow()]);
		expect(off.status).toBe('error');
		expect(off.error?.message).toContain('An AI agent may not send money');
		expect(sandbox.appliesReceived() - before).toBe(0);
	});

	it('sends every item when the switch is fixed on, even with another option given as an expression', async () => {
		const rows = [tzsRow(), tzsRow()];
		const result = await runAsTool({ ...createTzs, options: { allowAgents: true, concurrency: '={{ 2 }}' } }, rows);
		expect(result.status).toBe('success');
		expect(result.jsonOf(TOOL).map((item) => item.outcome)).toEqual(['accepted', 'accepted']);
	});

	it('leaves a run that no agent started alone, whatever the switch holds', async () => {
		const row = tzsRow({ allowAgents: false });
		const result = await runNode(sandbox, {
			parameters: { ...createTzs, options: { allowAgents: '={{ $json.allowAgents }}' } },
			items: [row],
		});
		expect(result.status).toBe('success');
		expect(result.jsonOf(NODE)[0]).toMatchObject({ outcome: 'accepted' });
	});
});

describe('voucher order numbers under the Java-list array style', () => {
	const VOUCHER = '/common/voucher/pdf';
	const download = (orderNos: string) => ({ resource: 'voucher', operation: 'download', orderNos });
	const listCredential = () => credentialFor(sandbox, 'TZS', { arrayStyle: 'list' });

	it.each([
		['a comma', '["HP1, HP2"]', ','],
		['a comma without a space', '["HP1,HP2"]', ','],
		['an opening bracket', '["[HP1"]', '['],
		['a closing bracket', '["HP1]"]', ']'],
		['a space', '["HP1 HP2"]', 'U+0020'],
		['a tab', '["HP1\\tHP2"]', 'U+0009'],
		['a no-break space', '["HP1\\u00a0HP2"]', 'U+00A0'],
	])('refuses an entry with %s before anything is signed', async (_what, orderNos, character) => {
		const before = requestsTo(VOUCHER);
		const result = await runNode(sandbox, {
			parameters: download(orderNos),
			credential: listCredential(),
			settings: keepGoing,
		});
		const [item] = result.jsonOf(NODE);
		expect(item).toMatchObject({ errorType: 'invalid', field: 'orderNos', rule: 'separator' });
		expect(String(item.error)).toContain(`"${character}"`);
		expect(requestsTo(VOUCHER)).toBe(before);
	});

	it('refuses such an entry from an expression that returns a list, and stops the run without Continue', async () => {
		const before = requestsTo(VOUCHER);
		const result = await runNode(sandbox, {
			parameters: download('={{ $json.nos }}'),
			credential: listCredential(),
			items: [{ nos: ['HP1, HP2'] }],
		});
		expect(result.status).toBe('error');
		expect(result.error).toMatchObject({ name: 'NodeOperationError', itemIndex: 0 });
		expect(result.error?.message).toContain('"orderNos"');
		expect(requestsTo(VOUCHER)).toBe(before);
	});

	it('sends the same entry under the JSON array style, where it is unambiguous', async () => {
		const before = requestsTo(VOUCHER);
		const result = await runNode(sandbox, { parameters: download('["HP1, HP2"]'), settings: keepGoing });
		expect(result.jsonOf(NODE)[0]).not.toMatchObject({ errorType: 'invalid' });
		expect(requestsTo(VOUCHER)).toBe(before + 1);
		expect(sandbox.requests.filter((request) => request.path === VOUCHER).at(-1)?.body).toMatchObject({
			orderNos: ['HP1, HP2'],
		});
	});

	it('downloads plain order numbers under the list style from a gateway that signs lists that way', async () => {
		const listed = await startSandbox({
			manual: true,
			merchants: [{ appId: APP_IDS.TZS, currency: 'TZS', secretKey: 'test-only-secret-tzs', arrayStyle: 'list' }],
		});
		try {
			const credential = credentialFor(listed, 'TZS', { arrayStyle: 'list' });
			const paid = (await runNode(listed, { parameters: createTzs, items: [tzsRow(), tzsRow()], credential })).jsonOf(
				NODE,
			);
			for (const order of paid) listed.control.settle(order.orderNo as string, 'success');
			const result = await runNode(listed, {
				parameters: download(paid.map((order) => order.orderNo).join(', ')),
				credential,
			});
			expect(result.status).toBe('success');
			expect(result.jsonOf(NODE)[0]).toMatchObject({
				mimeType: 'application/zip',
				orderNos: paid.map((order) => order.orderNo),
			});
		} finally {
			await listed.close();
		}
	});
});
