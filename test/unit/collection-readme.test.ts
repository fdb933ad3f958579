/**
 * The table of local-currency collections in docs/haipay-node.md is what the contract module's rules say, cell for
 * cell, as the payout table is (contract.test.ts); the README's Operations table lists the Collection operations.
 */
import { readFileSync } from 'fs';
import { join } from 'path';

import { ENDPOINTS } from '../../nodes/shared/contract/endpoints';
import type { FieldRule, RequestRules } from '../../nodes/shared/contract/rules/types';

const README = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');
const NODE_PAGE = readFileSync(join(__dirname, '..', '..', 'docs', 'haipay-node.md'), 'utf8');

function grouped(decimal: string): string {
	return decimal.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

function amountCell(rule: FieldRule): string {
	const amount = rule.amount;
	if (amount === undefined) return '';
	const range =
		amount.min !== undefined && amount.max !== undefined
			? `${grouped(amount.min)}–${grouped(amount.max)}`
			: amount.min !== undefined
				? `at least ${grouped(amount.min)}`
				: amount.max !== undefined
					? `> 0, at most ${grouped(amount.max)}`
					: '> 0';
	const decimals =
		amount.exactDecimals !== undefined
			? `exactly ${amount.exactDecimals} decimals`
			: amount.patternText !== undefined
				? amount.patternText.replace(/, e\.g\..*$/, '')
				: amount.maxDecimals === 0
					? 'whole numbers only'
					: `≤ ${amount.maxDecimals} decimals`;
	return `${range}, ${decimals}`;
}

function textCell(rule: FieldRule | undefined): string {
	if (rule === undefined) return '—';
	if (rule.enum !== undefined) return rule.enum.map((value) => `\`${value}\``).join(', ');
	const shape = rule.patternText ?? rule.description;
	const length = rule.maxLength !== undefined ? `, ≤ ${rule.maxLength}` : '';
	return `${shape}${length}`;
}

const COLUMNS = ['amount', 'name', 'phone', 'payType'];
const COMMON = [
	'orderId',
	'email',
	'inBankCode',
	'callBackUrl',
	'callBackFailUrl',
	'partnerUserId',
	'notifyUrl',
	'body',
];

function row(currency: string, rules: RequestRules): string {
	const field = (name: string) => rules.fields.find((candidate) => candidate.name === name);
	const cells = COLUMNS.map((name) =>
		name === 'amount' ? amountCell(field(name) as FieldRule) : textCell(field(name)),
	);
	const others = rules.fields.filter((rule) => !COLUMNS.includes(rule.name) && !COMMON.includes(rule.name));
	const names = (required: boolean) =>
		others
			.filter((rule) => rule.required === required)
			.map((rule) => rule.name)
			.join(', ') || '—';
	return `| ${currency} | ${cells.join(' | ')} | ${names(true)} | ${names(false)} |`;
}

/** The table as the contract module states it. */
export function localCollectionTable(): string {
	const header = [
		'| currency | amount | name | phone | payType | also required | optional |',
		'|---|---|---|---|---|---|---|',
	];
	return [
		...header,
		...Object.entries(ENDPOINTS.localCollectionApply.rules).map(([currency, rules]) => row(currency, rules)),
	].join('\n');
}

describe('the documentation', () => {
	it('has the local-currency collection table its rules give', () => {
		const table = localCollectionTable();
		// On a change of the rules, paste the table printed here into docs/haipay-node.md.
		if (!NODE_PAGE.includes(table)) console.log(table);
		expect(NODE_PAGE).toContain(table);
	});

	it('lists every operation of the Collection resource', () => {
		for (const page of [README, NODE_PAGE])
			for (const line of ['| Collection | Refund |', '| Collection | Get Refund |']) expect(page).toContain(line);
	});
});
