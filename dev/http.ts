import axios, { type AxiosHeaders } from 'axios';
import type { Agent, IncomingHttpHeaders } from 'http';

/**
 * The dev side's HTTP client (the test harness, the benchmarks' clients): axios, set to send a body exactly as
 * given and to take any answer as it came. The shipped nodes never use it: they send through n8n's request
 * helper (`httpRequestWithAuthentication`, axios underneath). A client that stays on `node:http` says why.
 */
const plain = axios.create({
	// Every status is an answer to look at, a redirect too; nothing goes through a proxy of the environment.
	validateStatus: () => true,
	maxRedirects: 0,
	proxy: false,
	maxContentLength: Infinity,
	maxBodyLength: Infinity,
	// A string or a Buffer goes as it is: axios would re-encode a JSON-typed string that does not parse, and trim one that does.
	transformRequest: [(data: unknown) => data],
	transformResponse: [(data: unknown) => data],
	responseType: 'text',
	responseEncoding: 'utf8',
});

export interface PlainReply {
	status: number;
	headers: IncomingHttpHeaders;
	text: string;
}

export interface PlainRequest {
	method?: string;
	headers?: Record<string, string>;
	/** A keep-alive agent of the caller's, for clients that send many requests. */
	agent?: Agent;
	/** Fails when the connection is idle this long (no answer yet); none when left out. */
	timeoutMs?: number;
}

/** One request with `body` sent byte for byte; resolves with the answer whatever its status. */
export async function send(
	url: string,
	body: string | Buffer | undefined,
	request: PlainRequest = {},
): Promise<PlainReply> {
	const answer = await plain.request<string>({
		url,
		method: request.method ?? 'POST',
		data: body,
		headers: request.headers,
		httpAgent: request.agent,
		timeout: request.timeoutMs ?? 0,
	});
	return {
		status: answer.status,
		headers: (answer.headers as AxiosHeaders).toJSON() as IncomingHttpHeaders,
		text: answer.data,
	};
}

/** POSTs a JSON text as it is. */
export async function postJson(
	url: string,
	payload: string,
	request: Omit<PlainRequest, 'method'> = {},
): Promise<PlainReply> {
	return await send(url, payload, { ...request, headers: { 'Content-Type': 'application/json', ...request.headers } });
}
