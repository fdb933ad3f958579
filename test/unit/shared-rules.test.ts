import type { RequestRules } from '../../nodes/shared/contract/rules/types';
import { checkRequest } from '../../nodes/HaiPay/validation/validate';
import { edgeTests, SHARED_CASES } from '../helpers/rule-cases';

/*
 * The field rules many requests share (nodes/shared/contract/rules/common.ts), each on both sides of its edges, once:
 * a request's own rule tests check that it uses the very definition (ruleCases' "use the shared rules"), so these
 * edges hold for it too. Each is checked as the only field of a request, so no other field's rule can take part.
 */

describe.each(SHARED_CASES)('the shared %s rule', (_label, rule, testCase) => {
	const alone: RequestRules = { path: '/shared/rule', fields: [rule], additionalProperties: false };
	edgeTests(alone, {}, testCase);

	it('is the rule its cases test', () => {
		expect(rule.name).toBe(testCase.field);
		expect(checkRequest(alone, { [rule.name]: '' }).violations.map((violation) => violation.rule)).toEqual(
			rule.required ? ['required'] : [],
		);
	});
});
