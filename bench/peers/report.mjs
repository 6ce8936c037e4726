// The one table of scripts/bench-peers: medians over its runs (range in brackets) of every
// drain, each peer's settings, Redis CPU per task beside the same-run ZADD anchor, lateness
// and memory, as markdown.
//
//   node report.mjs --env "text" run-1.json run-2.json ...
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const median = (v) => {
  const s = v.filter((x) => x != null && Number.isFinite(x)).sort((x, y) => x - y);
  if (!s.length)
    return null;
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const range = (v) => {
  const s = v.filter((x) => x != null && Number.isFinite(x));
  return s.length ? [Math.min(...s), Math.max(...s)] : null;
};
const group = (n) => Math.round(n).toLocaleString('en-US');
const num = {
  rate: (x) => `${group(x)}/s`,
  us: (x) => `${x.toFixed(2)} µs`,
  times: (x) => `${x.toFixed(2)}×`,
  ms: (x) => `${Math.round(x)} ms`,
  bytes: (x) => `${Math.round(x)} B`,
};
// "median (min–max)" of the values, or "–" when none; one value alone has no range.
function cell(values, fmt) {
  const m = median(values);
  if (m == null)
    return '–';
  const [lo, hi] = range(values);
  return values.length > 1 ? `${fmt(m)} (${fmt(lo).replace(/[^0-9.,]+$/, '')}–${fmt(hi)})`
    : fmt(m);
}

function row(cells) { return `| ${cells.join(' | ')} |`; }
function table(head, rows) {
  return [row(head), row(head.map(() => '---')), ...rows.map(row)].join('\n');
}

// A setting: processes x concurrency, and for BullMQ its release.
const key = (r) => `${r.version ? `${r.version} ` : ''}${r.processes}x${r.concurrency}`;
// The setting with the highest median rate over the runs, and its runs' figures.
function best(runs, pick) {
  const keys = [...new Set(runs.flatMap((r) => pick(r).map(key)))];
  const rated = keys.map((k) => ({
    k, median: median(runs.map((r) => pick(r).find((x) => key(x) === k)?.per_s)),
  }));
  const top = rated.reduce((x, y) => (y.median > x.median ? y : x));
  const of = (r) => pick(r).find((x) => key(x) === top.k);
  return { key: top.k, of, sample: runs.map(of).find(Boolean) };
}

function main() {
  const { values: a, positionals: files } = parseArgs({
    options: { env: { type: 'string', default: '' } }, allowPositionals: true });
  const runs = files.map((f) => JSON.parse(readFileSync(f, 'utf8')));
  const d0 = runs[0].delayq;
  const s = d0.settings;
  const seed = (r, kind) => r.delayq.seeds.find((x) => x.kind === kind);
  const anchor = (r) => r.anchor.reduce((x, y) => x + y.cpu_us_per_zadd, 0) / r.anchor.length;
  const work = best(runs, (r) => r.work);
  const bq = best(runs, (r) => r.bullmq.drain);
  const [wp, wc] = [work.sample.processes, work.sample.concurrency];
  const [bp, bc, bullV] = [bq.sample.processes, bq.sample.concurrency, bq.sample.version];
  const tried = [...new Set(runs.flatMap((r) => r.bullmq.drain.map((x) => x.version)))];
  const batch = s.batch_from === 'worker default' ? `batch ${s.batch}, the worker's default`
    : `batch ${s.batch} (${s.batch_from})`;
  const procs = (n) => `${n} process${Number(n) === 1 ? '' : 'es'}`;

  const drains = [
    ['`delayq work` (CLI processes)',
     `best of the sweep: ${procs(wp)} × \`--concurrency ${wc} --handler ack\`, every other option ` +
     'its default; timed to the last process exit', (r) => work.of(r)],
    ['`delayq bench` drain (in-process)', `${s.drain_workers} workers of one thread, ${batch}`,
     (r) => r.delayq.ours.drain],
    [`BullMQ ${bullV}`, `best of the sweep (releases ${tried.join(' and ')}): ${procs(bp)} × ` +
     `\`concurrency: ${bc}\`, \`removeOnComplete\`/\`removeOnFail: true\`, every other option ` +
     'its default',
     (r) => bq.of(r)],
    ['seed design (b): Lua pop', `${s.threads} consumers, one EVALSHA a task, 1 s sleep when ` +
     'none is due', (r) => seed(r, 'lua_pop')?.drain],
    ['seed design (a): ZRANGEBYSCORE + ZREM', `${s.threads} consumers, 500 ms sleep when none ` +
     'is due', (r) => seed(r, 'range_then_rem')?.drain],
  ];
  const ref = drains[0][2];
  const drainRows = drains.map(([name, settings, of]) => [
    name, settings,
    cell(runs.map((r) => of(r)?.per_s), num.rate),
    of === ref ? '1×' : cell(runs.map((r) => ref(r).per_s / of(r)?.per_s), num.times),
    cell(runs.map((r) => of(r)?.cpu_us_per_task), num.us),
    cell(runs.map((r) => of(r)?.cpu_us_per_task / anchor(r)), num.times),
    cell(runs.map((r) => of(r)?.first_ms), num.ms),
  ]);

  const sweep = (pick, label) => {
    const keys = [...new Set(runs.flatMap((r) => pick(r).map(key)))];
    return keys.map((k) => {
      const x = runs.map((r) => pick(r).find((y) => key(y) === k)).find(Boolean);
      return [x.version ? `${label} ${x.version}` : label, `${x.processes} × ${x.concurrency}`,
              cell(runs.map((r) => pick(r).find((x) => key(x) === k)?.per_s), num.rate),
              cell(runs.map((r) => pick(r).find((x) => key(x) === k)?.cpu_us_per_task), num.us)];
    });
  };

  const cpuRows = [
    ['anchor: `redis-benchmark -P 100 -c 1 ZADD key __rand_int__ m:__rand_int__`, 200,000 ' +
     'commands, twice a run', (r) => anchor(r)],
    ['floor of a push: the anchor + `redis-benchmark -P 100 -c 1 HSET KEY:__rand_int__ ' +
     'f:__rand_int__:__rand_int__ RECORD` (70 bytes, 8,192 hashes), the two writes a pushed ' +
     'task makes', (r) => (r.record_floor ? anchor(r) + r.record_floor.cpu_us_per_hset : undefined)],
    ['push: `delayq push Q PAYLOAD --count 100000` (200 a script call, 18-byte payload)',
     (r) => r.push_count.cpu_us_per_task],
    [`push: \`delayq bench\`'s batched phase (${s.tasks} tasks, 58-byte JSON payloads)`,
     (r) => r.delayq.push_batched_cpu_us_per_task],
    [`claim + ack: \`delayq bench\`'s claim phase (${s.threads} threads, ${batch})`,
     (r) => r.delayq.ours.claim_cpu_us_per_task],
    [`claim + ack: \`delayq work\` drain, ${wp} × ${wc}`, (r) => work.of(r).cpu_us_per_task],
    [`BullMQ drain, ${bp} × ${bc}, per job`, (r) => bq.of(r).cpu_us_per_task],
    ['seed (b) Lua pop drain, per task', (r) => seed(r, 'lua_pop')?.drain?.cpu_us_per_task],
  ].map(([name, of]) => [name, cell(runs.map(of), num.us),
                         cell(runs.map((r) => of(r) / anchor(r)), num.times)]);

  const designs = [
    ['delayq', (r) => r.delayq.ours.lateness_ms, (r) => r.delayq.ours.memory],
    [`BullMQ ${[...new Set(runs.map((r) => r.bullmq.lateness.version))].join(' / ')} ` +
     `(${s.threads} workers × concurrency ` +
     `${[...new Set(runs.map((r) => r.bullmq.lateness.concurrency))].join(' / ')}, each run's best)`,
     (r) => r.bullmq.lateness,
     (r) => r.bullmq.memory],
    ['seed (b) Lua pop', (r) => seed(r, 'lua_pop')?.lateness_ms, (r) => seed(r, 'lua_pop')?.memory],
    ['seed (a) ZRANGEBYSCORE + ZREM', (r) => seed(r, 'range_then_rem')?.lateness_ms,
     (r) => seed(r, 'range_then_rem')?.memory],
  ];
  const otherRows = designs.map(([name, late, mem]) => [
    name,
    ['p50', 'p99', 'max'].map((q) => cell(runs.map((r) => late(r)?.[q]), num.ms)).join(' / '),
    cell(runs.map((r) => mem(r)?.bytes_per_task), num.bytes),
  ]);

  const flagged = runs.flatMap((r) => [...r.work, ...r.bullmq.drain])
    .filter((x) => x.fell_due_before_ready).map((x) => `${x.processes} × ${x.concurrency}`);
  const lines = [
    `## delayq against its peers: ${runs.length} run(s), medians (min–max)`,
    '',
    `${a.env} Server: ${d0.server}.`,
    '',
    `### Drain: ${group(s.drain_tasks)} tasks falling due at one moment`,
    '',
    'Every consumer is running and waiting when the whole backlog falls due; each drain is ' +
    'timed from that moment to its last task finished (a consumer that polls pays its sleep). ' +
    'Redis CPU is `used_cpu_user + used_cpu_sys` of `INFO cpu` over the drain, per task. ' +
    'Ratios are taken within each run, then their median.',
    '',
    table(['consumer', 'settings', 'tasks/s', '`delayq work` ÷ this', 'Redis CPU per task',
           '× ZADD anchor', 'first task after due'], drainRows),
    '',
    '### The settings tried (tasks/s, Redis CPU per task)',
    '',
    table(['consumer', 'processes × concurrency', 'tasks/s', 'Redis CPU per task'],
          [...sweep((r) => r.work, '`delayq work`'), ...sweep((r) => r.bullmq.drain, 'BullMQ')]),
    '',
    flagged.length ? `**Warning:** in ${flagged.length} drain(s) (${flagged.join(', ')}) the ` +
      'backlog fell due before the consumers were ready even with a longer lead: those figures ' +
      'hold part of the filling.\n' : '',
    '### Redis CPU per task beside the same-run anchor',
    '',
    'Microseconds depend on the machine; the multiple of a pipelined ZADD measured on the ' +
    'same server in the same run is what carries across machines.',
    '',
    table(['operation', 'Redis CPU per task', '× ZADD anchor'], cpuRows),
    '',
    `### Lateness at ${s.rate} tasks/s for ${s.duration_ms} ms, memory per pending task`,
    '',
    table(['design', 'lateness p50 / p99 / max', `memory per task (${group(s.memory_tasks)} ` +
           `pending, ${d0.ours.memory.payload_bytes}-byte payloads)`], otherRows),
    '',
  ];
  process.stdout.write(lines.join('\n'));
}

main();
