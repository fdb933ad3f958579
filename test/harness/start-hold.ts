/**
 * Execution starts held as a slow database holds n8n's (WebhookServer.holdExecutionStarts): after the trigger emitted
 * and the execution's static data was loaded, before n8n stores the execution and answers.
 */

/** What a served workflow keeps of a hold while it is set. */
export interface StartHold {
	reached: () => void;
	released: Promise<void>;
}

/** Holds every execution start until released; `reached` resolves once one waits (WebhookServer.holdExecutionStarts). */
export function holdStarts(served: { startHold?: StartHold }): {
	reached: Promise<void>;
	waiting: () => number;
	release: () => void;
} {
	let reached = () => {};
	let release = () => {};
	let waiting = 0;
	const arrived = new Promise<void>((resolve) => (reached = resolve));
	const released = new Promise<void>((resolve) => (release = resolve));
	served.startHold = {
		reached: () => {
			waiting += 1;
			reached();
		},
		released,
	};
	return {
		reached: arrived,
		waiting: () => waiting,
		release: () => {
			if (served.startHold?.released === released) served.startHold = undefined;
			release();
		},
	};
}

/** A start held as a slow database holds it (holdStarts): says it waits, then waits for the release. */
export async function passHold(hold: StartHold): Promise<void> {
	hold.reached();
	await hold.released;
}
