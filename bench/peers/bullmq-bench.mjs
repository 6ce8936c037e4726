// The workloads of `delayq bench` run with BullMQ on the same server, and one table that sets
// BullMQ beside delayq and the seed design (b), the Lua pop (issue 13's "seed-000").
//
//   node bullmq-bench.mjs --url redis://127.0.0.1:PORT --delayq-json delayq.json [--json-out F]
//
// scripts/bench-peers runs it from build/bench-peers/ (next to the pinned node_modules) right
// after `delayq bench --json` has written delayq.json; the task counts, workers, rate and
// duration are read from that file, so both sides run the same workload.
import { Queue, Worker } from 'bullmq';
import IORedis from 'ioredis';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';

const bullmqVersion = JSON.parse(
  readFileSync(new URL('./node_modules/bullmq/package.json', import.meta.url), 'utf8')).version;

function connectionOf(url) {
  const u = new URL(url);
  if (u.protocol !== 'redis:')
    throw new Error(`only redis:// URLs are supported here, not ${u.protocol}//`);
  return {
    host: u.hostname,
    port: Number(u.port || 6379),
    username: decodeURIComponent(u.username) || undefined,
    password: decodeURIComponent(u.password) || undefined,
    db: Number(u.pathname.slice(1) || 0),
    maxRetriesPerRequest: null, // BullMQ's workers require it
  };
}

function infoField(info, name) {
  const m = info.match(new RegExp(`^${name}:([0-9.]+)`, 'm'));
  if (!m)
    throw new Error(`INFO has no field ${name}`);
  return Number(m[1]);
}

// The same readings as delayq bench's ServerMeter (one server: no cluster here).
class Meter {
  constructor(connection) { this.redis = new IORedis(connection); }
  async cpuSeconds() {
    const info = await this.redis.info('cpu');
    return infoField(info, 'used_cpu_user') + infoField(info, 'used_cpu_sys');
  }
  async usedMemory() { return infoField(await this.redis.info('memory'), 'used_memory'); }
  async cpuUsPerTask(since, tasks) { return ((await this.cpuSeconds()) - since) * 1e6 / tasks; }
  async deleteKeys(prefix) {
    let cursor = '0';
    do {
      const [next, keys] = await this.redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length)
        await this.redis.unlink(...keys);
    } while (cursor !== '0');
  }
  async close() { await this.redis.quit(); }
}

// As delayq bench's payloads: about 60 bytes, each one distinct.
const payload = (i) => ({ order: i, action: 'remind', pad: '0123456789abcdef' });
// As delayq bench: half due at once, half 100-500 ms ahead.
const dueDelay = (i) => (i % 2 === 0 ? 0 : 100 + (i * 37) % 400);

function percentiles(values) {
  const v = [...values].sort((a, b) => a - b);
  const at = (q) => v[Math.min(v.length, Math.max(1, Math.ceil(q * v.length))) - 1] ?? 0;
  return { count: v.length, p50: at(0.5), p99: at(0.99), max: v.length ? v[v.length - 1] : 0 };
}

// A due backlog drained by `workers` workers of concurrency 1 whose processor does nothing.
// The jobs are added as delayed jobs (delay 1 ms) and are all due when the workers start:
// delayq's backlog is a sorted set of due tasks, and a delayed BullMQ job goes through the
// same kind of set (promoted to the wait list when due), so this is the fair equivalent of
// delayq's drain. Plain waiting jobs would skip the promotion BullMQ pays for a delay queue.
// Completed jobs are removed (removeOnComplete), as delayq's ack deletes the task.
async function drain(ctx, jobs, workers) {
  const name = 'drain';
  const queue = new Queue(name, { connection: ctx.connection, prefix: ctx.prefix });
  for (let done = 0; done < jobs; done += 1000) {
    const n = Math.min(1000, jobs - done);
    await queue.addBulk(Array.from({ length: n }, (_, k) => ({
      name: 'j', data: payload(done + k), opts: { delay: 1, removeOnComplete: true },
    })));
  }
  await sleep(20); // the last delay has passed: every job is due
  let completed = 0;
  let finished;
  const allDone = new Promise((resolve) => { finished = resolve; });
  const list = Array.from({ length: workers }, () => new Worker(name, async () => {}, {
    connection: ctx.connection, prefix: ctx.prefix, concurrency: 1, autorun: false,
  }));
  for (const w of list)
    w.on('completed', () => { if (++completed === jobs) finished(performance.now()); });
  const cpuBefore = await ctx.meter.cpuSeconds();
  const start = performance.now();
  for (const w of list)
    w.run().catch((e) => console.error(`bullmq-bench: worker: ${e.message}`));
  const end = await allDone;
  const cpuUsPerTask = await ctx.meter.cpuUsPerTask(cpuBefore, jobs);
  await Promise.all(list.map((w) => w.close()));
  await queue.close();
  return { tasks: jobs, per_s: jobs / ((end - start) / 1000), cpu_us_per_task: cpuUsPerTask };
}

// Jobs added one by one at `rate` a second for durationMs, half due at once and half delayed
// 100-500 ms; lateness = the time the job became active (processedOn) minus its due time
// (timestamp + delay), both on this machine's clock.
async function lateness(ctx, rate, durationMs, workers) {
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
  }, { connection: ctx.connection, prefix: ctx.prefix, concurrency: 1 }));
  await Promise.all([queue.waitUntilReady(), ...list.map((w) => w.waitUntilReady())]);
  const start = performance.now();
  for (let i = 0; i < total; ++i) {
    const wait = start + i * 1000 / rate - performance.now();
    if (wait > 0)
      await sleep(wait);
    await queue.add('j', payload(i), { delay: dueDelay(i), removeOnComplete: true });
  }
  await Promise.race([allDone, sleep(10000)]);
  const cpuUsPerTask = await ctx.meter.cpuUsPerTask(cpuBefore, total);
  await Promise.all(list.map((w) => w.close()));
  await queue.close();
  return { ...percentiles(values), cpu_us_per_task: cpuUsPerTask };
}

