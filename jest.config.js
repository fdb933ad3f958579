/** Unit and in-process integration tests. Type checking is `npm run typecheck`'s job, so the tests are only transpiled. */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	testPathIgnorePatterns: ['/node_modules/', '/test/e2e/'],
	transform: require('./jest.transform'),
	testTimeout: 30000,
	// jest's default on a 2-core machine is one worker (cores − 1). Most tests wait on loopback HTTP or on a deadline,
	// so more workers than cores overlap those waits: on a quiet 2-core machine 170 s in two, 129 s in three, 114 s in
	// four (docs/testing.md).
	maxWorkers: 4,
};
