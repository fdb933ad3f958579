import type { IWebhookFunctions } from 'n8n-workflow';

import type { Callback } from './callback';
import { finalBefore } from './dedup';
import { openMemory, type RepeatMemory } from './memory';
import { shown } from './reply';

/*
 * Repeat detection for one callback, behind one small interface: its keys (dedup.ts, found when it was parsed),
 * what this trigger has emitted (memory.ts), and the callbacks being confirmed with HaiPay right now.
 */

export interface RepeatOptions {
	deduplicate: boolean;
	windowMinutes: number;
}

/** What one callback sees of the trigger's repeats. */
export interface Repeats {
	/**
	 * Why the callback starts nothing: an earlier status of an order whose final status was already emitted (an old
	 * callback sent again), or, with Deduplicate on, a repeat within the window. Undefined for a new callback.
	 */
	repeatOf(): string | undefined;
	/**
	 * Why the callback must wait (503): the first delivery of the same result is still being started by n8n, whose
	 * run may yet fail; acknowledging this copy now could lose the result. Undefined otherwise.
	 */
	startingNow(): string | undefined;
	/**
	 * Holds the callback while HaiPay's order query confirms it: the release, or undefined when another request of
	 * this process holds the same callback now (a copy arriving meanwhile is not emitted twice).
	 */
	hold(): (() => void) | undefined;
	/**
	 * Records the emission and resolves once it is in static data n8n will save (memory.ts `saved`, never past
	 * `deadline`); or says why not to emit, when another request recorded the same callback meanwhile.
	 */
	remember(deadline: number): Promise<string | undefined>;
	/** When this request wrote the memory: what writes it again while the emitted item is stored (carry.ts). */
	resaver(): (() => void) | undefined;
}

/** Keys of callbacks being confirmed with HaiPay right now, per trigger. */
const confirming = new Map<string, Set<string>>();
/** Keys of callbacks whose run n8n is starting right now (remembered, not yet answered), per trigger. */
const starting = new Map<string, Set<string>>();

function keysOf(registry: Map<string, Set<string>>, scope: string): Set<string> {
	let keys = registry.get(scope);
	if (keys === undefined) {
		keys = new Set();
		registry.set(scope, keys);
	}
	return keys;
}

/**
 * n8n answers SUCCESS only once the execution is stored (and queued, in queue mode); any other answer means the
 * workflow did not start (its database or Redis failed), and HaiPay sends the callback again. That resend must
 * start it then, not be taken for a repeat: what this request recorded is taken back. n8n's own call that ends the
 * answer tells which, also when HaiPay's connection closed before it (then no `finish` event ever comes); until
 * that call the key is `starting`, and a copy of the callback waits for it (503).
 */
function settleWhenAnswered(ctx: IWebhookFunctions, memory: RepeatMemory, recorded: string[], scope: string): void {
	if (recorded.length === 0) return;
	const res = ctx.getResponseObject();
	const pending = keysOf(starting, scope);
	for (const key of recorded) pending.add(key);
	let settled = false;
	const settle = (started: boolean) => {
		if (settled) return;
		settled = true;
		for (const key of recorded) {
			pending.delete(key);
			if (!started) memory.withdraw(key);
		}
	};
	const end = res.end.bind(res) as (...args: unknown[]) => unknown;
	res.end = ((...args: unknown[]) => {
		settle(res.statusCode >= 200 && res.statusCode < 300);
		return end(...args);
	}) as typeof res.end;
	res.once('error', () => settle(false));
}

/** What remember() says when another request recorded the same callback and its run is still being started. */
export const STARTING = 'starting';

export function openRepeats(ctx: IWebhookFunctions, options: RepeatOptions, callback: Callback): Repeats {
	const scope = `${ctx.getWorkflow().id ?? ''}/${ctx.getNode().id}`;
	const memory = openMemory({
		scope,
		staticData: ctx.getWorkflowStaticData('node'),
		nowMs: Date.now(),
		windowSeconds: options.windowMinutes * 60,
		warn: (message) => ctx.logger.warn(message),
	});
	const { dedupKey: key, finalMark } = callback.keys;
	const repeated = `a repeated callback (same orderNo and status within ${options.windowMinutes} minutes)`;
	return {
		startingNow() {
			if (key === undefined || !keysOf(starting, scope).has(key)) return undefined;
			return 'the first delivery of the same result is still being started by n8n; HaiPay\'s resend is answered once it has run';
		},
		repeatOf() {
			const final = finalBefore(memory.recall, callback.output, callback.keys);
			if (final !== undefined) {
				return `its status ${shown(callback.output.status)} comes before the final status ${final} already emitted for this order: an old callback sent again`;
			}
			return options.deduplicate && key !== undefined && memory.recall(key) ? repeated : undefined;
		},
		hold() {
			const held = keysOf(confirming, scope);
			const inFlight = key ?? '';
			if (held.has(inFlight)) return undefined;
			held.add(inFlight);
			return () => held.delete(inFlight);
		},
		async remember(deadline) {
			if (key === undefined) return undefined;
			const recorded: string[] = [];
			if (memory.remember(key)) recorded.push(key);
			else if (options.deduplicate) return keysOf(starting, scope).has(key) ? STARTING : repeated;
			// A partial or over-collected result keys on its amount and time; its status is remembered on its own too.
			if (finalMark !== undefined && memory.remember(finalMark)) recorded.push(finalMark);
			settleWhenAnswered(ctx, memory, recorded, scope);
			await memory.saved(deadline);
			return undefined;
		},
		resaver: () => memory.resaver(),
	};
}
