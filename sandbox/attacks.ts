import { ControlError } from './control-error';
import type { Gateway } from './gateway';
import type { Merchant } from './merchants';
import type { Order } from './orders';

export const CALLBACK_ATTACKS = ['replay', 'resplit', 'regressed', 'respelled', 'oversized'] as const;
export type CallbackAttack = (typeof CALLBACK_ATTACKS)[number];

export interface AttackOptions {
	url?: string;
	fold?: string;
	status?: number;
	fields?: number;
}

/** The body an attack sends, and the exact text to post when the body as JSON is not what goes on the wire. */
export interface ForgedCallback {
	body: Record<string, unknown>;
	payload?: string;
}

type Forger = (gateway: Gateway, order: Order, merchant: Merchant, options: AttackOptions) => ForgedCallback;

/** Byte order of names, as the signed string sorts them (plain ASCII names here). */
function byteOrder(a: string, b: string): number {
	return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

const replay: Forger = (gateway, order) => {
	const first = gateway.callbacks
		.attempts()
		.find((attempt) => attempt.orderNo === order.orderNo && attempt.attempt === 1);
	return { body: first?.body ?? gateway.callbackBody(order) };
};

const resplit: Forger = (gateway, order, _merchant, options) => {
	const genuine = gateway.callbackBody(order);
	const fold = options.fold ?? 'orderNo';
	const signed = Object.keys(genuine)
		.filter((key) => key !== 'sign' && genuine[key] !== '' && genuine[key] !== null && genuine[key] !== undefined)
		.sort(byteOrder);
	const at = signed.indexOf(fold);
	if (at < 1) throw new ControlError(400, `${fold} is not a signed field of this callback with one before it`);
	const into = signed[at - 1];
	const body = { ...genuine, [into]: `${String(genuine[into])}&${fold}=${String(genuine[fold])}` };
	delete body[fold];
	return { body };
};

const regressed: Forger = (gateway, order, merchant, options) => {
	const status = options.status ?? 1;
	if (!Number.isInteger(status) || [2, 3, 4, 5].includes(status))
		throw new ControlError(400, 'status must be a non-final integer');
	const earlier: Record<string, unknown> = { ...gateway.callbackBody(order), status };
	delete earlier.sign;
	delete earlier.payTime;
	delete earlier.errorMsg;
	delete earlier.tokenID;
	earlier.sign = gateway.signData(earlier, merchant);
	return { body: earlier };
};

const respelled: Forger = (gateway, order) => {
	const body = gateway.callbackBody(order);
	return { body, payload: JSON.stringify(body).replace('"sign":', '"\\u0073ign":') };
};

const oversized: Forger = (_gateway, order, _merchant, options) => {
	const fields = options.fields ?? 300_000;
	if (!Number.isInteger(fields) || fields < 1 || fields > 2_000_000)
		throw new ControlError(400, 'fields must be an integer from 1 to 2,000,000');
	const parts = [`"appId":${order.appId}`, `"orderNo":${JSON.stringify(order.orderNo)}`, '"status":2'];
	for (let index = 0; index < fields; index++) parts.push(`"k${index}":"v"`);
	parts.push('"sign":"forged"');
	const payload = `{${parts.join(',')}}`;
	return { body: { appId: order.appId, orderNo: order.orderNo, status: 2, fields, bytes: payload.length }, payload };
};

const FORGERS: Record<CallbackAttack, Forger> = { replay, resplit, regressed, respelled, oversized };

/** Builds the callback an attack sends (see SandboxControl.attackCallback). */
export function forgeCallback(
	gateway: Gateway,
	order: Order,
	merchant: Merchant,
	attack: CallbackAttack,
	options: AttackOptions,
): ForgedCallback {
	// The name comes from a request body: only the listed attacks, never a member every object has.
	if (!CALLBACK_ATTACKS.includes(attack))
		throw new ControlError(400, `attack must be one of ${CALLBACK_ATTACKS.join(', ')}`);
	return FORGERS[attack](gateway, order, merchant, options);
}
