import { readFileSync } from 'fs';
import { join } from 'path';

import { HookContext } from 'n8n-core';
import type { IHookFunctions, INode, INodeProperties, IWebhookData, IWebhookDescription } from 'n8n-workflow';
import { resolveWebhookDescriptionField, webhookDescriptionIsNativelyResolvable, Workflow } from 'n8n-workflow';

import { MAX_BODY_BYTES, MAX_FIELDS, readCallback, redactedText } from '../../nodes/HaiPayTrigger/body';
import { parseCallback } from '../../nodes/HaiPayTrigger/callback';
import { finalBefore, repeatKeys } from '../../nodes/HaiPayTrigger/memory';
import { filteredOutBy, kindOf } from '../../nodes/HaiPayTrigger/filters';
import { shown } from '../../nodes/HaiPayTrigger/reply';
import { HaiPayTrigger } from '../../nodes/HaiPayTrigger/HaiPayTrigger.node';
import { verifyCallback } from '../../nodes/HaiPayTrigger/verify';
import { settingsFor } from '../../nodes/shared/signing/credential';
import { buildAdditionalData } from '../harness/additional-data';
import { harnessEnvironment } from '../harness/environment';
import { workflowWebhooks } from '../harness/webhook-routes';
import type { WebhookServer } from '../harness';
import { credentials, payoutCallback, serveTrigger, signedByPlatform, TRIGGER } from './callbacks';

const dedupKey = (body: Record<string, unknown>) => repeatKeys(body).dedupKey;

describe('repeat keys', () => {
	it('keys on orderNo and status, then orderId, and gives up without either', () => {
		expect(dedupKey({ orderNo: 'N1', orderId: 'I1', status: 2 })).toBe('no:N1|2');
		expect(dedupKey({ orderNo: 'N1', status: '2' })).toBe('no:N1|2');
		expect(dedupKey({ orderId: 'I1', status: 3 })).toBe('id:I1|3');
		expect(dedupKey({ status: 3 })).toBeUndefined();
	});

	it('keys a partial or over-collected result on its amount by value, with two decimals, and its payTime', () => {
		const partial = (amount: unknown, status = 4) => dedupKey({ orderNo: 'N1', status, amount, payTime: 'T' });
		for (const amount of ['10', '10.0', '10.00', 10, ' 010.000 ']) expect(partial(amount)).toBe('no:N1|4|["10.00","T"]');
		expect(partial('10.01')).toBe('no:N1|4|["10.01","T"]');
		expect(partial('10.001', 5)).toBe('no:N1|5|["10.001","T"]');
		expect([partial('-0.0'), partial('-1.5'), partial('1e1'), partial('')]).toEqual(['0.00', '-1.50', '1e1', ''].map((amount) => `no:N1|4|["${amount}","T"]`));
		expect(repeatKeys({ orderNo: 'N1', status: 4, amount: '10' })).toMatchObject({ finalMark: 'no:N1|4', earlier: undefined });
	});

	it('reads an amount or a time only up to its first &, which HaiPay never writes in one', () => {
		const partial = (amount: unknown, payTime = '2024-05-01 10:00:00') => dedupKey({ orderNo: 'N1', status: 4, amount, payTime });
		expect(partial('10.00&note=x')).toBe(partial('10'));
		expect(partial('10', '2024-05-01 10:00:00&payerName=Bob')).toBe(partial('10'));
		expect(partial('10', '2024-05-01 10:00:01')).not.toBe(partial('10'));
		expect(partial('10.01&x')).not.toBe(partial('10'));
	});
});

