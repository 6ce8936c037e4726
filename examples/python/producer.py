#!/usr/bin/env python3
"""Pushes tasks to a delayq queue, and cancels them, from Python.

Written from docs/protocol.md alone (protocol "layout 2.9"; unchanged for layouts 3.0 and 3.1), with nothing but Debian's
python3-redis. The scripts come from `delayq scripts --dump DIR` or an installed delayq
(/usr/share/delayq/lua).

    producer.py [--url URL] [--prefix dq] [--scripts DIR] QUEUE push [--in MS | --at MS]
                [--id ID] [--max-attempts N] [--replace] [--base64] PAYLOAD...
    producer.py [--url URL] [--prefix dq] [--scripts DIR] QUEUE cancel [--force] ID...

Prints one line per task or id: its status, its id, and for a push its due time (ms since
the epoch, the Redis server's clock). Exits 0 when every task was created (or cancelled), 1
when one was refused (its status says why), 2 for bad input, 3 when Redis cannot be reached.
"""

import argparse
import base64
import os
import re
import secrets
import sys
import threading
import time

import redis

PROTOCOL = "delayq-protocol: layout 3.1"
# Calls stay small so no script holds Redis long (docs/protocol.md, section 4).
PUSH_CHUNK = 100
CANCEL_CHUNK = 500
NAME_RE = re.compile(r"^[A-Za-z0-9._:-]+$")
CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
LATEST_MS = 253402300799999


class ProtocolError(Exception):
    """Bad input, or scripts of another protocol version: nothing was sent."""


def check_name(what, text, longest):
    if not 1 <= len(text) <= longest or not NAME_RE.match(text):
        raise ProtocolError(
            f"{what} {text!r} must be 1 to {longest} letters, digits or . _ : -")


def check_id(task_id):
    raw = task_id.encode() if isinstance(task_id, str) else task_id
    if not 1 <= len(raw) <= 256:
        raise ProtocolError(f"task id {task_id!r} must be 1 to 256 bytes")
    if any(b < 0x20 or b == 0x7F for b in raw):
        raise ProtocolError(f"task id {task_id!r} contains a control character")


class IdMaker:
    """Time-sortable ids as delayq makes them: 48 bits of ms, then 80 random bits, counting
    up within one ms so that tasks due at the same ms keep push order."""

    def __init__(self):
        self._lock = threading.Lock()
        self._last_ms = 0
        self._last_random = 0

    def new_id(self):
        with self._lock:
            ms = time.time_ns() // 1_000_000
            if ms <= self._last_ms:
                ms = self._last_ms
                rand = (self._last_random + 1) & ((1 << 80) - 1)
            else:
                rand = secrets.randbits(79)  # the top bit left free to count up
            self._last_ms, self._last_random = ms, rand
        value = (ms << 80) | rand
        return "".join(CROCKFORD[(value >> (5 * i)) & 31] for i in range(25, -1, -1))


def queue_keys(prefix, queue):
    """The nine KEYS of every script of a queue, in their order, and its wake channel."""
    check_name("the key prefix", prefix, 64)
    check_name("the queue name", queue, 128)
    base = f"{prefix}:{{{queue}}}:"
    keys = [base + k for k in
            ("pending", "active", "dead", "d:", "config", "stats", "m:", "run", "errors")]
    return keys, base + "wake"


def refuse_sharded(client, prefix, queue, who):
    """This example speaks to unsharded queues only (docs/protocol.md, section 8): on a sharded
    one it would see shard 0 alone, so it refuses before anything is sent."""
    config = queue_keys(prefix, queue)[0][4]
    if len((client.hget(config, "shard_tags") or b"").split()) > 1:
        raise ProtocolError(f"queue {queue!r} is sharded; this {who} handles unsharded queues "
                            "only (docs/protocol.md, section 8)")


