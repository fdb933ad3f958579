/**
 * Outcomes on demand. Magic values ride in a request (a recipient `name`), so a workflow can reach a path with no
 * access to the sandbox; fault rules are set through the control API, per endpoint or for all, for the next N
 * requests or until cleared.
 */

export type FaultType =
	| 'latency'
	| 'httpError'
	| 'drop'
	| 'timeout'
	| 'badSignature'
	| 'replaceData'
	| 'echo'
	| 'statusZero'
	| 'redirect'
	| 'slowBody'
	| 'endlessBody';

export interface FaultRule {
	type: FaultType;
	/**
	 * `before`: the request is not handled at all (nothing is created). `after`: it is handled (an order is
	 * created, money is held) and then the answer is lost or spoiled. Default `before`; `badSignature` is
	 * always `after`.
	 */
	when?: 'before' | 'after';
	/** An exact path (`/tzs/pay/apply`) or a prefix ending in `*` (`/tzs/*`). Absent: every gateway endpoint. */
	path?: string;
	/** How many matching requests the rule applies to. Absent: until cleared. */
	times?: number;
	/** `latency`: the delay. `timeout`: how long the connection is held before it is closed (default 120000). */
	ms?: number;
	/** `httpError`: the HTTP status (default 502). `redirect`: the 3xx status (default 307). */
	status?: number;
	/** `replaceData`: the `data` answered instead, signed with the platform key when it is an object. */
	data?: string | Record<string, unknown>;
	/** `statusZero`: the envelope's error code and message (default 9999, "System busy, please query the order"). */
	code?: string;
	msg?: string;
	/** `redirect`: the Location header (default the same path on the same sandbox). */
	location?: string;
	/** `slowBody`: bytes sent, one every `ms` (default 500) ms (default 200 bytes). */
	bytes?: number;
}

export interface ActiveFault extends FaultRule {
	id: number;
	/** Requests this rule has applied to so far. */
	hits: number;
}

const TYPES: FaultType[] = [
	'latency',
	'httpError',
	'drop',
	'timeout',
	'badSignature',
	'replaceData',
	'echo',
	'statusZero',
	'redirect',
	'slowBody',
	'endlessBody',
];

/** Faults that spoil an answer the gateway made, so they apply after handling whatever `when` says. */
const ALWAYS_AFTER = new Set<FaultType>(['badSignature', 'replaceData', 'echo']);

export function checkRule(rule: unknown): FaultRule {
	if (rule === null || typeof rule !== 'object') throw new Error('a fault rule must be an object');
	const r = rule as Record<string, unknown>;
	if (!TYPES.includes(r.type as FaultType)) throw new Error(`fault type must be one of ${TYPES.join(', ')}`);
	if (r.when !== undefined && r.when !== 'before' && r.when !== 'after')
		throw new Error('when must be before or after');
	if (r.path !== undefined && (typeof r.path !== 'string' || !r.path.startsWith('/')))
		throw new Error('path must start with /');
	for (const key of ['times', 'ms', 'status', 'bytes'] as const) {
		if (r[key] !== undefined && (!Number.isInteger(r[key]) || (r[key] as number) < 0)) {
			throw new Error(`${key} must be a non-negative integer`);
		}
	}
	const [low, high] = r.type === 'redirect' ? [300, 399] : [400, 599];
	if (r.status !== undefined && ((r.status as number) < low || (r.status as number) > high)) {
		throw new Error(`status must be an HTTP ${r.type === 'redirect' ? 'redirect' : 'error'} status (${low}-${high})`);
	}
	if (
		r.type === 'replaceData' &&
		typeof r.data !== 'string' &&
		(r.data === null || typeof r.data !== 'object' || Array.isArray(r.data))
	) {
		throw new Error('replaceData needs data: a string or an object');
	}
	for (const key of ['code', 'msg', 'location'] as const) {
		if (r[key] !== undefined && typeof r[key] !== 'string') throw new Error(`${key} must be a string`);
	}
	return {
		type: r.type as FaultType,
		when: ALWAYS_AFTER.has(r.type as FaultType) ? 'after' : ((r.when as 'before' | 'after' | undefined) ?? 'before'),
		path: r.path as string | undefined,
		times: r.times as number | undefined,
		ms: r.ms as number | undefined,
		status: r.status as number | undefined,
		data: r.data as FaultRule['data'],
		code: r.code as string | undefined,
		msg: r.msg as string | undefined,
		location: r.location as string | undefined,
		bytes: r.bytes as number | undefined,
	};
}

