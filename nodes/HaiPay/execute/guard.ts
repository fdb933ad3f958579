import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { Operation } from './types';

/**
 * What a create (Payout → Create, Collection → Create) refuses before anything is prepared or sent: settings of
 * the node under which it could send money twice, or on a model's guess.
 */

/**
 * Whether an AI agent is calling this node as a tool: n8n runs it then as the generated `…Tool` node type (and
 * newer n8n versions say so through `isToolExecution`).
 */
export function calledByAgent(ctx: IExecuteFunctions): boolean {
	const asTool = (ctx as { isToolExecution?: () => boolean }).isToolExecution;
	return ctx.getNode().type.endsWith('Tool') || (typeof asTool === 'function' && asTool.call(ctx) === true);
}

function label(operation: Operation): string {
	return `${operation.resource === 'collection' ? 'Collection' : 'Payout'} → Create`;
}

/*
 * n8n's "Retry On Fail" runs the whole node again with every item when it fails. A create whose outcome is unknown
 * (a time-out, a 5xx) fails the node, so a retry sends that create again, and every create before it.
 */
function refuseRetryOnFail(ctx: IExecuteFunctions, operation: Operation): void {
	if (ctx.getNode().retryOnFail !== true) return;
	throw new NodeOperationError(
		ctx.getNode(),
		`${label(operation)} does not run with the node setting "Retry On Fail" on: a retry runs the whole node again and sends its creates again. Switch it off and use On Error → Continue instead, and route items whose outcome is "unknown" to a query`,
		{
			description:
				'Nothing was sent. n8n\'s Retry On Fail re-runs every item of the node, so an item whose outcome is unknown (HaiPay may have created it) would be sent again. Under Settings, switch Retry On Fail off and set On Error to "Continue (using error output)" or "Continue (using regular output)": every item then comes out with its outcome. Send items with outcome "unknown" to a Payout or Collection → Get by their orderId before anything is sent again; items with outcome "not_sent" or "not_found" are safe to send again with the same orderId.',
		},
	);
}

function refuseAgent(ctx: IExecuteFunctions, allowAgents: boolean): void {
	if (!calledByAgent(ctx) || allowAgents) return;
	throw new NodeOperationError(ctx.getNode(), 'An AI agent may not send money through this node: "Allow Use by AI Agents" is off', {
		description:
			'Nothing was sent. Reads (Get, Download, Get Balance) work as usual. To let an agent create payouts or collections, switch on Options → Allow Use by AI Agents on this node, and put n8n\'s human approval in front of the tool first.',
	});
}

/** Refuses a create that must not run as the node is set up; reads are never refused here. */
export function guardCreate(ctx: IExecuteFunctions, operation: Operation, allowAgents: boolean): void {
	if (operation.kind !== 'create') return;
	refuseRetryOnFail(ctx, operation);
	refuseAgent(ctx, allowAgents);
}
