import {
	body,
	email,
	englishName,
	notifyUrl,
	orderId,
	partnerUserId,
	phone,
	subject,
} from '../../nodes/shared/contract/rules/common';
import type { FieldRule, RequestRules } from '../../nodes/shared/contract/rules/types';
import { checkRequest } from '../../nodes/HaiPay/validation/validate';

/*
 * Rule tests: every rule with a value on each side of its edge. `ok` values must pass (and normalise as shown when
 * a pair is given); `bad` values must fail with the named rule on the named field, and with nothing else. A rule
 * many requests share (nodes/shared/contract/rules/common.ts) is tested once, in shared-rules.test.ts; a request's
 * own tests show only that it uses it (`shared`), which is all that can differ between two requests using it.
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

export const orderIdCase: Case = {
	field: 'orderId',
	ok: [x(48), ['  O-2  ', 'O-2'], [12345, '12345']],
	bad: [
		[x(49), 'maxLength'],
		['', 'required'],
		[null, 'required'],
	],
};
export const emailCase = (required: boolean): Case => ({
	field: 'email',
	ok: ['a@b.co', 'first.last+tag@sub.example.org'],
	bad: [['a@b', 'format'], ['a b@c.de', 'format'], ...(required ? [['', 'required'] as [unknown, string]] : [])],
});
export const notifyUrlCase: Case = {
	field: 'notifyUrl',
	ok: [
		'https://n8n.example.com/webhook/x',
		'http://127.0.0.1:5678/webhook/y',
		'',
		`https://n8n.example.com/${x(1000)}`,
	],
	bad: [
		['ftp://x.y', 'format'],
		['not a url', 'format'],
		[`https://n8n.example.com/${x(1001)}`, 'maxLength'],
	],
};
export const subjectCase: Case = {
	field: 'subject',
	ok: [x(255), 'Salary November', ''],
	bad: [
		[x(256), 'maxLength'],
		[x(1_000_000), 'maxLength'],
	],
};
export const bodyCase: Case = { field: 'body', ok: [x(1024), ''], bad: [[x(1025), 'maxLength']] };
export const partnerCase = (max?: number): Case => ({
	field: 'partnerUserId',
	ok: ['Az09-~!@#$%&*()_', ...(max ? [x(max)] : [])],
	bad: [
		['user 1', 'pattern'],
		['user/1', 'pattern'],
		['üser', 'pattern'],
		...(max ? [[x(max + 1), 'maxLength'] as [unknown, string]] : []),
	],
});
export const phoneCase: Case = {
	field: 'phone',
	ok: ['255712345678', '+255712345678', '123456'],
	bad: [
		['0712 345 678', 'pattern'],
		['12345', 'pattern'],
		['phone', 'pattern'],
	],
};

/** A case with "required" added to its refusals: the field left empty. */
export function required(testCase: Case): Case {
	return { ...testCase, bad: [...testCase.bad, ['', 'required']] };
}

/** A field whose rule is one of the shared definitions: a request's tests check that it is that definition. */
export interface SharedUse {
	field: string;
	shared: FieldRule;
}
export const shared = (rule: FieldRule): SharedUse => ({ field: rule.name, shared: rule });

/** Every shared definition the requests use, with its edges: shared-rules.test.ts runs each once. */
export const SHARED_CASES: Array<[label: string, rule: FieldRule, testCase: Case]> = [
	['orderId', orderId(), orderIdCase],
	['notifyUrl', notifyUrl(), notifyUrlCase],
	['subject', subject(), subjectCase],
	['body', body(), bodyCase],
	['email, required', email(true), emailCase(true)],
	['email, optional', email(false), { ...emailCase(false), ok: [...emailCase(false).ok, ''] }],
	['partnerUserId, required', partnerUserId(true), required(partnerCase())],
	['partnerUserId, optional, at most 64', partnerUserId(false, 64), partnerCase(64)],
	['phone, required', phone(true), required(phoneCase)],
	['phone, optional', phone(false), { ...phoneCase, ok: [...phoneCase.ok, ''] }],
	[
		'English name, required',
		englishName(true),
		{
			field: 'name',
			ok: ['Amina Juma', 'Amina Binti Juma', letters(30), ['  Amina Juma ', 'Amina Juma']],
			bad: [
				['Amina', 'pattern'],
				['Amina Juma2', 'pattern'],
				['A B C D', 'pattern'],
				[letters(31), 'maxLength'],
				['José Díaz', 'pattern'],
				['Amina  Juma', 'pattern'],
				['', 'required'],
			],
		},
	],
];