describe('earlier statuses after a final one', () => {
	const recall = (keys: string[]) => (key: string) => keys.includes(key);

	it('names the final status already emitted for the same order when the callback\'s status comes before it', () => {
		expect(finalBefore(recall(['no:N1|2']), repeatKeys({ orderNo: 'N1', status: 1 }))).toBe(2);
		expect(finalBefore(recall(['no:N1|5']), repeatKeys({ orderNo: 'N1', status: '0' }))).toBe(5);
		expect(finalBefore(recall(['id:I1|3']), repeatKeys({ orderId: 'I1', status: -1 }))).toBe(3);
	});

	it('leaves final statuses, unknown statuses and other orders alone', () => {
		expect(finalBefore(recall(['no:N1|2']), repeatKeys({ orderNo: 'N1', status: 3 }))).toBeUndefined();
		expect(finalBefore(recall(['no:N1|2']), repeatKeys({ orderNo: 'N1', status: 6 }))).toBeUndefined();
		expect(finalBefore(recall(['no:N1|2']), repeatKeys({ orderNo: 'N2', status: 1 }))).toBeUndefined();
		expect(finalBefore(recall(['no:N1|2']), repeatKeys({ status: 1 }))).toBeUndefined();
	});
});

describe('body reading', () => {
	const members = (result: ReturnType<typeof readCallback>) =>
		result.ok ? Object.fromEntries(result.body.members.map((member) => [member.name, member.value])) : result.problem;

	it('prefers the raw bytes and refuses anything but one JSON object', () => {
		expect(members(readCallback(Buffer.from('{"a":1}'), { other: true }))).toEqual({ a: '1' });
		for (const text of ['[1]', 'null', '"SUCCESS"', 'a=1', '{"a":1', '{"a":1}x', '{"a":01}', '{"a" 1}', '{a:1}']) {
			expect(members(readCallback(Buffer.from(text), { a: '1' }))).toBe('notJson');
		}
		expect(members(readCallback(undefined, '{"a":1}'))).toEqual({ a: '1' });
		expect(readCallback(undefined, { a: 1 })).toMatchObject({ ok: true, body: { text: '{"a":1}' } });
		expect(members(readCallback(undefined, {}))).toBe('notJson');
		expect(members(readCallback(undefined, undefined))).toBe('notJson');
	});

	it('keeps numbers as the text received and decodes names and strings', () => {
		const text = '\ufeff { "orderNo" : 12345678901234567891 , "amount":1.50,"n":-2e3,"\\u0073ign":"x\\"y","o":{"k":[1,{"a":"}"}]},"t":true,"z":null}';
		expect(members(readCallback(Buffer.from(text), undefined))).toEqual({
			orderNo: '12345678901234567891',
			amount: '1.50',
			n: '-2e3',
			sign: 'x"y',
			o: { k: [1, { a: '}' }] },
			t: true,
			z: null,
		});
	});

	it('refuses a name sent twice, too many fields, too deep a value and too many bytes, before anything else', () => {
		expect(readCallback(Buffer.from('{"sign":"a","\\u0073ign":"b"}'), undefined)).toMatchObject({ ok: false, problem: 'duplicateField' });
		const many = `{${Array.from({ length: MAX_FIELDS + 1 }, (_, index) => `"f${index}":1`).join(',')}}`;
		expect(readCallback(Buffer.from(many), undefined)).toMatchObject({ ok: false, problem: 'tooManyFields' });
		const fewEnough = `{${Array.from({ length: MAX_FIELDS }, (_, index) => `"f${index}":1`).join(',')}}`;
		expect(readCallback(Buffer.from(fewEnough), undefined).ok).toBe(true);
		expect(readCallback(Buffer.from(`{"a":${'['.repeat(40)}${']'.repeat(40)}}`), undefined)).toMatchObject({ problem: 'tooManyFields' });
		const big = Buffer.alloc(MAX_BODY_BYTES + 1, 0x20);
		expect(readCallback(big, undefined)).toMatchObject({ ok: false, problem: 'tooLarge' });
		const parsedMany = Object.fromEntries(Array.from({ length: 300_000 }, (_, index) => [`k${index}`, 1]));
		expect(readCallback(undefined, parsedMany)).toMatchObject({ ok: false, problem: 'tooManyFields' });
	});

	it("verifies a genuine callback from n8n's parsed body where a server keeps no raw bytes, and still catches a changed field", async () => {
		// n8n's webhook server always keeps the raw bytes, so no request through it reaches this path: read it here.
		const body = signedByPlatform(payoutCallback());
		const settings = settingsFor(credentials());
		const verdict = async (parsed: unknown) => {
			const received = parseCallback(readCallback(undefined, parsed));
			if (!received.ok) throw new Error(received.log);
			return await verifyCallback(received.callback, settings, true);
		};
		expect(await verdict(body)).toMatchObject({ ok: true });
		expect(await verdict({ ...body, status: 3 })).toMatchObject({ ok: false, reason: 'badSignature' });
	});

	it('redacts the top-level sign, whatever the spelling of its name, and nothing else', () => {
		const redact = (text: string) => {
			const result = readCallback(Buffer.from(text), undefined);
			if (!result.ok) throw new Error(result.log);
			return redactedText(result.body);
		};
		expect(redact('{"a":"sign","\\u0073ign" : "AB\\"C==","b":{"sign":"x"}}')).toBe('{"a":"sign","\\u0073ign" : "[redacted]","b":{"sign":"x"}}');
		expect(redact('{"errorMsg":"bad \\"sign\\": \\"x\\""}')).toBe('{"errorMsg":"bad \\"sign\\": \\"x\\""}');
	});
});

