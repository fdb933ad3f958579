/**
 * The words of the field reference (docs/field-reference.md) for a gateway field rule: what a value must be, said
 * from the same record that checks it before signing (nodes/shared/contract/rules/types.ts), so that the page and
 * the check cannot disagree.
 */
import type { AmountRule, FieldRule } from '../../nodes/shared/contract/rules/types';

/** Thousands grouped in the whole part only: 5000000 is 5,000,000 and 0.0001 stays 0.0001. */
export function grouped(decimal: string): string {
	const [whole, fraction] = decimal.split('.');
	return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${fraction === undefined ? '' : `.${fraction}`}`;
}

function amountText(amount: AmountRule): string {
	const range =
		amount.min !== undefined && amount.max !== undefined
			? `${grouped(amount.min)}–${grouped(amount.max)}`
			: amount.min !== undefined
				? `at least ${grouped(amount.min)}`
				: amount.max !== undefined
					? `> 0, at most ${grouped(amount.max)}`
					: '> 0';
	const decimals =
		amount.patternText ??
		(amount.exactDecimals !== undefined
			? `exactly ${amount.exactDecimals} decimals`
			: amount.maxDecimals === 0
				? 'whole numbers only'
				: `≤ ${amount.maxDecimals} decimals`);
	const pattern = amount.pattern !== undefined && amount.patternText === undefined ? ', contract pattern' : '';
	return `${range} ${amount.unit}, ${decimals}${pattern}`;
}

/** A cell's text: no line break and no `|`, which would end the table's cell. */
export function cell(text: string): string {
	return text.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|');
}

/** Everything the check of `rule` holds a value to, in words; '' when it takes any text. */
export function ruleText(rule: FieldRule): string {
	const parts: string[] = [];
	if (rule.amount !== undefined) parts.push(amountText(rule.amount));
	if (rule.patternText !== undefined) parts.push(rule.patternText);
	else if (rule.pattern !== undefined) parts.push(`matches \`${rule.pattern.source}\``);
	if (rule.minLength !== undefined && rule.maxLength !== undefined && rule.minLength === rule.maxLength)
		parts.push(`exactly ${rule.maxLength} characters`);
	else {
		if (rule.minLength !== undefined) parts.push(`≥ ${rule.minLength} characters`);
		if (rule.maxLength !== undefined) parts.push(`≤ ${rule.maxLength} characters`);
	}
	if (rule.format !== undefined) parts.push(rule.format === 'email' ? 'an email address' : 'an http(s) URL');
	if (rule.integer !== undefined) parts.push(`a whole number ≥ ${rule.integer.min}`);
	if (rule.check !== undefined) parts.push('checked further before signing');
	if (rule.requiredWhen !== undefined) parts.push(`required when ${rule.requiredWhen.when}`);
	if (rule.identifier === true) parts.push('unique in a run, no invisible characters');
	if (rule.decidesPayee !== undefined) parts.push(`decides ${rule.decidesPayee}`);
	if (rule.decidesMoney !== undefined) parts.push(`decides ${rule.decidesMoney}`);
	if (rule.nodeOnly === true) parts.push('never sent');
	if (rule.since !== undefined) parts.push(`node version ${rule.since} on`);
	return parts.join('; ');
}
