/**
 * docs/queue/docker-compose.yml runs n8n with the settings the local queue stack runs with. Containers cannot run
 * here, so this compares the file with playground/lib/queue-settings.ts: every queue setting, per process role, with the
 * same value; every connection setting present; the worker's concurrency; the pinned n8n version.
 */
import { readFileSync } from 'fs';
import { join } from 'path';
import { parse } from 'yaml';

import { CONNECTION_SETTINGS, QUEUE_SETTINGS, WORKER_CONCURRENCY, type Role } from '../../playground/lib/queue';

const ROOT = join(__dirname, '..', '..');

interface Service {
	image?: string;
	command?: string;
	environment?: Record<string, string>;
}

const compose = parse(readFileSync(join(ROOT, 'docs', 'queue', 'docker-compose.yml'), 'utf8'), { merge: true }) as {
	services: Record<string, Service>;
};
const n8nServices = Object.entries(compose.services).filter(([, service]) => service.image?.startsWith('n8n-haipay'));
const pinned = (
	JSON.parse(readFileSync(join(ROOT, 'playground', 'package.json'), 'utf8')) as { dependencies: Record<string, string> }
).dependencies.n8n;

function roleOf(command: string | undefined): Role {
	const first = (command ?? '').split(' ')[0];
	if (first === 'start') return 'main';
	if (first === 'worker' || first === 'webhook') return first;
	throw new Error(`unknown n8n command: ${command}`);
}

test('the compose file has one n8n service per role', () => {
	expect(n8nServices.map(([, service]) => roleOf(service.command)).sort()).toEqual(['main', 'webhook', 'worker']);
});

test.each(n8nServices)('%s has the queue settings of the local stack, with the same values', (_name, service) => {
	const role = roleOf(service.command);
	const environment = service.environment ?? {};
	expect(environment).toMatchObject({ ...QUEUE_SETTINGS.all, ...QUEUE_SETTINGS[role] });
	for (const other of (['main', 'worker', 'webhook'] as const).filter((r) => r !== role)) {
		for (const name of Object.keys(QUEUE_SETTINGS[other])) expect(environment).not.toHaveProperty(name);
	}
	for (const name of CONNECTION_SETTINGS) expect(environment[name]).toEqual(expect.any(String));
});

test('workers run as many executions at once as the local ones', () => {
	const worker = n8nServices.find(([, service]) => roleOf(service.command) === 'worker')?.[1];
	expect(worker?.command).toBe(`worker --concurrency=${WORKER_CONCURRENCY}`);
});

test('the image is the n8n version the local stack runs', () => {
	expect(readFileSync(join(ROOT, 'docs', 'queue', 'Dockerfile'), 'utf8')).toContain(`FROM n8nio/n8n:${pinned}\n`);
	for (const [, service] of n8nServices) expect(service.image).toBe(`n8n-haipay:${pinned}`);
});
