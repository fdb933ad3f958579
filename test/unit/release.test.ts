/**
 * The GitHub Actions workflows cannot run here; these tests check what n8n's verification depends on: a publish
 * on version tags with an OIDC token for npm provenance, and CI and publish steps that call commands which exist.
 */
import { existsSync, readFileSync } from 'fs';
import { join } from 'path';
import { parse } from 'yaml';

const root = join(__dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };

interface Step {
	run?: string;
	uses?: string;
	env?: Record<string, string>;
}
interface Job {
	permissions?: Record<string, string>;
	steps: Step[];
	env?: Record<string, string>;
}
interface Workflow {
	on: Record<string, unknown>;
	permissions?: Record<string, string>;
	jobs: Record<string, Job>;
}

function workflow(name: string): Workflow {
	return parse(readFileSync(join(root, '.github', 'workflows', name), 'utf8')) as Workflow;
}

const CI_RUN = readFileSync(join(root, '.ci', 'run'), 'utf8');

/** What a workflow runs, with `.ci/run` read in place of a step that calls it. */
function runs(wf: Workflow): string[] {
	return Object.values(wf.jobs).flatMap((job) =>
		job.steps.map((step) => (step.run === 'bash .ci/run' ? CI_RUN : (step.run ?? ''))),
	);
}

/** Every `npm run X` / `npm test` a workflow calls, directly or through `.ci/run`, as the script names it needs. */
function npmScripts(wf: Workflow): string[] {
	const names: string[] = [];
	for (const run of runs(wf)) {
		for (const match of run.matchAll(/\bnpm (?:run ([\w:-]+)|(test)\b)/g)) names.push(match[1] ?? match[2]);
	}
	return names;
}

describe('publish workflow', () => {
	const wf = workflow('publish.yml');
	const [job] = Object.values(wf.jobs);

	it('runs on version tags only', () => {
		expect(Object.keys(wf.on)).toEqual(['push']);
		expect(wf.on.push).toEqual({ tags: ['*.*.*'] });
	});

	it('may mint an OIDC token for provenance and reads the repository, nothing more', () => {
		expect(job.permissions).toEqual({ 'id-token': 'write', contents: 'read' });
	});

	it('publishes with provenance through n8n-node release', () => {
		const release = job.steps.find((step) => step.run?.includes('npm run release'));
		expect(release?.env?.NPM_CONFIG_PROVENANCE).toBe('true');
		// n8n-node release publishes with NPM_CONFIG_PROVENANCE set; the CLI's version is pinned in the script.
		expect(pkg.scripts.release).toMatch(/^npm exec --yes --package=@n8n\/node-cli@\d+\.\d+\.\d+ -- n8n-node release$/);
		// Nothing is published that has not passed everything CI runs, from a clean install.
		const ciRun = job.steps.findIndex((step) => step.run === 'bash .ci/run');
		expect(ciRun).toBeGreaterThanOrEqual(0);
		expect(ciRun).toBeLessThan(job.steps.indexOf(release as Step));
		expect(CI_RUN).toMatch(/^npm ci --no-audit --no-fund$/m);
	});
});

describe('workflows call commands that exist', () => {
	it.each(['ci.yml', 'publish.yml'])('%s', (name) => {
		const scripts = npmScripts(workflow(name));
		expect(scripts.length).toBeGreaterThan(0);
		for (const script of scripts) expect(Object.keys(pkg.scripts)).toContain(script);
	});

	it('CI runs the README test command, and both workflows run everything .ci/run runs', () => {
		const readme = readFileSync(join(root, 'README.md'), 'utf8');
		expect(readme).toContain('npm ci && npm test');
		expect(CI_RUN).toMatch(/^npm test$/m);
		for (const name of ['ci.yml', 'publish.yml']) {
			expect(
				Object.values(workflow(name).jobs).some((job) => job.steps.some((step) => step.run === 'bash .ci/run')),
			).toBe(true);
		}
		for (const suite of [
			'playground/ci-e2e.sh',
			'playground/ci-n8n-tooling.sh',
			'playground/ci-compat.sh',
			'playground/queue/ci-queue.sh',
		]) {
			expect(CI_RUN).toContain(`bash ${suite}`);
		}
		expect(npmScripts(workflow('ci.yml'))).toEqual(expect.arrayContaining(['lint', 'typecheck', 'scan', 'test']));
	});

	it('keeps a changelog', () => {
		expect(existsSync(join(root, 'CHANGELOG.md'))).toBe(true);
		expect(readFileSync(join(root, 'CHANGELOG.md'), 'utf8')).toMatch(/^# Changelog/);
	});
});
