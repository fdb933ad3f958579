/**
 * End-to-end tests on a real n8n server (`npm run test:e2e`): one server for the whole file, so tests run in order
 * in one worker. The first run installs the pinned n8n (several minutes); later runs reuse it.
 */
module.exports = {
	rootDir: '../..',
	testEnvironment: 'node',
	roots: ['<rootDir>/test/e2e'],
	testMatch: ['**/*.test.ts'],
	transform: require('../../jest.transform'),
	maxWorkers: 1,
	testTimeout: 180000,
};
