/**
 * docs/field-reference.md is what scripts/field-reference.ts writes from the node's description and the contract's
 * rules, so a field, a default or a limit changed in the code without the page fails here (and `npm run lint`).
 */
import { readFileSync } from 'fs';

import { fieldReference, PAGE, RULES_OF } from '../../scripts/reference/page';
import { HaiPay } from '../../nodes/HaiPay/HaiPay.node';
import { HaiPayTrigger } from '../../nodes/HaiPayTrigger/HaiPayTrigger.node';
import { OPERATIONS } from '../../nodes/HaiPay/resources';
import { parameterNames } from '../../nodes/HaiPay/descriptions/fieldNames';
import { ENDPOINTS } from '../../nodes/shared/contract/endpoints';

const properties = new HaiPay().description.properties;
const trigger = new HaiPayTrigger().description.properties;
const page = fieldReference(properties, trigger);

/** The text of one operation's section, from its heading to the next. */
function sectionOf(title: string): string {
	const start = page.indexOf(`\n## ${title}\n`);
	expect([title, start >= 0]).toEqual([title, true]);
	const end = page.indexOf('\n## ', start + 1);
	return page.slice(start, end < 0 ? undefined : end);
}

describe('the field reference', () => {
	it('is committed as the script writes it (run `npx tsx scripts/field-reference.ts` after a change)', () => {
		expect(readFileSync(PAGE, 'utf8')).toBe(page);
	});

	it("has the trigger's parameters", () => {
		const section = sectionOf('HaiPay Trigger');
		const fields = trigger.flatMap((property) =>
			property.type === 'collection' ? ((property.options ?? []) as typeof trigger) : [property],
		);
		for (const field of fields.filter(({ type }) => type !== 'notice')) expect(section).toContain(`\`${field.name}\``);
		expect(section).toMatch(/\| Verify Signature `verifySignature` \| boolean \| `true` \|/);
	});

	it('has a section for every operation of the node', () => {
		for (const operation of OPERATIONS) {
			const title = `${operation.resource.charAt(0).toUpperCase()}${operation.resource.slice(1)} → ${operation.selector.name}`;
			sectionOf(title);
		}
	});

	it("names every field of every create's rules in its operation's section, with the currencies that have it", () => {
		const titles: Record<string, string> = {
			'payout.create': 'Payout → Create',
			'collection.create': 'Collection → Create',
			'collection.refund': 'Collection → Refund',
			'subscription.create': 'Subscription → Create',
			'collection.createCashier': 'Collection → Create Cashier Payment',
			'collection.getFixedAddress': 'Collection → Get Fixed Address',
		};
		for (const [key, title] of Object.entries(titles)) {
			const section = sectionOf(title);
			for (const [currency, rules] of Object.entries(RULES_OF[key]))
				for (const field of rules?.fields ?? []) {
					// Version 4 names a field by its kind (bankCode, bankCodeText, bankCodeList): any of its names counts.
					const names = parameterNames(field.name);
					const rows = section.split('\n').filter((line) => names.some((name) => line.includes(`\`${name}\` |`)));
					const named = rows.some(
						(row) => /^\| [^|]+ \| all \|/.test(row) || row.split(' | ')[1]?.split(', ').includes(currency),
					);
					expect([key, currency, field.name, named || !/\| currencies \|/.test(section)]).toEqual([
						key,
						currency,
						field.name,
						true,
					]);
				}
		}
	});

	it('says each limit as the check holds it, and changes when a rule does', () => {
		const tzs = ENDPOINTS.payoutApply.rules.TZS.fields.find((field) => field.name === 'amount');
		expect(sectionOf('Payout → Create')).toContain(
			'| Amount `amount` | TZS | string |  | yes | 1,000–5,000,000 TZS, ≤ 2 decimals |',
		);
		const saved = tzs?.amount?.max;
		try {
			if (tzs?.amount) tzs.amount.max = '4000000';
			expect(fieldReference(properties, trigger)).toContain('1,000–4,000,000 TZS');
			expect(fieldReference(properties, trigger)).not.toBe(page);
		} finally {
			if (tzs?.amount) tzs.amount.max = saved;
		}
	});

	it("gives the node's defaults: a money choice starts on nothing, a run option on its number", () => {
		const subscription = sectionOf('Subscription → Create');
		expect(subscription).toMatch(/\| Recurring Interval `recurringInterval` \| all \| one of: [^|]+ \| {2}\| yes \|/);
		expect(sectionOf('Options')).toMatch(/\| Concurrent Requests `concurrency` \| number \(≥ 1, ≤ 64\) \| `8` \|/);
	});
});
