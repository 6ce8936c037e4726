// What the peer benchmarks share: the connection, the Redis readings (the same as delayq
// bench's ServerMeter), the payloads and the clock.
import IORedis from 'ioredis';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

export function connectionOf(url) {
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

// Wall clock in ms since the epoch, to the microsecond: the clock BullMQ's timestamps and
// Redis's TIME use on this machine (loopback: one machine, one clock).
export const nowMs = () => performance.timeOrigin + performance.now();

// The same readings as delayq bench's ServerMeter (one server: no cluster here).
export class Meter {
  constructor(connection) { this.redis = new IORedis(connection); }
  // Redis frees an UNLINKed key of more than 64 elements on a background thread, whose CPU
  // is in used_cpu_*. A reading waits until no such free is pending, so a phase is billed for
  // the frees it caused and for none a cleanup before it left running: the anchor's
  // 200,000-member set, freed while `push --count` ran, was a sixth of that push's figure.
  async settled() {
    const deadline = performance.now() + 10000;
    while (infoField(await this.redis.info('memory'), 'lazyfree_pending_objects') > 0) {
      if (performance.now() > deadline)
        throw new Error('Redis was still freeing deleted keys after 10 s');
      await sleep(5);
    }
  }
  async cpuSeconds() {
    await this.settled();
    const info = await this.redis.info('cpu');
    return infoField(info, 'used_cpu_user') + infoField(info, 'used_cpu_sys');
  }
  async usedMemory() { return infoField(await this.redis.info('memory'), 'used_memory'); }
  async cpuUsPerTask(since, tasks) { return ((await this.cpuSeconds()) - since) * 1e6 / tasks; }
  async listeners(channel) {
    const [, n] = await this.redis.pubsub('NUMSUB', channel);
    return Number(n);
  }
  // Deletes every key matching `pattern`, a SCAN of 1,000 at a time (ends when SCAN does).
  async deleteKeys(pattern) {
    let cursor = '0';
    do {
      const [next, keys] = await this.redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
      cursor = next;
      if (keys.length)
        await this.redis.unlink(...keys);
    } while (cursor !== '0');
  }
  async close() { await this.redis.quit(); }
}

// Polls `ready` every 20 ms for at most `ms`; true once it held.
export async function waitFor(ready, ms) {
  const deadline = performance.now() + ms;
  while (performance.now() < deadline) {
    if (await ready())
      return true;
    await sleep(20);
  }
  return false;
}

// As delayq bench's payloads: about 60 bytes, each one distinct.
export const payload = (i) => ({ order: i, action: 'remind', pad: '0123456789abcdef' });
// As delayq bench: half due at once, half 100-500 ms ahead.
export const dueDelay = (i) => (i % 2 === 0 ? 0 : 100 + (i * 37) % 400);

export function percentiles(values) {
  const v = [...values].sort((a, b) => a - b);
  const at = (q) => v[Math.min(v.length, Math.max(1, Math.ceil(q * v.length))) - 1] ?? 0;
  return { count: v.length, p50: at(0.5), p99: at(0.99), max: v.length ? v[v.length - 1] : 0 };
}

// A drain's figures: tasks over (last finished - due), the server CPU, and how long after
// the due time the first task finished.
export function drainFigures(tasks, dueAt, first, last, cpuUsPerTask) {
  return { tasks, per_s: tasks / (Math.max(1, last - dueAt) / 1000), cpu_us_per_task: cpuUsPerTask,
           first_ms: first - dueAt };
}
