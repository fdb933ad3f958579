import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { sentOnce } from '../../shared/gateway/kinds';
import type { Operation } from './types';

/**
 * What a create (Payout → Create, Collection → Create) refuses before anything is prepared or sent: settings of
 * the node under which it could send money twice, or on a model's guess.
 */

/**
 * Whether an AI agent is calling this node as a tool: n8n runs it then as the generated `…Tool` node type (and
 * newer n8n versions say so through `isToolExecution`).
 */
function calledByAgent(ctx: IExecuteFunctions): boolean {
	const asTool = (ctx as { isToolExecution?: () => boolean }).isToolExecution;
	return ctx.getNode().type.endsWith('Tool') || (typeof asTool === 'function' && asTool.call(ctx) === true);
}

function label(operation: Operation): string {
	return `${operation.resource.charAt(0).toUpperCase()}${operation.resource.slice(1)} → ${operation.selector.name}`;
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

/** Whether a parameter's raw value, or anything on the way to it, is an expression (a string that starts with "="). */
function expressionOnPath(parameters: unknown, path: string[]): boolean {
	let current = parameters;
	for (const key of path) {
		if (typeof current === 'string' && current.startsWith('=')) return true;
		if (current === null || typeof current !== 'object') return false;
		current = (current as Record<string, unknown>)[key];
	}
	return typeof current === 'string' && current.startsWith('=');
}

const AGENT_REFUSED = 'An AI agent may not send money through this node: "Allow Use by AI Agents" is off';
const AGENT_ADVICE =
	"Nothing was sent. Reads (Get, Download, Get Balance) work as usual. To let an agent create payouts or collections, switch on Options → Allow Use by AI Agents on this node, and put n8n's human approval in front of the tool first.";

/*
 * An agent's tool call fills the node's expressions from the model's own arguments, so "Allow Use by AI Agents"
 * counts only as a fixed switch, set by a person on the node, and only when it is on for every item.
 */
function refuseAgent(ctx: IExecuteFunctions, count: number): void {
	if (!calledByAgent(ctx)) return;
	if (expressionOnPath(ctx.getNode().parameters, ['options', 'allowAgents'])) {
		throw new NodeOperationError(
			ctx.getNode(),
			'An AI agent may not send money through this node: "Allow Use by AI Agents" must be a fixed switch, not an expression',
			{
				description: `${AGENT_ADVICE} An expression there (or an expression for the whole Options) could be set by the agent's own tool arguments, so it is refused whatever it returns.`,
			},
		);
	}
	for (let itemIndex = 0; itemIndex < count; itemIndex++) {
		if (ctx.getNodeParameter('options.allowAgents', itemIndex, false) !== true) {
			throw new NodeOperationError(ctx.getNode(), AGENT_REFUSED, { description: AGENT_ADVICE, itemIndex });
		}
	}
}

/** Refuses a create that must not run as the node is set up, before anything is read, prepared or sent; reads pass. */
export function guardCreate(ctx: IExecuteFunctions, operation: Operation, count: number): void {
	if (!sentOnce(operation.kind)) return;
	refuseRetryOnFail(ctx, operation);
	refuseAgent(ctx, count);
}
