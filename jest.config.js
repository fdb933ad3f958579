/** Unit and in-process integration tests. Type checking is `npm run typecheck`'s job, so ts-jest only transpiles. */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	testPathIgnorePatterns: ['/node_modules/', '/test/e2e/'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.jest.json' }],
	},
	testTimeout: 30000,
	// jest's default on a 2-core machine is one worker (cores − 1); most tests wait on loopback HTTP, so two overlap well.
	maxWorkers: 2,
};
