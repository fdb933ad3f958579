'use strict';
// @ts-check
/**
 * Keeps a process group from outliving the process that started it, however that process ends: a signal it handles,
 * a crash, or a SIGKILL that nothing can catch. Plain JavaScript, so that any Node runs it as it is.
 *
 *   node guard.js <pgid> <graceMs>
 *
 * The starter spawns it detached (a session of its own, out of reach of the terminal's Ctrl-C) with its stdin a pipe
 * that the starter never writes to. The kernel closes the starter's end when the starter exits, for any reason, and
 * this stdin then ends. The guard then sends SIGTERM to the group (n8n shuts down gracefully on it), SIGKILL to what
 * is left after graceMs, and exits. It also exits, doing nothing, as soon as the group is gone by other means (the
 * starter stopped it), and it acts the same way if it is itself sent SIGTERM, SIGINT or SIGHUP.
 */

const pgid = Number(process.argv[2]);
const graceMs = Number(process.argv[3]);
if (!Number.isInteger(pgid) || pgid <= 1 || !Number.isFinite(graceMs)) {
	process.stderr.write('usage: node guard.js <pgid> <graceMs>\n');
	process.exit(2);
}

/** @param {NodeJS.Signals | 0} signal */
function sendToGroup(signal) {
	try {
		process.kill(-pgid, signal);
		return true;
	} catch {
		return false; // ESRCH: no process is left in the group
	}
}

let ending = false;

function endGroup() {
	if (ending) return;
	ending = true;
	if (!sendToGroup('SIGTERM')) process.exit(0);
	const deadline = Date.now() + graceMs;
	setInterval(() => {
		if (!sendToGroup(0)) process.exit(0);
		if (Date.now() >= deadline) {
			sendToGroup('SIGKILL');
			process.exit(0);
		}
	}, 100);
}

process.stdin.on('end', endGroup);
process.stdin.on('error', endGroup);
process.stdin.resume();
for (const signal of /** @type {const} */ (['SIGTERM', 'SIGINT', 'SIGHUP'])) process.on(signal, endGroup);

// A group stopped by its starter needs no guard.
setInterval(() => {
	if (!ending && !sendToGroup(0)) process.exit(0);
}, 500);
