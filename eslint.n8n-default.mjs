// n8n-node's default lint config (what `n8n-node lint` applies in strict mode), applied by `npm run lint` to the
// published code only: nodes/, credentials/ and package.json.
import { config } from '@n8n/node-cli/eslint';

export default config;
