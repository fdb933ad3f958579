/**
 * Queue-mode end-to-end tests (`npm run test:queue`): PostgreSQL, Redis and several n8n processes for the whole
 * file, so tests run in order in one worker. They reuse the pinned n8n install of the e2e tests (HAIPAY_N8N_DIR).
 */
module.exports = {
	rootDir: '../..',
	testEnvironment: 'node',
	roots: ['<rootDir>/test/queue'],
	testMatch: ['**/*.e2e.ts'],
	transform: require('../../jest.transform'),
	maxWorkers: 1,
	// 2,000 callbacks and their 2,000 resends took 19 minutes on 2 cores other work kept busy (load average 18).
	testTimeout: 2700000,
};
