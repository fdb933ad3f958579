import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
	Icon,
} from 'n8n-workflow';

import { CURRENCIES } from '../nodes/shared/contract/currencies';
import { APP_OPTIONS, PATH_SIGNERS, PRODUCT_APPS } from '../nodes/shared/products';
import { appFieldNames, OTHER_CURRENCIES_FIELD } from '../nodes/shared/signing/apps';
import { signRequest } from '../nodes/shared/signing/authenticate';
import { PRODUCTION_URL } from '../nodes/shared/signing/credential';

/** The App ID and secret key of one further currency, shown once it is listed under Other Currencies. */
function appFields(currency: string): INodeProperties[] {
	const names = appFieldNames(currency);
	const displayOptions = { show: { [OTHER_CURRENCIES_FIELD]: [currency] } };
	return [
		{
			displayName: `${currency} App ID`,
			name: names.appId,
			type: 'number',
			// Empty, not 0: n8n then marks the field as missing instead of saving an App ID HaiPay never issues.
			default: '',
			required: true,
			description: `The business ID HaiPay issued for ${currency}`,
			displayOptions,
		},
		{
			displayName: `${currency} Secret Key`,
			name: names.secretKey,
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description: `The secret key string of the ${currency} App ID`,
			displayOptions,
		},
	];
}

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
			// Empty, not 0: n8n then marks the field as missing instead of saving an App ID HaiPay never issues.
			default: '',
			required: true,
			description: 'The business ID from the HaiPay merchant backend. HaiPay issues one per currency.',
		},
		{
			displayName: 'Currency',
			name: 'currency',
			type: 'options',
			options: [{ name: 'Not Set (No Check)', value: '' }, ...APP_OPTIONS],
			default: '',
			description:
				'The currency this App ID belongs to. When set, an operation in a currency the credential holds no App ID for fails before anything is sent, and the credential test reads this balance. Needed with Other Currencies.',
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
			displayName: 'Other Currencies',
			name: OTHER_CURRENCIES_FIELD,
			type: 'multiOptions',
			options: APP_OPTIONS,
			default: [],
			description:
				"Further currencies of the same merchant, each with its own App ID and secret key (the private key and HaiPay public key are shared). One node then pays a sheet of mixed currencies and one trigger receives every currency's callbacks. CASHIER is the App ID HaiPay issues for its global cashier. Set the Currency above too.",
		},
		...[...Object.keys(CURRENCIES), ...Object.keys(PRODUCT_APPS)].flatMap(appFields),
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
			displayName: 'Default Notify URL',
			name: 'defaultNotifyUrl',
			type: 'string',
			default: '',
			placeholder: 'https://n8n.example.com/webhook/…/haipay',
			description:
				"Where HaiPay posts the results of payouts and collections created with this credential when the item gives no Notify URL of its own: paste your HaiPay Trigger's Production URL here once, and every create connects to it. A Notify URL set on the node or in the item still wins.",
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
	): Promise<IHttpRequestOptions> => await signRequest(credentials, requestOptions, PATH_SIGNERS);

	// The test is the nodes' `haiPayApiTest` (nodes/shared/gateway/credentialTest.ts): one signed balance read per
	// App ID, naming each one that fails, which a single declarative request cannot do.
}
