/**
 * What the trigger's outcome-in-doubt tests share: a merchant credential pointing at any gateway, callbacks signed
 * over their exact text (number literals such as `2.0` included), fresh order IDs, and a trigger served in
 * n8n-core's webhook machinery (test/harness), confirming against the fake gateway when a test asks it to. Each
 * test file calls `outcomeTrigger()` inside its describe, which closes what a test opened.
 */
import type { ICredentialDataDecryptedObject, INodeParameters } from 'n8n-workflow';

import { HaiPayTrigger } from '../../nodes/HaiPayTrigger/HaiPayTrigger.node';
import { parsePrivateKey } from '../../nodes/shared/signing/keys';
import { APP_IDS, callbackBody } from '../fixtures/bodies';
import { NO_OP_NODE_TYPE, webhookServer, type HttpReply, type WebhookServer } from '../harness';
import { TEST_KEYS } from '../helpers/keys';
import { withSignature } from '../helpers/signing';
import { envelope, fakeGateway, type Answering, type FakeGateway } from './fake-gateway';

export const TRIGGER = 'HaiPay Trigger';
export const SECRET = 'outcomes-test-secret';
export const PLATFORM_KEY = parsePrivateKey(TEST_KEYS.platformPrivate);
export const OTHER_KEY = parsePrivateKey(TEST_KEYS.otherPrivate);
const JSON_HEADERS = { 'Content-Type': 'application/json' };

export type Fields = Record<string, unknown>;

/** A merchant credential whose HaiPay is at `baseUrl`, with these tests' secret and the test key pairs. */
export function credentialFor(baseUrl: string, appId = APP_IDS.TZS, currency = 'TZS'): ICredentialDataDecryptedObject {
	return {
		environment: 'custom',
		baseUrl,
		appId,
		currency,
		secretKey: SECRET,
		privateKey: TEST_KEYS.merchantPkcs8,
		haipayPublicKey: TEST_KEYS.platformPublic,
		arrayStyle: 'json',
	};
}

/**
 * A callback body as HaiPay would write it, signed with the platform key over its exact text: members named in
 * `literals` are written as the JSON number literal given (`2.0`, `1e400`), and signed as that text.
 */
export function signedText(fields: Fields, literals: Record<string, string> = {}, secret = SECRET): string {
	const signing: Fields = { ...fields, ...literals };
	let text = JSON.stringify(withSignature(signing, secret, PLATFORM_KEY));
	for (const [name, literal] of Object.entries(literals))
		text = text.replace(`"${name}":${JSON.stringify(literal)}`, `"${name}":${literal}`);
	for (const literal of Object.values(literals)) expect(text).toContain(`:${literal}`);
	return text;
}

let sequence = 0;
/** An ID no other callback of the run carries, so that no test's result is another's repeat. */
export function nextId(prefix: string): string {
	sequence += 1;
	return `${prefix}-${Date.now()}-${sequence}`;
}

/** A payout callback for a fresh order, unsigned. */
export function payoutCallback(overrides: Fields = {}): Fields {
	const id = nextId('OUT');
	return callbackBody('payout', { orderId: id, orderNo: `HP${id}`, ...overrides });
}

/** Resolves once `condition` holds; only the test's timeout bounds the wait. */
export async function until(condition: () => boolean): Promise<void> {
	while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

/** HaiPay's success envelope around `data`, signed with the platform key as HaiPay signs answers. */
export function signedAnswer(data: Fields, key = PLATFORM_KEY): Answering {
	return (_query, res) => envelope(res, withSignature(data, SECRET, key));
}

/** The trigger of the running test and, when it confirms, the fake gateway it asks; both closed after each test. */
export interface OutcomeTrigger {
	readonly server: WebhookServer;
	readonly gateway: FakeGateway;
	/** Serves a trigger with `parameters` and `credential`, in place of the test's earlier one. */
	serve(parameters: INodeParameters, credential: ICredentialDataDecryptedObject): Promise<WebhookServer>;
	/** A trigger with Confirm With HaiPay on, whose queries go to a fake gateway answering as `answering` does. */
	confirmingAgainst(answering: Answering, kind?: 'payout' | 'collection' | 'either'): Promise<WebhookServer>;
	/** Sends a body signed here, or a text as it is. */
	send(body: Fields | string): Promise<HttpReply>;
	/** Every log line of every call the trigger answered, as one text to match. */
	logs(): string;
}

export function outcomeTrigger(): OutcomeTrigger {
	let server: WebhookServer | undefined;
	let gateway: FakeGateway | undefined;

	afterEach(async () => {
		await server?.close();
		server = undefined;
		await gateway?.close();
		gateway = undefined;
	});

	const trigger: OutcomeTrigger = {
		get server() {
			if (server === undefined) throw new Error('no trigger served in this test');
			return server;
		},
		get gateway() {
			if (gateway === undefined) throw new Error('no fake gateway in this test');
			return gateway;
		},
		async serve(parameters, credential) {
			server = await webhookServer({
				nodeTypes: [HaiPayTrigger],
				credentials: { haipay: { type: 'haiPayApi', data: credential } },
				nodes: [
					{ name: TRIGGER, type: 'haiPayTrigger', parameters },
					{ name: 'Next', type: NO_OP_NODE_TYPE },
				],
			});
			return server;
		},
		async confirmingAgainst(answering, kind = 'payout') {
			gateway = await fakeGateway(answering);
			return await trigger.serve({ kind, options: { confirmWithHaiPay: true } }, credentialFor(gateway.baseUrl));
		},
		async send(body) {
			const text = typeof body === 'string' ? body : JSON.stringify(withSignature(body, SECRET, PLATFORM_KEY));
			return await trigger.server.send(TRIGGER, text, { headers: JSON_HEADERS });
		},
		logs() {
			return JSON.stringify(trigger.server.calls.map((call) => call.logs));
		},
	};
	return trigger;
}
