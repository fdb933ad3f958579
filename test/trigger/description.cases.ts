/**
 * The HaiPay Trigger's description as n8n reads it: a POST webhook answered with plain-text SUCCESS, a header n8n
 * resolves without its expression engine, versions, safe defaults and the codex.
 */
import { readFileSync } from 'fs';
import { join } from 'path';

import type { INode, INodeProperties, IWebhookDescription } from 'n8n-workflow';
import { resolveWebhookDescriptionField, webhookDescriptionIsNativelyResolvable, Workflow } from 'n8n-workflow';

import { HaiPayTrigger } from '../../nodes/HaiPayTrigger/HaiPayTrigger.node';

describe('HaiPay Trigger description', () => {
	const { description } = new HaiPayTrigger();
	const byName = (name: string) => description.properties.find((property: INodeProperties) => property.name === name);

	it('is a POST webhook trigger whose accepted callbacks n8n answers with plain-text SUCCESS', () => {
		expect(description.name).toBe('haiPayTrigger');
		expect(description.displayName).toBe('HaiPay Trigger');
		expect(description.group).toEqual(['trigger']);
		expect(description.inputs).toEqual([]);
		expect(description.outputs).toEqual(['main']);
		// As n8n serializes it for the editor; the native resolver (a symbol key) is checked below.
		expect(JSON.parse(JSON.stringify(description.webhooks))).toEqual([
			{
				name: 'default',
				httpMethod: 'POST',
				path: 'webhook',
				responseMode: 'onReceived',
				responseData: 'SUCCESS',
				responseHeaders: '={{ {"entries":[{"name":"Content-Type","value":"text/plain; charset=utf-8"}]} }}',
			},
		]);
		expect(description.credentials).toEqual([{ name: 'haiPayApi', required: true, testedBy: 'haiPayApiTest' }]);
		expect(description.icon).toEqual({
			light: 'file:../../icons/haipay.svg',
			dark: 'file:../../icons/haipay.dark.svg',
		});
	});

	it("resolves its plain-text header without n8n's expression engine, to what the engine makes of the expression", () => {
		const [webhook] = description.webhooks as IWebhookDescription[];
		const node: INode = {
			id: 'n',
			name: 'HaiPay Trigger',
			type: 'haiPayTrigger',
			typeVersion: 1.1,
			position: [0, 0],
			parameters: { kind: 'payout' },
		};
		const native = resolveWebhookDescriptionField(node, webhook, 'responseHeaders');
		expect(native).toEqual({
			resolved: true,
			value: { entries: [{ name: 'Content-Type', value: 'text/plain; charset=utf-8' }] },
		});
		expect(webhookDescriptionIsNativelyResolvable(webhook)).toBe(true);
		const nodeTypes = {
			getByName: () => new HaiPayTrigger(),
			getByNameAndVersion: () => new HaiPayTrigger(),
			getKnownTypes: () => ({}),
		};
		const workflow = new Workflow({ nodes: [node], connections: {}, active: true, nodeTypes });
		const evaluated = workflow.expression.getComplexParameterValue(
			node,
			webhook.responseHeaders as string,
			'webhook',
			{},
		);
		expect(evaluated).toEqual(native.resolved ? native.value : undefined);
	});

	it('is at version 1.1 for new workflows, which n8n reads without an expression per request; 1 works as before', () => {
		expect(description.version).toEqual([1, 1.1]);
		expect(description.defaultVersion).toBe(1.1);
	});

	it('verifies by default, and warns where verification is turned off', () => {
		expect(byName('verifySignature')).toMatchObject({ type: 'boolean', default: true });
		expect(byName('verificationOffNotice')).toMatchObject({
			type: 'notice',
			displayOptions: { show: { verifySignature: [false] } },
		});
		expect(String(byName('verificationOffNotice')?.displayName)).toMatch(/debug/);
	});

	it('says where the URL goes', () => {
		expect(String(byName('notifyUrlNotice')?.displayName)).toMatch(/notifyUrl/);
		expect(String(byName('notifyUrlNotice')?.displayName)).toMatch(/merchant portal/);
	});

	it('offers the filters and options with safe defaults', () => {
		expect(byName('kind')).toMatchObject({ default: 'either' });
		expect((byName('kind')?.options ?? []).map((option) => (option as { value: string }).value).sort()).toEqual([
			'collection',
			'either',
			'payout',
			'subscription',
		]);
		expect(byName('statuses')).toMatchObject({ type: 'multiOptions', default: ['any'] });
		expect(byName('currency')).toMatchObject({ type: 'options', default: '' });
		const options = (byName('options')?.options ?? []) as INodeProperties[];
		expect(options.map((option) => [option.name, option.default])).toEqual([
			['confirmWithHaiPay', false],
			['deduplicate', true],
			['deduplicationWindow', 1440],
			['includeRawBody', false],
		]);
	});

	it('has a codex in Finance & Accounting', () => {
		const codex = JSON.parse(
			readFileSync(join(__dirname, '..', '..', 'nodes', 'HaiPayTrigger', 'HaiPayTrigger.node.json'), 'utf8'),
		);
		expect(codex.node).toBe('n8n-nodes-haipay.haiPayTrigger');
		expect(codex.categories).toEqual(['Finance & Accounting']);
	});
});
