const { src, dest } = require('gulp');

// n8n reads icons and each node's codex (its .node.json: categories, docs links) from beside the compiled
// files, so both are copied into dist/.
function buildIcons() {
	return src(['nodes/**/*.{png,svg}', 'nodes/**/*.node.json', 'credentials/**/*.{png,svg}', 'icons/**/*.{png,svg}'], {
		base: '.',
		encoding: false,
	}).pipe(dest('dist'));
}

exports['build:icons'] = buildIcons;