/** What checkRequest reads of a field: everything but the words shown to the user. */
export function ruleOf(field: FieldRule | undefined): Partial<FieldRule> | undefined {
	if (field === undefined) return undefined;
	const { displayName: _shown, description: _described, placeholder: _example, ...rule } = field;
	return rule;
}

/** One case's values, each on its side of the edge, against `rules` with the other fields of `base`. */
export function edgeTests(rules: RequestRules, base: Record<string, unknown>, testCase: Case): void {
	const context = testCase.with ? ` with ${JSON.stringify(testCase.with)}` : '';
	for (const ok of testCase.ok) {
		const [input, normalised] = Array.isArray(ok) ? ok : [ok, typeof ok === 'string' ? ok.trim() : ok];
		it(`accept ${testCase.field} = ${JSON.stringify(input).slice(0, 60)}${context}`, () => {
			const { body: sent, violations } = checkRequest(rules, { ...base, ...testCase.with, [testCase.field]: input });
			expect(violations).toEqual([]);
			// A node-only field (USDT's Network) is checked and never sent.
			const nodeOnly = rules.fields.find((field) => field.name === testCase.field)?.nodeOnly === true;
			if (normalised === '' || nodeOnly) expect(sent).not.toHaveProperty(testCase.field);
			else expect(sent[testCase.field]).toEqual(normalised);
		});
	}
	for (const [value, rule] of testCase.bad) {
		it(`refuse ${testCase.field} = ${JSON.stringify(value).slice(0, 60)}${context} (${rule})`, () => {
			const { violations } = checkRequest(rules, { ...base, ...testCase.with, [testCase.field]: value });
			expect(violations).toHaveLength(1);
			expect(violations[0]).toMatchObject({ field: testCase.field, rule });
			expect(violations[0].message).toContain(`"${testCase.field}"`);
		});
	}
}

/** The checks of one request's rules: the base item passes, each case's values pass or fail as stated, shared rules are used as defined. */
export function ruleCases(rules: RequestRules, base: Record<string, unknown>, entries: Array<Case | SharedUse>): void {
	const cases = entries.filter((entry): entry is Case => !('shared' in entry));
	const uses = entries.filter((entry): entry is SharedUse => 'shared' in entry);
	it('accept the base item as it is', () => {
		expect(checkRequest(rules, base).violations).toEqual([]);
	});

	for (const testCase of cases) edgeTests(rules, base, testCase);

	if (uses.length > 0) {
		it(`use the shared rules of ${uses.map((use) => use.field).join(', ')}`, () => {
			for (const use of uses)
				expect([use.field, ruleOf(rules.fields.find((field) => field.name === use.field))]).toEqual([
					use.field,
					ruleOf(use.shared),
				]);
		});
	}

	if (typeof base.amount === 'string') {
		it('refuse an amount with a leading zero, and accept it without', () => {
			const amount = String(base.amount);
			expect(checkRequest(rules, base).violations).toEqual([]);
			const { violations } = checkRequest(rules, { ...base, amount: `0${amount}` });
			expect(violations).toEqual([expect.objectContaining({ field: 'amount', rule: 'amount' })]);
			expect(violations[0].message).toContain('leading zero');
		});
	}

	it('check every field that carries a rule', () => {
		const covered = new Set(entries.map((entry) => entry.field));
		const ruled = rules.fields.filter(
			(field) =>
				field.required ||
				field.pattern ||
				field.enum ||
				field.amount ||
				field.format ||
				field.maxLength ||
				field.check ||
				field.integerEnum ||
				field.requiredWhen,
		);
		expect(ruled.map((field) => field.name).filter((name) => !covered.has(name))).toEqual([]);
	});
}
