/**
 * The test harness's runWorkflow: real n8n-core executions of test-only nodes, signing through the credential against
 * a local gateway stand-in (its webhookServer: harness-webhook.cases.ts).
 */

import { parsePublicKey } from '../../nodes/shared/signing/keys';
import { verifyBody } from '../helpers/signing';
import { binaryBuffer, connect, runWorkflow } from '../harness';
import { TEST_KEYS } from '../helpers/keys';

import { echo, echoGateway, haiPayCredential, SECRET } from './harness-gateway';
import { CredentialFields, HeaderKeyApi, HeaderKeyProbe, ItemWorker, LedgerProbe } from './harness-nodes';

echoGateway();

describe('runWorkflow', () => {
	it('signs through the credential: the gateway receives appId and a sign that verifies', async () => {
		const result = await runWorkflow({
			nodeTypes: [LedgerProbe],
			credentials: { hp: haiPayCredential() },
			nodes: [{ name: 'Ledger', type: 'ledgerProbe' }],
		});

		expect(result.status).toBe('success');
		expect(result.executedNodes).toEqual(['Start', 'Ledger']);
		expect(echo.received).toHaveLength(1);
		expect(echo.received[0]).toMatchObject({ method: 'POST', url: '/tzs/account/ledger' });
		const { sign, ...unsigned } = echo.received[0].body;
		expect(unsigned).toEqual({ appId: 1001 });
		expect(verifyBody(unsigned, sign, SECRET, parsePublicKey(TEST_KEYS.merchantPublic))).toBe(true);
		expect(verifyBody(unsigned, sign, 'another-secret', parsePublicKey(TEST_KEYS.merchantPublic))).toBe(false);
		expect(result.jsonOf('Ledger')).toEqual([{ status: '0', data: { echoed: echo.received[0].body } }]);
	});

	it('captures log lines per run, so a test can show no secret reaches the logs', async () => {
		const result = await runWorkflow({
			nodeTypes: [LedgerProbe],
			credentials: { hp: haiPayCredential() },
			nodes: [{ name: 'Ledger', type: 'ledgerProbe' }],
		});

		expect(result.logs.some((line) => line.message === 'ledger read' && line.level === 'info')).toBe(true);
		expect(result.logs.some((line) => line.message.includes('Workflow execution started'))).toBe(true);
		const everything = result.logs.map((line) => line.text).join('\n');
		expect(everything).not.toContain(SECRET);
		expect(everything).not.toContain(TEST_KEYS.merchantPkcs8.split('\n')[1]);
	});

	it('keeps the log lines of concurrent runs apart', async () => {
		const run = async (marker: string) =>
			await runWorkflow({
				nodeTypes: [LedgerProbe],
				credentials: { hp: haiPayCredential() },
				nodes: [{ name: marker, type: 'ledgerProbe' }],
			});
		const [a, b] = await Promise.all([run('Run A'), run('Run B')]);

		expect(a.logs.some((line) => line.text.includes('Run A'))).toBe(true);
		expect(a.logs.some((line) => line.text.includes('Run B'))).toBe(false);
		expect(b.logs.some((line) => line.text.includes('Run A'))).toBe(false);
	});

	it('applies credential property defaults and resolves expressions in fields, like n8n', async () => {
		const credential = haiPayCredential();
		credential.data.currency = '={{ "TZ" + "S" }}';
		const result = await runWorkflow({
			nodeTypes: [CredentialFields],
			credentials: { hp: credential },
			nodes: [{ name: 'Fields', type: 'credentialFields' }],
		});

		expect(result.jsonOf('Fields')[0]).toEqual({
			fields: [
				'appId',
				'arrayStyle',
				'baseUrl',
				'currency',
				'defaultNotifyUrl',
				'environment',
				'haipayPublicKey',
				'otherCurrencies',
				'privateKey',
				'secretKey',
			],
			arrayStyle: 'json',
			currency: 'TZS',
		});
	});

	it('applies a generic (declarative) authenticate: headers and query from $credentials', async () => {
		const result = await runWorkflow({
			nodeTypes: [HeaderKeyProbe],
			credentialTypes: [HeaderKeyApi],
			credentials: { key: { type: 'headerKeyApi', data: { apiKey: 'k-123' } } },
			nodes: [{ name: 'Probe', type: 'headerKeyProbe' }],
		});

		expect(result.status).toBe('success');
		expect(echo.received[0].headers['x-api-key']).toBe('k-123');
		expect(echo.received[0].url).toBe('/generic?app=harness');
	});

	it('fails like n8n when a node names a credential id that does not exist', async () => {
		const result = await runWorkflow({
			nodeTypes: [LedgerProbe],
			credentials: { hp: haiPayCredential() },
			nodes: [{ name: 'Ledger', type: 'ledgerProbe', credentials: { haiPayApi: 'missing' } }],
		});

		expect(result.status).toBe('error');
		expect(result.error?.message).toContain('Credential with ID "missing" does not exist');
		expect(echo.received).toHaveLength(0);
	});

	it('surfaces a NodeApiError on the node and the execution; continueOnFail turns it into an item', async () => {
		echo.statusPlan = [200, 500];
		const failed = await runWorkflow({
			nodeTypes: [LedgerProbe],
			credentials: { hp: haiPayCredential() },
			nodes: [{ name: 'Ledger', type: 'ledgerProbe' }],
			items: [{ json: {} }, { json: {} }],
		});

		expect(failed.status).toBe('error');
		expect(failed.error).toMatchObject({ name: 'NodeApiError', node: 'Ledger', itemIndex: 1, httpCode: '500' });
		expect(failed.nodeError('Ledger')).toMatchObject({ name: 'NodeApiError', httpCode: '500' });
		expect(failed.executionError?.message).toBe(failed.nodeError('Ledger')?.message);
		expect(failed.run.data.resultData.lastNodeExecuted).toBe('Ledger');

		echo.statusPlan = [200, 500];
		const continued = await runWorkflow({
			nodeTypes: [LedgerProbe],
			credentials: { hp: haiPayCredential() },
			nodes: [{ name: 'Ledger', type: 'ledgerProbe', continueOnFail: true }],
			items: [{ json: {} }, { json: {} }],
		});

		expect(continued.status).toBe('success');
		expect(continued.executionError).toBeUndefined();
		const [ok, error] = continued.jsonOf('Ledger');
		expect(ok.status).toBe('0');
		expect(error).toEqual({ error: 'The service was not able to process your request' });
		expect(continued.outputOf('Ledger')[1].pairedItem).toEqual({ item: 1 });
	});

	it('surfaces a thrown NodeOperationError with its item index and description', async () => {
		const result = await runWorkflow({
			nodeTypes: [ItemWorker],
			nodes: [
				{ name: 'Worker', type: 'itemWorker' },
				{ name: 'After', type: 'harness.noOp' },
			],
			items: [{ json: {} }, { json: { bad: true } }],
		});

		expect(result.status).toBe('error');
		expect(result.error).toEqual({
			name: 'NodeOperationError',
			message: 'Item 1 is bad',
			description: 'The item was marked bad',
			node: 'Worker',
			itemIndex: 1,
		});
		expect(result.nodeError('Worker')?.message).toBe('Item 1 is bad');
		expect(result.executedNodes).toEqual(['Start', 'Worker']);
		expect(() => result.outputOf('After')).toThrow(/has no run 0/);
	});

	it('routes failed items to the error output with onError: continueErrorOutput', async () => {
		const result = await runWorkflow({
			nodeTypes: [ItemWorker],
			nodes: [
				{ name: 'Worker', type: 'itemWorker', onError: 'continueErrorOutput' },
				{ name: 'Good', type: 'harness.noOp' },
				{ name: 'Bad', type: 'harness.noOp' },
			],
			connections: connect(connect(connect({}, 'Start', 'Worker'), 'Worker', 'Good', 0), 'Worker', 'Bad', 1),
			items: [{ json: {} }, { json: { bad: true } }, { json: {} }],
		});

		expect(result.status).toBe('success');
		expect(result.jsonOf('Good')).toEqual([{ index: 0 }, { index: 2 }]);
		// n8n keeps the failed item's own fields next to the error.
		expect(result.jsonOf('Bad')).toEqual([{ bad: true, error: 'Item 1 is bad' }]);
	});

	it('retries a failing node with retryOnFail, as WorkflowExecute does', async () => {
		echo.statusPlan = [503];
		const result = await runWorkflow({
			nodeTypes: [LedgerProbe],
			credentials: { hp: haiPayCredential() },
			nodes: [{ name: 'Ledger', type: 'ledgerProbe', retryOnFail: true, maxTries: 3, waitBetweenTries: 1 }],
		});

		expect(result.status).toBe('success');
		expect(echo.received).toHaveLength(2);
	});

	it('round-trips binary data through the BinaryDataService', async () => {
		const result = await runWorkflow({
			nodeTypes: [ItemWorker],
			nodes: [{ name: 'Worker', type: 'itemWorker' }],
			items: [{ json: {}, binary: { data: { data: Buffer.from('voucher text'), fileName: 'v.txt' } } }],
		});

		expect(result.status).toBe('success');
		const [item] = result.outputOf('Worker');
		expect(item.binary?.data).toMatchObject({ fileName: 'upper.txt', mimeType: 'text/plain', bytes: 12 });
		expect(item.binary?.data.id).toMatch(/^filesystem-v2:/);
		expect((await binaryBuffer(result, 'Worker', 0, 'data')).toString('utf8')).toBe('VOUCHER TEXT');
		expect((await binaryBuffer(result, 'Start', 0, 'data')).toString('utf8')).toBe('voucher text');
	});

	it('passes the execution mode and static data through', async () => {
		const result = await runWorkflow({
			nodes: [{ name: 'Pass', type: 'harness.noOp' }],
			executionMode: 'trigger',
			staticData: { global: { counter: 1 } },
		});

		expect(result.run.mode).toBe('trigger');
		expect(result.staticData).toEqual({ global: { counter: 1 } });
	});
});
