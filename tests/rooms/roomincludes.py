#!/usr/bin/env python3
"""The rooms of ui/ (docs/design.md): a file includes headers of its own room and of rooms
listed before it, never of one after it. Prints each include that breaks the order, and
fails when there is one or when a folder of ui/ is missing from the list."""
import os
import re
import sys

ORDER = ["widgets", "client", "connection", "find", "plain", "charts", "audit", "schedules", "export",
         "tasks", "queue", "overview", "worker", "alerts", "window"]

ui = sys.argv[1]
include = re.compile(r'^\s*#\s*include\s+"([a-z]+)/[a-z0-9_]+\.h"', re.M)
problems = []
for room in sorted(os.listdir(ui)):
    path = os.path.join(ui, room)
    if not os.path.isdir(path):
        continue
    if room not in ORDER:
        problems.append(f"ui/{room}/ is not in the rooms' order (tests/rooms/roomincludes.py)")
        continue
    for name in sorted(os.listdir(path)):
        with open(os.path.join(path, name), encoding="utf-8") as f:
            for other in include.findall(f.read()):
                if other in ORDER and ORDER.index(other) > ORDER.index(room):
                    problems.append(f"ui/{room}/{name} includes {other}/, a room after its own")
for p in problems:
    print(p)
sys.exit(1 if problems else 0)