function matches(rule: FaultRule, path: string): boolean {
	if (rule.path === undefined) return true;
	if (rule.path.endsWith('*')) return path.startsWith(rule.path.slice(0, -1));
	return rule.path === path;
}

export class FaultBox {
	private rules: ActiveFault[] = [];
	private nextId = 1;

	list(): ActiveFault[] {
		return this.rules.map((rule) => ({ ...rule }));
	}

	set(rules: FaultRule[]): ActiveFault[] {
		const checked = rules.map(checkRule);
		this.rules = [];
		return checked.map((rule) => this.add(rule));
	}

	add(rule: FaultRule): ActiveFault {
		const active: ActiveFault = { ...checkRule(rule), id: this.nextId++, hits: 0 };
		this.rules.push(active);
		return { ...active };
	}

	clear(): void {
		this.rules = [];
	}

	/**
	 * The rules that apply to this request at this stage, used up as they apply. Latency rules add up; of the
	 * others only the first applies, since a request can be lost only once.
	 */
	take(path: string, stage: 'before' | 'after'): { latencyMs: number; fault?: ActiveFault } {
		let latencyMs = 0;
		let fault: ActiveFault | undefined;
		for (const rule of this.rules) {
			if (rule.when !== stage || !matches(rule, path)) continue;
			if (rule.type === 'latency') {
				latencyMs += rule.ms ?? 0;
				rule.hits += 1;
			} else if (!fault) {
				fault = rule;
				rule.hits += 1;
			}
		}
		this.rules = this.rules.filter((rule) => rule.times === undefined || rule.hits < rule.times);
		return { latencyMs, fault: fault ? { ...fault } : undefined };
	}
}

/** What a magic recipient name does. Names are matched case-insensitively, with spaces trimmed. */
export type MagicEffect =
	| { kind: 'plan'; plan: 'failed' | 'hold'; reason?: string }
	| { kind: 'lose'; fault: 'timeout' | 'drop' | 'httpError' }
	| { kind: 'reject'; code: string; message: string };

export const MAGIC_NAMES: Record<string, { effect: MagicEffect; what: string }> = {
	'fail payout': {
		effect: { kind: 'plan', plan: 'failed', reason: 'Bank return: account invalid, closed or frozen' },
		what: 'the order is created and later fails (status 3) with a bank-return errorMsg; the held money returns to the balance',
	},
	'fail payment': {
		effect: { kind: 'plan', plan: 'failed', reason: 'Card declined by issuer' },
		what: 'same as Fail Payout, with a card-declined errorMsg (meant for USD MIT collections)',
	},
	'stay processing': {
		effect: { kind: 'plan', plan: 'hold' },
		what: 'the order is created and stays processing (status 1) until settled through the control API',
	},
	'time out': {
		effect: { kind: 'lose', fault: 'timeout' },
		what: 'the order is created, then the gateway never answers (the connection is held, then closed)',
	},
	'reset connection': {
		effect: { kind: 'lose', fault: 'drop' },
		what: 'the order is created, then the connection is reset without an answer',
	},
	'server error': {
		effect: { kind: 'lose', fault: 'httpError' },
		what: 'the order is created, then the gateway answers HTTP 502 with an HTML page',
	},
	'no permission': {
		effect: { kind: 'reject', code: '4010', message: 'No permission to pay for products' },
		what: 'error envelope 4010, nothing is created',
	},
	'no channel': {
		effect: { kind: 'reject', code: '4002', message: 'channel code does not exist' },
		what: 'error envelope 4002, nothing is created',
	},
};

export function magicOf(name: unknown): MagicEffect | undefined {
	if (typeof name !== 'string') return undefined;
	return MAGIC_NAMES[name.trim().replace(/\s+/g, ' ').toLowerCase()]?.effect;
}

/** bankCode values that the gateway's channel configuration does not know (error 4002). */
export const UNKNOWN_BANK_CODE = 'NOSUCHBANK';
