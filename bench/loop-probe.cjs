/*
 * Where n8n's main thread stalls: a preload for the benchmark's n8n (`BENCH_LOOP_PROBE=1 npm run bench`). It
 * records the event loop's delay, the share of time the loop was busy, and every collection's pause, and writes
 * them once a second to bench/.work/loop/loop-<pid>.json (n8n's environment is the benchmark's own, so the folder
 * is fixed), keeping the figures of a process the benchmark stops; SIGUSR2 starts them again.
 */
const { writeFileSync, mkdirSync } = require('fs');
const { join } = require('path');
const { constants, monitorEventLoopDelay, performance, PerformanceObserver } = require('perf_hooks');
const { isMainThread } = require('worker_threads');

// n8n's worker threads inherit the preload and share the process's pid: only the main thread is recorded.
if (!isMainThread) return;

const dir = join(__dirname, '.work', 'loop');
mkdirSync(dir, { recursive: true });
const delay = monitorEventLoopDelay({ resolution: 5 });
delay.enable();
// Taken once the loop runs: before it starts, the loop's busy share has no baseline.
let started;
setImmediate(() => (started = performance.eventLoopUtilization()));
const gc = { count: 0, ms: 0, maxMs: 0, major: { count: 0, ms: 0, maxMs: 0 } };
new PerformanceObserver((list) => {
	for (const entry of list.getEntries()) {
		gc.count += 1;
		gc.ms += entry.duration;
		gc.maxMs = Math.max(gc.maxMs, entry.duration);
		if (entry.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) {
			gc.major.count += 1;
			gc.major.ms += entry.duration;
			gc.major.maxMs = Math.max(gc.major.maxMs, entry.duration);
		}
	}
}).observe({ entryTypes: ['gc'] });
const ms = (ns) => Math.round(ns / 1e4) / 100;
const write = () => {
	if (started === undefined) return;
	const used = performance.eventLoopUtilization(started);
	const figures = {
		pid: process.pid,
		seconds: Math.round(used.idle + used.active) / 1000,
		loopBusy: Math.round(used.utilization * 1000) / 1000,
		delayMs: {
			p50: ms(delay.percentile(50)),
			p90: ms(delay.percentile(90)),
			p99: ms(delay.percentile(99)),
			max: ms(delay.max),
		},
		gc: { ...gc, ms: Math.round(gc.ms), major: { ...gc.major, ms: Math.round(gc.major.ms) } },
	};
	writeFileSync(join(dir, `loop-${process.pid}.json`), `${JSON.stringify(figures)}\n`);
};
// The benchmark marks where a measured run begins: what the process did before (start, warm-up) is left out.
process.on('SIGUSR2', () => {
	delay.reset();
	started = performance.eventLoopUtilization();
	Object.assign(gc, { count: 0, ms: 0, maxMs: 0, major: { count: 0, ms: 0, maxMs: 0 } });
});
setInterval(write, 1000).unref();
process.on('exit', write);
