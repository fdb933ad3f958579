import { AsyncLocalStorage } from 'async_hooks';
import type { LogMetadata, Logger as WorkflowLogger } from 'n8n-workflow';

export type LogLevel = 'error' | 'warn' | 'info' | 'debug';

export interface LogLine {
	level: LogLevel;
	message: string;
	metadata: LogMetadata | undefined;
	/** The message and every metadata value flattened into one string (errors expanded), for "never contains" checks. */
	text: string;
}

const LEVELS: LogLevel[] = ['error', 'warn', 'info', 'debug'];

/**
 * Serializes anything a node might log, expanding errors (their non-enumerable message and stack, plus
 * description, context, cause) so that a secret hidden inside an error still shows up in `text`.
 */
export function flatten(value: unknown): string {
	const seen = new WeakSet<object>();
	const replacer = (_key: string, current: unknown): unknown => {
		if (typeof current === 'bigint') return current.toString();
		if (Buffer.isBuffer(current)) return `<Buffer ${current.toString('base64')}>`;
		if (current !== null && typeof current === 'object') {
			if (seen.has(current)) return '[Circular]';
			seen.add(current);
			if (current instanceof Error) {
				const expanded: Record<string, unknown> = {
					name: current.name,
					message: current.message,
					stack: current.stack,
				};
				for (const key of Object.getOwnPropertyNames(current)) {
					if (!(key in expanded)) expanded[key] = (current as unknown as Record<string, unknown>)[key];
				}
				if ('cause' in current) expanded.cause = current.cause;
				return expanded;
			}
		}
		return current;
	};
	if (typeof value === 'string') return value;
	try {
		return JSON.stringify(value, replacer) ?? String(value);
	} catch {
		return String(value);
	}
}

/**
 * The logger n8n-core hands to nodes (`this.logger`) and uses itself (LoggerProxy). Every line is kept in memory;
 * lines written inside a harness run are also attributed to that run, so that concurrent runs in one test file
 * do not see each other's lines.
 */
export class CapturingLogger implements WorkflowLogger {
	readonly lines: LogLine[] = [];

	private readonly scope = new AsyncLocalStorage<LogLine[]>();

	/** Lines at or above this level are echoed to stderr (HARNESS_LOG=debug|info|warn|error). */
	echoLevel: LogLevel | undefined;

	constructor(echoLevel?: string) {
		this.echoLevel = LEVELS.includes(echoLevel as LogLevel) ? (echoLevel as LogLevel) : undefined;
	}

	/** Runs `fn` with every line it logs (directly or in anything it awaits) also appended to `sink`. */
	async capture<T>(sink: LogLine[], fn: () => Promise<T>): Promise<T> {
		return await this.scope.run(sink, fn);
	}

	error(message: string, metadata?: LogMetadata): void {
		this.write('error', message, metadata);
	}

	warn(message: string, metadata?: LogMetadata): void {
		this.write('warn', message, metadata);
	}

	info(message: string, metadata?: LogMetadata): void {
		this.write('info', message, metadata);
	}

	debug(message: string, metadata?: LogMetadata): void {
		this.write('debug', message, metadata);
	}

	/** n8n-core's Logger API: scoped loggers share the capture. */
	scoped(): this {
		return this;
	}

	clear(): void {
		this.lines.length = 0;
	}

	private write(level: LogLevel, message: string, metadata?: LogMetadata): void {
		const text = metadata === undefined ? flatten(message) : `${flatten(message)} ${flatten(metadata)}`;
		const line: LogLine = { level, message, metadata, text };
		this.lines.push(line);
		this.scope.getStore()?.push(line);
		if (this.echoLevel !== undefined && LEVELS.indexOf(level) <= LEVELS.indexOf(this.echoLevel)) {
			process.stderr.write(`[${level}] ${text}\n`);
		}
	}
}
