/**
 * The library's signBody refuses what the node refuses, through the same functions (nodes/shared/signing/signable.ts):
 * a field that is, or reads as, `key` (where the signed text holds the secret), `appId` or `sign`, and a number JSON
 * would not carry as the value meant. The node's side of each rule is checked here too, with the same reason in
 * both messages. The packed package runs the same cases in test/package/tarball.test.ts.
 */
import { inexactNumbersInObject } from '../../nodes/HaiPay/validation/numbers';
import { checkRequest } from '../../nodes/HaiPay/validation/validate';
import { PAYOUT_RULES } from '../../nodes/shared/contract/rules/payout';
import { signBody } from '../../nodes/library/signing';
import { PAYOUTS } from '../fixtures/bodies';
import { TEST_KEYS } from '../helpers/keys';
import { verifyBody } from '../helpers/signing';
import { parsePublicKey } from '../../nodes/shared/signing/keys';

const SECRET = 'library-test-secret';
const options = { appId: 1002, secretKey: SECRET, privateKey: TEST_KEYS.merchantPkcs8 };
const payout = { orderId: 'PO-9', ...PAYOUTS.ZAR };

async function refusal(body: Record<string, unknown>): Promise<string> {
	try {
		await signBody(body, options);
	} catch (error) {
		expect((error as Error).name).toBe('SigningError');
		return (error as Error).message;
	}
	throw new Error('signBody signed it');
}

/** The node's own verdict on the same extra field of a ZAR payout, which takes extra fields. */
function nodeRefusal(extra: Record<string, unknown>): string {
	const { violations } = checkRequest(PAYOUT_RULES.ZAR, payout, extra);
	expect(violations).toHaveLength(1);
	return violations[0].message;
}

describe('names the signed text or the signing uses', () => {
	it.each([
		['key', 'key'],
		['KEY', 'key'],
		['k_e-y', 'key'],
		['Key ', 'key'],
		['\uff4b\uff45\uff59', 'key'],
		['ke\u200by', 'key'],
		['APPID', 'appId'],
		['app_id', 'appId'],
		['Sign', 'sign'],
	])('refuses "%s" (reads as "%s"), as the node does, for the same reason', async (name, twin) => {
		const library = await refusal({ ...payout, [name]: 'x' });
		expect(library).toContain(JSON.stringify(name));
		expect(library).toContain(`"${twin}"`);
		expect(library).toContain('nothing was signed');
		const node = nodeRefusal({ [name]: 'x' });
		const reason = node.slice(node.indexOf(`"${twin}"`));
		expect(library).toContain(reason.slice(0, reason.indexOf(':')));
	});

	it("still replaces the body's own appId and sign, as documented, and signs a look-alike that is not one", async () => {
		const signed = await signBody({ ...payout, appId: 9, sign: 'stale', keyRef: 'K1', monkey: 'y' }, options);
		const { sign, ...fields } = signed;
		expect(fields).toEqual({ ...payout, appId: 1002, keyRef: 'K1', monkey: 'y' });
		expect(verifyBody(fields, sign, SECRET, parsePublicKey(TEST_KEYS.merchantPublic))).toBe(true);
	});
});

describe('numbers JSON would not carry as the value meant', () => {
	it.each([
		['2^53 + 1 (read as 2^53)', 2 ** 53 + 1, 'past 9007199254740991'],
		['1e400 (Infinity)', Number('1e400'), 'not a number JSON can carry'],
		['-Infinity', Number.NEGATIVE_INFINITY, 'not a number JSON can carry'],
		['NaN', Number.NaN, 'not a number JSON can carry'],
		['0.1 + 0.2', 0.1 + 0.2, 'not the decimal meant'],
		['1.1 * 3', 1.1 * 3, 'not the decimal meant'],
	])('refuses %s, as the node does, for the same reason', async (_what, value, why) => {
		const library = await refusal({ ...payout, fee: value });
		expect(library).toContain('"fee"');
		expect(library).toContain(why);
		expect(library).toContain('as a string');
		const [node] = inexactNumbersInObject({ fee: value });
		expect(node.message).toContain(why);
		expect(library).toContain(node.message.slice(node.message.indexOf('holds ')));
	});

	it.each([
		['an array element', { orderNos: ['HP1', 2 ** 60] }, '"orderNos"'],
		['a nested member', { meta: { rate: 0.1 + 0.2 } }, '"meta"'],
		['a value a toJSON gives', { when: { toJSON: () => Number.POSITIVE_INFINITY } }, '"when"'],
	])('refuses one inside %s, naming its field', async (_what, fields, named) => {
		expect(await refusal({ ...payout, ...fields })).toContain(named);
	});

	it('signs exact numbers as JSON writes them: 9007199254740991, 1.5, 0.001, -3, 1e-7, 123456.789', async () => {
		const numbers = { big: 9007199254740991, rate: 1.5, tiny: 0.001, neg: -3, small: 1e-7, price: 123456.789 };
		const signed = await signBody({ ...payout, ...numbers }, options);
		expect(signed).toMatchObject(numbers);
		expect(inexactNumbersInObject(numbers)).toEqual([]);
	});
});
