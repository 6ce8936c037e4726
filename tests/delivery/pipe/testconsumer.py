#!/usr/bin/env python3
"""tst_pipedelivery's consumer: what it does with a task is in its payload.

    ok...          ack
    fail:TEXT      fail with TEXT, every attempt
    dead:TEXT      dead at once with TEXT
    retry:MS       retry in MS ms on attempt 1, then ack
    slow:MS        work MS ms, then ack
    crash          exit with status 3 on attempt 1 (the tasks after it are not read)
    kill           SIGKILL itself on attempt 1
    hang           stop answering on attempt 1 (sleeps until killed)
    garbage        write a line that is not JSON on attempt 1
    stranger       answer for an id it was not given on attempt 1
    anything else  ack

Before answering it appends "pid thread queue id attempt payload-hex SigBlk" to
$PIPE_TEST_LOG.
"""
import base64
import json
import os
import signal
import sys
import time


def blocked_signals():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("SigBlk:"):
                return line.split()[1]
    return "?"


def log(task, payload):
    with open(os.environ["PIPE_TEST_LOG"], "a") as f:
        f.write("%d %s %s %s %d %s %s\n" % (os.getpid(), os.environ.get("DELAYQ_THREAD", "?"),
                                            os.environ.get("DELAYQ_QUEUE", "?"), task["id"],
                                            task["attempt"], payload.hex() or "-",
                                            blocked_signals()))


def answer(task, payload):
    text = payload.decode("utf-8", errors="replace")
    first = task["attempt"] == 1
    if text.startswith("fail:"):
        return {"fail": text[5:]}
    if text.startswith("dead:"):
        return {"dead": text[5:]}
    if text.startswith("retry:") and first:
        return {"retry_in_ms": int(text[6:]), "error": "not yet"}
    if text.startswith("slow:"):
        time.sleep(int(text[5:]) / 1000)
    if first and text == "crash":
        sys.stdout.flush()
        os._exit(3)
    if first and text == "kill":
        sys.stdout.flush()
        os.kill(os.getpid(), signal.SIGKILL)
    if first and text == "hang":
        while True:
            time.sleep(1)
    if first and text == "garbage":
        return "this is not json"
    if first and text == "stranger":
        return {"id": "nobody-has-this-id", "ack": True}
    return {"ack": True}


for line in sys.stdin:
    task = json.loads(line)
    payload = (task["payload"].encode("utf-8") if "payload" in task
               else base64.b64decode(task["payload_base64"]))
    log(task, payload)
    a = answer(task, payload)
    if isinstance(a, dict):
        a.setdefault("id", task["id"])
        a = json.dumps(a)
    sys.stdout.write(a + "\n")
    sys.stdout.flush()
