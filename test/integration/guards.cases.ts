/**
 * Guards around the money paths: a create never runs under n8n's "Retry On Fail", and nothing the credential keeps
 * secret comes back out of what a gateway echoes. Real n8n-core executions against the sandbox over HTTP (the guards
 * on what the node is given: input-guards.cases.ts).
 */
import type { IDataObject } from 'n8n-workflow';

import type { Sandbox } from '../../sandbox';
import { APP_IDS, MIT_COLLECTION } from '../fixtures/bodies';
import type { RunResult } from '../harness';
import { flatten } from '../harness/logger';
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
const asIs = (parameters: IDataObject, options: IDataObject = {}) => ({
	...parameters,
	options: { resolveUnknown: false, ...options },
});
const keepGoing = { onError: 'continueRegularOutput' };
const toErrorOutput = { onError: 'continueErrorOutput' };
const retrying = { retryOnFail: true, maxTries: 3, waitBetweenTries: 1 };

function sentWith(orderId: unknown) {
	return sandbox.requests.filter((request) => request.orderId === orderId);
}

/** Everything a run leaves behind that a person or another system reads: the error, every item, every log line. */
function everything(result: RunResult): string {
	const items = result.executedNodes.includes(NODE)
		? [0, 1].map((output) => {
				try {
					return flatten(result.outputOf(NODE, 0, output));
				} catch {
					return '';
				}
			})
		: [];
	return [
		flatten(result.executionError),
		flatten(result.error),
		flatten(safeNodeError(result)),
		...items,
		...result.logs.map((line) => line.text),
	].join('\n');
}

function safeNodeError(result: RunResult): unknown {
	try {
		return result.nodeError(NODE);
	} catch {
		return undefined;
	}
}

describe("n8n's Retry On Fail on a create", () => {
	it('refuses a payout before anything is sent, and says to use On Error → Continue and a query instead', async () => {
		// The gateway would leave the outcome unknown for good: the case where a retry used to send the create again.
		sandbox.control.addFault({
			type: 'statusZero',
			when: 'after',
			path: '/tzs/pay/apply',
			msg: 'System busy, please query the order',
		});
		const before = sandbox.appliesReceived();
		const row = tzsRow();
		const result = await runNode(sandbox, { parameters: createTzs, items: [row], settings: retrying });
		expect(result.status).toBe('error');
		expect(result.error).toMatchObject({ name: 'NodeOperationError' });
		expect(result.error?.message).toContain('"Retry On Fail"');
		expect(result.error?.message).toContain('On Error → Continue');
		expect(`${result.error?.message} ${result.error?.description}`).toMatch(/unknown.*(query|Get)/);
		expect(sandbox.appliesReceived() - before).toBe(0);
		expect(sentWith(row.orderId)).toHaveLength(0);
	});

	it('refuses a collection the same way', async () => {
		const before = sandbox.appliesReceived();
		const result = await runNode(sandbox, {
			currency: 'USD',
			parameters: { resource: 'collection', operation: 'create', currency: 'USD', fieldsFrom: 'input' },
			items: [{ orderId: uniqueOrderId('MIT'), ...MIT_COLLECTION }],
			settings: retrying,
		});
		expect(result.status).toBe('error');
		expect(result.error?.message).toContain('"Retry On Fail"');
		expect(sandbox.appliesReceived() - before).toBe(0);
	});

	it('refuses under On Error → Continue too: the setting is refused, not the item', async () => {
		const before = sandbox.appliesReceived();
		const result = await runNode(sandbox, {
			parameters: createTzs,
			items: [tzsRow(), tzsRow()],
			settings: { ...retrying, ...keepGoing },
		});
		expect(sandbox.appliesReceived() - before).toBe(0);
		expect(everything(result)).toContain('Retry On Fail');
		expect(result.jsonOf(NODE).some((item) => item.outcome === 'accepted')).toBe(false);
	});

	it.each([
		['Get Balance', { resource: 'account', operation: 'getBalance', currency: 'TZS' }],
		['Payout → Get', { resource: 'payout', operation: 'get', currency: 'TZS', orderId: 'NO-SUCH-ORDER' }],
	])('lets %s run with Retry On Fail', async (_what, parameters) => {
		const result = await runNode(sandbox, { parameters, settings: retrying });
		expect(result.status).toBe('success');
		expect(result.jsonOf(NODE)).toHaveLength(1);
	});

	it('lets Voucher → Download run with Retry On Fail', async () => {
		const [paid] = (await runNode(sandbox, { parameters: createTzs, items: [tzsRow()] })).jsonOf(NODE);
		sandbox.control.settle(paid.orderNo as string, 'success');
		const result = await runNode(sandbox, {
			parameters: { resource: 'voucher', operation: 'download', orderNos: String(paid.orderNo) },
			settings: retrying,
		});
		expect(result.status).toBe('success');
		expect(result.jsonOf(NODE)[0]).toMatchObject({ mimeType: 'application/pdf' });
	});
});

