import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { currencyOptions } from '../../../shared/contract/currencies';
import { ENDPOINTS } from '../../../shared/contract/endpoints';
import { ORDER_NO_MAX_LENGTH, VOUCHER_LANGUAGES, VOUCHER_ORDER_NOS_MAX } from '../../../shared/contract/rules/reads';
import { ItemFailure, gatewayText } from '../../../shared/gateway/outcome';
import { parameterValue } from '../../execute/parameters';
import { dataItem } from '../../execute/present';
import type { Operation, Prepared } from '../../execute/types';
import { trimmedText } from '../../../shared/text';

const scope = { resource: 'voucher', operation: 'download' };
const displayOptions = { show: { resource: [scope.resource], operation: [scope.operation] } };

/** Order numbers from a list, a JSON array string, or text separated by commas, semicolons, spaces or lines. */
function parseOrderNos(value: unknown): string[] {
	let list: unknown[];
	if (Array.isArray(value)) list = value;
	else if (typeof value === 'number') list = [String(value)];
	else if (typeof value === 'string' && value.trim().startsWith('[')) {
		try {
			const parsed = JSON.parse(value) as unknown;
			list = Array.isArray(parsed) ? parsed : [value];
		} catch {
			list = value.split(/[\s,;]+/);
		}
	} else if (typeof value === 'string') list = value.split(/[\s,;]+/);
	else list = [];
	const cleaned = list.map(trimmedText);
	return [...new Set(cleaned.filter((entry) => entry !== ''))];
}

function flag(ctx: IExecuteFunctions, name: string, itemIndex: number): 0 | 1 {
	return ctx.getNodeParameter(name, itemIndex, false) ? 1 : 0;
}

function fileNameFor(orderNos: string[], mimeType: string): string {
	const stem =
		orderNos.length === 1 ? `voucher-${orderNos[0]}` : `vouchers-${orderNos[0]}-and-${orderNos.length - 1}-more`;
	return `${stem.replace(/[^A-Za-z0-9._-]/g, '_')}.${mimeType === 'application/zip' ? 'zip' : 'pdf'}`;
}

async function binaryItem(
	ctx: IExecuteFunctions,
	itemIndex: number,
	buffer: Buffer,
	mimeType: 'application/pdf' | 'application/zip',
	prepared: Prepared,
): Promise<INodeExecutionData> {
	const orderNos = prepared.body.orderNos as string[];
	const property = (ctx.getNodeParameter('binaryPropertyName', itemIndex, 'data') as string).trim() || 'data';
	const fileName = fileNameFor(orderNos, mimeType);
	const binary = await ctx.helpers.prepareBinaryData(buffer, fileName, mimeType);
	return {
		json: { orderNos, fileName, mimeType, fileSize: buffer.length, binaryProperty: property } as IDataObject,
		binary: { [property]: binary },
	};
}

function decodedFile(text: string): { buffer: Buffer; mimeType: 'application/pdf' | 'application/zip' } | undefined {
	const compact = text.replace(/\s+/g, '');
	if (compact.length < 8 || !/^[A-Za-z0-9+/]+={0,2}$/.test(compact)) return undefined;
	const buffer = Buffer.from(compact, 'base64');
	if (buffer.subarray(0, 5).toString('latin1') === '%PDF-') return { buffer, mimeType: 'application/pdf' };
	if (buffer.subarray(0, 4).toString('latin1') === 'PK\u0003\u0004') return { buffer, mimeType: 'application/zip' };
	return undefined;
}

