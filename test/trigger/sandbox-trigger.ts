/**
 * What the trigger's tests against the sandbox gateway share: one sandbox per test file (settled by hand, quick
 * retries), a trigger in n8n-core's webhook machinery (test/harness) with a credential for the sandbox, fresh payout
 * orders that call it back, and the attempts the gateway made. Each test file calls `sandboxTrigger()` inside its
 * describe, which starts the sandbox once and closes what each test opened.
 */
import type { ICredentialDataDecryptedObject, IDataObject, INodeParameters } from 'n8n-workflow';

import { HaiPayTrigger } from '../../nodes/HaiPayTrigger/HaiPayTrigger.node';
import { startSandbox, type CallbackAttempt, type CallbackJob, type Order, type Sandbox } from '../../sandbox';
import { APP_IDS } from '../fixtures/bodies';
import { NO_OP_NODE_TYPE, webhookServer, type WebhookServer } from '../harness';
import { sandboxCredential } from '../helpers/credentials';
import type { Relay } from './relay';

export const TRIGGER = 'HaiPay Trigger';

/** Retries come quickly here; HaiPay's own schedule is every 5 minutes. */
export const SCHEDULE = [150, 150];

export interface SandboxTriggerOptions {
	/** How long the sandbox waits for the trigger's answer to one callback. */
	callbackTimeoutMs: number;
	/** The start of every payout's orderId, to tell the files' orders apart in a log. */
	prefix: string;
	/** Parameters every trigger of the file has, under each test's own. */
	parameters?: INodeParameters;
}

export interface SandboxTrigger {
	readonly sandbox: Sandbox;
	/** The trigger of the running test: closed after it. */
	server: WebhookServer | undefined;
	/** Relays the running test opened: closed after it. */
	relays: Relay[];
	/** Serves a trigger for the sandbox's App ID `appId` (and what `credential` adds), in place of the test's earlier one. */
	serve(
		parameters?: INodeParameters,
		appId?: number,
		staticData?: IDataObject,
		credential?: ICredentialDataDecryptedObject,
	): Promise<WebhookServer>;
	/** A payout order that calls back to `notifyUrl` once it is settled. */
	payout(notifyUrl: string, appId?: number): Order;
	/** A settled payout whose genuine callback has started its one execution in the test's trigger. */
	settled(outcome?: 'success' | 'failed', errorMsg?: string): Promise<{ order: Order; attempt: CallbackAttempt }>;
	/** The log lines of every call the trigger answered, once the gateway has sent `job`. */
	logsOf(job: CallbackJob): string;
}

let sequence = 0;

/** An orderId no other order of the run has. */
export function nextOrderId(prefix: string): string {
	sequence += 1;
	return `${prefix}-${Date.now()}-${sequence}`;
}

/** The attempt after which the gateway stops: acknowledged, or its retries used up. */
export async function lastAttempt(sandbox: Sandbox, orderNo: string): Promise<CallbackAttempt> {
	return await sandbox.waitForCallback((attempt) => attempt.orderNo === orderNo && attempt.last, 10_000);
}

export function attemptsOf(sandbox: Sandbox, orderNo: string): CallbackAttempt[] {
	return sandbox.callbacks.filter((attempt) => attempt.orderNo === orderNo);
}

/** The attempt after which the gateway stops sending `job`. */
export async function lastAttemptOfJob(sandbox: Sandbox, job: CallbackJob): Promise<CallbackAttempt> {
	return await sandbox.waitForCallback((attempt) => attempt.jobId === job.id && attempt.last, 10_000);
}

export function attemptsOfJob(sandbox: Sandbox, job: CallbackJob): CallbackAttempt[] {
	return sandbox.callbacks.filter((attempt) => attempt.jobId === job.id);
}

export function sandboxTrigger(options: SandboxTriggerOptions): SandboxTrigger {
	let sandbox: Sandbox | undefined;
	beforeAll(async () => {
		sandbox = await startSandbox({
			manual: true,
			callbackSchedule: SCHEDULE,
			callbackTimeoutMs: options.callbackTimeoutMs,
		});
	});
	afterEach(async () => {
		await trigger.server?.close();
		trigger.server = undefined;
		await Promise.all(trigger.relays.map(async (open) => await open.close()));
		trigger.relays = [];
		sandbox?.control.clearFaults();
	});
	afterAll(async () => {
		await sandbox?.close();
	});

	const trigger: SandboxTrigger = {
		get sandbox() {
			if (sandbox === undefined) throw new Error('the sandbox starts in beforeAll');
			return sandbox;
		},
		server: undefined,
		relays: [],
		async serve(parameters = {}, appId = APP_IDS.TZS, staticData, credential) {
			trigger.server = await webhookServer({
				nodeTypes: [HaiPayTrigger],
				credentials: { haipay: { type: 'haiPayApi', data: sandboxCredential(trigger.sandbox, appId, credential) } },
				nodes: [
					{ name: TRIGGER, type: 'haiPayTrigger', parameters: { ...options.parameters, ...parameters } },
					{ name: 'Next', type: NO_OP_NODE_TYPE },
				],
				staticData,
			});
			return trigger.server;
		},
		payout(notifyUrl, appId = APP_IDS.TZS) {
			return trigger.sandbox.control.createOrder({
				appId,
				kind: 'payout',
				orderId: nextOrderId(options.prefix),
				amount: '1500',
				notifyUrl,
			});
		},
		async settled(outcome = 'success', errorMsg) {
			const server = served(trigger);
			const order = trigger.payout(server.url(TRIGGER));
			trigger.sandbox.control.settle(order.orderNo, outcome, { errorMsg });
			const attempt = await lastAttempt(trigger.sandbox, order.orderNo);
			await server.idle();
			return { order, attempt };
		},
		logsOf(job) {
			const bodies = new Set(attemptsOfJob(trigger.sandbox, job).map((attempt) => attempt.at));
			expect(bodies.size).toBeGreaterThan(0);
			return JSON.stringify(served(trigger).calls.map((call) => call.logs));
		},
	};
	return trigger;
}

function served(trigger: SandboxTrigger): WebhookServer {
	if (trigger.server === undefined) throw new Error('no trigger served in this test');
	return trigger.server;
}
