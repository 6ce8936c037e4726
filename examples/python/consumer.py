#!/usr/bin/env python3
"""Runs the tasks of a delayq queue from Python: claim, then ack or nack, extending leases.

Written from docs/protocol.md alone (protocol "layout 2.9"; unchanged for layouts 3.0 and 3.1), with nothing but Debian's
python3-redis, beside producer.py (whose Producer checks and loads the scripts the same way).

    consumer.py [--url URL] [--prefix dq] [--scripts DIR] QUEUE [--batch N] [--lease MS]
                [--until-empty] [--max-tasks N] [--fail-first]

Prints one JSON line per task it finished: id, attempt, outcome (acked, retry, dead, lost)
and the payload as payload_base64. Its "work" is printing; --fail-first fails every task's
first attempt (a nack, retried after 0 ms) to show the retry path.
"""

import argparse
import base64
import json
import os
import secrets
import socket
import sys
import time

import redis

from producer import exit_code_of, load_script, queue_keys, refuse_sharded, text


class Consumer:
    def __init__(self, client, queue, scripts_dir, prefix="dq"):
        self.client = client
        refuse_sharded(client, prefix, queue, "consumer")
        self.keys, self.wake = queue_keys(prefix, queue)
        self.worker = f"{socket.gethostname()}:{os.getpid()}"
        self.scripts = {name: load_script(client, scripts_dir, name, "consumer")
                        for name in ("claim", "ack", "nack", "extend", "reap")}

    def claim(self, batch, lease_ms):
        """Returns (now, next_due, tasks); each task a dict with id, payload, attempts, token."""
        token_base = secrets.token_hex(8)  # 64 random bits, never '|'
        reply = self.scripts["claim"](keys=self.keys,
                                      args=[batch, lease_ms, self.worker, token_base])
        now, next_due = int(reply[0]), int(reply[1])
        tasks = []
        flat = reply[3]  # id, record, due, attempts, id, ...: every task has the token sent
        for i in range(0, len(flat), 4):
            task_id, record, attempts = flat[i], flat[i + 1], flat[i + 3]
            # created|max_attempts|backoff|payload: the payload is all after the third '|'.
            payload = record.split(b"|", 3)[3]
            tasks.append({"id": text(task_id), "payload": payload, "attempts": int(attempts),
                          "token": token_base})
        return now, next_due, tasks

    def ack(self, task):
        return self.scripts["ack"](keys=self.keys, args=[1, task["id"], task["token"]])[0] == 1

    def nack(self, task, error, retry_ms=-1):
        """("retry", due) or ("dead", when); None when the lease was lost."""
        try:
            kind, when = self.scripts["nack"](
                keys=self.keys, args=[task["id"], task["token"], error, retry_ms, self.wake])
        except redis.ResponseError as e:
            if str(e).startswith("LEASE_LOST"):
                return None
            raise
        return text(kind), int(when)

    def extend(self, task, lease_ms):
        try:
            return int(self.scripts["extend"](keys=self.keys,
                                              args=[task["id"], task["token"], lease_ms]))
        except redis.ResponseError as e:
            if str(e).startswith("LEASE_LOST"):
                return None
            raise

    def reap(self):
        while self.scripts["reap"](keys=self.keys, args=[100, self.wake])[2] == 1:
            pass


def report(task, outcome):
    print(json.dumps({"id": task["id"], "attempt": task["attempts"], "outcome": outcome,
                      "payload_base64": base64.b64encode(task["payload"]).decode()}),
          flush=True)


def work(consumer, args):
    pubsub = consumer.client.pubsub(ignore_subscribe_messages=True)
    pubsub.subscribe(consumer.wake)
    done = 0
    while args.max_tasks == 0 or done < args.max_tasks:
        consumer.reap()
        now, next_due, tasks = consumer.claim(args.batch, args.lease)
        if not tasks:
            # Nothing due, but a task another consumer holds is work left: if that consumer
            # died, its lease runs out and the reap above puts the task back.
            if args.until_empty and consumer.client.zcard(consumer.keys[1]) == 0:
                return 0
            # Sleep until the next due time (server clock), a wake-up, or 1 s at most (also
            # when next due is -1: nothing pending, or the queue is paused).
            wait = 1.0 if next_due < 0 else min(1.0, max(0, next_due - now) / 1000)
            pubsub.get_message(timeout=wait)
            continue
        claimed_at = time.monotonic()
        for i, task in enumerate(tasks):
            # Renew the leases of what is still waiting once a third of the lease is gone.
            if args.lease and time.monotonic() - claimed_at > args.lease / 3000:
                for waiting in tasks[i:]:
                    consumer.extend(waiting, args.lease)
                claimed_at = time.monotonic()
            if args.fail_first and task["attempts"] == 1:
                result = consumer.nack(task, "failed on purpose (--fail-first)", 0)
                report(task, result[0] if result else "lost")
            else:
                report(task, "acked" if consumer.ack(task) else "lost")
            done += 1
    return 0


def main(argv):
    p = argparse.ArgumentParser(description="Run the tasks of a delayq queue.")
    p.add_argument("--url", default=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"))
    p.add_argument("--prefix", default="dq")
    p.add_argument("--scripts", default=os.environ.get("DELAYQ_SCRIPTS", "/usr/share/delayq/lua"))
    p.add_argument("queue")
    p.add_argument("--batch", type=int, default=10, choices=range(1, 101), metavar="N")
    p.add_argument("--lease", type=int, default=30000, help="lease ms (0: the queue's)")
    p.add_argument("--until-empty", action="store_true",
                   help="stop when nothing is due and nothing is active")
    p.add_argument("--max-tasks", type=int, default=0)
    p.add_argument("--fail-first", action="store_true")
    args = p.parse_args(argv)

    def run():
        consumer = Consumer(redis.Redis.from_url(args.url), args.queue, args.scripts,
                            args.prefix)
        return work(consumer, args)

    return exit_code_of("consumer.py", run)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
