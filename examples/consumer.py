#!/usr/bin/env python3
"""An example consumer for delayq's pipe: target (docs/targets/pipe.md).

    delayq work orders --handler 'pipe:python3 examples/consumer.py'

delayq starts this once per worker thread and keeps it running. Each due task arrives as
one JSON line on stdin:

    {"id": "...", "queue": "orders", "attempt": 1, "max_attempts": 5,
     "due": 1764648000000, "payload": "..."}

("payload_base64" instead of "payload" when the payload is not UTF-8, "id_base64" instead
of "id" when the id is not). Answer each with one JSON line on stdout, in any order:

    {"id": "...", "ack": true}                          done
    {"id": "...", "fail": "why"}                        retried on the task's backoff
    {"id": "...", "retry_in_ms": 5000, "error": "why"}  retried in 5 s
    {"id": "...", "dead": "why"}                        to the dead tasks at once

stdout is for answers only: a line that is not one gets this process killed and restarted.
Log to stderr (it shows in delayq's terminal). End when stdin ends: that is the worker
stopping, after it has the answers to every task it sent.
"""
import base64
import json
import sys


def handle(task, payload):
    """Your work goes here; return the answer (without the id)."""
    text = payload.decode("utf-8", errors="replace")
    if text.startswith("fail"):
        return {"fail": "the payload asked to fail"}
    if text.startswith("later") and task["attempt"] < 3:
        return {"retry_in_ms": 2000, "error": "not ready yet, attempt %d" % task["attempt"]}
    print("consumer: handled %s: %s" % (task.get("id"), text[:60]), file=sys.stderr)
    return {"ack": True}


def main():
    for line in sys.stdin:
        task = json.loads(line)
        if "payload" in task:
            payload = task["payload"].encode("utf-8")
        else:
            payload = base64.b64decode(task["payload_base64"])
        try:
            answer = handle(task, payload)
        except Exception as e:  # a bug in handle() fails this task, not the consumer
            answer = {"fail": "%s: %s" % (type(e).__name__, e)}
        # Answer with the id exactly as it came ("id" or "id_base64").
        for key in ("id", "id_base64"):
            if key in task:
                answer[key] = task[key]
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()  # delayq waits for the answer: do not leave it in a buffer


if __name__ == "__main__":
    main()
