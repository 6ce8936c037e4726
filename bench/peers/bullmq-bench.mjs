// The workloads of `delayq bench` run with BullMQ on the same server: a drain swept over
// concurrency and worker processes, lateness and memory. run.mjs calls them.
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  drainFigures, dueDelay, nowMs, payload, percentiles, waitFor,
} from './common.mjs';

// BullMQ's two lines, each at its pinned release (package.json): 6.x under its own name, and
// 5.81 under an alias, the release the issue that asked for this comparison measured. Each
// drain is swept over both, and the faster one is BullMQ's best setting.
export const packages = ['bullmq', 'bullmq-5'];
const modules = Object.fromEntries(
  await Promise.all(packages.map(async (name) => [name, await import(name)])));
const versions = Object.fromEntries(packages.map((name) => [name, JSON.parse(
  readFileSync(new URL(`./node_modules/${name}/package.json`, import.meta.url), 'utf8')).version]));
export const versionOf = (name) => versions[name];

// As BullMQ's docs advise for a queue whose results nobody reads: a finished job is removed
// at once (delayq's ack deletes the task too). Everything else is BullMQ's default, so its
// guarantees stay on (locks renewed, stalled jobs checked), as delayq's leases do.
const jobOptions = { removeOnComplete: true, removeOnFail: true };

function forkWorker(settings) {
  const child = fork(new URL('./bullmq-worker.mjs', import.meta.url), [JSON.stringify(settings)],
                     { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const w = { child, count: 0, ready: false, done: null };
  child.on('message', (m) => {
    if (m.ready)
      w.ready = true;
    if (m.count !== undefined)
      w.count = m.count;
    if (m.done)
      w.done = m;
  });
  child.on('exit', () => { w.exited = true; });
  return w;
}

// `jobs` delayed jobs that all fall due at one moment, drained by `processes` worker
// processes of concurrency `concurrency` (a processor that does nothing) that are already
// running and waiting. Timed from the due moment to the last job completed, as
// BenchDrainClock times delayq's and the seed designs' drains.
export async function drain(ctx, pkg, jobs, processes, concurrency, leadMs) {
  const name = `drain-${pkg}-${processes}x${concurrency}`;
  const queue = new modules[pkg].Queue(name, { connection: ctx.connection, prefix: ctx.prefix });
  await queue.waitUntilReady();
  const workers = Array.from({ length: processes }, () => forkWorker({
    connection: ctx.connection, prefix: ctx.prefix, queue: name, concurrency, package: pkg,
  }));
  try {
    if (!await waitFor(() => workers.every((w) => w.ready), 20000))
      throw new Error('the BullMQ worker processes did not get ready within 20 s');
    const fillStart = nowMs();
    const dueAt = Math.ceil(fillStart + leadMs);
    for (let done = 0; done < jobs; done += 1000) {
      const n = Math.min(1000, jobs - done);
      const timestamp = Date.now();
      await queue.addBulk(Array.from({ length: n }, (_, k) => ({
        name: 'j', data: payload(done + k),
        opts: { ...jobOptions, timestamp, delay: dueAt - timestamp },
      })));
    }
    const fillMs = nowMs() - fillStart;
    const late = nowMs() >= dueAt;
    const cpuBefore = await ctx.meter.cpuSeconds();
    const total = () => workers.reduce((sum, w) => sum + w.count, 0);
    if (!await waitFor(() => total() >= jobs, 300000))
      throw new Error(`BullMQ drained ${total()} of ${jobs} jobs in 300 s`);
    const cpuUsPerTask = await ctx.meter.cpuUsPerTask(cpuBefore, jobs);
    for (const w of workers)
      w.child.send({ stop: true });
    if (!await waitFor(() => workers.every((w) => w.done), 10000))
      throw new Error('the BullMQ worker processes did not report');
    const first = Math.min(...workers.filter((w) => w.done.count).map((w) => w.done.first));
    const last = Math.max(...workers.map((w) => w.done.last));
    return { package: pkg, version: versionOf(pkg), processes, concurrency, fill_ms: fillMs,
             fell_due_before_ready: late,
             ...drainFigures(jobs, dueAt, first, last, cpuUsPerTask) };
  } finally {
    await waitFor(() => workers.every((w) => w.exited), 10000);
    for (const w of workers)
      if (!w.exited)
        w.child.kill();
    await queue.obliterate({ force: true }).catch(() => {});
    await queue.close();
  }
}

// Jobs added one by one at `rate` a second for durationMs, half due at once and half delayed
// 100-500 ms, consumed by `workers` workers of concurrency `concurrency` in this process;
// lateness = the time the job became active (processedOn) minus its due time (timestamp +
// delay), both on this machine's clock.
export async function lateness(ctx, pkg, rate, durationMs, workers, concurrency) {
  const { Queue, Worker } = modules[pkg];
  const name = 'late';
  const total = Math.floor(rate * durationMs / 1000);
  const values = [];
  let finished;
  const allDone = new Promise((resolve) => { finished = resolve; });
  const cpuBefore = await ctx.meter.cpuSeconds();
  const queue = new Queue(name, { connection: ctx.connection, prefix: ctx.prefix });
  const list = Array.from({ length: workers }, () => new Worker(name, async (job) => {
    values.push(Math.max(0, job.processedOn - (job.timestamp + (job.opts.delay ?? 0))));
    if (values.length === total)
      finished();
  }, { connection: ctx.connection, prefix: ctx.prefix, concurrency }));
  await Promise.all([queue.waitUntilReady(), ...list.map((w) => w.waitUntilReady())]);
  const start = nowMs();
  for (let i = 0; i < total; ++i) {
    const wait = start + i * 1000 / rate - nowMs();
    if (wait > 0)
      await sleep(wait);
    await queue.add('j', payload(i), { ...jobOptions, delay: dueDelay(i) });
  }
  await Promise.race([allDone, sleep(10000)]);
  const cpuUsPerTask = await ctx.meter.cpuUsPerTask(cpuBefore, total);
  await Promise.all(list.map((w) => w.close()));
  await queue.obliterate({ force: true }).catch(() => {});
  await queue.close();
  return { version: versionOf(pkg), workers, concurrency, ...percentiles(values),
           cpu_us_per_task: cpuUsPerTask };
}

// used_memory before and after adding `jobs` jobs delayed by a day, with 18-byte string data
// (BullMQ stores it as JSON, with its quotes: 20 bytes).
export async function memory(ctx, pkg, jobs, payloadBytes) {
  const queue = new modules[pkg].Queue('memory', { connection: ctx.connection, prefix: ctx.prefix });
  await queue.waitUntilReady();
  const before = await ctx.meter.usedMemory();
  for (let done = 0; done < jobs; done += 1000) {
    const n = Math.min(1000, jobs - done);
    await queue.addBulk(Array.from({ length: n }, (_, k) => ({
      name: 'j', data: `payload-${String(done + k).padStart(payloadBytes - 8, '0')}`,
      opts: { delay: 86400000 },
    })));
  }
  const perTask = ((await ctx.meter.usedMemory()) - before) / jobs;
  await queue.obliterate({ force: true }).catch(() => {});
  await queue.close();
  return { version: versionOf(pkg), tasks: jobs, payload_bytes: payloadBytes,
           bytes_per_task: perTask,
           bytes_per_task_over_payload: perTask - payloadBytes };
}