def load_script(client, scripts_dir, name, who):
    """A script dumped by `delayq scripts --dump DIR`, refused unless DIR/PROTOCOL is ours."""
    try:
        with open(os.path.join(scripts_dir, "PROTOCOL"), "rb") as f:
            first = f.readline().decode("utf-8", "replace").rstrip("\n")
        with open(os.path.join(scripts_dir, name + ".lua"), "rb") as f:
            text = f.read()  # bytes, as dumped: the SHA1 must match
    except OSError as e:
        raise ProtocolError(f"cannot read the delayq scripts in {scripts_dir}: {e}"
                            " (write them with: delayq scripts --dump DIR)") from e
    if first != PROTOCOL:
        raise ProtocolError(f"the scripts in {scripts_dir} say {first!r}; this {who} "
                            f"speaks {PROTOCOL!r}")
    # EVALSHA, loading the script when the server answers NOSCRIPT.
    return client.register_script(text)


class Producer:
    def __init__(self, client, queue, scripts_dir, prefix="dq"):
        self.client = client
        self.queue = queue
        self.prefix = prefix
        self.keys, self.wake = queue_keys(prefix, queue)
        self.ids = IdMaker()
        self._registered = False
        refuse_sharded(client, prefix, queue, "producer")
        self._push = load_script(client, scripts_dir, "push", "producer")
        self._cancel = load_script(client, scripts_dir, "cancel", "producer")

    def push(self, tasks, replace=False):
        """tasks: dicts with payload (bytes) and optionally id, delay_ms or at_ms,
        max_attempts. Returns (status, id, due_ms) per task, in order."""
        prepared = []
        for t in tasks:
            task_id = t.get("id") or self.ids.new_id()
            check_id(task_id)
            if "at_ms" in t:
                kind, value = "at", int(t["at_ms"])
                if not 0 <= value <= LATEST_MS:
                    raise ProtocolError("the due time must be between 1970 and 9999")
            else:
                kind, value = "in", int(t.get("delay_ms", 0))
                if value < 0:
                    raise ProtocolError("the delay must not be negative")
            attempts = int(t.get("max_attempts", 0))
            if not 0 <= attempts <= 1000000:
                raise ProtocolError("max attempts must be 0 (the queue's) to 1000000")
            payload = t.get("payload", b"")
            if isinstance(payload, str):
                payload = payload.encode()
            prepared.append((task_id, payload, kind, value, attempts))
        if not prepared:
            return []
        self._register()
        results = []
        start = 0
        while start < len(prepared):
            # One due kind and one settings text per call: a chunk ends where either changes.
            kind, attempts = prepared[start][2], prepared[start][4]
            end = start + 1
            while (end < len(prepared) and end - start < PUSH_CHUNK
                   and prepared[end][2] == kind and prepared[end][4] == attempts):
                end += 1
            chunk = prepared[start:end]
            start = end
            # Settings: "" for the queue's max attempts and backoff, else "N|BACKOFF".
            settings = f"{attempts}|" if attempts else ""
            args = ["replace" if replace else "nx", self.wake, kind, settings, len(chunk)]
            for task_id, payload, _kind, value, _attempts in chunk:
                args += [task_id, payload, value]
            args.append("")  # the actor: none, a producer's pushes are not audited
            now, listed = self._push(keys=self.keys, args=args)
            # Only the tasks not created are listed (index from 1, status, due ms); the others
            # are due at their time, or at server now + their delay.
            statuses = {}
            for k in range(0, len(listed), 3):
                statuses[int(listed[k])] = (text(listed[k + 1]), int(listed[k + 2]))
            for i, (task_id, _payload, _kind, value, _attempts) in enumerate(chunk):
                due = value if kind == "at" else int(now) + value
                status, due = statuses.get(i + 1, ("created", due))
                results.append((status, task_id, due))
        return results

    def cancel(self, ids, force=False):
        """Returns (status, id) per id: done, not_found, active or dead."""
        for task_id in ids:
            check_id(task_id)
        results = []
        for start in range(0, len(ids), CANCEL_CHUNK):
            chunk = list(ids[start:start + CANCEL_CHUNK])
            # The last value is the actor: "" (none).
            reply = self._cancel(keys=self.keys, args=["1" if force else "0", ""] + chunk + [""])
            # {done, remaining, {one status per id}}: the statuses are the third value.
            results += [(text(status), task_id) for status, task_id in zip(reply[2], chunk)]
        return results

    def _register(self):
        # The queue list is outside the queue's slot, so no script writes it.
        if not self._registered:
            self.client.sadd(f"{self.prefix}:queues", self.queue)
            self._registered = True


