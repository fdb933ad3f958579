/**
 * The library decides a create's answer as the node does: verifyAnswer says only that HaiPay signed it, and
 * verifyAcceptance says, through the node's own judge (whyNotAccepted), whether it shows HaiPay took the create. The
 * signed "no such order" that the node's query gets, replayed as a create's answer, is signed and no acceptance.
 * Answers are signed by the sandbox's signer with the test platform key (test/helpers/signing.ts).
 */
import type { IDataObject } from 'n8n-workflow';

import * as library from '../../index';
import { whyNotAccepted } from '../../nodes/shared/products/judge';
import { PAYOUT_ORDER } from '../../nodes/shared/products/order';
import { parsePrivateKey } from '../../nodes/shared/signing/keys';
import { TEST_KEYS } from '../helpers/keys';
import { withSignature } from '../helpers/signing';

const SECRET = 'library-acceptance-secret';
const PLATFORM = parsePrivateKey(TEST_KEYS.platformPrivate);
const OTHER = parsePrivateKey(TEST_KEYS.otherPrivate);
const haipay = { secretKey: SECRET, haipayPublicKey: TEST_KEYS.platformPublic };

function envelope(data: IDataObject, key = PLATFORM, status = '1', error = '00000000') {
	return { status, error, msg: 'success', data: withSignature(data, SECRET, key) };
}

/** The library's verdict, and the node's rule's on the same data once it is signed. */
async function verdicts(answer: ReturnType<typeof envelope>, orderId = 'PO-1') {
	const { sign: _sign, ...data } = answer.data;
	return {
		signed: await library.verifyAnswer(answer, haipay),
		accepted: await library.verifyAcceptance(answer, { ...haipay, orderId }),
		node:
			whyNotAccepted(PAYOUT_ORDER, { type: 'data', data, verification: 'verified' }, { ownId: orderId }) === undefined,
	};
}

describe('verifyAcceptance says what the node says', () => {
	it('the node\'s own signed "no such order", replayed as a payout\'s answer: signed, and no acceptance', async () => {
		const replay = envelope({ orderId: 'PO-1', orderNo: '', status: 3, errorMsg: 'order does not exist' });
		expect(await verdicts(replay)).toEqual({ signed: true, accepted: false, node: false });
	});

	it.each([
		["the contract's answer {orderId, orderNo}", { orderId: 'PO-1', orderNo: 'HP1' }, true],
		['orderNo and status 1', { orderId: 'PO-1', orderNo: 'HP1', status: 1 }, true],
		[
			'orderNo with status 3 and "order does not exist"',
			{ orderId: 'PO-1', orderNo: 'HP1', status: 3, errorMsg: 'order does not exist' },
			false,
		],
		['an empty orderNo', { orderId: 'PO-1', orderNo: '' }, false],
		['status "FAILED"', { orderId: 'PO-1', orderNo: 'HP1', status: 'FAILED' }, false],
		['another orderId', { orderId: 'PO-2', orderNo: 'HP1' }, false],
	])('%s', async (_what, data, accepted) => {
		expect(await verdicts(envelope(data))).toEqual({ signed: true, accepted, node: accepted });
	});

	it('a refund needs refundNo, the payment it was asked for, and no status (HaiPay publishes none)', async () => {
		const refund = { ...haipay, orderId: 'RF-1', identifier: 'refundNo' as const, orderNo: 'HPC1' };
		const taken = envelope({ orderId: 'RF-1', orderNo: 'HPC1', refundNo: 'RN1' });
		expect(await library.verifyAcceptance(taken, refund)).toBe(true);
		expect(await library.verifyAcceptance(envelope({ orderId: 'RF-1', status: 'FAILED' }), refund)).toBe(false);
		// A refund answer's orderNo is the collection's, not HaiPay's number for the refund.
		expect(await library.verifyAcceptance(envelope({ orderId: 'RF-1', orderNo: 'HPC1' }), refund)).toBe(false);
		// Another payment's refund, or one with a status HaiPay publishes for no refund: ask the refund query.
		const other = envelope({ orderId: 'RF-1', orderNo: 'HPC2', refundNo: 'RN1' });
		expect(await library.verifyAcceptance(other, refund)).toBe(false);
		const processing = envelope({ orderId: 'RF-1', orderNo: 'HPC1', refundNo: 'RN1', status: 'PROCESSING' });
		expect(await library.verifyAcceptance(processing, refund)).toBe(false);
		await expect(library.verifyAcceptance(taken, { ...refund, orderNo: undefined })).rejects.toThrow(
			/orderNo is missing/,
		);
	});

	it('an answer for another amount than the one sent is no acceptance', async () => {
		const answer = envelope({ orderId: 'PO-1', orderNo: 'HP1', amount: '999.00' });
		expect(await library.verifyAcceptance(answer, { ...haipay, orderId: 'PO-1', amount: '100' })).toBe(false);
		expect(await library.verifyAcceptance(answer, { ...haipay, orderId: 'PO-1', amount: '999' })).toBe(true);
	});

	it('needs the signature and the success envelope, as the node does; takes the text too', async () => {
		const good = envelope({ orderId: 'PO-1', orderNo: 'HP1' });
		const check = (answer: unknown) => library.verifyAcceptance(answer, { ...haipay, orderId: 'PO-1' });
		expect(await check(JSON.stringify(good))).toBe(true);
		expect(await check(Buffer.from(JSON.stringify(good)))).toBe(true);
		expect(await check(envelope({ orderId: 'PO-1', orderNo: 'HP1' }, OTHER))).toBe(false);
		expect(await check({ ...good, data: { ...good.data, orderNo: 'HP2' } })).toBe(false);
		expect(await check({ ...good, status: '0' })).toBe(false);
		expect(await check({ ...good, error: '10000001' })).toBe(false);
		expect(await check(good.data)).toBe(false);
		expect(await check('not json')).toBe(false);
	});

	it("throws SigningError for a missing orderId or an identifier it does not know: those are the caller's", async () => {
		const good = envelope({ orderId: 'PO-1', orderNo: 'HP1' });
		await expect(library.verifyAcceptance(good, { ...haipay, orderId: '' })).rejects.toThrow(/orderId is missing/);
		await expect(
			library.verifyAcceptance(good, { ...haipay, orderId: 'PO-1', identifier: 'payNo' as 'orderNo' }),
		).rejects.toThrow(/identifier must be/);
		await expect(library.verifyAcceptance(good, { ...haipay, orderId: 'PO-1' })).resolves.toBe(true);
	});
});
