/**
 * The approval policy attacked as an insider, a careless workflow author and a lying sheet would: one person's id
 * written so as to count twice or to pass for someone other than the uploader, ids that are no id, approvals for
 * other rows than those sent, policies written to mislead, and the bounds the policy keeps on purpose (per run, per
 * currency, an approval's time not checked by the node). Each bound kept is asserted, so a change to it is seen.
 */
import { countedApprovals, readApprovals } from '../../nodes/HaiPay/approval/approvals';
import { rowsFingerprint } from '../../nodes/HaiPay/approval/fingerprint';
import { approvalNeed, readPolicy } from '../../nodes/HaiPay/approval/policy';
import type { Prepared } from '../../nodes/HaiPay/execute/types';

const FP = `v1:${'a'.repeat(64)}`;
const approvalsOf = (...ids: unknown[]) => readApprovals(ids.map((userId) => ({ userId, fingerprint: FP })));
const rowsOf = (currency: string, amounts: string[]): Prepared[] =>
	amounts.map((amount, index) => ({ path: '/x', currency, body: { amount, orderId: `O-${index}` } }));

describe('one person counts once, however the id is written', () => {
	it.each<[string, unknown[]]>([
		['letter case and spaces around', ['alice', 'Alice ', ' ALICE']],
		['fullwidth letters (NFKC)', ['alice', 'ａｌｉｃｅ']],
		['a compatibility ligature and spaces inside run together', ['ﬁona x', 'fiona  x']],
		['a number and its digits', [7, '7', ' 7 ']],
	])('%s', (_, ids) => {
		const { counted, notCounted } = countedApprovals(approvalsOf(...ids), FP, 'uploader');
		expect(counted).toHaveLength(1);
		expect(notCounted).toHaveLength(ids.length - 1);
		for (const why of notCounted) expect(why).toContain('is the same person again');
	});

	it.each<[string, string, string]>([
		['case', 'Uploader', 'uploader'],
		['spaces', ' uploader ', 'uploader'],
		['fullwidth', 'ｕｐｌｏａｄｅｒ', 'uploader'],
		['case, on the uploader', 'uploader', 'UPLOADER '],
	])('the uploader written with other %s is still the uploader', (_, approver, uploader) => {
		const { counted, notCounted } = countedApprovals(approvalsOf(approver), FP, uploader);
		expect(counted).toEqual([]);
		expect(notCounted[0]).toContain('is by the uploader');
	});

	it.each<[string, string, RegExp]>([
		['a Cyrillic а looking Latin', '\u0430lice', /U\+0430, which is not printable ASCII/],
		['a zero-width space inside', 'ali\u200bce', /U\+200B/],
		['a right-to-left override', 'ecila\u202e', /U\+202E/],
		['a line break inside', 'ali\nce', /U\+000A/],
		['ß, which case folding would make ss', 'strauß', /U\+00DF/],
	])('an id with %s is refused, not counted as another person', (_, id, why) => {
		expect(() => approvalsOf('alice', id)).toThrow(why);
		expect(() => countedApprovals([{ userId: id, fingerprint: FP }], FP, 'uploader')).toThrow(why);
	});

	it('an uploader id with a look-alike letter is refused too', () => {
		expect(() => countedApprovals(approvalsOf('alice'), FP, '\u0430lice')).toThrow(/uploadedBy .*U\+0430/);
	});

	it.each<[string, unknown]>([
		['empty', ''],
		['spaces only', '   '],
		['null', null],
		['an array', ['alice']],
		['an object', { id: 'alice' }],
		['true', true],
	])('a userId that is %s is refused, naming the approval', (_, id) => {
		expect(() =>
			readApprovals([
				{ userId: 'ben', fingerprint: FP },
				{ userId: id, fingerprint: FP },
			]),
		).toThrow('approval 2 has no userId');
	});

	it('an id longer than 200 characters is refused as such', () => {
		expect(() => approvalsOf('x'.repeat(201))).toThrow('longer than 200 characters');
	});

	it('the same approval listed twice counts once', () => {
		const list = [{ userId: 'anna', fingerprint: FP, approvedAt: '2026-06-30T10:00:00Z' }];
		const { counted } = countedApprovals(readApprovals([...list, ...list]), FP, 'uploader');
		expect(counted).toEqual(['anna']);
	});
});

