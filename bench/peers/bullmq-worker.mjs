// One BullMQ worker process of bullmq-bench.mjs's drain: forked with its settings (the package
// to load among them) as JSON in argv[2], it says {ready} once connected, counts the jobs it
// completes (reporting the count every 100 ms), and on {stop} answers with its first and last
// completion time and closes.
import { nowMs } from './common.mjs';

const s = JSON.parse(process.argv[2]);
// bullmq or the alias of the other line (bullmq-bench.mjs's packages).
const { Worker } = await import(s.package);
let count = 0;
let first = 0;
let last = 0;
const worker = new Worker(s.queue, async () => {}, {
  connection: s.connection, prefix: s.prefix, concurrency: s.concurrency,
});
worker.on('completed', () => {
  last = nowMs();
  if (++count === 1)
    first = last;
});
worker.on('error', (e) => console.error(`bullmq-worker: ${e.message}`));
const tick = setInterval(() => process.send({ count }), 100);
process.on('message', async (m) => {
  if (m.stop) {
    clearInterval(tick);
    process.send({ done: true, count, first, last });
    await worker.close();
    process.disconnect();
  }
});
await worker.waitUntilReady();
process.send({ ready: true });
