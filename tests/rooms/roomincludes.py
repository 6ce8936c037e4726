#!/usr/bin/env python3
"""The rooms of core/ and ui/ (docs/design/layers.md): a file includes private headers of its
own room and of rooms listed before it, never of one after it, so no two rooms include each
other. app/ and ui/ include core's public headers (<delayq/...>) only, never a private one.
Prints each include that breaks a rule, and fails when there is one or when a folder of core/
or ui/ is missing from its order. Run with the project's source folder."""
import os
import re
import sys

# core/: a private include names its folder from core/ ("transport/redislink.h"); delivery/'s
# own folders (amqp/, pipe/, webhook/) are named from core/delivery/ and belong to its room.
CORE_ORDER = ["transport", "cluster", "sentinel", "connection", "records", "shard", "queue", "plain",
              "schedule", "forecast", "worker", "doctor", "delivery", "taskline"]
CORE_SUBROOMS = {"amqp": "delivery", "pipe": "delivery", "webhook": "delivery"}

UI_ORDER = ["widgets", "client", "connection", "find", "plain", "charts", "audit", "schedules", "export",
            "tasks", "queue", "overview", "worker", "alerts", "window"]

root = sys.argv[1]
quoted = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
problems = []


def sources(folder):
    for path, dirs, files in os.walk(folder):
        dirs.sort()
        for name in sorted(files):
            if name.endswith((".h", ".cpp")):
                yield os.path.join(path, name)


def includes(path):
    with open(path, encoding="utf-8") as f:
        return quoted.findall(f.read())


def check_order(top, order, subrooms):
    """Each room of top/ includes only its own room and rooms before it in order."""
    for room in sorted(os.listdir(os.path.join(root, top))):
        if not os.path.isdir(os.path.join(root, top, room)) or room == "include":
            continue
        if room not in order:
            problems.append(f"{top}/{room}/ is not in the rooms' order (tests/rooms/roomincludes.py)")
            continue
        for path in sources(os.path.join(root, top, room)):
            for header in includes(path):
                first = header.split("/")[0] if "/" in header else None
                other = subrooms.get(first, first)
                if other in order and order.index(other) > order.index(room):
                    name = os.path.relpath(path, root)
                    problems.append(f"{name} includes {header}: {other}/ is a room after {room}/")


def private_core(path, header, searched):
    """Whether header, as path includes it, is one of core/'s private headers: found under
    core/ (core/include/ and the export line format's own folder are public) and not first
    in the including file's own folders (ui/connection/ before core/connection/)."""
    for folder in searched:
        if os.path.isfile(os.path.join(folder, header)):
            return False
    for base in ("core", "core/delivery"):
        if os.path.isfile(os.path.join(root, base, header)):
            return True
    return False


def check_public_only(top, searched_for):
    for path in sources(os.path.join(root, top)):
        searched = [os.path.dirname(path)] + searched_for(path)
        for header in includes(path):
            if private_core(path, header, searched):
                name = os.path.relpath(path, root)
                problems.append(f"{name} includes {header}, a private header of core/")


check_order("core", CORE_ORDER, CORE_SUBROOMS)
check_order("ui", UI_ORDER, {})
ui = os.path.join(root, "ui")
taskline = os.path.join(root, "core", "taskline")  # delayq_taskline's public folder
check_public_only("ui", lambda path: [ui, taskline])


def app_folders(path):
    # A program's own folder (app/cli/, app/admin/) is its include root, then ui/.
    parts = os.path.relpath(path, os.path.join(root, "app")).split(os.sep)
    return [os.path.join(root, "app", parts[0]), ui, taskline]


check_public_only("app", app_folders)
for p in problems:
    print(p)
sys.exit(1 if problems else 0)
