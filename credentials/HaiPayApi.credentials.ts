import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
	Icon,
} from 'n8n-workflow';

import { CURRENCY_OPTIONS } from '../nodes/shared/contract/currencies';
import { signRequest } from '../nodes/shared/signing/authenticate';
import { PRODUCTION_URL } from '../nodes/shared/signing/settings';

export class HaiPayApi implements ICredentialType {
	name = 'haiPayApi';

	displayName = 'HaiPay API';

	icon: Icon = { light: 'file:../icons/haipay.svg', dark: 'file:../icons/haipay.dark.svg' };

	documentationUrl = 'https://github.com/haipay-n8n/n8n-nodes-haipay#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Environment',
			name: 'environment',
			type: 'options',
			options: [
				{ name: 'Sandbox', value: 'sandbox', description: 'HaiPay UAT: uat-interface.haipay.asia' },
				{ name: 'Production', value: 'production', description: 'The live gateway HaiPay gives you at go-live' },
				{ name: 'Custom', value: 'custom', description: 'Any base URL, for example a local HaiPay sandbox' },
			],
			default: 'sandbox',
			description: 'App IDs and keys differ between sandbox and production',
		},
		{
			displayName: 'Production Base URL',
			name: 'productionUrl',
			type: 'string',
			default: PRODUCTION_URL,
			placeholder: PRODUCTION_URL,
			description: 'The production address HaiPay handed you at go-live',
			displayOptions: { show: { environment: ['production'] } },
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: 'http://127.0.0.1:8642',
			placeholder: 'http://127.0.0.1:8642',
			displayOptions: { show: { environment: ['custom'] } },
		},
		{
			displayName: 'App ID',
			name: 'appId',
			type: 'number',
			default: 0,
			required: true,
			description: 'The business ID from the HaiPay merchant backend. HaiPay issues one per currency.',
		},
		{
			displayName: 'Currency',
			name: 'currency',
			type: 'options',
			options: [{ name: 'Not Set (No Check)', value: '' }, ...CURRENCY_OPTIONS],
			default: '',
			description:
				'The currency this App ID belongs to. When set, an operation in another currency fails before anything is sent, and the credential test reads this balance.',
		},
		{
			displayName: 'Secret Key',
			name: 'secretKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'The secret key string of this App ID, from the merchant backend',
		},
		{
			displayName: 'Merchant Private Key',
			name: 'privateKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				'Your RSA 2048 private key, whose public half you uploaded to HaiPay. PEM or bare base64, PKCS#8 or PKCS#1.',
		},
		{
			displayName: 'HaiPay Public Key',
			name: 'haipayPublicKey',
			type: 'string',
			typeOptions: { rows: 4 },
			default: '',
			description:
				'The platform public key downloaded from the merchant backend (PEM or bare base64). Needed to verify answers and callbacks: without it, answers are marked unverified and callbacks are refused.',
		},
		{
			displayName: 'Array Format in Signatures',
			name: 'arrayStyle',
			type: 'options',
			options: [
				{ name: 'JSON (["A","B"])', value: 'json' },
				{ name: 'List ([A, B])', value: 'list' },
			],
			default: 'json',
			description:
				'How a list such as the voucher order numbers is written into the signed text. Switch only if HaiPay rejects voucher signatures. Under List, an order number holding a comma, a bracket or a space is refused, since it would sign like several.',
		},
	];

	authenticate = async (
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> => await signRequest(credentials, requestOptions);

	// A signed, read-only call: the balance of the credential's currency. It proves the App ID, secret and
	// private key belong together without creating anything.
	test: ICredentialTestRequest = {
		request: {
			method: 'POST',
			url: '={{ "/" + ($credentials.currency ? $credentials.currency.toLowerCase() : "-") + "/account/ledger" }}',
			body: {},
		},
		rules: [
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'status',
					value: '0',
					message:
						'HaiPay refused the signed request. Check that the App ID, its currency, the secret key and the merchant private key belong together and to this environment (sandbox keys do not work in production).',
				},
			},
		],
	};
}
