// One run of scripts/bench-peers after `delayq bench --json` wrote delayq.json: on the same
// server, the same-run anchor, `delayq push --count`, `delayq work` processes and BullMQ
// (swept over its settings), all written to --json-out for report.mjs.
//
//   node run.mjs --url redis://127.0.0.1:PORT --delayq BIN --delayq-json F --json-out F
//                [--bullmq-concurrency 1,50,200,500] [--bullmq-processes 1,2]
//                [--work 1x1,1x2,2x1,2x2,1x4]
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import * as bull from './bullmq-bench.mjs';
import { Cli, recordFloor, zaddAnchor } from './cli-bench.mjs';
import { connectionOf, Meter } from './common.mjs';

const say = (line) => console.error(`peers: ${line}`);

const list = (text) => text.split(',').map((v) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > 10000)
    throw new Error(`'${v}' is not a count from 1 to 10000`);
  return n;
});
const pairs = (text) => text.split(',').map((v) => {
  const m = v.match(/^(\d+)x(\d+)$/);
  if (!m || Number(m[1]) < 1 || Number(m[1]) > 16 || Number(m[2]) < 1 || Number(m[2]) > 256)
    throw new Error(`--work wants PROCESSESxCONCURRENCY (1-16 x 1-256), not '${v}'`);
  return [Number(m[1]), Number(m[2])];
});

// The next lead: the last fill took fillMs, so leave half as much again and a second.
const nextLead = (fillMs, lead) => Math.max(lead, Math.ceil(fillMs * 1.5) + 1000);

// measure(lead) once, and once more with a longer lead if its backlog fell due before the
// consumers were ready (the figure would then hold part of the filling); returns the figures
// and the lead for the next drain.
async function drainWithLead(measure, lead) {
  let r = await measure(lead);
  let next = nextLead(r.fill_ms, lead);
  if (r.fell_due_before_ready) {
    say(`  the backlog fell due before the consumers were ready: again with a ${next} ms lead`);
    r = await measure(next);
    next = nextLead(r.fill_ms, next);
  }
  return [r, next];
}

async function main() {
  const { values: a } = parseArgs({ options: {
    url: { type: 'string' }, delayq: { type: 'string' }, 'delayq-json': { type: 'string' },
    'json-out': { type: 'string' }, 'bullmq-concurrency': { type: 'string', default: '1,50,200,500' },
    'bullmq-processes': { type: 'string', default: '1,2' },
    work: { type: 'string', default: '1x1,1x2,2x1,2x2,1x4' },
  } });
  if (!a.url || !a.delayq || !a['delayq-json'] || !a['json-out'])
    throw new Error('usage: run.mjs --url URL --delayq BIN --delayq-json F --json-out F');
  const d = JSON.parse(readFileSync(a['delayq-json'], 'utf8'));
  const s = d.settings;
  const connection = connectionOf(a.url);
  const ctx = { url: a.url, connection, prefix: `dqpeers-${randomBytes(4).toString('hex')}`,
                meter: new Meter(connection) };
  const cli = new Cli(ctx, a.delayq);
  const out = { delayq: d, bullmq_versions: bull.packages.map(bull.versionOf), anchor: [],
                work: [], bullmq: {} };
  try {
    say('anchor: redis-benchmark -P 100 ZADD, 200000 commands');
    out.anchor.push(await zaddAnchor(ctx, 200000));
    say('floor of a push: redis-benchmark -P 100 HSET of a 70-byte record, 200000 commands');
    out.record_floor = await recordFloor(ctx, 200000);
    say('delayq push --count 100000');
    out.push_count = await cli.pushCount(100000);
    let lead = 1500;
    for (const [processes, concurrency] of pairs(a.work)) {
      say(`delayq work: ${s.drain_tasks} tasks, ${processes} process(es) x --concurrency ${concurrency}`);
      const [r, next] = await drainWithLead(
        (l) => cli.drain(s.drain_tasks, processes, concurrency, l), lead);
      lead = next;
      out.work.push(r);
    }
    out.bullmq.drain = [];
    // BullMQ adds about 20,000 jobs/s on a quiet 2-core machine: four times that time, once.
    lead = 1000 + s.drain_tasks / 5;
    for (const pkg of bull.packages) {
      for (const processes of list(a['bullmq-processes'])) {
        for (const concurrency of list(a['bullmq-concurrency'])) {
          say(`BullMQ ${bull.versionOf(pkg)}: ${s.drain_tasks} jobs, ${processes} process(es) x ` +
              `concurrency ${concurrency}`);
          const [r, next] = await drainWithLead(
            (l) => bull.drain(ctx, pkg, s.drain_tasks, processes, concurrency, l), lead);
          lead = next;
          out.bullmq.drain.push(r);
        }
      }
    }
    // Lateness and memory with this run's fastest release and concurrency.
    const best = out.bullmq.drain.reduce((x, y) => (y.per_s > x.per_s ? y : x));
    say(`BullMQ ${best.version} lateness: ${s.rate} jobs/s for ${s.duration_ms} ms, ` +
        `${s.threads} workers x concurrency ${best.concurrency}`);
    out.bullmq.lateness = await bull.lateness(ctx, best.package, s.rate, s.duration_ms,
                                              s.threads, best.concurrency);
    say(`BullMQ ${best.version} memory: ${s.memory_tasks} delayed jobs`);
    out.bullmq.memory = await bull.memory(ctx, best.package, s.memory_tasks,
                                          d.ours.memory.payload_bytes);
    say('anchor again');
    out.anchor.push(await zaddAnchor(ctx, 200000));
    writeFileSync(a['json-out'], JSON.stringify(out) + '\n');
  } finally {
    await ctx.meter.deleteKeys(`${ctx.prefix}:*`);
    await ctx.meter.close();
  }
}

main().catch((e) => {
  console.error(`peers: ${e.message}`);
  process.exit(1);
});
