#!/usr/bin/env bash
# The queue-mode end-to-end tests as CI runs them on a fresh machine of this kind: Debian's PostgreSQL and Redis
# (installed when missing), the pinned n8n of the e2e tests (HAIPAY_N8N_DIR, installed once per machine), then
# npm run test:queue. Whatever the tests started is stopped on the way out, even when they fail or are killed.
set -euo pipefail
cd "$(dirname "$0")/../.."

missing=()
ls /usr/lib/postgresql/*/bin/postgres > /dev/null 2>&1 || missing+=(postgresql)
command -v redis-server > /dev/null 2>&1 || missing+=(redis-server)
if [ ${#missing[@]} -gt 0 ]; then
	echo "== installing ${missing[*]} (apt)"
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" > /dev/null
fi
export HAIPAY_N8N_DIR="${HAIPAY_N8N_DIR:-$HOME/.cache/n8n-nodes-haipay/n8n}"
echo "== n8n for the queue-mode tests: $HAIPAY_N8N_DIR"
npm run --silent playground:install

# Every process of the stack (PostgreSQL, Redis, n8n and its task runners) carries this folder in its environment
# or on its command line.
HAIPAY_QUEUE_TEST_DIR="$(mktemp -d /tmp/haipay-queue-ci-XXXXXX)"
chmod 755 "$HAIPAY_QUEUE_TEST_DIR"
export HAIPAY_QUEUE_TEST_DIR
cleanup() {
	local environ pid seen
	for environ in /proc/[0-9]*/environ; do
		pid="${environ#/proc/}"
		pid="${pid%/environ}"
		[ "$pid" = "$$" ] && continue
		# Kernel threads and processes that ended meanwhile have nothing to read: skip them quietly. (No pipe into
		# grep -q here: with pipefail, the writer's SIGPIPE would turn a match into a miss.)
		seen="$({ tr '\0' '\n' < "$environ"; tr '\0' ' ' < "/proc/$pid/cmdline"; } 2> /dev/null || true)"
		case "$seen" in
			*"$HAIPAY_QUEUE_TEST_DIR"*)
				echo "== stopping leftover process $pid of the queue tests, with its process group"
				# n8n and PostgreSQL lead their own process groups (task runner, backends): the group goes with them.
				kill -9 -- "-$pid" 2> /dev/null || kill -9 "$pid" 2> /dev/null || true
				;;
		esac
	done
	rm -rf "$HAIPAY_QUEUE_TEST_DIR" "/tmp/haipay-queue-postgres-5800"
}
trap cleanup EXIT
echo "== queue-mode tests (PostgreSQL, Redis, n8n main, 2 workers, 2 webhook processors)"
npm run test:queue
