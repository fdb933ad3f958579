import type { ICredentialDataDecryptedObject, IDataObject, IHookFunctions, IWebhookFunctions } from 'n8n-workflow';

import { parsePrivateKey } from '../../nodes/shared/signing/keys';
import { APP_IDS, callbackBody } from '../fixtures/bodies';
import { withSignature } from '../helpers/signing';
import { TEST_KEYS } from '../helpers/keys';

export const SECRET = 'test-only-secret-tzs';

export function credentials(overrides: Partial<ICredentialDataDecryptedObject> = {}): ICredentialDataDecryptedObject {
	return {
		environment: 'custom',
		baseUrl: 'http://127.0.0.1:8642',
		appId: APP_IDS.TZS,
		currency: 'TZS',
		secretKey: SECRET,
		privateKey: TEST_KEYS.merchantPkcs8,
		haipayPublicKey: TEST_KEYS.platformPublic,
		arrayStyle: 'json',
		...overrides,
	};
}

/** A callback as the gateway signs it: with the platform key, over every field, with the App ID's secret. */
export function signedByPlatform(body: Record<string, unknown>, secret = SECRET, key = TEST_KEYS.platformPrivate) {
	return withSignature(body, secret, parsePrivateKey(key));
}

export function payoutCallback(overrides: Record<string, unknown> = {}): Record<string, unknown> {
	return callbackBody('payout', overrides);
}

export interface Logged {
	level: string;
	message: string;
	meta?: unknown;
}

export interface Answer {
	statusCode: number;
	headers: Record<string, string>;
	body?: string;
}

export interface Call {
	/** The raw request body as bytes; `undefined` to simulate a server that keeps only the parsed body. */
	raw?: Buffer | string;
	parsed?: unknown;
	params?: IDataObject;
	credentials?: ICredentialDataDecryptedObject;
	staticData?: IDataObject;
	/** Requests of one trigger share it; by default every mock is a workflow of its own. */
	workflowId?: string;
}

let workflows = 0;

export function mockWebhook(call: Call) {
	const answer: Answer = { statusCode: 200, headers: {} };
	const logs: Logged[] = [];
	const staticData = call.staticData ?? {};
	const params = call.params ?? {};
	const res = {
		status(code: number) {
			answer.statusCode = code;
			return res;
		},
		setHeader(name: string, value: string) {
			answer.headers[name.toLowerCase()] = value;
			return res;
		},
		end(text?: string) {
			answer.body = text;
			return res;
		},
	};
	const log = (level: string) => (message: string, meta?: unknown) => logs.push({ level, message, meta });
	const raw = typeof call.raw === 'string' ? Buffer.from(call.raw, 'utf8') : call.raw;
	const context = {
		getResponseObject: () => res,
		getRequestObject: () => ({ rawBody: raw }),
		getBodyData: () => call.parsed ?? {},
		getCredentials: async () => call.credentials ?? credentials(),
		getNodeParameter: (name: string, fallback?: unknown) => (name in params ? params[name] : fallback),
		getWorkflowStaticData: () => staticData,
		getWorkflow: () => ({ id: call.workflowId ?? `mock-workflow-${++workflows}`, active: true }),
		getNode: () => ({ id: 'trigger-node', name: 'HaiPay Trigger' }),
		logger: { info: log('info'), warn: log('warn'), debug: log('debug'), error: log('error'), verbose: log('verbose') },
	} as unknown as IWebhookFunctions;
	return { context, answer, logs, staticData };
}

/** A JSON request as HaiPay sends it: the bytes, and n8n's parse of them. */
export function jsonCall(body: unknown, rest: Omit<Call, 'raw' | 'parsed'> = {}): Call {
	const text = JSON.stringify(body);
	return { raw: text, parsed: JSON.parse(text), ...rest };
}

export function mockHook(url: string, staticData: IDataObject = {}) {
	const logs: Logged[] = [];
	const log = (level: string) => (message: string, meta?: unknown) => logs.push({ level, message, meta });
	const context = {
		getNodeWebhookUrl: () => url,
		getWorkflowStaticData: () => staticData,
		logger: { info: log('info'), warn: log('warn'), debug: log('debug'), error: log('error'), verbose: log('verbose') },
	} as unknown as IHookFunctions;
	return { context, logs, staticData };
}
