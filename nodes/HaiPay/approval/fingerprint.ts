import { createHash } from 'crypto';

import type { Prepared } from '../execute/types';

/**
 * The fingerprint of the rows a run would pay: for each, the currency, the App ID that signs it and every field
 * that would be sent (payee, amount, orderId ...). Payout → Check gives it beside the totals an approver sees;
 * Payout → Create, given it as "Approved Fingerprint", pays only when its own rows give the same one. Rows are
 * sorted first, so that the order of the sheet does not matter; what is paid, to whom and how much does.
 */

/** The version, so that an approval made under another rule is refused rather than compared. */
const PREFIX = 'v1:';

function rowLine(prepared: Prepared): string {
	const fields = Object.keys(prepared.body)
		.filter((name) => prepared.body[name] !== undefined)
		.sort()
		.map((name) => [name, prepared.body[name]]);
	return JSON.stringify([prepared.currency, prepared.signer?.appId ?? null, fields]);
}

export function rowsFingerprint(rows: readonly Prepared[]): string {
	const lines = rows.map(rowLine).sort();
	return `${PREFIX}${createHash('sha256').update(lines.join('\n')).digest('hex')}`;
}

/** Whether a value reads as a fingerprint this version writes. */
export function isFingerprint(value: string): boolean {
	return /^v1:[0-9a-f]{64}$/.test(value);
}
