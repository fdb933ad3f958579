import type { INodeProperties } from 'n8n-workflow';

export const resourceSelector: INodeProperties = {
	displayName: 'Resource',
	name: 'resource',
	type: 'options',
	noDataExpression: true,
	options: [
		{ name: 'Account', value: 'account' },
		{ name: 'Collection', value: 'collection' },
		{ name: 'Payout', value: 'payout' },
		{ name: 'Voucher', value: 'voucher' },
	],
	default: 'payout',
};

export const operationSelectors: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['payout'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description: 'Send money to a bank account or mobile wallet',
				action: 'Create a payout',
			},
			{
				name: 'Get',
				value: 'get',
				description: 'Get the state of a payout order',
				action: 'Get a payout',
			},
		],
		default: 'create',
	},
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['collection'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description: 'Collect a USD card payment (MIT), first or with a saved card token',
				action: 'Create a collection',
			},
			{
				name: 'Get',
				value: 'get',
				description: 'Get the state of a collection order',
				action: 'Get a collection',
			},
		],
		default: 'create',
	},
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['voucher'] } },
		options: [
			{
				name: 'Download',
				value: 'download',
				description: 'Download payout vouchers: a PDF for one order, a ZIP for several',
				action: 'Download a voucher',
			},
		],
		default: 'download',
	},
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['account'] } },
		options: [
			{
				name: 'Get Balance',
				value: 'getBalance',
				description: 'Get the balance of a currency account',
				action: 'Get the balance of an account',
			},
		],
		default: 'getBalance',
	},
];
