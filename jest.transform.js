/**
 * How every jest config reads TypeScript: transpiled file by file by swc, with no type checking (that is
 * `npm run typecheck`'s job). swc took 14 s off the first `npm test` after a clone against ts-jest (docs/testing.md).
 */
module.exports = {
	'^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' } }],
};