describe('nothing secret in what a gateway echoes', () => {
	const SECRET = 'test-only-secret-tzs';
	const signedText = `accountNo=255712345678&amount=15000&appId=${APP_IDS.TZS}&key=${SECRET}`;
	const refusal = `sign error, expected string: ${signedText}`;

	function expectNoSecret(text: string): void {
		expect(text).not.toContain(SECRET);
		for (let start = 0; start + 8 <= SECRET.length; start++) expect(text).not.toContain(SECRET.slice(start, start + 8));
	}

	it('Payout → Create without Continue: the thrown error, every property of it, and the log lines', async () => {
		sandbox.control.addFault({
			type: 'statusZero',
			path: '/tzs/pay/apply',
			msg: refusal,
			code: `E4003-${SECRET}`,
			times: 1,
		});
		const result = await runNode(sandbox, { parameters: asIs(createTzs), items: [tzsRow()] });
		expect(result.status).toBe('error');
		const error = flatten(result.executionError);
		expect(error).toContain('sign error, expected string: accountNo=255712345678&amount=15000');
		expect(error).toContain('E4003-[redacted]');
		expectNoSecret(error);
		expectNoSecret(flatten(result.nodeError(NODE)));
		expectNoSecret(result.logs.map((line) => line.text).join('\n'));
		expectNoSecret(everything(result));
	});

	it('Payout → Create with Continue (using regular output)', async () => {
		sandbox.control.addFault({ type: 'statusZero', path: '/tzs/pay/apply', msg: refusal, code: SECRET, times: 1 });
		const result = await runNode(sandbox, { parameters: asIs(createTzs), items: [tzsRow()], settings: keepGoing });
		const [item] = result.jsonOf(NODE);
		expect(item).toMatchObject({ outcome: 'rejected', errorCode: '[redacted]' });
		expect(String(item.gatewayMessage)).toContain('sign error, expected string: accountNo=255712345678');
		expect(String(item.gatewayMessage)).toContain('[redacted]');
		expectNoSecret(everything(result));
	});

	it('Payout → Create with Continue (using error output)', async () => {
		sandbox.control.addFault({
			type: 'statusZero',
			path: '/tzs/pay/apply',
			msg: `${SECRET} is not the merchant's key`,
			code: '4003',
			times: 1,
		});
		const result = await runNode(sandbox, { parameters: asIs(createTzs), items: [tzsRow()], settings: toErrorOutput });
		const [item] = result.jsonOf(NODE, 0, 1);
		expect(item.details).toMatchObject({ outcome: 'rejected', gatewayMessage: "[redacted] is not the merchant's key" });
		expectNoSecret(everything(result));
	});

	it("a signed data.orderId that echoes the string to sign (another order's, so the create is unknown)", async () => {
		sandbox.control.addFault({
			type: 'replaceData',
			path: '/tzs/pay/apply',
			data: { orderId: `echo:${signedText}`, orderNo: 'HP1' },
			times: 1,
		});
		const result = await runNode(sandbox, { parameters: asIs(createTzs), items: [tzsRow()] });
		expect(result.status).toBe('error');
		expect(flatten(result.executionError)).toContain('echo:accountNo=255712345678&amount=15000');
		expectNoSecret(everything(result));
	});

	it('Account → Get Balance: every signed member, nested ones too', async () => {
		const data = {
			bal: '1.00',
			availableBal: '1.00',
			frzBal: '0.00',
			unSettleBal: `0.00 (${SECRET})`,
			note: { trace: ['ok', { deeper: `checked ${signedText}` }] },
		};
		sandbox.control.addFault({ type: 'replaceData', path: '/tzs/account/ledger', data, times: 1 });
		const result = await runNode(sandbox, {
			parameters: { resource: 'account', operation: 'getBalance', currency: 'TZS' },
		});
		expect(result.status).toBe('success');
		const [item] = result.jsonOf(NODE);
		expect(item).toMatchObject({ bal: '1.00', unSettleBal: '0.00 ([redacted])', verified: true });
		expect(item.note).toEqual({
			trace: ['ok', { deeper: `checked accountNo=255712345678&amount=15000&appId=${APP_IDS.TZS}&key=[redacted]` }],
		});
		expectNoSecret(everything(result));
	});

	it('Payout → Get: a signed errorMsg, on the output item', async () => {
		const orderId = uniqueOrderId('Q');
		const data = { orderId, orderNo: '', status: 3, errorMsg: `bad request, sign string was ${signedText}` };
		sandbox.control.addFault({ type: 'replaceData', path: '/tzs/pay/query', data, times: 1 });
		const result = await runNode(sandbox, {
			parameters: { resource: 'payout', operation: 'get', currency: 'TZS', orderId },
		});
		const [item] = result.jsonOf(NODE);
		expect(item).toMatchObject({ orderId, status: 3, verified: true });
		expect(String(item.errorMsg)).toContain('bad request, sign string was accountNo=255712345678');
		expectNoSecret(everything(result));
	});

	it('attack: the secret in upper case, in a member name and deep in a signed query answer', async () => {
		const orderId = uniqueOrderId('Q');
		const data = {
			orderId,
			orderNo: '',
			status: 3,
			errorMsg: `SIGN STRING: ${signedText.toUpperCase()}`,
			[`trace_${SECRET.toUpperCase()}`]: { steps: [[`echo ${SECRET}`]] },
		};
		sandbox.control.addFault({ type: 'replaceData', path: '/tzs/pay/query', data, times: 1 });
		const result = await runNode(sandbox, {
			parameters: { resource: 'payout', operation: 'get', currency: 'TZS', orderId },
		});
		const [item] = result.jsonOf(NODE);
		expect(item).toMatchObject({
			orderId,
			status: 3,
			verified: true,
			errorMsg: `SIGN STRING: ACCOUNTNO=255712345678&AMOUNT=15000&APPID=${APP_IDS.TZS}&KEY=[redacted]`,
		});
		expect(item['trace_[redacted]']).toEqual({ steps: [['echo [redacted]']] });
		expectNoSecret(everything(result).toLowerCase());
	});

	it('attack: an answer that cannot be verified (no HaiPay public key) is cleaned too', async () => {
		const orderId = uniqueOrderId('Q');
		sandbox.control.addFault({
			type: 'replaceData',
			path: '/tzs/pay/query',
			data: { orderId, orderNo: '', status: 3, errorMsg: `bad sign ${SECRET}` },
			times: 1,
		});
		const credential = credentialFor(sandbox, 'TZS', { haipayPublicKey: '' });
		const result = await runNode(sandbox, {
			parameters: { resource: 'payout', operation: 'get', currency: 'TZS', orderId },
			credential,
		});
		expect(result.jsonOf(NODE)[0]).toMatchObject({ orderId, verified: false, errorMsg: 'bad sign [redacted]' });
		expectNoSecret(everything(result));
	});

	it('a key= tail that is not the whole secret goes too, up to the next &', async () => {
		sandbox.control.addFault({
			type: 'statusZero',
			path: '/tzs/pay/apply',
			msg: `sign error: amount=1&key=${SECRET.slice(0, 12)}&more=1`,
			code: '4003',
			times: 1,
		});
		const [item] = (
			await runNode(sandbox, { parameters: asIs(createTzs), items: [tzsRow()], settings: keepGoing })
		).jsonOf(NODE);
		expect(item.gatewayMessage).toBe('sign error: amount=1&key=[redacted]&more=1');
	});

	it('a secret where the 200-character cut would split it leaves no piece of it', async () => {
		const msg = `sign error ${'x'.repeat(180)} ${SECRET} and more text after it`;
		expect(msg.indexOf(SECRET)).toBeLessThan(200);
		expect(msg.indexOf(SECRET) + SECRET.length).toBeGreaterThan(200);
		sandbox.control.addFault({ type: 'statusZero', path: '/tzs/pay/apply', msg, code: '4003', times: 2 });
		const continued = await runNode(sandbox, { parameters: asIs(createTzs), items: [tzsRow()], settings: keepGoing });
		expect(continued.jsonOf(NODE)[0].gatewayMessage).toBe(
			`${`sign error ${'x'.repeat(180)} [redacted]`.slice(0, 200)}…`,
		);
		expectNoSecret(everything(continued));
		const stopped = await runNode(sandbox, { parameters: asIs(createTzs), items: [tzsRow()] });
		expect(stopped.status).toBe('error');
		expectNoSecret(everything(stopped));
	});
});
