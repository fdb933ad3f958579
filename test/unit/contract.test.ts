/**
 * The contract module is the one source of the gateway's facts: the node's operations take their currencies and
 * paths from it; each currency's fields and rules are docs/field-reference.md's (test/unit/field-reference.test.ts).
 */
import { readFileSync } from 'fs';
import { join } from 'path';

import { CURRENCIES } from '../../nodes/shared/contract/currencies';
import { ENDPOINTS } from '../../nodes/shared/contract/endpoints';
import { OPERATIONS } from '../../nodes/HaiPay/resources';

/** The page that documents the node's fields, where the per-currency table lives. */
const README = readFileSync(join(__dirname, '..', '..', 'docs', 'haipay-node.md'), 'utf8');

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
