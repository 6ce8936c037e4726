#include "commands/commands.h"

namespace cli {

const std::vector<CommandInfo>& commandTable()
{
    static const std::vector<CommandInfo> table = {
        {"push",
         "push QUEUE [PAYLOAD|-] [--in D | --at TIME] [--id ID] [--replace] [--max-attempts N]\n"
         "       [--backoff 5s,20s,30s|exp:1s:5m] [--count N] [--priority N] [--group KEY]\n"
         "       [--dedup D] [--debounce MAX_WAIT [--debounce-payload]]\n"
         "       [--expires-at TIME | --max-age D]\n"
         "  PAYLOAD        the task's bytes; '-' reads them from stdin; none: empty\n"
         "  --in D         due after this duration (default: now)\n"
         "  --at TIME      due at this time\n"
         "  --id ID        the task's id (default: a new time-sortable id); an existing id\n"
         "                 is refused with exit 1 unless --replace\n"
         "  --count N      push N copies with new ids, in batches (load testing)\n"
         "  --priority N   -9..9 (default 0): among a group's due tasks, higher goes first\n"
         "  --group KEY    groups take turns (a tenant, an order id; up to 128 bytes of\n"
         "                 letters, digits and _.:@/-); both need config order fair\n"
         "  --dedup D      the id stays refused for D after the task is acked or dies\n"
         "                 (recently_done, exit 1); default: the queue's dedup_window\n"
         "  --debounce W   an existing pending --id moves to this push's due time, never\n"
         "                 past W after its first push (debounced); a running one gets one\n"
         "                 follow-up (follow_up); --debounce-payload: the payload moves too\n"
         "  --expires-at T  the task must start by T: claimed later it never runs (dead with\n"
         "                 'expired before it started', or dropped: config expired_to)\n"
         "  --max-age D     the same, D after the push (default: the queue's max_age)\n"
         "push --plain KEY (MEMBER...|-) [--in D | --at TIME]\n"
         "  adds members (ZADD NX); '-' reads them from stdin, one per line (empty lines\n"
         "  skipped); a member already there keeps its due time and is reported (exit 1)",
         "add a task (or N copies) to a queue", runPush},
        {"ls",
         "ls QUEUE [--state pending|active|dead] [--limit N] [--offset N | --from TIME]\n"
         "  --state S      which set to list (default pending)\n"
         "  --limit N      at most N tasks (default 20, at most 10000)\n"
         "  --offset N     skip the first N; --from TIME starts at that due time\n"
         "ls --plain KEY [--limit N] [--offset N | --from TIME | --parked]\n"
         "  members in due order; {\"id\",\"msg\"} and {\"data\",\"times\"} JSON shapes get\n"
         "  their own columns; --json gives each member exactly as member_base64; a forwarder's\n"
         "  failed attempts and last error as FAILED, LAST ERROR; --parked: the members it\n"
         "  parked after --max-attempts",
         "list tasks in due order", runLs},
        {"show",
         "show QUEUE ID [--history]\n"
         "  --history      also the task's recorded events (config history N turns them on);\n"
         "                 for a task acked or cancelled lately, its events alone\n"
         "show --plain KEY MEMBER\n"
         "  its due time, failed attempts, last error and whether it is parked",
         "show every field of one task", runShow},
        {"find",
         "find QUEUE TEXT [--state pending|active|dead] [--in FIELD] [--limit N]\n"
         "       [--step N]\n"
         "  TEXT           bytes to look for (case-sensitive, not a pattern)\n"
         "  --in FIELD     payload (default) or error: the last error\n"
         "  --state S      which set to search (default pending; dead with --in error)\n"
         "  --limit N      stop after N matches (default 100, at most 10000); exit 1 when none\n"
         "  --step N       tasks read per round trip (default 250, at most 1000)",
         "find tasks by text in their payload or last error", runFind},
        {"queues",
         "queues [--names-only]\n"
         "  each queue's counts and, when one has a limit or fair order, its LIMITS (rate,\n"
         "  burst, cap, fair, group cap, group rate) and what holds it back now\n"
         "  --names-only   the names alone, one a line (no counts: one cheap read)",
         "list the queues under the prefix with their counts and limits", runQueues},
        {"workers",
         "workers [QUEUE] | workers --plain KEY\n"
         "  every worker of the queue (default: of every queue, and of every plain key with\n"
         "  one, shown as KEY (plain)) from its heartbeat: live or\n"
         "  gone (3 beats missed; listed for 20 beats more), host, pid, handler, threads,\n"
         "  uptime, last seen, tasks held now, acked and failed since it started, lateness\n"
         "  p99 (stalled: live, holding tasks, and nothing acked for 5 min). Under the table,\n"
         "  a line for each queue with tasks due and no live consumer (unless paused), or\n"
         "  with a stalled worker: then exit 1.\n"
         "  Reads only: --read-only is enough.",
         "list the workers consuming the queues, and queues nobody consumes", runWorkers},
        {"forecast",
         "forecast QUEUE [--horizon D] [--capacity N/s] [--threshold D] [--buckets N]\n"
         "  the expected lateness over the horizon, from the due times of the pending tasks\n"
         "  and of the schedules' fires, served first due first at the capacity: a table of\n"
         "  the buckets where tasks fall due or wait (time, due, backlog, expected lateness)\n"
         "  and a line with the peak, when, and the capacity that keeps it under the\n"
         "  threshold. The capacity is the acks of the last minutes (measured), capped by the\n"
         "  queue's rate limit; with no acks and no rate, give one. Reads only: a bounded\n"
         "  number of commands, whatever the queue's size (docs/design/forecast.md).\n"
         "  --horizon D     how far ahead, from 10s to 7d (default 6h)\n"
         "  --capacity N/s  tasks per interval the workers take (50/s, 3000/m, 12.5/s)\n"
         "                  instead of the measured; the rate limit still caps it\n"
         "  --threshold D   the lateness to stay under (default 1m)\n"
         "  --buckets N     buckets over the horizon, 1 to 1000 (default 120)",
         "expected lateness over the next hours, its peak, and the capacity to avoid it",
         runForecast},
        {"stats",
         "stats QUEUE   (in fair order also its groups, the busiest 20 with their due and\n"
         "  running tasks)\n"
         "stats --plain KEY   (size, due now, next due, score unit, failing and\n"
         "  parked members, and the guarantee of its live consumers: at least once for\n"
         "  forwarders, at most once for pop consumers)",
         "counts, cumulative counters, next due and oldest overdue task of a queue", runStats},
        {"cancel",
         "cancel QUEUE ID... [--force]\n"
         "  --force        also delete tasks a worker holds right now\n"
         "cancel --plain KEY (MEMBER...|-)\n"
         "  removes members (ZREM); members no longer there are reported (exit 1)",
         "delete pending tasks", runCancel},
        {"reschedule",
         "reschedule QUEUE ID... (--in D | --at TIME | --now)\n"
         "reschedule --plain KEY (MEMBER...|-) (--in D | --at TIME | --now)\n"
         "  members no longer there are reported (exit 1), never added back",
         "move pending tasks to a new due time", runReschedule},
        {"requeue",
         "requeue QUEUE (ID... | --all)\n"
         "requeue --plain KEY (MEMBER...|- | --all) [--in D | --at TIME]\n"
         "  parked members back into the key (default due now), their attempts reset;\n"
         "  members not parked are reported (exit 1)",
         "give dead tasks a new life, due now", runRequeue},
        {"rm-dead",
         "rm-dead QUEUE (ID... | --all)\n"
         "rm-dead --plain KEY (MEMBER...|- | --all)   (parked members and their failures)",
         "delete dead tasks", runRmDead},
        {"purge", "purge QUEUE --yes", "delete every task of a queue (config and counters stay)",
         runPurge},
        {"restore",
         "restore QUEUE (ID... | --action ACTION | --all) [--due now|TIME]\n"
         "  --action A     everything one cancel, rm-dead or purge removed: its action id\n"
         "                 or its audit entry (MS-SEQ, as 'delayq audit' shows it)\n"
         "  --all          everything in the recycle bin\n"
         "  --due T        pending and formerly running tasks due then (default: as they were;\n"
         "                 a running one due now); dead tasks go back to dead\n"
         "  an id that is in the queue again is refused and named (exit 1)",
         "put removed tasks back from the recycle bin, exactly as they were", runRestore},
        {"bin",
         "bin QUEUE [--ids] [--action ACTION] [--limit N]\n"
         "  the removals still restorable (bin_keep, bin_max, bin_bytes in config), with the\n"
         "  audit entry each came from; --ids or --action: their tasks (default limit 1000)",
         "what cancel, rm-dead and purge removed and restore can bring back", runBin},
        {"config",
         "config QUEUE [KEY [VALUE]]\n"
         "  KEY            max_attempts | backoff | lease_ms | max_payload | paused | audit_len\n"
         "                 | history (events kept per task, 0 = off: 0 deletes the histories)\n"
         "                 | shards (shown only: delayq reshard changes it)\n"
         "                 | rate (50/s, 3000/1m; off) | burst (tasks at once; off = the\n"
         "                 rate's) | cap (tasks active at once; off)\n"
         "                 | order (due, or fair: groups in turn, then priority)\n"
         "                 | group_cap (tasks of one group active at once; off)\n"
         "                 | group_rate (each group's rate, burst its count: 5/s; off)\n"
         "                 | dedup_window (a finished id is refused this long: 1h; off)\n"
         "                 | dedup_max (finished ids remembered at most; 1000000)\n"
         "                 | dead_max (dead tasks kept, the oldest dropped first; 100000; off)\n"
         "                 | dead_max_bytes (their bytes: 64MB by default; off)\n"
         "                 | max_age (a task not started this long after its push never\n"
         "                 runs: 2h; off) | expired_to (dead, or drop: only counted)\n"
         "                 | bin_keep (cancelled, purged and deleted tasks stay restorable\n"
         "                 this long: 24h; off) | bin_max (tasks: 100000) | bin_bytes (64MB)\n"
         "  KEY VALUE...   several at once: config mail order fair group_cap 1",
         "show or change a queue's defaults", runConfig},
        {"pause", "pause QUEUE", "stop workers from claiming (pushes still go in)", runPause},
        {"resume", "resume QUEUE", "let workers claim again", runResume},
        {"audit",
         "audit QUEUE [--since D] [--limit N]\n"
         "  who changed what through delayq and delayq-admin, newest first: time (server\n"
         "  clock), ACL user, OS user@host, tool and version, action, tasks changed, the\n"
         "  first ids. Workers write nothing here. Reads only: --read-only is enough.\n"
         "  --since D      only the entries of the last D (e.g. 1h, 7d; default: all)\n"
         "  --limit N      at most N entries (default 50, at most 10000)",
         "show a queue's audit trail of operator actions", runAudit},
        {"work",
         "work QUEUE [--concurrency N] [--batch N] [--max-batch N] [--lease D] [--poll D]\n"
         "       [--handler ack|fail:P|sleep:MS|exec:CMD|pipe:CMD|amqp://…|http(s)://…]\n"
         "       [--max-tasks N | --until-empty] [--log FILE] [--quiet] [--answer-timeout D]\n"
         "       [--http-method M] [--http-header 'NAME: VALUE']... [--http-timeout D]\n"
         "       [--http-ca FILE] [--webhook-secret-file FILE] [--shards K,L,...]\n"
         "       [--retry-from URL]\n"
         "  --shards K,L   claim only from these shards of a sharded queue (default: all)\n"
         "  --handler H    ack (default); fail:P fails a share P (0..1) of the tasks;\n"
         "                 sleep:MS works MS ms then acks; exec:CMD runs CMD with sh -c,\n"
         "                 the payload on stdin and DELAYQ_TASK_ID, DELAYQ_QUEUE and\n"
         "                 DELAYQ_ATTEMPT set: exit 0 acks, else a nack with its stderr tail\n"
         "  Delivery targets (docs/delivery.md): a task is acked only once its target\n"
         "  confirmed it; a refusal nacks it with the target's answer as its error. The\n"
         "  target is checked before anything is claimed (exit 3 when it refuses).\n"
         "  --handler pipe:CMD  one long-lived CMD (sh -c) per thread: tasks as JSON lines\n"
         "                 on its stdin, answers as JSON lines on its stdout\n"
         "                 (docs/targets/pipe.md); restarted when it dies\n"
         "  --handler amqp://user:pw@host:5672/vhost?exchange=E&routing_key=K (amqps://\n"
         "                 with TLS): persistent, mandatory publishes with publisher\n"
         "                 confirms, message_id = task id (docs/targets/amqp.md)\n"
         "  --answer-timeout D  how long a target may take to answer a task (default: the\n"
         "                 lease)\n"
         "  --handler URL  http://... or https://...: a webhook (docs/targets/webhook.md):\n"
         "                 each payload POSTed, up to 8 at a time per thread on kept-alive\n"
         "                 connections; 2xx acks, 410 is dead at once, 429/503 with\n"
         "                 Retry-After retry then, anything else nacks with the status and\n"
         "                 the body's start\n"
         "  --http-method M    POST (default), PUT or PATCH\n"
         "  --http-header 'NAME: VALUE'  an extra request header (repeatable)\n"
         "  --http-timeout D   per request (default 10s)\n"
         "  --http-ca FILE     https: trust the CA certificates in FILE (PEM), not the system's\n"
         "  --webhook-secret-file FILE  sign each request (Standard Webhooks) with the secret\n"
         "                 in FILE; else with $DELAYQ_WEBHOOK_SECRET when it is set\n"
         "  --retry-from URL  retries for RabbitMQ consumers (docs/targets/amqp-retry.md):\n"
         "                 consume the dead-letter queue of amqp://…/vhost?queue=DLQ\n"
         "                 [&declare=1][&backoff=5s,20s,30s][&max_attempts=4]; each message\n"
         "                 waits in QUEUE for its death count's backoff, then goes back to\n"
         "                 its original exchange and routing key; after max_attempts a dead\n"
         "                 task with the broker's reason and route (instead of --handler)\n"
         "  --concurrency N  worker threads, each with its own connections and, with a\n"
         "                 delivery target, its own consumer or broker connection (default 1,\n"
         "                 at most 256)\n"
         "  --batch N      tasks per claim (default 10); while a backlog drains quickly,\n"
         "                 claims double up to --max-batch (default 200; = N: fixed)\n"
         "  --max-tasks N  stop after N tasks; --until-empty stops once nothing is\n"
         "                 pending, in hand or active (later tasks, retries and other\n"
         "                 workers' leases are waited for; expired ones are reaped)\n"
         "  --log FILE     append one JSON line per finished task\n"
         "  --quiet        no line per task on stdout\n"
         "  --name NAME    the worker's name in `delayq workers` (default host-pid-random)\n"
         "  --heartbeat D  how often it says it is alive there (default 5s; gone after 3\n"
         "                 missed beats)\n"
         "  Ctrl-C stops gracefully (tasks in hand are finished), a second Ctrl-C at once.\n"
         "work --plain KEY [--forward-to LIST] [--retry-in D] [--batch N] [--concurrency N]\n"
         "       [--handler ...] [--max-tasks N | --until-empty] [--log FILE] [--quiet]\n"
         "  pops due members atomically (the member is the task's id and payload) and runs\n"
         "  the handler on each. AT MOST ONCE: a popped member is gone from the key, so a\n"
         "  failed handler drops it (unless --retry-in D adds it back, NX, due in D) and a\n"
         "  worker killed after a pop loses what it held.\n"
         "  --forward-to LIST  also LPUSH each popped member to LIST in the same script\n"
         "  --forward-to TARGET  (amqp://, http(s)://, pipe:CMD) AT LEAST ONCE instead: the\n"
         "                 member is leased in place (score = now + --lease) and removed\n"
         "                 only once the target confirmed it; each failure is recorded\n"
         "                 (attempts, last error: ls/show --plain)\n"
         "  --max-attempts N  with a TARGET: park a member whose Nth delivery failed\n"
         "                 (default 20; ls --plain KEY --parked, requeue/rm-dead --plain)\n"
         "  An empty KEY cannot say its score unit: give --score-unit s|ms (else exit 2)",
         "run a worker on a queue", runWork},
        {"bench",
         "bench [--force] [--tasks N] [--threads C] [--batch N] [--rate R] [--duration D]\n"
         "       [--seed-tasks N] [--drain-tasks N] [--memory-tasks N] [--skip-seeds]\n"
         "       [--queues N] [--history N] [--pipe [--pipe-tasks N] [--exec-tasks N]\n"
         "       [--consumer CMD]] [--amqp URL [--amqp-tasks N]]\n"
         "  --force          run on a database that is not empty (keys go under a private\n"
         "                   prefix)\n"
         "  --tasks N        tasks for the push and claim+ack phases (default 50000)\n"
         "  --threads C      worker threads, and workers of the drain (default 2)\n"
         "  --batch N        tasks per claim (default: the worker's, as delayq work)\n"
         "  --rate R         tasks/s for the lateness phase (default 1000)\n"
         "  --duration D     length of each lateness phase (default 3s)\n"
         "  --seed-tasks N   tasks for the seed designs' throughput (default 5000)\n"
         "  --drain-tasks N  due backlog drained by delayq and the Lua pop (default 40000)\n"
         "  --memory-tasks N pending tasks whose Redis memory is measured (default 100000)\n"
         "  --queues N       spread the push and claim+ack phases over N queues (1..16,\n"
         "                   default 1), the threads split over them (at least one each); on\n"
         "                   a cluster the queues go to different masters\n"
         "  --history N      then push, claim+ack and memory again on a queue keeping N\n"
         "                   events a task (default 10; 0 skips them)\n"
         "  --pipe           instead: a due backlog drained through pipe: (--pipe-tasks N,\n"
         "                   default 100000; --consumer CMD, default a built-in Python\n"
         "                   loop), beside exec:true (--exec-tasks N, default 2000) and the\n"
         "                   in-process ack, with --threads and --batch as above\n"
         "  --amqp URL       instead: RabbitMQ's confirmed-publish ceiling (a plain\n"
         "                   publisher, same messages and window) beside a due backlog\n"
         "                   drained through the amqp:// target (--amqp-tasks N, default\n"
         "                   50000), with --threads and --batch as above\n"
         "bench --webhook [--force] [--drain-tasks N] [--exec-tasks N] [--threads C] [--batch N]\n"
         "  drains a due backlog of --drain-tasks (default 40000) by C workers delivering to a\n"
         "  webhook on a keep-alive endpoint in this process (libmicrohttpd answering 204),\n"
         "  then one of --exec-tasks (default 2000) by the same workers with exec:true (a\n"
         "  process per task) as the anchor",
         "measure push, claim+ack, drain, lateness, Redis CPU and memory per task against "
         "the two seed designs",
         runBench},
        {"migrate",
         "migrate PLAIN_KEY QUEUE [--limit N] [--score-unit ms|s]\n"
         "  copies the members of a plain sorted set (earliest first) into a native queue as\n"
         "  tasks with the same due times, then removes them from the key. A task's id is\n"
         "  derived from its member, so a run that was interrupted (or stopped by --limit)\n"
         "  and started again never makes a second task of one member.\n"
         "  --limit N      move at most N members (default: all)",
         "move a plain sorted-set queue into a native queue", runMigrate},
        {"upgrade",
         "upgrade QUEUE [--batch N]\n"
         "  converts a queue written by an older delayq (one hash per task) to the current\n"
         "  layout, N tasks per script call (default 500, at most 1000), without holding\n"
         "  Redis. Interrupted and started again, it resumes: no task is lost or doubled.\n"
         "  Stop the queue's old workers and producers first.",
         "convert a queue from an older delayq's layout", runUpgrade},
        {"reshard",
         "reshard QUEUE --shards N [--batch K] [--steps M]\n"
         "  spreads the queue over N shards (1 to 64; docs/design.md, \"Sharded queues\"):\n"
         "  on a Redis Cluster each shard is its own slot, placed on the master holding\n"
         "  fewest of the queue's shards. New tasks go to their new shard at once; this\n"
         "  then moves the others, K tasks looked at a step (default 100), until done,\n"
         "  printing progress each second. Workers may run meanwhile: no task is lost or\n"
         "  run twice. Interrupted, or stopped by --steps M, it resumes when run again.",
         "change how many shards a queue is spread over, moving its tasks", runReshard},
        {"shards",
         "shards QUEUE\n"
         "  one line per shard: its hash tag, the node serving it and its pending, active\n"
         "  and dead tasks; shards a shrink left are marked (retired); then the move under\n"
         "  way, if any",
         "show a queue's shards and where they live", runShards},
        {"schedule",
         "schedule add QUEUE NAME (--cron 'EXPR' [--tz ZONE] | --every D [--start TIME])\n"
         "       [PAYLOAD|-] [--catch-up D] [--max-attempts N] [--backoff B] [--paused]\n"
         "       [--overlap allow|skip] [--jitter D]\n"
         "schedule edit QUEUE NAME [--cron 'EXPR'] [--tz ZONE] [--every D] [--start TIME]\n"
         "       [--payload TEXT|-] [--catch-up D] [--max-attempts N] [--backoff B]\n"
         "       [--overlap allow|skip] [--jitter D]\n"
         "schedule ls QUEUE | show QUEUE NAME [--fires N] | pause|resume|rm QUEUE NAME\n"
         "schedule run-now QUEUE NAME [--request-id ID]\n"
         "schedule backfill QUEUE NAME --from TIME --to TIME\n"
         "  a recurring task (docs/schedules.md): each fire pushes one task with the id\n"
         "  s:NAME:FIRE_MS, made once by whichever worker of the queue comes first\n"
         "  --cron 'EXPR'  minute hour day-of-month month day-of-week (Vixie cron), or\n"
         "                 @hourly, @daily, @weekly, @monthly, @yearly\n"
         "  --tz ZONE      the cron's time zone (tz database name, default UTC)\n"
         "  --every D      an interval (at least 1s); --start TIME: its first fire\n"
         "                 (default: now + D)\n"
         "  --catch-up D   after downtime, missed fires within D of now fire once each,\n"
         "                 older ones are skipped and counted (default 1h, at most 7d)\n"
         "  --max-attempts N, --backoff B  of the tasks made (default: the queue's)\n"
         "  --overlap allow|skip  skip a fire while the previous fire's task is still\n"
         "                 pending or active (counted as skipped); default allow\n"
         "  --jitter D     each fire's task is due up to D after the fire, the same for\n"
         "                 every worker (at most the interval, and 1d); default 0\n"
         "  run-now        one task at once (id s:NAME:run:ID), the rule stays; the same\n"
         "                 --request-id ID again makes nothing (default: a new id)\n"
         "  backfill       the rule's fires in [--from, --to), each as its fire would have\n"
         "                 made it; fires made already are not made again (at most 1000)\n"
         "  show lists the next N fires (default 10); edit replaces the rule at once (the\n"
         "  old one never fires again); rm keeps the tasks already made",
         "recurring tasks: add, list, show, change, pause, resume, delete, run now, backfill",
         runSchedule},
        {"doctor",
         "doctor [--sample D]\n"
         "  checks what the server's configuration risks for the queues, on every master:\n"
         "  the eviction policy (one that may delete tasks), persistence (what a restart\n"
         "  loses), the Redis version, a replica, the cluster's slot coverage, the memory\n"
         "  headroom at the current rate and the clock skew to this machine; each finding\n"
         "  with its risk and fix. Exit 1 when one can lose or refuse tasks. Reads only.\n"
         "  --sample D     how long used memory is watched for its growth (default 1s)",
         "check the server's configuration for what it risks for the queues", runDoctor},
        {"scripts",
         "scripts [--dump DIR]\n"
         "  prints the protocol version (docs/protocol.md) and each Lua script's SHA1\n"
         "  --dump DIR     also write each script to DIR/NAME.lua exactly as delayq sends it\n"
         "                 (so EVALSHA of its SHA1 finds it), and DIR/PROTOCOL (the listing)",
         "the Lua scripts and protocol version, for clients in other languages", runScripts},
        {"export",
         "export QUEUE [--state pending|active|dead|all] [--match TEXT] [--step N]\n"
         "  writes one JSON line per task to stdout, with every field an import needs: id,\n"
         "  state, due, died (dead tasks), created, attempts, max_attempts, backoff,\n"
         "  last_error, payload (base64 with \"payload_encoding\":\"base64\" when not UTF-8),\n"
         "  and history (the task's recorded events) when it has one\n"
         "  --state S      which sets (default all)\n"
         "  --match TEXT   only tasks whose id or payload contains TEXT\n"
         "  --step N       tasks read per round trip (default 500); each task is read whole\n"
         "                 in one transaction, so a changing queue gives no half-read line\n"
         "export --plain KEY [--step N]\n"
         "  one {\"member\",\"score\"} line per member (member_encoding base64 when not UTF-8)",
         "write a queue's tasks as JSON lines (a backup an import brings back)", runExport},
        {"import",
         "import QUEUE [--on-existing skip|replace] [--keep-going] < tasks.jsonl\n"
         "  brings back tasks written by export, each in its state (an active one comes back\n"
         "  pending, due at its due time), 100 per script call\n"
         "  --on-existing skip     an id already in the queue is left alone (default): running\n"
         "                         an import twice adds nothing\n"
         "  --on-existing replace  it is overwritten, unless a worker holds it\n"
         "  --keep-going   report bad lines (with their numbers) and skip them; without it\n"
         "                 the first bad line stops the import: the lines before it are in,\n"
         "                 nothing after it (exit 1)\n"
         "import --plain KEY [--on-existing skip|replace] [--keep-going] < members.jsonl\n"
         "  adds the members with their scores (ZADD NX, or a new score with replace)",
         "bring back tasks from an export", runImport},
        {"exporter",
         "exporter [--listen HOST:PORT] [--queues A,B,...] [--client-timeout D]\n"
         "  serves GET /metrics in the Prometheus text format until Ctrl-C or SIGTERM: per\n"
         "  queue (label queue) delayq_tasks{state=pending|due|active|dead},\n"
         "  delayq_oldest_overdue_seconds, delayq_tasks_{pushed,claimed,acked,retried,died,\n"
         "  cancelled,expired,broken}_total, delayq_paused, delayq_workers (live ones) and\n"
         "  delayq_worker_heartbeat_age_seconds (the freshest); and delayq_up. Each scrape\n"
         "  reads every queue in one pipeline (250 queues a round trip), never a task.\n"
         "  delayq_forecast_peak_lateness_seconds, delayq_forecast_peak_at_seconds (Unix\n"
         "  time) and delayq_forecast_capacity_per_second: `delayq forecast` over 6 h, read\n"
         "  again at most once a minute a queue and for at most 20 queues a scrape.\n"
         "  --listen HOST:PORT  where to listen (default 127.0.0.1:9464; port 0: any free one,\n"
         "                 printed on stderr)\n"
         "  --queues A,B   only these queues (default: every queue under the prefix, found\n"
         "                 again at each scrape)\n"
         "  --client-timeout D  close a connection idle this long (default 10s, 1s..1h)",
         "serve the queues' metrics to Prometheus over HTTP", runExporter},
    };
    return table;
}

} // namespace cli
