import type { INodeProperties } from 'n8n-workflow';

import { checkOptions, createOptions, readOptions } from '../descriptions/options';
import type { Operation } from '../execute/types';
import { getBalance } from './account/getBalance';
import { createCashierCollection } from './collection/cashier';
import { createCollection } from './collection/create';
import { getCashierCollection } from './collection/getCashier';
import { getCollection } from './collection/get';
import { getFixedAddress } from './collection/getFixedAddress';
import { getRefund } from './collection/getRefund';
import { refundCollection } from './collection/refund';
import { checkPayout } from './payout/check';
import { createPayout } from './payout/create';
import { cancelSubscription } from './subscription/cancel';
import { createSubscription } from './subscription/create';
import { getSubscription } from './subscription/get';
import { getPayout } from './payout/get';
import { downloadVoucher } from './voucher/download';

/** Every operation of the node, in the order the panel lists resources and their operations. */
export const OPERATIONS: Operation[] = [
	createPayout,
	checkPayout,
	getPayout,
	createCollection,
	getCollection,
	refundCollection,
	getRefund,
	createSubscription,
	getSubscription,
	cancelSubscription,
	createCashierCollection,
	getCashierCollection,
	getFixedAddress,
	downloadVoucher,
	getBalance,
];

export function findOperation(resource: string, operation: string): Operation | undefined {
	return OPERATIONS.find((candidate) => candidate.resource === resource && candidate.operation === operation);
}

function resources(): string[] {
	return [...new Set(OPERATIONS.map((operation) => operation.resource))];
}

function titled(resource: string): string {
	return resource.charAt(0).toUpperCase() + resource.slice(1);
}

/** The Resource list, alphabetical as n8n's linter asks; new workflows start on payouts. */
export const resourceSelector: INodeProperties = {
	displayName: 'Resource',
	name: 'resource',
	type: 'options',
	noDataExpression: true,
	options: resources()
		.map((resource) => ({ name: titled(resource), value: resource }))
		.sort((a, b) => a.name.localeCompare(b.name)),
	default: 'payout',
};

/** One Operation list per resource, built from the operations' own selector entries. */
export const operationSelectors: INodeProperties[] = resources().map((resource) => {
	const operations = OPERATIONS.filter((operation) => operation.resource === resource);
	const first = operations[0].operation;
	return {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [resource] } },
		options: operations.map(({ operation, selector }) => ({
			name: selector.name,
			value: operation,
			description: selector.description,
			action: selector.action,
		})),
		default: first,
	};
});

/** Operation names, once each, in the order of OPERATIONS. */
const namesOf = (operations: Operation[]): string[] => [...new Set(operations.map(({ operation }) => operation))];

/** Each kind's Options, shown by the operations of that kind: sent-once, the check, the reads. */
export const optionsSelectors: INodeProperties[] = (() => {
	const sentOnce = namesOf(OPERATIONS.filter((operation) => operation.kind !== 'read' && operation.checkOnly !== true));
	const checks = namesOf(OPERATIONS.filter((operation) => operation.checkOnly === true));
	return [createOptions(sentOnce), checkOptions, readOptions([...sentOnce, ...checks])];
})();

/**
 * An operation's Currency shows for its resource unless another of the resource's operations is chosen, rather than
 * only when its own is: the same on a saved node. When the resource changes, n8n's editor drops a drop-down's value
 * that a shown parameter of that name does not offer, but judges "shown" without the operation when it is the
 * resource's first, whose value a node does not store; a Payout's USDT then stayed under Subscription, which offers
 * USD only, and hid every field.
 */
function currencyOfResource(property: INodeProperties): INodeProperties {
	const show = property.displayOptions?.show;
	if (property.name !== 'currency' || show?.resource === undefined || show.operation === undefined) return property;
	const [resource] = show.resource as string[];
	const own = show.operation as string[];
	const others = namesOf(OPERATIONS.filter((operation) => operation.resource === resource)).filter(
		(name) => !own.includes(name),
	);
	const rest = Object.fromEntries(Object.entries(show).filter(([name]) => name !== 'operation'));
	const hide = others.length > 0 ? { hide: { operation: others } } : {};
	return { ...property, displayOptions: { show: rest, ...hide } };
}

/** Every operation's parameters, in the order of OPERATIONS. */
export const operationProperties: INodeProperties[] = OPERATIONS.flatMap((operation) =>
	operation.properties.map(currencyOfResource),
);