export const downloadVoucher: Operation = {
	...scope,
	selector: {
		name: 'Download',
		description: 'Download payout vouchers: a PDF for one order, a ZIP for several',
		action: 'Download a voucher',
	},
	kind: 'read',
	properties: [
		{
			displayName: 'Order Numbers',
			name: 'orderNos',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'HP2026112100001, HP2026112100002',
			description:
				'HaiPay order numbers (orderNo) of final payouts, 1 to 100: separated by commas or lines, or an expression returning a list. One gives a PDF, several a ZIP of PDFs.',
			displayOptions,
		},
		{
			displayName: "Orders' Currency",
			name: 'ordersCurrency',
			type: 'options',
			options: [
				{ name: "The Credential's First App ID", value: '' },
				...currencyOptions(ENDPOINTS.payoutApply.currencies),
			],
			default: '',
			description:
				"Which of the credential's App IDs asks for the vouchers: the one of the payouts' currency. Leave it for a credential with one App ID.",
			displayOptions,
		},
		{
			displayName: 'Language',
			name: 'lang',
			type: 'options',
			options: [
				{ name: 'Chinese', value: 'zh' },
				{ name: 'English', value: 'en' },
			],
			default: 'en',
			description: 'Language of the voucher',
			displayOptions,
		},
		{
			displayName: 'Amount Shown',
			name: 'isAmount',
			type: 'options',
			options: [
				{ name: 'Actual Credited Amount', value: 0 },
				{ name: 'Order Amount', value: 1 },
			],
			default: 0,
			displayOptions,
		},
		{
			displayName: 'Show Fee',
			name: 'getFee',
			type: 'boolean',
			default: false,
			description: 'Whether the voucher shows the fee',
			displayOptions,
		},
		{
			displayName: 'Show Remark',
			name: 'getSubject',
			type: 'boolean',
			default: false,
			description: 'Whether the voucher shows the payment remark (subject)',
			displayOptions,
		},
		{
			displayName: 'Put Output File in Field',
			name: 'binaryPropertyName',
			type: 'string',
			default: 'data',
			description: 'The name of the output binary field to put the PDF or ZIP in',
			displayOptions,
		},
	],
	prepare(ctx, itemIndex) {
		const orderNos = parseOrderNos(parameterValue(ctx, itemIndex, 'orderNos', ''));
		if (orderNos.length === 0 || orderNos.length > VOUCHER_ORDER_NOS_MAX) {
			throw new ItemFailure(
				'invalid',
				`"orderNos" must list 1 to ${VOUCHER_ORDER_NOS_MAX} order numbers (got ${orderNos.length})`,
				{
					field: 'orderNos',
					rule: orderNos.length === 0 ? 'required' : 'maxItems',
				},
			);
		}
		const long = orderNos.find((orderNo) => orderNo.length > ORDER_NO_MAX_LENGTH);
		if (long !== undefined) {
			throw new ItemFailure(
				'invalid',
				`"orderNos" entries must be at most ${ORDER_NO_MAX_LENGTH} characters (got one of ${long.length})`,
				{
					field: 'orderNos',
					rule: 'maxLength',
				},
			);
		}
		const isAmount = Number(ctx.getNodeParameter('isAmount', itemIndex, 0));
		const lang = ctx.getNodeParameter('lang', itemIndex, 'en') as string;
		if (!(VOUCHER_LANGUAGES as readonly string[]).includes(lang)) {
			throw new ItemFailure('invalid', `"lang" must be zh or en (got "${lang}")`, { field: 'lang', rule: 'enum' });
		}
		const body: IDataObject = {
			orderNos,
			getFee: flag(ctx, 'getFee', itemIndex),
			isAmount: isAmount === 1 ? 1 : 0,
			getSubject: flag(ctx, 'getSubject', itemIndex),
			lang,
		};
		const signWithCurrency = String(parameterValue(ctx, itemIndex, 'ordersCurrency', '') ?? '')
			.trim()
			.toUpperCase();
		return { path: ENDPOINTS.voucher.path(), body, currency: '', acceptFile: true, signWithCurrency };
	},
	distrust(answer, prepared) {
		if (answer.type !== 'data') return undefined;
		const orderNo = answer.data.orderNo;
		const asked = prepared.body.orderNos as string[];
		return typeof orderNo === 'string' && orderNo !== '' && !asked.includes(orderNo)
			? `the answer is about orderNo "${gatewayText(orderNo)}", not one asked for`
			: undefined;
	},
	async present(ctx, itemIndex, answer, prepared) {
		if (answer.type === 'file') return await binaryItem(ctx, itemIndex, answer.buffer, answer.mimeType, prepared);
		if (answer.type === 'text') {
			const file = decodedFile(answer.text);
			if (file) return await binaryItem(ctx, itemIndex, file.buffer, file.mimeType, prepared);
		}
		// A voucher belongs to no currency: the item says which orders it is for instead.
		const json = dataItem(answer, prepared);
		delete json.currency;
		return { json: { orderNos: prepared.body.orderNos, ...json } };
	},
};
