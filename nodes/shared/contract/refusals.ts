/**
 * What an envelope with status "0" means for a create. HaiPay publishes no list of its codes (docs/haipay-facts.md)
 * and answers some upstream failures with status "0" too, asking merchants to query before resending. So the
 * reading is conservative: a refusal counts as "nothing was created" only when its words say the request itself
 * was refused; anything that may be a failure on HaiPay's side, and anything not recognised, is `unknown`.
 * The rules are tried in order; the first that matches decides. docs/haipay-node.md#bulk-payouts-unknown-outcomes-and-retries
 * lists this table, and test/unit/refusals.test.ts holds it to these rules.
 */

type RefusalOutcome = 'unknown' | 'duplicate' | 'rejected';

interface RefusalRule {
	outcome: RefusalOutcome;
	/** What the rule recognises, in the words of that table. */
	meaning: string;
	/** Error codes whose meaning HaiPay documents. */
	codes?: string[];
	/** Matched against the envelope's `msg`. */
	pattern?: RegExp;
}

export const REFUSAL_RULES: RefusalRule[] = [
	{
		outcome: 'unknown',
		meaning:
			'HaiPay could not finish or is not sure: time-outs, HTTP 5xx, system or internal errors, busy, exceptions, network and upstream failures, and any advice to query or retry',
		pattern:
			/time[\s-]*d?[\s-]*out|超时|HttpStatus|HTTP\s*5\d\d|\b5\d\d\s+(?:bad|gateway|internal|service)|gateway|system|系统|internal|busy|繁忙|异常|exception|network|网络|upstream|unavailable|unknown error|未知|query|查询|retry|try again|稍后|processing|处理中/i,
	},
	{
		outcome: 'duplicate',
		meaning:
			'the orderId is already used: an order with it exists; or what a change asks is already so (a subscription already cancelled)',
		pattern: /already exist|already used|already cancel|duplicate|repeat|重复|已存在|已取消/i,
	},
	{
		outcome: 'rejected',
		meaning:
			'the request itself was refused: its format or a field (required, invalid, must, pattern, length), the signature, the appId or merchant, permission, balance, channel or bank code configuration, the token, the endpoint',
		codes: ['4002'],
		pattern:
			/sign|签名|appId|app id|merchant|商户|permission|权限|forbidden|not allowed|balance|余额|insufficient|channel|渠道|通道|bank\s*code|required|must|invalid|format|pattern|length|格式|不能为空|参数|parameter|not support|不支持|not enabled|disabled|exceed|超过|limit|限额|token|endpoint/i,
	},
];

/** The first rule that matches a status-"0" answer, or undefined: an unrecognised refusal is `unknown`. */
function refusalRuleOf(code: string, message: string): RefusalRule | undefined {
	return REFUSAL_RULES.find((rule) => rule.codes?.includes(code) === true || rule.pattern?.test(message) === true);
}

export function refusalOutcome(code: string, message: string): RefusalOutcome {
	return refusalRuleOf(code, message)?.outcome ?? 'unknown';
}
