// n8n's own settings (the n8n repository's .prettierrc.js): single quotes, tabs, trailing commas, 120 columns.
module.exports = {
	singleQuote: true,
	useTabs: true,
	trailingComma: 'all',
	printWidth: 120,
	endOfLine: 'lf',
};
