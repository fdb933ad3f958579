import type { RequestRules } from '../../nodes/shared/contract/rules/types';
import { checkRequest } from '../../nodes/HaiPay/validation/validate';

/*
 * Rule tests: every rule with a value on each side of its edge. `ok` values must pass (and normalise as shown when
 * a pair is given); `bad` values must fail with the named rule on the named field, and with nothing else.
 */

export type Ok = unknown | [input: unknown, normalised: unknown];
export interface Case {
	field: string;
	ok: Ok[];
	bad: Array<[value: unknown, rule: string]>;
	/** Other fields the case needs besides the base item (e.g. accountType for EGP wallets). */
	with?: Record<string, unknown>;
}

export const x = (n: number): string => 'x'.repeat(n);
/** Letters in two words, n characters in all. */
export const letters = (n: number): string => `${'A'.repeat(Math.ceil(n / 2) - 1)} ${'B'.repeat(Math.floor(n / 2))}`;

export const orderIdCase: Case = { field: 'orderId', ok: [x(48), ['  O-2  ', 'O-2'], [12345, '12345']], bad: [[x(49), 'maxLength'], ['', 'required'], [null, 'required']] };
export const emailCase = (required: boolean): Case => ({
	field: 'email',
	ok: ['a@b.co', 'first.last+tag@sub.example.org'],
	bad: [['a@b', 'format'], ['a b@c.de', 'format'], ...(required ? [['', 'required'] as [unknown, string]] : [])],
});
export const notifyUrlCase: Case = {
	field: 'notifyUrl',
	ok: ['https://n8n.example.com/webhook/x', 'http://127.0.0.1:5678/webhook/y', '', `https://n8n.example.com/${x(1000)}`],
	bad: [['ftp://x.y', 'format'], ['not a url', 'format'], [`https://n8n.example.com/${x(1001)}`, 'maxLength']],
};
export const subjectCase: Case = { field: 'subject', ok: [x(255), 'Salary November', ''], bad: [[x(256), 'maxLength'], [x(1_000_000), 'maxLength']] };
export const bodyCase: Case = { field: 'body', ok: [x(1024), ''], bad: [[x(1025), 'maxLength']] };
export const partnerCase = (max?: number): Case => ({
	field: 'partnerUserId',
	ok: ['Az09-~!@#$%&*()_', ...(max ? [x(max)] : [])],
	bad: [['user 1', 'pattern'], ['user/1', 'pattern'], ['üser', 'pattern'], ...(max ? [[x(max + 1), 'maxLength'] as [unknown, string]] : [])],
});
export const phoneCase: Case = { field: 'phone', ok: ['255712345678', '+255712345678', '123456'], bad: [['0712 345 678', 'pattern'], ['12345', 'pattern'], ['phone', 'pattern']] };

/** A case with "required" added to its refusals: the field left empty. */
export function required(testCase: Case): Case {
	return { ...testCase, bad: [...testCase.bad, ['', 'required']] };
}

/** The checks of one request's rules: the base item passes, each case's values pass or fail as stated. */
export function ruleCases(rules: RequestRules, base: Record<string, unknown>, cases: Case[]): void {
	it('accept the base item as it is', () => {
		expect(checkRequest(rules, base).violations).toEqual([]);
	});

	for (const testCase of cases) {
		const context = testCase.with ? ` with ${JSON.stringify(testCase.with)}` : '';
		for (const ok of testCase.ok) {
			const [input, normalised] = Array.isArray(ok) ? ok : [ok, typeof ok === 'string' ? ok.trim() : ok];
			it(`accept ${testCase.field} = ${JSON.stringify(input)}${context}`, () => {
				const { body, violations } = checkRequest(rules, { ...base, ...testCase.with, [testCase.field]: input });
				expect(violations).toEqual([]);
				if (normalised === '') expect(body).not.toHaveProperty(testCase.field);
				else expect(body[testCase.field]).toEqual(normalised);
			});
		}
		for (const [value, rule] of testCase.bad) {
			it(`refuse ${testCase.field} = ${JSON.stringify(value)}${context} (${rule})`, () => {
				const { violations } = checkRequest(rules, { ...base, ...testCase.with, [testCase.field]: value });
				expect(violations).toHaveLength(1);
				expect(violations[0]).toMatchObject({ field: testCase.field, rule });
				expect(violations[0].message).toContain(`"${testCase.field}"`);
			});
		}
	}

	it('refuse an amount with a leading zero, and accept it without', () => {
		const amount = String(base.amount);
		expect(checkRequest(rules, base).violations).toEqual([]);
		const { violations } = checkRequest(rules, { ...base, amount: `0${amount}` });
		expect(violations).toEqual([expect.objectContaining({ field: 'amount', rule: 'amount' })]);
		expect(violations[0].message).toContain('leading zero');
	});

	it('check every field that carries a rule', () => {
		const covered = new Set(cases.map((testCase) => testCase.field));
		const ruled = rules.fields.filter(
			(field) => field.required || field.pattern || field.enum || field.amount || field.format || field.maxLength || field.check || field.integerEnum || field.requiredWhen,
		);
		expect(ruled.map((field) => field.name).filter((name) => !covered.has(name))).toEqual([]);
	});
}