describe('an approval is for exactly the rows sent', () => {
	const rows = rowsOf('ZAR', ['100.00', '200.00', '300.00']);
	const approved = rowsFingerprint(rows);

	it.each<[string, Prepared[]]>([
		['a subset', rows.slice(0, 2)],
		[
			'a superset',
			[...rows, ...rowsOf('ZAR', ['1.00']).map((row) => ({ ...row, body: { ...row.body, orderId: 'O-9' } }))],
		],
		['one amount changed by 0.001', [{ ...rows[0], body: { ...rows[0].body, amount: '100.001' } }, ...rows.slice(1)]],
		['"100" for "100.00"', [{ ...rows[0], body: { ...rows[0].body, amount: '100' } }, ...rows.slice(1)]],
		['the same rows in another currency', rows.map((row) => ({ ...row, currency: 'NGN' }))],
	])('%s has another fingerprint, so the approval does not count', (_, sent) => {
		expect(rowsFingerprint(sent)).not.toBe(approved);
		const { counted, notCounted } = countedApprovals(
			[{ userId: 'anna', fingerprint: approved }],
			rowsFingerprint(sent),
			'uploader',
		);
		expect(counted).toEqual([]);
		expect(notCounted[0]).toContain('is for other rows');
	});

	it('the same rows reordered are the rows approved', () => {
		expect(rowsFingerprint([rows[2], rows[0], rows[1]])).toBe(approved);
	});
});

describe('a policy written to mislead is refused', () => {
	const limit = { oneApproverUpToTotal: '10', oneApproverUpToRow: '10' };
	it.each<[string, string, RegExp]>([
		['a lower-case currency', JSON.stringify({ zar: limit }), /"zar" is not a payout currency code/],
		['__proto__ as a key', `{"__proto__": ${JSON.stringify(limit)}}`, /"__proto__" is not a payout currency/],
		['constructor as a key', JSON.stringify({ constructor: limit }), /"constructor" is not a payout/],
		['toString as a limit name', JSON.stringify({ ZAR: { ...limit, toString: '1' } }), /"toString"/],
		['a limit of "-0"', JSON.stringify({ ZAR: { ...limit, oneApproverUpToRow: '-0' } }), /plain decimal/],
		['a limit in exponent form', JSON.stringify({ ZAR: { ...limit, oneApproverUpToRow: '1e9' } }), /plain decimal/],
		[
			'a JSON number too big to be written plainly',
			'{"ZAR": {"oneApproverUpToTotal": 1e21, "oneApproverUpToRow": 1}}',
			/plain decimal/,
		],
		[
			'more places than BDT has',
			JSON.stringify({ BDT: { ...limit, oneApproverUpToRow: '10.5' } }),
			/more places than BDT/,
		],
		['a limit missing', JSON.stringify({ ZAR: { oneApproverUpToTotal: '10' } }), /oneApproverUpToRow must be/],
		['a list', '[]', /JSON object keyed by currency/],
	])('%s', (_, text, why) => {
		expect(() => readPolicy(text)).toThrow(why);
	});

	it.each<[string, string, string]>([
		[
			'a currency',
			'{"ZAR": {"oneApproverUpToTotal": "1", "oneApproverUpToRow": "1"}, "ZAR": {"oneApproverUpToTotal": "9999999", "oneApproverUpToRow": "9999999"}}',
			'ZAR',
		],
		[
			'a limit',
			'{"ZAR": {"oneApproverUpToTotal": "1", "oneApproverUpToRow": "1", "oneApproverUpToTotal": "9999999"}}',
			'oneApproverUpToTotal',
		],
		[
			'a name written with an escape',
			'{"ZAR": {"oneApproverUpToTotal": "1", "oneApproverUpToRow": "1"}, "\\u005aAR": {"oneApproverUpToTotal": "9", "oneApproverUpToRow": "9"}}',
			'ZAR',
		],
	])('%s named twice is refused: JSON would keep the last, unseen', (_, text, name) => {
		expect(() => readPolicy(text)).toThrow(`names "${name}" twice in one object`);
	});

	it('the same names in different objects, and inside strings, are not repeats', () => {
		const text =
			'{"ZAR": {"oneApproverUpToTotal": "1", "oneApproverUpToRow": "1"}, "*": {"oneApproverUpToTotal": "2", "oneApproverUpToRow": "2"}}';
		expect(readPolicy(text).size).toBe(2);
		const tricky = { ZAR: { oneApproverUpToTotal: '1\\", "ZAR": {', oneApproverUpToRow: '1' } };
		expect(() => readPolicy(JSON.stringify(tricky))).toThrow('plain decimal');
	});

	it.each([
		["past a double's digits", '12345678901234567890'],
		['at 10^13, where a double stops holding cents', '10000000000000.01'],
		['with 16 significant digits', '1234567.891234567'],
	])('a limit given as a JSON number %s is refused: JSON.parse does not keep what was written', (_, digits) => {
		const text = `{"ZAR": {"oneApproverUpToTotal": ${digits}, "oneApproverUpToRow": 1}}`;
		expect(() => readPolicy(text)).toThrow('as text from 10^13 up');
	});

	it('the same limits written as text are taken as written', () => {
		const policy = readPolicy({
			ZAR: { oneApproverUpToTotal: '12345678901234567890', oneApproverUpToRow: 9999999999999.99 },
		});
		expect(policy.get('ZAR')).toEqual({
			oneApproverUpToTotal: '12345678901234567890',
			oneApproverUpToRow: '9999999999999.99',
		});
	});

	it('limits "0" and "0.00" ask two approvers of any amount above zero', () => {
		for (const zero of ['0', '0.00']) {
			const policy = readPolicy({ ZAR: { oneApproverUpToTotal: zero, oneApproverUpToRow: zero } });
			expect(approvalNeed(rowsOf('ZAR', ['0.01']), policy).approvalsRequired).toBe(2);
		}
	});

	it('a huge limit is compared exactly, not as floating point', () => {
		const big = '900719925474099300000000.00';
		const policy = readPolicy({ ZAR: { oneApproverUpToTotal: big, oneApproverUpToRow: big } });
		expect(approvalNeed(rowsOf('ZAR', [big]), policy).approvalsRequired).toBe(1);
		expect(approvalNeed(rowsOf('ZAR', [big, '0.01']), policy).approvalsRequired).toBe(2);
	});
});

