import { createServer, type Server } from 'http';
import type { AddressInfo } from 'net';
import type { ICredentialDataDecryptedObject, IDataObject, INodeParameters } from 'n8n-workflow';

import { HaiPay } from '../../nodes/HaiPay/HaiPay.node';
import { parsePrivateKey } from '../../nodes/shared/signing/keys';
import { APP_IDS, type SandboxCurrency } from '../fixtures/bodies';
import { runWorkflow } from '../harness';
import { multiCurrencyCredential, secretOf } from '../helpers/credentials';
import { TEST_KEYS } from '../helpers/keys';
import { signBody } from '../helpers/signing';
import { NODE } from './helpers';

/*
 * A small HaiPay for answers the sandbox never gives (a create answered with a signed "no such order", a refund
 * answered "FAILED" with no refundNo): every data object it sends is signed with the test platform key and the secret
 * of the App ID the request names, as HaiPay signs, by the sandbox's own signer (test/helpers/signing.ts). A data
 * object that already carries `sign` goes out as it is: a replay of an earlier genuine answer.
 */

/** The secret HaiPay shares with the merchant for each currency's App ID, here and in `credentialOf`. */
export { secretOf };

const PLATFORM_KEY = parsePrivateKey(TEST_KEYS.platformPrivate);
const CURRENCY_OF_APP = new Map(Object.entries(APP_IDS).map(([currency, appId]) => [appId, currency]));

/** What the gateway answers one request with: HaiPay's envelope around signed data, or an HTTP status and text. */
export type Reply = { data: IDataObject } | { status: number; text: string };

export interface SeenRequest {
	path: string;
	body: IDataObject;
	/** The signed data it answered with, when it did. */
	answered?: IDataObject;
}

export interface SigningGateway {
	url: string;
	requests: SeenRequest[];
	/** The requests to a path ending in `suffix` (`/pay/apply`, `/refund/refundQuery`). */
	to(suffix: string): SeenRequest[];
	close(): Promise<void>;
}

/** The data as HaiPay would send it: signed with the secret of the request's App ID, unless it is signed already. */
function signed(data: IDataObject, body: IDataObject): IDataObject {
	if (typeof data.sign === 'string') return data;
	const currency = CURRENCY_OF_APP.get(Number(body.appId)) ?? '';
	return { ...data, sign: signBody(data, secretOf(currency), PLATFORM_KEY) };
}

/** Starts a gateway on 127.0.0.1 that answers each request with `answer(path, body)`. */
export async function signingGateway(answer: (path: string, body: IDataObject) => Reply): Promise<SigningGateway> {
	const requests: SeenRequest[] = [];
	const server: Server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as IDataObject;
			const seen: SeenRequest = { path: req.url ?? '', body };
			requests.push(seen);
			const reply = answer(seen.path, body);
			if ('text' in reply) {
				res.writeHead(reply.status, { 'content-type': 'text/plain' }).end(reply.text);
				return;
			}
			seen.answered = signed(reply.data, body);
			const envelope = { status: '1', error: '00000000', msg: 'success', data: seen.answered };
			res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(envelope));
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		requests,
		to: (suffix) => requests.filter((request) => request.path.endsWith(suffix)),
		close: async () => await new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

/** A credential for the gateway at `baseUrl` holding the App ID and secret of each currency given, the first one first. */
export function credentialOf(baseUrl: string, currencies: readonly SandboxCurrency[]): ICredentialDataDecryptedObject {
	return multiCurrencyCredential(baseUrl, currencies);
}

/** HaiPay's text for an order it does not have (docs/contract.md §4.7). */
export const NO_SUCH_ORDER = 'order does not exist';

/** One HaiPay node in a real n8n-core execution against `credential`'s gateway, every item on the regular output. */
export async function runAgainst(
	credential: ICredentialDataDecryptedObject,
	parameters: INodeParameters,
	items: IDataObject[],
): Promise<IDataObject[]> {
	const result = await runWorkflow({
		nodeTypes: [HaiPay],
		credentials: { hp: { type: 'haiPayApi', data: credential } },
		nodes: [{ name: NODE, type: 'haiPay', parameters, onError: 'continueRegularOutput' }],
		items: items.map((json) => ({ json })),
		timeoutMs: 60_000,
	});
	return result.jsonOf(NODE);
}

/**
 * A signing gateway for one test file that answers each path as the running test says (`answers[path]`), and 404
 * for a path no test set; the answers are cleared before each test. Call at the top of a file.
 */
export function pathGatewayPerFile(): {
	answers: Record<string, (body: IDataObject) => Reply>;
	gateway: () => SigningGateway;
} {
	const answers: Record<string, (body: IDataObject) => Reply> = {};
	let gateway: SigningGateway | undefined;
	beforeAll(async () => {
		gateway = await signingGateway((path, body) =>
			(answers[path] ?? (() => ({ status: 404, text: `no answer for ${path}` })))(body),
		);
	});
	beforeEach(() => {
		for (const path of Object.keys(answers)) delete answers[path];
	});
	afterAll(async () => {
		await gateway?.close();
	});
	return {
		answers,
		gateway: () => {
			if (gateway === undefined) throw new Error('the gateway is not running yet');
			return gateway;
		},
	};
}
