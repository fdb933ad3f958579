/**
 * Writes docs/field-reference.md: every operation of the HaiPay node with its fields, their types, defaults, the
 * currencies that show them and the rules and limits each value is checked against, read from the node's own
 * description (nodes/HaiPay/HaiPay.node.ts, at its newest version) and the contract's rules
 * (nodes/shared/contract/rules/). Hand-written pages explain tasks and reasons and link here for the fields.
 *
 *   npx tsx scripts/field-reference.ts           rewrite the page
 *   npx tsx scripts/field-reference.ts --check   exit 1 when the committed page is not what the code gives (npm run lint)
 */
import { readFileSync, writeFileSync } from 'fs';

// The path names the TypeScript file: without its ending, a runner finds HaiPay.node.json beside it first.
import { HaiPay } from '../nodes/HaiPay/HaiPay.node.js';
import { HaiPayTrigger } from '../nodes/HaiPayTrigger/HaiPayTrigger.node.js';
import { fieldReference, PAGE } from './reference/page';

const page = fieldReference(new HaiPay().description.properties, new HaiPayTrigger().description.properties);
if (process.argv.includes('--check')) {
	if (readFileSync(PAGE, 'utf8') !== page) {
		console.error('docs/field-reference.md is not what the code gives: run `npx tsx scripts/field-reference.ts`.');
		process.exit(1);
	}
} else writeFileSync(PAGE, page);
