import { ItemFailure } from './outcome';

/** An answer read whole: its status, headers and body bytes. */
export interface RawResponse {
	statusCode: number;
	headers: Record<string, string | string[] | undefined>;
	body: Buffer;
}

/** The part of a response stream this module uses (an `http.IncomingMessage`). */
interface BodyStream {
	on(event: 'data', listener: (chunk: Buffer | string) => void): unknown;
	on(event: 'end' | 'close', listener: () => void): unknown;
	on(event: 'error', listener: (error: Error) => void): unknown;
	removeAllListeners(): unknown;
	destroy(): unknown;
}

interface StreamedResponse {
	statusCode: number;
	headers?: RawResponse['headers'];
	body: BodyStream | Buffer | ArrayBuffer | string;
}

interface ReadLimits {
	/** Aborts when the whole answer, body included, has not arrived in time. */
	deadline: AbortSignal;
	/** Largest body in bytes. */
	limit: number;
}

/** Thrown when the deadline passes first; the code makes it read as a time-out to the caller. */
class DeadlinePassed extends Error {
	readonly code = 'ETIMEDOUT';

	constructor() {
		super('no complete answer before the deadline');
	}
}

function tooLarge(limit: number): ItemFailure {
	return new ItemFailure(
		'untrusted',
		`HaiPay's answer is larger than ${limit} bytes, the most this node reads; it was not read`,
		{},
	);
}

function isStream(body: StreamedResponse['body']): body is BodyStream {
	return (
		typeof body === 'object' && body !== null && typeof (body as BodyStream).on === 'function' && !Buffer.isBuffer(body)
	);
}

function discard(response: StreamedResponse | undefined): void {
	if (response !== undefined && isStream(response.body)) response.body.destroy();
}

/** Settles with `work`, or rejects when the deadline passes first; a late result is handed to `late`. */
async function beforeDeadline<T>(work: Promise<T>, deadline: AbortSignal, late: (value: T) => void): Promise<T> {
	if (deadline.aborted) {
		work.then(late, () => {});
		throw new DeadlinePassed();
	}
	return await new Promise<T>((resolve, reject) => {
		let settled = false;
		const onAbort = () => {
			settled = true;
			reject(new DeadlinePassed());
		};
		deadline.addEventListener('abort', onAbort, { once: true });
		work.then(
			(value) => {
				deadline.removeEventListener('abort', onAbort);
				if (settled) late(value);
				else resolve(value);
			},
			(error: unknown) => {
				deadline.removeEventListener('abort', onAbort);
				if (!settled) reject(error);
			},
		);
	});
}

/** Reads a body stream whole, destroying it as soon as it passes the limit or the deadline. */
async function readStream(stream: BodyStream, limits: ReadLimits): Promise<Buffer> {
	return await new Promise<Buffer>((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		let done = false;
		const finish = (settle: () => void) => {
			if (done) return;
			done = true;
			limits.deadline.removeEventListener('abort', onAbort);
			settle();
		};
		const stop = (error: Error) => {
			stream.removeAllListeners();
			stream.on('error', () => {});
			stream.destroy();
			chunks.length = 0;
			finish(() => reject(error));
		};
		const onAbort = () => stop(new DeadlinePassed());
		if (limits.deadline.aborted) return onAbort();
		limits.deadline.addEventListener('abort', onAbort, { once: true });
		stream.on('data', (chunk) => {
			const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
			size += bytes.length;
			if (size > limits.limit) return stop(tooLarge(limits.limit));
			chunks.push(bytes);
		});
		stream.on('end', () => finish(() => resolve(Buffer.concat(chunks, size))));
		stream.on('error', (error) => finish(() => reject(error)));
		stream.on('close', () =>
			finish(() => reject(Object.assign(new Error('the answer ended before it was complete'), { code: 'ECONNRESET' }))),
		);
	});
}

function declaredLength(headers: RawResponse['headers']): number | undefined {
	const value = headers['content-length'];
	const text = Array.isArray(value) ? value[0] : value;
	return text !== undefined && /^\d+$/.test(text) ? Number(text) : undefined;
}

/**
 * The whole answer of a request that n8n is sending, read within the deadline and the size limit. Nothing past
 * the limit is kept: the connection is closed as soon as the answer is known to be too large or too late.
 */
export async function readAnswer(sending: Promise<unknown>, limits: ReadLimits): Promise<RawResponse> {
	const response = (await beforeDeadline(sending, limits.deadline, (value) =>
		discard(value as StreamedResponse),
	)) as StreamedResponse;
	const headers = response.headers ?? {};
	const length = declaredLength(headers);
	if (length !== undefined && length > limits.limit) {
		discard(response);
		throw tooLarge(limits.limit);
	}
	const raw = response.body;
	let body: Buffer;
	if (isStream(raw)) body = await readStream(raw, limits);
	else body = Buffer.isBuffer(raw) ? raw : typeof raw === 'string' ? Buffer.from(raw, 'utf8') : Buffer.from(raw ?? []);
	if (body.length > limits.limit) throw tooLarge(limits.limit);
	return { statusCode: response.statusCode, headers, body };
}