describe('bounds the policy keeps (docs/approvals.md, "What the policy does not bound")', () => {
	const policy = readPolicy({
		ZAR: { oneApproverUpToTotal: '1000.00', oneApproverUpToRow: '1000.00' },
		NGN: { oneApproverUpToTotal: '1000.00', oneApproverUpToRow: '1000.00' },
	});

	it('the total is per run: a sheet split in two runs under the limit asks one approver of each', () => {
		expect(approvalNeed(rowsOf('ZAR', ['600.00', '600.00']), policy).approvalsRequired).toBe(2);
		expect(approvalNeed(rowsOf('ZAR', ['600.00']), policy).approvalsRequired).toBe(1);
		// The split halves are other rows than the whole: the whole sheet's approvals do not pay either half.
		const whole = rowsFingerprint(rowsOf('ZAR', ['600.00', '600.00']));
		expect(rowsFingerprint(rowsOf('ZAR', ['600.00']))).not.toBe(whole);
	});

	it('the limits are per currency: each currency within its own asks one approver', () => {
		const rows = [...rowsOf('ZAR', ['1000.00']), ...rowsOf('NGN', ['1000.00'])];
		expect(approvalNeed(rows, policy).approvalsRequired).toBe(1);
	});

	it("an approval's approvedAt is recorded, not checked: the page's deadline is what expires", () => {
		for (const approvedAt of ['2999-01-01T00:00:00Z', '1970-01-01T00:00:00Z', 'yesterday'])
			expect(
				countedApprovals(readApprovals([{ userId: 'anna', fingerprint: FP, approvedAt }]), FP, 'u').counted,
			).toEqual(['anna']);
	});
});
