import type { IExecuteFunctions } from 'n8n-workflow';

import type { RequestRules } from '../../shared/contract/rules/types';
import type { Violation } from '../validation/validate';
import { isFixedParameter } from './parameters';

/*
 * A drop-down that decides who is paid holds one fixed value for every item of the run. In node version 1 that value
 * is the drop-down's first one unless someone chose another, and n8n cannot tell the two apart; a sheet whose row
 * says PHONE (or FEMALE) would then be paid as CPF (or MALE). So in every version, when the item itself carries the
 * field under its gateway name and says otherwise, the item is refused rather than sent either way. The same holds for
 * a drop-down that decides how much or how often (`decidesMoney`: a subscription's Recurring Interval).
 */

function reading(value: unknown): string {
	return typeof value === 'string' || typeof value === 'number' ? String(value).trim().toUpperCase() : '';
}

/** The payee-deciding fields whose fixed parameter value the item's own field of that name contradicts. */
export function payeeConflicts(
	ctx: IExecuteFunctions,
	itemIndex: number,
	rules: RequestRules,
	values: Record<string, unknown>,
): Violation[] {
	const json = ctx.getInputData()[itemIndex]?.json ?? {};
	const violations: Violation[] = [];
	for (const rule of rules.fields) {
		const decides = rule.decidesPayee !== undefined ? `who is paid (${rule.decidesPayee})` : rule.decidesMoney;
		if (decides === undefined || rule.enum === undefined) continue;
		const path = rule.required ? rule.name : `additionalFields.${rule.name}`;
		const chosen = reading(values[rule.name]);
		const own = reading(json[rule.name]);
		if (chosen === '' || own === '' || chosen === own || !isFixedParameter(ctx, path)) continue;
		violations.push({
			field: rule.name,
			rule: 'conflict',
			message: `"${rule.name}" is ${chosen} on the node but ${own} in the item: it decides ${decides}, so the item is not sent either way; map it from the item ({{ $json.${rule.name} }}) or correct the row`,
		});
	}
	return violations;
}
