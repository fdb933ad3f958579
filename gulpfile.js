const { src, dest } = require('gulp');

// n8n loads node and credential icons from beside the compiled files, so the SVGs are copied into dist/.
function buildIcons() {
	return src(['nodes/**/*.{png,svg}', 'credentials/**/*.{png,svg}', 'icons/**/*.{png,svg}'], {
		base: '.',
		encoding: false,
	}).pipe(dest('dist'));
}

exports['build:icons'] = buildIcons;
