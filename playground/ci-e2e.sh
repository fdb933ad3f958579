#!/usr/bin/env bash
# The end-to-end tests as CI runs them on a fresh machine of this kind: Debian's Chromium, the pinned n8n (installed
# once per machine outside the clone, reinstalled when playground/package-lock.json changes), then the tests.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ]; then
	echo "== installing chromium (apt)"
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium > /dev/null
fi
export HAIPAY_N8N_DIR="${HAIPAY_N8N_DIR:-$HOME/.cache/n8n-nodes-haipay/n8n}"
echo "== n8n for the end-to-end tests: $HAIPAY_N8N_DIR"
npm run --silent playground:install
npx tsx playground/examples.ts --check
npm run test:e2e
