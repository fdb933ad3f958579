/**
 * What the playground's end-to-end tests expect of the examples and how they read a real n8n: the outcome of each
 * row of examples/data/payouts.csv, the CSV files the examples write, the credentials n8n imported and its
 * credential test, and the executions of the callbacks workflow.
 */
import { createPrivateKey } from 'crypto';
import { readFileSync } from 'fs';
import { join } from 'path';

import { callbackUrl, WORKFLOW_IDS } from '../../playground/examples';
import { signBody } from '../../sandbox';
import { TEST_KEY_DIR } from '../../sandbox/keys';
import { APP_IDS, callbackBody } from '../fixtures/bodies';
import { eventually, type Stack } from './stack';

/** What the bulk example must make of each row of examples/data/payouts.csv. */
export const EXPECTED: Record<string, { outcome: string; field?: string; errorCode?: string; finalStatus?: 2 | 3 }> = {
	'PAY-2026-05-0001': { outcome: 'accepted', finalStatus: 2 },
	'PAY-2026-05-0002': { outcome: 'accepted', finalStatus: 2 },
	'PAY-2026-05-0003': { outcome: 'invalid', field: 'amount' },
	'PAY-2026-05-0004': { outcome: 'accepted', finalStatus: 2 },
	'PAY-2026-05-0005': { outcome: 'accepted', finalStatus: 3 },
	'PAY-2026-05-0006': { outcome: 'rejected', errorCode: '4010' },
	'PAY-2026-05-0007': { outcome: 'accepted', finalStatus: 2 },
	'PAY-2026-05-0008': { outcome: 'invalid', field: 'accountNo' },
	// HaiPay created it and answered 502: the node's Resolve Unknown Outcomes queried it and found it.
	'PAY-2026-05-0009': { outcome: 'accepted', finalStatus: 2 },
	'PAY-2026-05-0010': { outcome: 'accepted', finalStatus: 2 },
	'PAY-2026-05-0011': { outcome: 'accepted', finalStatus: 2 },
	'PAY-2026-05-0012': { outcome: 'invalid', field: 'amount' },
	'PAY-2026-05-0013': { outcome: 'invalid', field: 'currency' },
};
export const CREATED = Object.entries(EXPECTED)
	.filter(([, row]) => row.finalStatus !== undefined)
	.map(([orderId]) => orderId);

export function csvRows(file: string): Array<Record<string, string>> {
	const [header, ...lines] = readFileSync(file, 'utf8')
		.replace(/^\uFEFF/, '')
		.trim()
		.split(/\r?\n/);
	const names = header.split(',');
	// The first columns (orderId, currency, ...) never hold commas; later ones may be quoted.
	return lines.map((line) =>
		Object.fromEntries(
			line
				.split(',')
				.slice(0, names.length)
				.map((value, i) => [names[i], value]),
		),
	);
}

export type ImportedCredential = { id: string; name: string; type: string; data: Record<string, unknown> };

/** A credential of the file n8n imported, as the sandbox wrote it. */
export function sandboxCredential(stack: Stack, id: string): ImportedCredential {
	const found = (JSON.parse(readFileSync(stack.credentialsFile, 'utf8')) as ImportedCredential[]).find(
		(credential) => credential.id === id,
	);
	if (!found) throw new Error(`the sandbox wrote no credential ${id}`);
	return found;
}

/** n8n's credential test, as the editor's "Retry"/"Save" runs it: POST /rest/credentials/test. */
export async function credentialTest(stack: Stack, credential: ImportedCredential, data: Record<string, unknown>) {
	return (await stack.rest.call('POST', '/credentials/test', { credentials: { ...credential, data } })).json as {
		data?: { status: string; message: string };
	};
}

export async function callbackExecutions(stack: Stack): Promise<number> {
	return (await stack.rest.executions(WORKFLOW_IDS.callbacks)).length;
}

/**
 * Waits until n8n lists at least `expected` executions of the callbacks workflow and has finished every one it
 * lists (the list holds new and running ones too), then checks there are exactly `expected`. Callers have had
 * every callback they sent answered, and n8n 2.x answers a callback only once it has stored the execution that the
 * callback starts, so a run too many is listed by then: nothing later can add one. n8n 1.x answers first and stores
 * the execution after, so on 1.x this check can miss a run too many; the pinned 2.x run is the one that proves it.
 */
export async function expectCallbackExecutions(stack: Stack, expected: number): Promise<void> {
	const executions = await eventually(`${expected} finished executions of the callbacks workflow`, async () => {
		const listed = await stack.rest.executions(WORKFLOW_IDS.callbacks);
		return listed.length >= expected && listed.every((execution) => !['new', 'running'].includes(execution.status))
			? listed
			: undefined;
	});
	expect(executions).toHaveLength(expected);
}

/**
 * Callbacks about example 1's order PAY-2026-05-0002 that HaiPay never sent, each with what it forges: no or a
 * made-up signature, another key, the wrong secret, and a genuine signature for an App ID the credential lacks.
 */
export function forgedCallbacks(stack: Stack): Array<[string, string, Record<string, unknown>]> {
	const order = stack.sandbox.control.order({ orderId: 'PAY-2026-05-0002' });
	const body = callbackBody('payout', {
		orderId: 'PAY-2026-05-0002',
		orderNo: order?.orderNo,
		amount: '999999',
		fee: '0',
		payTime: '2026-05-01 12:00:00',
	});
	const platformKey = createPrivateKey(stack.platformPrivateKey);
	const otherKey = createPrivateKey(readFileSync(join(TEST_KEY_DIR, 'other-test-only.pkcs8.pem'), 'utf8'));
	return [
		['no signature', callbackUrl('TZS'), body],
		['a made-up signature', callbackUrl('TZS'), { ...body, sign: Buffer.from('forged').toString('base64') }],
		[
			'signed with another key',
			callbackUrl('TZS'),
			{ ...body, sign: signBody(body, 'test-only-secret-tzs', otherKey) },
		],
		[
			'signed with the wrong secret',
			callbackUrl('TZS'),
			{ ...body, sign: signBody(body, 'not-the-secret', platformKey) },
		],
		[
			'the genuine callback of an App ID the credential does not hold',
			callbackUrl('TZS'),
			{
				...body,
				appId: APP_IDS.BRL,
				currency: 'BRL',
				sign: signBody({ ...body, appId: APP_IDS.BRL, currency: 'BRL' }, 'test-only-secret-brl', platformKey),
			},
		],
	];
}

/** One result in the repeat memory's saved text: a 14-character digest of its key and a 5-character age. */
const [DIGEST_LENGTH, RECORD_LENGTH] = [14, 19];

/** The digests of the results the callbacks workflow's trigger remembers, from the workflow as n8n's REST API gives it. */
export function storedDigests(workflow: unknown): Set<string> {
	const { staticData } = (workflow as { data: { staticData?: Record<string, { repeatMemory?: { entries: string } }> } })
		.data;
	const entries = staticData?.['node:Payout results']?.repeatMemory?.entries ?? '';
	return new Set(
		entries.match(new RegExp(`.{${RECORD_LENGTH}}`, 'g'))?.map((record) => record.slice(0, DIGEST_LENGTH)) ?? [],
	);
}
