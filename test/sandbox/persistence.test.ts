import { existsSync, mkdtempSync, readFileSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import { APP, call, mitApply, startReceiver, tzsPayout, withSandbox, type Body } from './helpers';

describe('persistence across a restart', () => {
	const dir = mkdtempSync(join(tmpdir(), 'haipay-sandbox-'));
	const stateFile = join(dir, 'nested', 'state.json');
	afterAll(() => rmSync(dir, { recursive: true, force: true }));

	it('keeps orders, balances, tokens and pending callbacks', async () => {
		const receiver = await startReceiver([{ status: 500, body: 'down' }]);
		const first = await withSandbox({ stateFile, callbackSchedule: [600_000] });
		let processing: string;
		let tokenID: string;
		let ledger: ReturnType<typeof first.control.ledger>;
		try {
			processing = String(((await call(first, '/tzs/pay/apply', tzsPayout({ amount: '5000' }))).data as Body).orderNo);
			const notified = String(
				((await call(first, '/tzs/pay/apply', tzsPayout({ notifyUrl: receiver.url }))).data as Body).orderNo,
			);
			first.control.settle(notified, 'success');
			await first.waitForCallback((a) => a.orderNo === notified);
			const mit = String(((await call(first, '/usd/mit/apply', mitApply())).data as Body).orderNo);
			tokenID = String(first.control.payCashier(mit).mit?.tokenID);
			first.control.setBalance(APP.ZAR, '123.45');
			ledger = first.control.ledger(APP.TZS);
		} finally {
			await first.close();
		}
		expect(existsSync(stateFile)).toBe(true);
		const saved = JSON.parse(readFileSync(stateFile, 'utf8')) as { version: number; callbacks: unknown[] };
		expect(saved.version).toBe(1);
		expect(saved.callbacks).toHaveLength(1);

		const second = await withSandbox({ stateFile, callbackSchedule: [600_000] });
		try {
			expect(second.orders).toHaveLength(3);
			expect(second.control.order(processing)?.status).toBe(1);
			expect(second.control.ledger(APP.TZS)).toEqual(ledger);
			expect(second.control.ledger(APP.ZAR).availableBal).toBe('123.45');
			// The processing order settles after the restart, and its held money is released exactly once.
			second.control.settle(processing, 'failed');
			expect(Number(second.control.ledger(APP.TZS).availableBal)).toBeCloseTo(Number(ledger.availableBal) + 5050, 2);
			// The saved token still charges without a page.
			const charge = await call(second, '/usd/mit/apply', mitApply({ tokenID }));
			expect(charge.status).toBe('1');
			// Order numbers go on from where they were.
			expect(new Set(second.orders.map((o) => o.orderNo)).size).toBe(4);
			// The pending callback resumes.
			await second.control.flushCallbacks();
			expect(second.callbacks.at(-1)).toMatchObject({ attempt: 2, acknowledged: true });
			expect(receiver.received).toHaveLength(2);
		} finally {
			await second.close();
			await receiver.close();
		}
	});

	it('writes soon after a change without waiting for close', async () => {
		const file = join(dir, 'debounced.json');
		const sandbox = await withSandbox({ stateFile: file, persistDebounceMs: 10 });
		try {
			await call(sandbox, '/tzs/pay/apply', tzsPayout());
			await sandbox.saveState();
			expect((JSON.parse(readFileSync(file, 'utf8')) as { book: { orders: unknown[] } }).book.orders).toHaveLength(1);
		} finally {
			await sandbox.close();
		}
	});
});
