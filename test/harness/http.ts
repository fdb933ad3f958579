import type { IncomingMessage, ServerResponse } from 'http';
import { parse as parseQueryString } from 'querystring';
import type { Readable } from 'stream';
import { createGunzip, createInflate } from 'zlib';

/** The request a webhook node sees: node:http's IncomingMessage with what n8n's express stack adds to it. */
export interface WebhookRequest extends IncomingMessage {
	/** Exactly the bytes received (decompressed), for signature checks over the raw body. */
	rawBody: Buffer;
	/** Parsed by content type the way n8n does: JSON, form-urlencoded and text/plain; otherwise undefined. */
	body: unknown;
	/** Lower-cased media type without parameters, e.g. 'application/json'. */
	contentType: string | undefined;
	encoding: BufferEncoding;
	query: Record<string, string | string[] | undefined>;
	params: Record<string, string>;
	path: string;
	readRawBody(): Promise<void>;
	header(name: string): string | string[] | undefined;
	get(name: string): string | string[] | undefined;
}

/** The response a webhook node sees: node:http's ServerResponse with the express methods nodes use. */
export interface WebhookResponse extends ServerResponse {
	status(code: number): WebhookResponse;
	sendStatus(code: number): WebhookResponse;
	set(field: string, value: string | string[]): WebhookResponse;
	header(field: string, value: string | string[]): WebhookResponse;
	type(contentType: string): WebhookResponse;
	send(body?: unknown): WebhookResponse;
	json(body: unknown): WebhookResponse;
}

const SHORT_TYPES: Record<string, string> = {
	json: 'application/json',
	html: 'text/html',
	text: 'text/plain',
	xml: 'application/xml',
};

async function readAll(stream: Readable): Promise<Buffer> {
	const chunks: Buffer[] = [];
	for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string));
	return Buffer.concat(chunks);
}

/** Gives an IncomingMessage the fields n8n's rawBodyReader and express put on a webhook request. */
export function asWebhookRequest(req: IncomingMessage, path: string): WebhookRequest {
	const request = req as WebhookRequest;
	const url = new URL(req.url ?? '/', 'http://127.0.0.1');
	const contentTypeHeader = req.headers['content-type'];
	const [mediaType, ...parameters] = (contentTypeHeader ?? '').split(';');
	const charset = parameters
		.map((parameter) => parameter.trim().split('='))
		.find(([key]) => key.toLowerCase() === 'charset')?.[1]
		?.replace(/"/g, '')
		.toLowerCase();
	request.contentType = mediaType.trim().toLowerCase() || undefined;
	request.encoding = (charset && Buffer.isEncoding(charset) ? charset : 'utf-8') as BufferEncoding;
	request.query = parseQueryString(url.search.slice(1)) as WebhookRequest['query'];
	request.params = {};
	request.path = path;
	request.body = undefined;
	request.header = (name) => req.headers[name.toLowerCase()];
	request.get = request.header;
	let reading: Promise<void> | undefined;
	request.readRawBody = async () => {
		reading ??= (async () => {
			const encoding = req.headers['content-encoding'];
			const stream =
				encoding === 'gzip' ? req.pipe(createGunzip()) : encoding === 'deflate' ? req.pipe(createInflate()) : req;
			request.rawBody = await readAll(stream);
		})();
		await reading;
	};
	return request;
}

/** n8n's parseBody: JSON, XML is left out (no parser here), form-urlencoded and text/plain. Throws on bad JSON. */
export function parseBody(req: WebhookRequest): void {
	const { rawBody, contentType, encoding } = req;
	if (!rawBody?.length) return;
	const text = rawBody.toString(encoding);
	if (contentType === 'application/json') req.body = JSON.parse(text) as unknown;
	else if (contentType === 'application/x-www-form-urlencoded')
		req.body = parseQueryString(text, undefined, undefined, { maxKeys: 1000 });
	else if (contentType === 'text/plain') req.body = text;
}

/** Adds to a ServerResponse the express methods webhook nodes call (status, send, json, set, ...). */
export function asWebhookResponse(res: ServerResponse): WebhookResponse {
	const response = res as WebhookResponse;
	response.status = (code) => {
		response.statusCode = code;
		return response;
	};
	response.set = (field, value) => {
		response.setHeader(field, value);
		return response;
	};
	response.header = response.set;
	response.type = (contentType) => response.set('Content-Type', SHORT_TYPES[contentType] ?? contentType);
	response.send = (body?: unknown) => {
		if (body === undefined || body === null) {
			response.end();
			return response;
		}
		if (Buffer.isBuffer(body)) {
			if (!response.hasHeader('Content-Type')) response.setHeader('Content-Type', 'application/octet-stream');
			response.setHeader('Content-Length', body.length);
			response.end(body);
			return response;
		}
		if (typeof body === 'object' || typeof body === 'number' || typeof body === 'boolean') return response.json(body);
		const text = Buffer.from(String(body), 'utf8');
		if (!response.hasHeader('Content-Type')) response.setHeader('Content-Type', 'text/html; charset=utf-8');
		response.setHeader('Content-Length', text.length);
		response.end(text);
		return response;
	};
	response.json = (body) => {
		const text = Buffer.from(JSON.stringify(body) ?? '', 'utf8');
		if (!response.hasHeader('Content-Type')) response.setHeader('Content-Type', 'application/json; charset=utf-8');
		response.setHeader('Content-Length', text.length);
		response.end(text);
		return response;
	};
	response.sendStatus = (code) => response.status(code).send(String(code));
	return response;
}
