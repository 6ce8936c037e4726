#!/bin/sh
# Runs one fuzz target for a bounded time over the kept seed corpus, writing new inputs to a
# scratch folder (the kept corpus only changes when someone copies a finding into it).
# usage: run-fuzzer.sh TARGET SEED_DIR SECONDS
set -eu
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
exec "$1" -max_total_time="$3" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
  -print_final_stats=1 "$scratch" "$2"
