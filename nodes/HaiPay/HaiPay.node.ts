import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { testHaiPayCredential } from '../shared/gateway/credentialTest';
import { runCheck } from './execute/check';
import { runOperation } from './execute/runner';
import { catalogueSearch } from './methods/catalogueSearch';
import { LATEST_VERSION, NODE_VERSIONS } from './descriptions/versions';
import {
	findOperation,
	operationProperties,
	operationSelectors,
	optionsSelectors,
	resourceSelector,
} from './resources';

export class HaiPay implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'HaiPay',
		name: 'haiPay',
		icon: { light: 'file:../../icons/haipay.svg', dark: 'file:../../icons/haipay.dark.svg' },
		group: ['transform'],
		// Saved workflows keep their version (descriptions/versions.ts says what each one changed); new nodes get the latest.
		version: [...NODE_VERSIONS],
		defaultVersion: LATEST_VERSION,
		subtitle: '={{ $parameter["operation"] + ": " + $parameter["resource"] }}',
		description:
			'Send payouts; collect card, local and stablecoin payments; refund; run subscriptions; query orders, download vouchers and read balances with HaiPay',
		defaults: { name: 'HaiPay' },
		// A full URL is opened as it is; a codex link would get n8n's "?utm_…" appended after its #anchor.
		documentationUrl: 'https://github.com/haipay-n8n/n8n-nodes-haipay/blob/main/docs/haipay-node.md',
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'haiPayApi', required: true, testedBy: 'haiPayApiTest' }],
		properties: [resourceSelector, ...operationSelectors, ...operationProperties, ...optionsSelectors],
	};

	methods = { credentialTest: { haiPayApiTest: testHaiPayCredential }, listSearch: catalogueSearch };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const resource = this.getNodeParameter('resource', 0) as string;
		const name = this.getNodeParameter('operation', 0) as string;
		const operation = findOperation(resource, name);
		if (operation === undefined) {
			throw new NodeOperationError(this.getNode(), `The operation "${name}" of "${resource}" is not supported`);
		}
		return [operation.checkOnly ? await runCheck(this, operation) : await runOperation(this, operation)];
	}
}
