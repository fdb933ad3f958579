const { src, dest } = require('gulp');

// n8n reads icons from beside the compiled files, so they are copied into dist/. Each node's codex (its
// .node.json) is emitted by tsc itself (tsconfig includes nodes/**/*.json), as `n8n-node build` expects.
function buildIcons() {
	return src(['nodes/**/*.{png,svg}', 'credentials/**/*.{png,svg}', 'icons/**/*.{png,svg}'], {
		base: '.',
		encoding: false,
	}).pipe(dest('dist'));
}

exports['build:icons'] = buildIcons;
