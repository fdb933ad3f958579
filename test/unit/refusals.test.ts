/**
 * How a status-"0" answer to a create is read: each rule of the table on both sides of its edge, and the README's
 * table naming the same outcomes in the same order.
 */
import { readFileSync } from 'fs';
import { join } from 'path';

import { REFUSAL_RULES, refusalOutcome } from '../../nodes/shared/contract/refusals';

const CASES: Array<[message: string, code: string, outcome: 'unknown' | 'duplicate' | 'rejected']> = [
	// HaiPay's own words for failures on its side: the order may exist.
	['504 Gateway Time-out', '9999', 'unknown'],
	['connect time-out', '9999', 'unknown'],
	['Read timed out', '9999', 'unknown'],
	['HttpStatus:502', '9999', 'unknown'],
	['System busy, please query the order', '9999', 'unknown'],
	['系统异常', '9999', 'unknown'],
	['请求超时', '9999', 'unknown'],
	['internal error: boom', '5000', 'unknown'],
	['Service unavailable', '9999', 'unknown'],
	['please try again later', '9999', 'unknown'],
	['NULL', '9999', 'unknown'],
	['', '', 'unknown'],
	['something nobody documented', '1234', 'unknown'],
	// An unsure word wins over a refusal word: "signature service busy" is not proof that nothing was created.
	['signature service busy', '9999', 'unknown'],
	// The orderId exists.
	['orderId M1 already exists for appId 1001', '4006', 'duplicate'],
	['Duplicate order number', '9999', 'duplicate'],
	['订单号重复', '9999', 'duplicate'],
	// What a change asks is already so: not a change of this request's, settled by the query.
	['subscription 4025011311423010028 is already cancelled', '4011', 'duplicate'],
	['订阅已取消', '9999', 'duplicate'],
	// The request itself was refused: nothing was created.
	['sign does not verify with the public key and secret of this appId', '4003', 'rejected'],
	['签名错误', '9999', 'rejected'],
	['appId 1 is not registered in the sandbox environment', '4004', 'rejected'],
	['No permission to pay for products', '4010', 'rejected'],
	['insufficient balance: amount plus fee 1.00 exceeds available balance 0.00', '4007', 'rejected'],
	['channel code does not exist', '4002', 'rejected'],
	['anything at all', '4002', 'rejected'],
	['amount must be at least 1000', '4001', 'rejected'],
	['accountNo must match ^\\d{10}$', '4001', 'rejected'],
	['tokenID is unknown or belongs to another appId', '4009', 'rejected'],
	['unknown endpoint /tzs/pay/x', '4040', 'rejected'],
];

describe('status "0" on a create', () => {
	it.each(CASES)('"%s" (error %s) is %s', (message, code, outcome) => {
		expect(refusalOutcome(code, message)).toBe(outcome);
	});

	it('the HaiPay node page lists the same rules in the same order, ending with unknown for anything else', () => {
		const readme = readFileSync(join(__dirname, '..', '..', 'docs', 'haipay-node.md'), 'utf8');
		const start = readme.indexOf('| outcome | the message (or code) says |');
		expect(start).toBeGreaterThan(0);
		const rows = readme
			.slice(start)
			.split('\n')
			.slice(2)
			.filter(
				(line, index, lines) => line.startsWith('|') && lines.slice(0, index).every((before) => before.startsWith('|')),
			);
		const outcomes = rows.map((row) => /^\| `(\w+)` \|/.exec(row)?.[1]);
		expect(outcomes).toEqual([...REFUSAL_RULES.map((rule) => rule.outcome), 'unknown']);
	});
});