def text(value):
    return value.decode() if isinstance(value, bytes) else str(value)


def parse_args(argv):
    p = argparse.ArgumentParser(description="Push tasks to a delayq queue, or cancel them.")
    p.add_argument("--url", default=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"))
    p.add_argument("--prefix", default="dq")
    p.add_argument("--scripts", default=os.environ.get("DELAYQ_SCRIPTS", "/usr/share/delayq/lua"),
                   help="the folder of `delayq scripts --dump` (default: the installed one)")
    p.add_argument("queue")
    sub = p.add_subparsers(dest="command", required=True)
    push = sub.add_parser("push", help="add tasks, one per PAYLOAD")
    due = push.add_mutually_exclusive_group()
    due.add_argument("--in", dest="delay_ms", type=int, default=0, help="delay, ms")
    due.add_argument("--at", dest="at_ms", type=int, help="due time, ms since the epoch")
    push.add_argument("--id", help="the task's id (one PAYLOAD only)")
    push.add_argument("--max-attempts", type=int, default=0)
    push.add_argument("--replace", action="store_true", help="overwrite a task of the same id")
    push.add_argument("--base64", action="store_true", help="each PAYLOAD is base64 of its bytes")
    push.add_argument("payloads", nargs="+", metavar="PAYLOAD")
    cancel = sub.add_parser("cancel", help="delete pending tasks")
    cancel.add_argument("--force", action="store_true", help="also tasks a worker holds")
    cancel.add_argument("ids", nargs="+", metavar="ID")
    return p.parse_args(argv)


def run(args):
    producer = Producer(redis.Redis.from_url(args.url), args.queue, args.scripts, args.prefix)
    if args.command == "cancel":
        results = producer.cancel(args.ids, args.force)
        for status, task_id in results:
            print(status, task_id)
        return 0 if all(s == "done" for s, _ in results) else 1
    if args.id and len(args.payloads) > 1:
        raise ProtocolError("--id names one task: give one PAYLOAD")
    tasks = []
    for payload in args.payloads:
        try:
            data = base64.b64decode(payload, validate=True) if args.base64 else payload.encode()
        except ValueError as e:
            raise ProtocolError(f"PAYLOAD {payload[:40]!r} is not base64") from e
        task = {"payload": data, "max_attempts": args.max_attempts, "id": args.id}
        if args.at_ms is not None:
            task["at_ms"] = args.at_ms
        else:
            task["delay_ms"] = args.delay_ms
        tasks.append(task)
    results = producer.push(tasks, replace=args.replace)
    for status, task_id, due in results:
        print(status, task_id, due)
    return 0 if all(s in ("created", "replaced") for s, _, _ in results) else 1


def exit_code_of(program, action):
    """Runs action(); turns the errors a delayq client meets into a message and the exit code
    delayq's own tools use: 2 bad input, 3 Redis unreachable, 1 refused."""
    try:
        return action()
    except ProtocolError as e:
        print(f"{program}: {e}", file=sys.stderr)
        return 2
    except redis.ConnectionError as e:
        print(f"{program}: cannot reach Redis: {e}", file=sys.stderr)
        return 3
    except redis.ResponseError as e:
        print(f"{program}: Redis refused: {e}", file=sys.stderr)
        return 1


def main(argv):
    args = parse_args(argv)
    return exit_code_of("producer.py", lambda: run(args))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
