import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { isIP } from 'net';

import { compareDecimal } from '../money';
import { bdtPayApply } from './bdt-pay-apply';
import { egpPayApply } from './egp-pay-apply';
import { accountLedger } from './ledger';
import { ngnPayApply } from './ngn-pay-apply';
import { orderQuery } from './query';
import { tzsPayApply } from './tzs-pay-apply';
import { usdMitApply } from './usd-mit-apply';
import { voucherPdf } from './voucher';
import { zarPayApply } from './zar-pay-apply';
import { brlPayApply } from './brl-pay-apply';
import { eurPayApply } from './eur-pay-apply';
import { idrPayApply } from './idr-pay-apply';
import { inrPayApply } from './inr-pay-apply';
import { mxnPayApply } from './mxn-pay-apply';
import { myrPayApply } from './myr-pay-apply';
import { phpPayApply } from './php-pay-apply';
import { pkrPayApply } from './pkr-pay-apply';
import { thbPayApply } from './thb-pay-apply';
import { tryPayApply } from './try-pay-apply';
import { usdPayApply } from './usd-pay-apply';
import { vndPayApply } from './vnd-pay-apply';
import { bdtCollectApply } from './bdt-collect-apply';
import { brlCollectApply } from './brl-collect-apply';
import { idrCollectApply } from './idr-collect-apply';
import { phpCollectApply } from './php-collect-apply';
import { usdRefundApply, usdRefundQuery } from './usd-refund';
import { krwPayApply } from './krw-pay-apply';
import { usdtPayApply } from './usdt-pay-apply';
import { usdtCollectApply } from './usdt-collect-apply';
import { usdcCollectApply } from './usdc-collect-apply';
import { subscriptionApply } from './subscription-apply';
import { subscriptionCancel } from './subscription-cancel';
import { subscriptionQuery } from './subscription-query';
import { cashierCollectApply } from './cashier-collect-apply';
import { cashierCollectQuery } from './cashier-collect-query';
import { usdtFixedAddress } from './usdt-fixed-address';

export const SCHEMAS = {
	tzsPayApply,
	zarPayApply,
	ngnPayApply,
	egpPayApply,
	bdtPayApply,
	usdMitApply,
	orderQuery,
	accountLedger,
	voucherPdf,
	brlPayApply,
	inrPayApply,
	idrPayApply,
	phpPayApply,
	mxnPayApply,
	eurPayApply,
	usdPayApply,
	thbPayApply,
	vndPayApply,
	myrPayApply,
	pkrPayApply,
	tryPayApply,
	usdtPayApply,
	krwPayApply,
	brlCollectApply,
	idrCollectApply,
	phpCollectApply,
	bdtCollectApply,
	usdRefundApply,
	usdRefundQuery,
	usdtCollectApply,
	usdcCollectApply,
	subscriptionApply,
	subscriptionQuery,
	subscriptionCancel,
	cashierCollectApply,
	cashierCollectQuery,
	usdtFixedAddress,
};

export type SchemaName = keyof typeof SCHEMAS;

interface DecimalRange {
	min?: string;
	max?: string;
	minExclusive?: string;
	/** The most digits before the decimal point. */
	maxWholeDigits?: number;
}

function rangeText(range: DecimalRange): string {
	if (range.min !== undefined && range.max !== undefined) return `between ${range.min} and ${range.max}`;
	if (range.min !== undefined) return `at least ${range.min}`;
	if (range.max !== undefined) return `at most ${range.max}`;
	return `greater than ${range.minExclusive}`;
}

