/**
 * The contract module is the one source of the gateway's facts: the node's operations take their currencies and
 * paths from it, and the README's per-currency table is what its rules say, cell for cell.
 */
import { readFileSync } from 'fs';
import { join } from 'path';

import { CURRENCIES } from '../../nodes/shared/contract/currencies';
import { ENDPOINTS } from '../../nodes/shared/contract/endpoints';
import type { FieldRule, RequestRules } from '../../nodes/shared/contract/rules/types';
import { OPERATIONS } from '../../nodes/HaiPay/resources';

/** The page that documents the node's fields, where the per-currency table lives. */
const README = readFileSync(join(__dirname, '..', '..', 'docs', 'haipay-node.md'), 'utf8');

/** Thousands grouped in the whole part only: 5000000 is 5,000,000 and 0.0001 stays 0.0001. */
function grouped(decimal: string): string {
	const [whole, fraction] = decimal.split('.');
	return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${fraction === undefined ? '' : `.${fraction}`}`;
}

function amountCell(rule: FieldRule): string {
	const amount = rule.amount;
	if (amount === undefined) return '';
	const parts: string[] = [];
	if (amount.min !== undefined && amount.max !== undefined) parts.push(`${grouped(amount.min)}–${grouped(amount.max)}`);
	else if (amount.min !== undefined) parts.push(`at least ${grouped(amount.min)}`);
	else parts.push('> 0');
	// A pattern said in words says the decimals too (BRL); the contract's NGN pattern is named, its decimals given.
	if (amount.patternText !== undefined) parts.push(amount.patternText);
	else if (amount.pattern !== undefined) parts.push('contract pattern');
	if (amount.patternText !== undefined) return parts.join(', ');
	if (amount.exactDecimals !== undefined) parts.push(`exactly ${amount.exactDecimals} decimals`);
	else parts.push(amount.maxDecimals === 0 ? 'whole numbers only' : `≤ ${amount.maxDecimals} decimals`);
	return parts.join(', ');
}

function textCell(rule: FieldRule | undefined): string {
	if (rule === undefined) return '—';
	if (rule.enum !== undefined) return rule.enum.map((value) => `\`${value}\``).join(', ');
	const shape = rule.patternText ?? rule.description;
	const length = rule.maxLength !== undefined ? `, ≤ ${rule.maxLength}` : '';
	return `${shape}${length}`;
}

const COLUMNS = ['amount', 'accountType', 'bankCode', 'accountNo', 'name'];

function row(currency: string, rules: RequestRules): string {
	const field = (name: string) => rules.fields.find((candidate) => candidate.name === name);
	const cells = COLUMNS.map((name) =>
		name === 'amount' ? amountCell(field(name) as FieldRule) : textCell(field(name)),
	);
	const others = rules.fields.filter((rule) => rule.name !== 'orderId' && !COLUMNS.includes(rule.name));
	const named = (rule: FieldRule) =>
		rule.requiredWhen ? `${rule.name} (required when ${rule.requiredWhen.when})` : rule.name;
	const names = (required: boolean) =>
		others
			.filter((rule) => rule.required === required)
			.map(named)
			.join(', ') || '—';
	const source = rules.source === undefined ? 'contract' : `[${rules.source.certainty}](${rules.source.page})`;
	return `| ${currency} | ${cells.join(' | ')} | ${names(true)} | ${names(false)} | ${source} |`;
}

/** The table as the contract module states it. */
export function payoutTable(): string {
	const header = [
		'| currency | amount | accountType | bankCode | accountNo | name | also required | optional | rules from |',
		'|---|---|---|---|---|---|---|---|---|',
	];
	return [
		...header,
		...Object.entries(ENDPOINTS.payoutApply.rules).map(([currency, rules]) => row(currency, rules)),
	].join('\n');
}

/** The payout currencies by where their rules come from, as the operation tables list them. */
export function payoutCurrenciesLine(): string {
	const rules = Object.entries(ENDPOINTS.payoutApply.rules);
	const group = (certainty?: string) =>
		rules
			.filter(([, rule]) => rule.source?.certainty === certainty)
			.map(([currency]) => currency)
			.join(', ');
	return `${group()} (the contract); ${group('official')} (HaiPay's pages, official); ${group('partial')} (HaiPay's pages, partial)`;
}

describe('the contract module', () => {
	it('the per-currency payout table of docs/haipay-node.md is the one its rules give', () => {
		const table = payoutTable();
		// On a change of the rules, paste the table printed here into docs/haipay-node.md.
		if (!README.includes(table)) console.log(table);
		expect(README).toContain(table);
	});

	it('the operation tables list every payout currency with the certainty of its rules', () => {
		const line = payoutCurrenciesLine();
		// The README's Operations table and the operations table of docs/haipay-node.md.
		const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');
		if (!readme.includes(line) || !README.includes(line)) console.log(line);
		expect(readme).toContain(line);
		expect(README).toContain(line);
	});

	it('gives every operation its path and currencies', () => {
		const byName = Object.fromEntries(
			OPERATIONS.map((operation) => [`${operation.resource}.${operation.operation}`, operation]),
		);
		const currenciesOf = (name: string) =>
			(byName[name].properties.find((property) => property.name === 'currency')?.options ?? []).map(
				(option) => (option as { value: string }).value,
			);
		expect(currenciesOf('payout.create')).toEqual([...ENDPOINTS.payoutApply.currencies]);
		expect(currenciesOf('collection.create')).toEqual([
			'USD',
			...ENDPOINTS.localCollectionApply.currencies,
			...ENDPOINTS.coinCollectionApply.currencies,
		]);
		expect(currenciesOf('payout.get')).toEqual(Object.keys(CURRENCIES).filter((code) => code !== 'USDC'));
		expect(currenciesOf('collection.get')).toEqual(Object.keys(CURRENCIES));
		expect(currenciesOf('account.getBalance')).toEqual(Object.keys(CURRENCIES));
		expect(ENDPOINTS.payoutApply.path('TZS')).toBe('/tzs/pay/apply');
		expect(ENDPOINTS.payoutQuery.path('MYR')).toBe('/myr/pay/query');
		expect(ENDPOINTS.collectionQuery.path('USDC')).toBe('/usdc/collect/query');
		expect(ENDPOINTS.balance.path('ZAR')).toBe('/zar/account/ledger');
		expect(ENDPOINTS.voucher.path()).toBe('/common/voucher/pdf');
		for (const [currency, rules] of Object.entries(ENDPOINTS.payoutApply.rules))
			expect(rules.path).toBe(ENDPOINTS.payoutApply.path(currency));
	});

	it('cites only documents that are in the repository', () => {
		const root = join(__dirname, '..', '..');
		for (const document of ['docs/contract.md', 'docs/haipay-facts.md'])
			expect(readFileSync(join(root, document), 'utf8').length).toBeGreaterThan(1000);
		const sources = [
			'nodes/shared/contract/endpoints.ts',
			'nodes/shared/contract/envelope.ts',
			'nodes/shared/contract/rules/payout.ts',
		];
		for (const source of sources)
			expect(readFileSync(join(root, source), 'utf8')).not.toMatch(/000_ef|[^/]haipay-facts\.md/);
	});
});
