// The delayq CLI as users run it, on the server of run.mjs: `delayq work` processes draining
// a backlog, `delayq push --count`, and the same-run anchor, a pipelined ZADD of random
// members from redis-benchmark. Each is measured with Meter's reading of INFO cpu.
import { spawn } from 'node:child_process';
import { drainFigures, nowMs, waitFor } from './common.mjs';

// The bench's payload shape (58 bytes): `push --count` pushes copies of one.
const drainPayload = '{"order":1,"action":"remind","pad":"0123456789abcdef"}';

function run(command, args, { quiet = true } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', quiet ? 'ignore' : 'inherit', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => { stderr += d; });
    child.on('error', reject);
    child.on('exit', (code) => {
      const at = nowMs();
      if (code === 0)
        resolve({ at, stderr });
      else
        reject(new Error(`${command} ${args.join(' ')} exited ${code}: ${stderr.trim()}`));
    });
  });
}

export class Cli {
  constructor(ctx, delayq) {
    this.ctx = ctx;
    this.delayq = delayq;
    this.global = ['--url', ctx.url, '--prefix', ctx.prefix];
  }

  // `processes` `delayq work QUEUE --concurrency N --handler ack --until-empty --quiet`
  // processes, started and waiting before a backlog of `tasks` falls due at one moment;
  // timed from that moment to the last process's exit (its wind-down included: one empty
  // claim, its threads joined).
  async drain(tasks, processes, concurrency, leadMs) {
    const queue = `work-${processes}x${concurrency}`;
    const fillStart = nowMs();
    const dueAt = Math.ceil(fillStart + leadMs);
    await run(this.delayq, [...this.global, 'push', queue, drainPayload, '--count', String(tasks),
                            '--at', new Date(dueAt).toISOString()]);
    const fillMs = nowMs() - fillStart;
    const workers = Array.from({ length: processes }, () => run(this.delayq, [
      ...this.global, 'work', queue, '--concurrency', String(concurrency), '--handler', 'ack',
      '--until-empty', '--quiet']));
    // Every worker thread subscribes to the wake channel before it waits.
    const wake = `${this.ctx.prefix}:{${queue}}:wake`;
    await waitFor(async () => (await this.ctx.meter.listeners(wake)) >= processes, 10000);
    const late = nowMs() >= dueAt;
    const cpuBefore = await this.ctx.meter.cpuSeconds();
    const ends = await Promise.all(workers);
    const cpuUsPerTask = await this.ctx.meter.cpuUsPerTask(cpuBefore, tasks);
    const acked = ends.reduce((sum, e) => sum + Number(e.stderr.match(/acked (\d+)/)?.[1] ?? 0), 0);
    if (acked !== tasks)
      throw new Error(`delayq work acked ${acked} of ${tasks} tasks`);
    await this.ctx.meter.deleteKeys(`${this.ctx.prefix}:{${queue}}:*`);
    // No first-task time from outside the process: first_ms is left out.
    const { first_ms: _, ...figures } =
      drainFigures(tasks, dueAt, dueAt, Math.max(...ends.map((e) => e.at)), cpuUsPerTask);
    return { processes, concurrency, fill_ms: fillMs, fell_due_before_ready: late, ...figures };
  }

  // `delayq push QUEUE PAYLOAD --count N` (200 a script call) into a new queue: Redis CPU
  // per task, the whole command (its connection included).
  async pushCount(tasks) {
    const queue = 'push-count';
    const cpuBefore = await this.ctx.meter.cpuSeconds();
    await run(this.delayq, [...this.global, 'push', queue, 'payload-0000000000', '--count',
                            String(tasks), '--in', '1d']);
    const cpuUsPerTask = await this.ctx.meter.cpuUsPerTask(cpuBefore, tasks);
    await this.ctx.meter.deleteKeys(`${this.ctx.prefix}:{${queue}}:*`);
    return { tasks, payload_bytes: 18, cpu_us_per_task: cpuUsPerTask };
  }
}

// redis-benchmark -P 100 -c 1 COMMAND...: Redis CPU per command, read the same way as every
// phase; the keys matching `pattern` are deleted after.
async function pipelined(ctx, commands, randomRange, command, pattern) {
  const cpuBefore = await ctx.meter.cpuSeconds();
  const auth = ctx.connection.password ? ['-a', ctx.connection.password] : [];
  if (ctx.connection.username)
    auth.push('--user', ctx.connection.username);
  await run('redis-benchmark', [...auth, '--dbnum', String(ctx.connection.db),
                                '-h', ctx.connection.host, '-p', String(ctx.connection.port),
                                '-n', String(commands), '-c', '1', '-P', '100',
                                '-r', String(randomRange), '-q', ...command]);
  const cpuUsPerCommand = await ctx.meter.cpuUsPerTask(cpuBefore, commands);
  await ctx.meter.deleteKeys(pattern);
  return cpuUsPerCommand;
}

// A pipelined ZADD of random members into one new sorted set. Not machine-independent itself,
// but a same-run measure of what one pipelined write costs this server on this machine.
export async function zaddAnchor(ctx, commands) {
  const key = `${ctx.prefix}:anchor`;
  const us = await pipelined(ctx, commands, 100000000, ['ZADD', key, '__rand_int__',
                                                         'm:__rand_int__'], key);
  return { commands, pipeline: 100, clients: 1, cpu_us_per_zadd: us };
}

// The other write every pushed task makes besides its ZADD: its record (70 bytes for the
// bench's 58-byte payload) into one of 8,192 hashes, here as a pipelined HSET of a new field.
// Anchor + this is a push's floor, with no script, no check and no reply.
export async function recordFloor(ctx, commands) {
  const us = await pipelined(ctx, commands, 8192,
                             ['HSET', `${ctx.prefix}:floor:__rand_int__`,
                              'f:__rand_int__:__rand_int__', 'r'.repeat(70)],
                             `${ctx.prefix}:floor:*`);
  return { commands, record_bytes: 70, buckets: 8192, cpu_us_per_hset: us };
}
