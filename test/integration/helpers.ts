import type { ICredentialDataDecryptedObject, IDataObject, INodeParameters } from 'n8n-workflow';

import { HaiPay } from '../../nodes/HaiPay/HaiPay.node';
import { fieldShape, parameterName } from '../../nodes/HaiPay/descriptions/fieldNames';
import { LATEST_VERSION } from '../../nodes/HaiPay/descriptions/versions';
import { hasCatalogue } from '../../nodes/shared/contract/catalogue';
import { ENDPOINTS } from '../../nodes/shared/contract/endpoints';
import { PAYOUT_RULES } from '../../nodes/shared/contract/rules/payout';
import type { RequestRules } from '../../nodes/shared/contract/rules/types';
import type { OrderKind } from '../../nodes/shared/contract/statuses';
import { HaiPayTrigger } from '../../nodes/HaiPayTrigger/HaiPayTrigger.node';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../sandbox';
import { APP_IDS, PAYOUTS, type SandboxCurrency } from '../fixtures/bodies';
import { NO_OP_NODE_TYPE, runWorkflow, webhookServer, type RunResult, type WebhookServer } from '../harness';
import { TEST_KEYS } from '../helpers/keys';

export const NODE = 'HaiPay';

/** The credential a merchant would create for one of the sandbox's default App IDs. */
export function credentialFor(
	sandbox: Sandbox,
	currency: SandboxCurrency,
	overrides: ICredentialDataDecryptedObject = {},
): ICredentialDataDecryptedObject {
	return {
		environment: 'custom',
		baseUrl: sandbox.baseUrl,
		appId: APP_IDS[currency],
		currency,
		secretKey: `test-only-secret-${currency.toLowerCase()}`,
		privateKey: TEST_KEYS.merchantPkcs8,
		haipayPublicKey: TEST_KEYS.platformPublic,
		arrayStyle: 'json',
		...overrides,
	};
}

export interface NodeRun {
	currency?: SandboxCurrency;
	parameters: INodeParameters;
	items?: IDataObject[];
	credential?: ICredentialDataDecryptedObject;
	/** n8n node settings: continueOnFail, onError, retryOnFail, maxTries, waitBetweenTries. */
	settings?: Record<string, unknown>;
}

/** Runs one HaiPay node in a real n8n-core execution, fed by the given items. */
export async function runNode(sandbox: Sandbox, run: NodeRun): Promise<RunResult> {
	return await runWorkflow({
		nodeTypes: [HaiPay],
		credentials: { hp: { type: 'haiPayApi', data: run.credential ?? credentialFor(sandbox, run.currency ?? 'TZS') } },
		nodes: [{ name: NODE, type: 'haiPay', parameters: run.parameters, ...run.settings }],
		items: (run.items ?? [{}]).map((json) => ({ json })),
		timeoutMs: 60_000,
	});
}

const FIELD_RULES: Record<string, { kind: OrderKind; rules: Record<string, RequestRules> }> = {
	payout: { kind: 'payout', rules: PAYOUT_RULES },
	collection: {
		kind: 'collection',
		rules: {
			...ENDPOINTS.mitApply.rules,
			...ENDPOINTS.localCollectionApply.rules,
			...ENDPOINTS.coinCollectionApply.rules,
		},
	},
};

/**
 * A create's field's parameter name in a node version: from version 4 a field that is text for one currency and a
 * drop-down or a list for another has one name per kind (nodes/HaiPay/descriptions/fieldNames.ts).
 */
export function fieldParameter(
	currency: string,
	field: string,
	version: number = LATEST_VERSION,
	resource = 'payout',
): string {
	const { kind, rules } = FIELD_RULES[resource];
	const rule = rules[currency]?.fields.find((candidate) => candidate.name === field);
	if (rule === undefined) return field;
	return parameterName(field, fieldShape(rule, version, hasCatalogue(kind, field, currency)), version);
}

/** Parameters written with the gateway's field names, under the names the node version gives them. */
export function named(parameters: INodeParameters, version: number = LATEST_VERSION): INodeParameters {
	const resource = String(parameters.resource ?? 'payout');
	const currency = String(parameters.currency ?? 'TZS');
	const rename = (values: INodeParameters) =>
		Object.fromEntries(
			Object.entries(values).map(([key, value]) => [fieldParameter(currency, key, version, resource), value]),
		) as INodeParameters;
	const additional = parameters.additionalFields as INodeParameters | undefined;
	return { ...rename(parameters), ...(additional === undefined ? {} : { additionalFields: rename(additional) }) };
}

/** Parameters that read every payout field from the incoming item, as a spreadsheet workflow does. */
export function payoutFromItem(currency: string, fields: string[], additional: string[] = []): INodeParameters {
	const parameters: INodeParameters = { resource: 'payout', operation: 'create', currency };
	for (const field of fields) parameters[fieldParameter(currency, field)] = `={{ $json.${field} }}`;
	if (additional.length > 0) {
		parameters.additionalFields = Object.fromEntries(additional.map((field) => [field, `={{ $json.${field} }}`]));
	}
	return parameters;
}

export const TZS_FIELDS = [
	'orderId',
	'amount',
	'accountType',
	'bankCode',
	'accountNo',
	'name',
	'phone',
	'email',
	'partnerUserId',
];

let counter = 0;
/** A unique order ID per test run, so tests sharing one sandbox never collide. */
export function uniqueOrderId(prefix: string): string {
	counter += 1;
	return `${prefix}-${process.pid}-${counter}`;
}

export function tzsRow(overrides: IDataObject = {}): IDataObject {
	return { orderId: uniqueOrderId('TZS'), ...PAYOUTS.TZS, ...overrides };
}

/**
 * One sandbox for a test file: started before its tests, closed after them, its faults cleared after each test.
 * Call at the top of the file; the returned function gives the running sandbox.
 */
export function sandboxPerFile(options: SandboxOptions): () => Sandbox {
	let sandbox: Sandbox | undefined;
	beforeAll(async () => {
		sandbox = await startSandbox(options);
	});
	afterAll(async () => {
		await sandbox?.close();
	});
	afterEach(() => {
		sandbox?.control.clearFaults();
	});
	return () => {
		if (sandbox === undefined) throw new Error('the sandbox is not running yet');
		return sandbox;
	};
}

/** A HaiPay Trigger for payouts on `credential`, named 'Trigger' (its URL is a sheet's notifyUrl), before a NoOp node. */
export async function payoutTrigger(credential: ICredentialDataDecryptedObject): Promise<WebhookServer> {
	return await webhookServer({
		nodeTypes: [HaiPayTrigger],
		credentials: { haipay: { type: 'haiPayApi', data: credential } },
		nodes: [
			{ name: 'Trigger', type: 'haiPayTrigger', parameters: { kind: 'payout' } },
			{ name: 'Next', type: NO_OP_NODE_TYPE },
		],
	});
}