// used_memory before and after adding `jobs` jobs delayed by a day, with 18-byte string data
// (BullMQ stores it as JSON, with its quotes: 20 bytes).
async function memory(ctx, jobs, payloadBytes) {
  const queue = new Queue('memory', { connection: ctx.connection, prefix: ctx.prefix });
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
  await queue.close();
  return { tasks: jobs, payload_bytes: payloadBytes, bytes_per_task: perTask,
           bytes_per_task_over_payload: perTask - payloadBytes };
}

const fmt = {
  rate: (v) => (v == null ? '-' : `${Math.round(v)}/s`),
  us: (v) => (v == null ? '-' : `${v.toFixed(1)} µs`),
  ms: (v) => (v == null ? '-' : `${v} ms`),
  bytes: (v) => (v == null ? '-' : `${Math.round(v)} B`),
  ratio: (a, b) => (a == null || !b ? '-' : `${(a / b).toFixed(1)}x`),
};

function table(rows) {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => [...(r[c] ?? '')].length)));
  return rows.map((r) => r.map((cell, c) => (cell ?? '').padEnd(widths[c])).join('  ').trimEnd())
    .join('\n');
}

function report(d, bull) {
  const ours = d.ours;
  const pop = d.seeds.find((s) => s.kind === 'lua_pop') ?? {};
  const s = d.settings;
  const row = (name, f, o, p, b, ratios = true) => [name, f(o), f(p), f(b),
    ratios ? fmt.ratio(o, b) : '', ratios ? fmt.ratio(o, p) : ''];
  const lat = (k) => row(`lateness ${k}`, fmt.ms, ours.lateness_ms[k], pop.lateness_ms?.[k],
                         bull.lateness[k], false);
  const rows = [
    ['', 'delayq', 'seed (b) Lua pop', `BullMQ ${bullmqVersion}`, 'delayq/BullMQ', 'delayq/Lua pop'],
    row(`drain, ${s.drain_tasks} due, ${s.drain_workers} workers`, fmt.rate, ours.drain?.per_s,
        pop.drain?.per_s, bull.drain.per_s),
    row('  Redis CPU per task', fmt.us, ours.drain?.cpu_us_per_task, pop.drain?.cpu_us_per_task,
        bull.drain.cpu_us_per_task),
    lat('p50'), lat('p99'), lat('max'),
    row('  Redis CPU per task', fmt.us, ours.lateness_cpu_us_per_task,
        pop.lateness_cpu_us_per_task, bull.lateness.cpu_us_per_task),
    row(`memory per task, ${s.memory_tasks} pending`, fmt.bytes, ours.memory.bytes_per_task,
        pop.memory?.bytes_per_task, bull.memory.bytes_per_task),
    row(`  minus the ${ours.memory.payload_bytes}-byte payload`, fmt.bytes,
        ours.memory.bytes_per_task_over_payload, pop.memory?.bytes_per_task_over_payload,
        bull.memory.bytes_per_task_over_payload),
  ];
  return `delayq, seed (b) and BullMQ ${bullmqVersion} on ${d.server}; lateness at ${s.rate} ` +
    `tasks/s for ${s.duration_ms} ms with ${s.threads} workers\n\n${table(rows)}\n\n` +
    'Redis CPU: used_cpu_user + used_cpu_sys (INFO cpu) over the phase, per task. Ratios are\n' +
    'delayq over the other: above 1x is faster for a rate, below 1x is cheaper for a cost.\n';
}

async function main() {
  const { values: a } = parseArgs({ options: {
    url: { type: 'string' }, 'delayq-json': { type: 'string' }, 'json-out': { type: 'string' },
  } });
  if (!a.url || !a['delayq-json'])
    throw new Error('usage: bullmq-bench.mjs --url redis://HOST:PORT --delayq-json FILE');
  const d = JSON.parse(readFileSync(a['delayq-json'], 'utf8'));
  const s = d.settings;
  const connection = connectionOf(a.url);
  const ctx = { connection, prefix: `dqpeers-${randomBytes(4).toString('hex')}`,
                meter: new Meter(connection) };
  const say = (line) => console.error(`bullmq-bench: ${line}`);
  try {
    say(`drain: ${s.drain_tasks} due jobs, ${s.drain_workers} workers`);
    const drained = await drain(ctx, s.drain_tasks, s.drain_workers);
    say(`lateness: ${s.rate} jobs/s for ${s.duration_ms} ms`);
    const late = await lateness(ctx, s.rate, s.duration_ms, s.threads);
    say(`memory: ${s.memory_tasks} delayed jobs`);
    const mem = await memory(ctx, s.memory_tasks, d.ours.memory.payload_bytes);
    const bull = { version: bullmqVersion, drain: drained, lateness: late, memory: mem };
    process.stdout.write(report(d, bull));
    if (a['json-out'])
      writeFileSync(a['json-out'], JSON.stringify({ delayq: d, bullmq: bull }) + '\n');
  } finally {
    await ctx.meter.deleteKeys(ctx.prefix);
    await ctx.meter.close();
  }
}

main().catch((e) => {
  console.error(`bullmq-bench: ${e.message}`);
  process.exit(1);
});
