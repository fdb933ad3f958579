import { existsSync, readFileSync } from 'fs';
import { mkdir, rename, writeFile } from 'fs/promises';
import { dirname } from 'path';

import type { CallbackJob } from './callbacks';
import type { BookSnapshot } from './order-book';
import type { Refund } from './refunds';

export interface SavedState {
	version: 1;
	savedAt: string;
	book: BookSnapshot;
	callbacks: CallbackJob[];
	/** Card refunds; absent in files saved before the sandbox knew refunds. */
	refunds?: Refund[];
}

export function loadState(file: string): SavedState | undefined {
	if (!existsSync(file)) return undefined;
	const parsed = JSON.parse(readFileSync(file, 'utf8')) as SavedState;
	if (parsed.version !== 1) throw new Error(`${file}: unknown sandbox state version ${String(parsed.version)}`);
	return parsed;
}

/**
 * Writes the state a short while after it changes, never on the request path: a burst of requests costs one
 * write. The file is replaced by rename, so a crash mid-write leaves the previous state whole.
 */
export class StateWriter {
	private timer?: NodeJS.Timeout;
	private writing: Promise<void> = Promise.resolve();
	private dirty = false;

	constructor(
		private readonly file: string,
		private readonly debounceMs: number,
		private readonly snapshot: () => SavedState,
	) {}

	markDirty(): void {
		this.dirty = true;
		if (this.timer) return;
		this.timer = setTimeout(() => {
			this.timer = undefined;
			void this.flush();
		}, this.debounceMs);
	}

	async flush(): Promise<void> {
		if (this.timer) {
			clearTimeout(this.timer);
			this.timer = undefined;
		}
		const previous = this.writing;
		const next = previous.then(async () => {
			if (!this.dirty) return;
			this.dirty = false;
			const text = JSON.stringify(this.snapshot());
			const temp = `${this.file}.${process.pid}.tmp`;
			await mkdir(dirname(this.file), { recursive: true });
			await writeFile(temp, text);
			await rename(temp, this.file);
		});
		this.writing = next.catch(() => undefined);
		return next;
	}
}
