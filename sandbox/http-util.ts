import type { IncomingMessage, ServerResponse } from 'http';

export const BODY_LIMIT = 1_048_576;

export class BodyTooLarge extends Error {}

export function readBody(req: IncomingMessage, limit = BODY_LIMIT): Promise<string> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		req.on('data', (chunk: Buffer) => {
			size += chunk.length;
			if (size > limit) {
				reject(new BodyTooLarge(`request body is larger than ${limit} bytes`));
				req.resume();
				return;
			}
			chunks.push(chunk);
		});
		req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
		req.on('error', reject);
		// A client gone before its body ended: the handler must finish (it is counted in flight until then).
		req.on('close', () => {
			if (!req.complete) reject(new Error('the client went away before its body ended'));
		});
	});
}

export function sendJson(res: ServerResponse, status: number, value: unknown): void {
	const text = JSON.stringify(value);
	res.writeHead(status, {
		'Content-Type': 'application/json; charset=utf-8',
		'Content-Length': Buffer.byteLength(text),
	});
	res.end(text);
}

export function sendFile(res: ServerResponse, contentType: string, filename: string, bytes: Buffer): void {
	res.writeHead(200, {
		'Content-Type': contentType,
		'Content-Length': bytes.length,
		'Content-Disposition': `attachment; filename="${filename}"`,
	});
	res.end(bytes);
}

export function sendHtml(res: ServerResponse, status: number, html: string): void {
	res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': Buffer.byteLength(html) });
	res.end(html);
}

export function escapeHtml(text: string): string {
	return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function delay(ms: number): Promise<void> {
	return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms).unref()) : Promise.resolve();
}