describe('filters', () => {
	const any = { kind: 'either' as const, statuses: ['any' as const], currency: '' };

	it('passes everything with no filter set', () => {
		expect(filteredOutBy({ status: 7 }, any, '')).toBeUndefined();
	});

	it('reads the kind from the parameter, or from proof in the body', () => {
		expect(kindOf({}, 'payout')).toBe('payout');
		expect(kindOf({ tokenID: 't' }, 'either')).toBe('collection');
		expect(kindOf({ status: 5 }, 'either')).toBe('collection');
		expect(kindOf({ status: 2 }, 'either')).toBe('unknown');
	});

	it('keeps log values short and on one line', () => {
		expect(shown('a\nb')).toBe('a b');
		expect(shown('x'.repeat(100))).toHaveLength(65);
		expect(shown(2)).toBe('2');
	});
});

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
		expect(description.icon).toEqual({ light: 'file:../../icons/haipay.svg', dark: 'file:../../icons/haipay.dark.svg' });
	});

	it("resolves its plain-text header without n8n's expression engine, to what the engine makes of the expression", () => {
		const [webhook] = description.webhooks as IWebhookDescription[];
		const node: INode = { id: 'n', name: 'HaiPay Trigger', type: 'haiPayTrigger', typeVersion: 1.1, position: [0, 0], parameters: { kind: 'payout' } };
		const native = resolveWebhookDescriptionField(node, webhook, 'responseHeaders');
		expect(native).toEqual({ resolved: true, value: { entries: [{ name: 'Content-Type', value: 'text/plain; charset=utf-8' }] } });
		expect(webhookDescriptionIsNativelyResolvable(webhook)).toBe(true);
		const nodeTypes = { getByName: () => new HaiPayTrigger(), getByNameAndVersion: () => new HaiPayTrigger(), getKnownTypes: () => ({}) };
		const workflow = new Workflow({ nodes: [node], connections: {}, active: true, nodeTypes });
		const evaluated = workflow.expression.getComplexParameterValue(node, webhook.responseHeaders as string, 'webhook', {});
		expect(evaluated).toEqual(native.resolved ? native.value : undefined);
	});

	it("is at version 1.1 for new workflows, which n8n reads without an expression per request; 1 works as before", () => {
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

describe('HaiPay Trigger webhook lifecycle in n8n (no remote registration exists)', () => {
	const { webhookMethods } = new HaiPayTrigger();
	const repeatMemory = { v: 2, stamp: 's', at: 1, entries: '' };
	let server: WebhookServer | undefined;
	afterEach(async () => {
		await server?.close();
		server = undefined;
	});

	/** Lines the activation and deactivation wrote: n8n-core's HookContext logs through the harness's logger. */
	async function hookLines(url: string): Promise<string[]> {
		const { logger } = await harnessEnvironment();
		return logger.lines.map((line) => line.message).filter((message) => message.includes(url));
	}

	/** n8n-core's HookContext on the served workflow, with its stored static data, as activation builds it. */
	function hookContext(served: WebhookServer, isTest = false): IHookFunctions {
		const workflow = served.workflow.instantiate(served.staticData());
		const [webhook] = workflowWebhooks(workflow);
		const additionalData = buildAdditionalData({ credentialsHelper: served.workflow.credentialsHelper, executionId: '', workflowId: served.workflow.id, baseUrl: served.baseUrl });
		const webhookData: IWebhookData = { ...webhook, workflowId: served.workflow.id, workflowExecuteAdditionalData: additionalData, isTest };
		return new HookContext(workflow, workflow.getNode(TRIGGER) as INode, additionalData, 'trigger', 'activate', webhookData);
	}

	it('remembers the URL locally on activation and tells the user where to set it', async () => {
		server = await serveTrigger({ kind: 'payout' });
		const production = server.url(TRIGGER);
		expect(server.activations.map(({ method, result }) => [method, result])).toEqual([
			['checkExists', false],
			['create', true],
		]);
		expect(server.staticData(TRIGGER).notifyUrl).toBe(production);
		const [told] = await hookLines(production);
		expect(told).toMatch(/no API to register/);
		expect(told).toMatch(/notifyUrl/);
		expect(await webhookMethods.default.checkExists.call(hookContext(server))).toBe(true);
	});

	it('treats the test URL as a different webhook', async () => {
		server = await serveTrigger();
		expect(server.url(TRIGGER, 'test')).not.toBe(server.url(TRIGGER));
		expect(await webhookMethods.default.checkExists.call(hookContext(server, true))).toBe(false);
		expect(await webhookMethods.default.checkExists.call(hookContext(server))).toBe(true);
	});

	it('forgets the URL on deactivation and keeps what it has emitted', async () => {
		server = await serveTrigger({}, credentials(), { [`node:${TRIGGER}`]: { repeatMemory } });
		const production = server.url(TRIGGER);
		expect(server.staticData(TRIGGER)).toEqual({ repeatMemory, notifyUrl: production });
		await server.close();
		expect(server.activations.at(-1)).toMatchObject({ method: 'delete', result: true });
		expect(server.staticData(TRIGGER)).toEqual({ repeatMemory });
		const lines = await hookLines(production);
		expect(lines.at(-1)).toMatch(/stopped listening/);
		expect(lines.at(-1)).toMatch(/keeps sending/);
		expect(await webhookMethods.default.checkExists.call(hookContext(server))).toBe(false);
	});
});

describe('subscription results', () => {
	it('a callback naming a subscriptionNo is kind "subscription" whatever the setting, never a payout or a collection', () => {
		const charge = { subscriptionNo: 'S1', orderNo: 'S1-1', status: 2, amount: '9.99' };
		for (const setting of ['payout', 'collection', 'either', 'subscription'] as const) expect(kindOf(charge, setting)).toBe('subscription');
		expect(filteredOutBy(charge, { kind: 'payout', statuses: ['any'], currency: '' }, 'USD')).toMatch(/subscription/);
		expect(filteredOutBy({ orderNo: 'P1', status: 2 }, { kind: 'subscription', statuses: ['any'], currency: '' }, 'USD')).toMatch(/no subscription/);
	});

	it('each charge of one subscription is its own result in the repeat memory; a resend of one charge is the same', () => {
		const first = repeatKeys({ subscriptionNo: 'S1', orderNo: 'S1-1', status: 2, amount: '9.99', payTime: '2026-01-01 00:00:00' });
		const second = repeatKeys({ subscriptionNo: 'S1', orderNo: 'S1-2', status: 2, amount: '9.99', payTime: '2026-02-01 00:00:00' });
		const resend = repeatKeys({ subscriptionNo: 'S1', orderNo: 'S1-1', status: 2, amount: '9.990', payTime: '2026-01-01 00:00:00' });
		expect(first.dedupKey).toMatch(/^sub:S1\|/);
		expect(second.dedupKey).not.toBe(first.dedupKey);
		expect(resend.dedupKey).toBe(first.dedupKey);
		expect(first.earlier).toBeUndefined();
	});
});
