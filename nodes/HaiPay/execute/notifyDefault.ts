import { notifyUrl } from '../../shared/contract/rules/common';
import { ItemFailure } from '../../shared/gateway/outcome';
import type { HaiPaySettings } from '../../shared/signing/credential';
import { checkRequest } from '../validation/validate';
import type { Prepared } from './types';

/**
 * The credential's Default Notify URL, for a create whose item gives no notifyUrl: the payout workflow then reports
 * to the callback workflow's HaiPay Trigger without its URL being pasted into every node. A notifyUrl the item gives
 * (on the node or in its field) wins; a read or a refund, which take none, are left as they are. The default passes
 * the same rule as a notifyUrl the item gives, before anything is signed.
 */
export function withDefaultNotifyUrl(prepared: Prepared, settings: HaiPaySettings): Prepared {
	const fallback = settings.defaultNotifyUrl;
	if (!prepared.takesNotifyUrl || fallback === '' || prepared.body.notifyUrl !== undefined) return prepared;
	const rule = notifyUrl();
	const { body, violations } = checkRequest(
		{ path: prepared.path, fields: [rule], additionalProperties: true },
		{ notifyUrl: fallback },
	);
	if (violations.length > 0) {
		throw new ItemFailure('invalid', `The HaiPay credential's Default Notify URL: ${violations[0].message}`, {
			field: 'notifyUrl',
			rule: violations[0].rule,
		});
	}
	prepared.body.notifyUrl = body.notifyUrl;
	return prepared;
}