function makeAjv(): Ajv {
	// verbose: the error formatter reads each failing schema's `hint`.
	const ajv = new Ajv({ allErrors: false, strict: true, strictRequired: false, verbose: true, coerceTypes: false });
	addFormats(ajv, ['email', 'uri', 'date']);
	ajv.addFormat('ip', { type: 'string', validate: (value: string) => isIP(value) !== 0 });
	ajv.addKeyword({ keyword: 'hint', schemaType: 'string' });
	ajv.addKeyword({
		keyword: 'decimal',
		type: 'string',
		schemaType: 'object',
		errors: true,
		validate: function decimal(this: unknown, range: DecimalRange, value: string): boolean {
			const self = decimal as typeof decimal & { errors?: Partial<ErrorObject>[] };
			// A value the pattern already refused is reported by the pattern, not twice.
			if (!/^\d+(\.\d+)?$/.test(value)) return true;
			const whole = value.split('.')[0].length;
			if (range.maxWholeDigits !== undefined && whole > range.maxWholeDigits) {
				self.errors = [
					{
						keyword: 'decimal',
						message: `must have at most ${range.maxWholeDigits} digits before the decimal point`,
						params: range,
					},
				];
				return false;
			}
			const ok =
				(range.min === undefined || compareDecimal(value, range.min) >= 0) &&
				(range.max === undefined || compareDecimal(value, range.max) <= 0) &&
				(range.minExclusive === undefined || compareDecimal(value, range.minExclusive) > 0);
			self.errors = ok ? [] : [{ keyword: 'decimal', message: `must be ${rangeText(range)}`, params: range }];
			return ok;
		},
	});
	return ajv;
}

let compiled: Record<SchemaName, ValidateFunction> | undefined;

/** Validators compile once per process: ajv compiles to code, which is slow to build and fast to run. */
function validators(): Record<SchemaName, ValidateFunction> {
	if (compiled) return compiled;
	const ajv = makeAjv();
	const out = {} as Record<SchemaName, ValidateFunction>;
	for (const name of Object.keys(SCHEMAS) as SchemaName[]) out[name] = ajv.compile(SCHEMAS[name]);
	compiled = out;
	return out;
}

function fieldOf(error: ErrorObject): string {
	if (error.keyword === 'required') return String(error.params.missingProperty);
	if (error.keyword === 'additionalProperty' || error.keyword === 'additionalProperties') {
		return String(error.params.additionalProperty);
	}
	const path = error.instancePath.replace(/^\//, '').replace(/\//g, '.');
	return path;
}

export function describeError(error: ErrorObject): { field: string; message: string } {
	const field = fieldOf(error);
	const hint = (error.parentSchema as { hint?: string } | undefined)?.hint;
	let rule: string;
	switch (error.keyword) {
		case 'required':
			rule = 'is required';
			break;
		case 'additionalProperties':
			rule = 'is not an accepted field';
			break;
		case 'enum':
			rule = `must be one of ${(error.params.allowedValues as unknown[]).join(', ')}`;
			break;
		case 'pattern':
			rule = `must match ${error.params.pattern}`;
			break;
		case 'maxLength':
			rule = `must be at most ${error.params.limit} characters`;
			break;
		case 'minLength':
			rule = error.params.limit === 1 ? 'must not be empty' : `must be at least ${error.params.limit} characters`;
			break;
		case 'maxItems':
			rule = `must have at most ${error.params.limit} entries`;
			break;
		case 'minItems':
			rule = `must have at least ${error.params.limit} entries`;
			break;
		case 'format':
			rule = `must be a valid ${error.params.format === 'ip' ? 'IP address' : error.params.format}`;
			break;
		case 'type':
			rule = `must be of type ${error.params.type}`;
			break;
		case 'anyOf': {
			// verbose: `schema` is the anyOf list, one branch per key that would do.
			const keys = (error.schema as Array<{ required?: string[] }>).flatMap((branch) => branch.required ?? []);
			rule = `${keys.join(' or ')} is required`;
			break;
		}
		default:
			rule = error.message ?? 'is invalid';
	}
	if (hint) rule = `${rule} (${hint})`;
	if (error.keyword === 'anyOf' && field === '') return { field: 'orderId', message: rule };
	return { field, message: field === '' ? `request body ${rule}` : `${field} ${rule}` };
}

export type ValidationResult = { ok: true } | { ok: false; field: string; message: string };

export function validate(name: SchemaName, body: unknown): ValidationResult {
	const check = validators()[name];
	if (check(body)) return { ok: true };
	const errors = check.errors ?? [];
	// A failed anyOf also lists its branches' errors: report the anyOf itself, after any plain failure.
	const plain = errors.find((e) => e.keyword !== 'anyOf' && !e.schemaPath.startsWith('#/anyOf'));
	const error = plain ?? errors.find((e) => e.keyword === 'anyOf') ?? errors[0];
	if (!error) return { ok: false, field: '', message: 'request body is invalid' };
	return { ok: false, ...describeError(error) };
}

/** Compiles every schema now, so that the first request does not pay for it. */
export function warmUp(): void {
	validators();
}
