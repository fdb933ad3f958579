import type { INodeProperties } from 'n8n-workflow';

import { ENDPOINTS } from '../../../shared/contract/endpoints';
import { addressDoubt, FIXED_ADDRESS_PAY_TYPE } from '../../../shared/products/fixedAddress';
import { exactText } from '../../../shared/text';
import { currencyParameter } from '../../descriptions/fields';
import { parameterFor } from '../../descriptions/fromRules';
import { currencyOf, prepareCreate } from '../../execute/prepare';
import { dataItem } from '../../execute/present';
import type { Operation } from '../../execute/types';

const scope = { resource: 'collection', operation: 'getFixedAddress' };
const { currencies, rules } = ENDPOINTS.fixedAddressApply;
const displayOptions = { show: { resource: [scope.resource], operation: [scope.operation] } };

const notice: INodeProperties = {
	displayName:
		'A permanent USDT address for your account on the chosen network: asking again answers the same address. Every transfer to it is a collection of its own, reported by a callback with its own orderId, orderNo and transaction hash (HaiPay Trigger, kind collection). Send only USDT on that network to it.',
	name: 'fixedAddressNotice',
	type: 'notice',
	default: '',
	displayOptions,
};

/** Collection → Get Fixed Address: `/usdt/collect/apply/multiple`, a read (the same address each time). */
export const getFixedAddress: Operation = {
	...scope,
	selector: {
		name: 'Get Fixed Address',
		description: 'Get your permanent USDT deposit address; each transfer to it arrives as a collection callback',
		action: 'Get a fixed deposit address',
	},
	kind: 'read',
	properties: [
		currencyParameter(scope.resource, scope.operation, currencies, 'Fixed addresses are in USDT.'),
		notice,
		...rules.USDT.fields.map((rule): INodeProperties => ({ ...parameterFor(rule), required: true, displayOptions })),
	],
	prepare(ctx, itemIndex) {
		const currency = currencyOf(ctx, itemIndex, currencies);
		const prepared = prepareCreate(ctx, itemIndex, rules.USDT, currency, false);
		return { path: prepared.path, body: { ...prepared.body, payType: FIXED_ADDRESS_PAY_TYPE }, currency };
	},
	distrust(answer, prepared) {
		if (answer.type !== 'data') return 'HaiPay answered without a data object';
		// A payer sends money to this address: one no signature of HaiPay's proves could be anyone's.
		if (answer.verification !== 'verified')
			return "the answer is not signed by HaiPay (the credential has no HaiPay public key), so its address proves nothing; add HaiPay's public key to the credential";
		return addressDoubt(answer.data, exactText(prepared.body.inBankCode));
	},
	async present(_ctx, _itemIndex, answer, prepared) {
		const data = answer.type === 'data' ? answer.data : {};
		const extra = { address: exactText(data.bankNo), network: prepared.body.inBankCode, permanent: true };
		return { json: dataItem(answer, prepared, undefined, extra) };
	},
};
