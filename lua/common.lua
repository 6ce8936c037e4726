-- common.lua: helpers prepended to every script at build time (core/embedscripts.cmake).
-- Not a script of its own: it defines local functions only.

-- Server time in ms: every client agrees on "now", whatever its own clock says.
local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end

-- ARGV text as a whole number within lo..hi, or nil. tonumber() alone takes 'inf', 'nan'
-- and fractions, and each of them slips past a plain range check.
local function whole(text, lo, hi)
  local n = tonumber(text)
  if n == nil or n ~= n or n % 1 ~= 0 or n < lo or n > hi then return nil end
  return n
end

-- The widest time or delay in ms a script accepts (about 285,000 years): still an exact
-- integer in a double, and in string.format('%d').
local MAX_MS = 9000000000000000

-- Integers as decimal text: tostring() would give "1.7e+12" for large ms values.
local function int(n)
  return string.format('%d', n)
end

-- Adds n to a counter, cumulative and for the current minute (kept 48 h for charts). The
-- minute key's expiry is set when its field is first written: one call less on every other.
local function count(stats_key, minute_prefix, field, n, now)
  if n == 0 then return end
  redis.call('HINCRBY', stats_key, field, n)
  local minute_key = minute_prefix .. int(math.floor(now / 60000))
  if redis.call('HINCRBY', minute_key, field, n) == n then
    redis.call('EXPIRE', minute_key, 172800)
  end
end

-- A queue setting, or the default when it is unset or garbage.
local function config_number(config_key, field, default)
  local v = tonumber(redis.call('HGET', config_key, field))
  if v == nil or v < 0 then return default end
  return v
end

local function config_backoff(config_key)
  local v = redis.call('HGET', config_key, 'backoff')
  if not v or v == '' then return '5000,20000,30000' end
  return v
end

-- Delay before retry number `attempts` (1-based), ms. spec: "5000,20000" (the last repeats)
-- or "exp:BASE:MAX". Garbage gives 5000 rather than an error: a retry must not be lost.
local function backoff_delay(spec, attempts)
  if attempts < 1 then attempts = 1 end
  local base, max = string.match(spec, '^exp:(%d+):(%d+)$')
  if base then
    base = tonumber(base)
    max = tonumber(max)
    -- A zero base (written by hand) would never grow: without this the loop below would
    -- run `attempts` times instead of at most ~64 doublings.
    if base < 1 or max <= base then return max end
    local delay = base
    for _ = 2, attempts do
      delay = delay * 2
      if delay >= max then return max end
    end
    if delay > max then return max end
    return delay
  end
  local list = {}
  for part in string.gmatch(spec, '[^,]+') do
    local n = tonumber(part)
    if n and n >= 0 then list[#list + 1] = n end
  end
  if #list == 0 then return 5000 end
  if attempts > #list then attempts = #list end
  return list[attempts]
end

-- The first at most max bytes of text, never ending inside a UTF-8 character: a cut that
-- would split one drops its lead and continuation bytes (0x80..0xBF) so valid UTF-8 stays valid.
-- Bytes that are not UTF-8 are cut as bytes, at most 3 bytes short of max.
local function cut_utf8(text, max)
  if #text <= max then return text end
  local cut = max
  -- The byte after the cut continues a character: step back to that character's lead byte.
  while cut > max - 3 and cut > 0 do
    local b = string.byte(text, cut + 1)
    if b < 0x80 or b > 0xBF then break end
    cut = cut - 1
  end
  local b = string.byte(text, cut + 1)
  if b >= 0x80 and b <= 0xBF then cut = max end -- no lead within reach: not UTF-8
  return string.sub(text, 1, cut)
end

-- Earliest due time in a sorted set, or nil.
local function earliest(zset_key)
  local first = redis.call('ZRANGE', zset_key, 0, 0, 'WITHSCORES')
  if first[2] then return tonumber(first[2]) end
  return nil
end

-- Tells sleeping workers that a task is now due earlier than anything they knew of.
local function wake_if_earlier(channel, before, due)
  if channel ~= '' and (before == nil or due < before) then
    redis.call('PUBLISH', channel, int(due))
  end
end


-- Flow control (docs/design/flow.md). The config's rate ("N/MS": at most N tasks started per
-- MS ms, with at most `burst` started at once; burst 0 or unset = N) and cap (at most that many
-- tasks whose lease has not run out). On a sharded queue each shard enforces its share ("K/S",
-- shard K of S): the rate and burst divided by S, the cap split so that the shares add up to
-- it; the queue as a whole never starts more. The token bucket lives in dq:{Q}:flow (tokens,
-- at ms), built from KEYS[5] as audit() builds the stream, so it stays in the slot.
local function flow_key(suffix)
  return string.sub(KEYS[5], 1, -7) .. 'flow' .. suffix
end

-- A claim that found its cap full sets dq:{Q}:flow_full; the ack, nack or cancel that frees a
-- slot publishes "now" on the wake channel, so sleeping workers claim at once instead of
-- waiting for the earliest lease to run out. One EXISTS a call when no cap is full.
local function flow_freed(now)
  local full = flow_key('_full')
  if redis.call('EXISTS', full) == 1 then
    redis.call('DEL', full)
    redis.call('PUBLISH', string.sub(KEYS[5], 1, -7) .. 'wake', int(now))
  end
end

-- Fair order (docs/design/flow.md, since layout 2.8): with the config's order = "fair", due
-- tasks are handed out by group in turn, and within a group by priority (-9..9, higher
-- first), then due time; a task is still never handed out before it is due. The keys, built
-- from KEYS[5] as flow_key builds its own:
--   fl:tags    HASH id -> "PRIORITY|GROUP", for the tasks pushed with either
--   fl:wait    ZSET id -> due: indexed tasks not due yet (claim moves the due ones on)
--   fl:ring    ZSET group -> turn: groups with due tasks, served lowest turn first
--   fl:r:GROUP ZSET id -> rank (fair_rank): the group's due tasks
--   fl:act:GROUP ZSET id -> lease deadline: the group's running tasks, under a group_cap
--   fl:blocked SET: groups at their cap, out of the ring until a task of theirs ends
--   fl:later   ZSET group -> ms: groups out of their group_rate, until their next token
--   fl:b:GROUP STRING "tokens|at": a group's rate bucket, expiring once it would be full
--   fl:known   SET: groups with an index key (for cleanup, and the bound on groups)
-- Every way into pending indexes the task (fair_index); the ways out do not touch the index:
-- an entry whose task left, moved or changed group is dropped when a claim meets it.
local FAIR_PRIORITY = 9
local FAIR_BAND = 4398046511104 -- 2^42 ms (year 2109): every due task's time is below it
local FAIR_GROUPS = 100000 -- groups with due or running tasks at once (push refuses more)
-- A turn: the most tasks a group gives before the next group's turn (claim.lua's fair_take;
-- more only when a claim wants more than this from every group in the ring: an equal share
-- each). Between two turns of a group with due tasks, each other group has at most one.
local FAIR_TURN = 20

local function fair_key(suffix)
  return string.sub(KEYS[5], 1, -7) .. 'fl:' .. suffix
end

local function fair_on()
  return redis.call('HGET', KEYS[5], 'order') == 'fair'
end

-- A tag "PRIORITY|GROUP" (or nil: 0 and the ungrouped "") as priority, group.
local function fair_tag(tag)
  if not tag then return 0, '' end
  local p, g = string.match(tag, '^(%-?%d+)|(.*)$')
  return tonumber(p) or 0, g or ''
end

local function fair_rank(priority, due)
  return (FAIR_PRIORITY - priority) * FAIR_BAND + due
end

local function fair_turn()
  return redis.call('HINCRBY', flow_key(''), 'turn', 1)
end

-- Due tasks join their group's ready set (ranked: {rank, id, ...}); the group joins the ring's
-- end unless it is in the ring already or waits at its cap.
local function fair_ready(group, ranked)
  redis.call('ZADD', fair_key('r:' .. group), unpack(ranked))
  redis.call('SADD', fair_key('known'), group)
  if redis.call('SISMEMBER', fair_key('blocked'), group) == 0 then
    redis.call('ZADD', fair_key('ring'), 'NX', fair_turn(), group)
  end
end

-- A task of `group` stops running: its slot frees, and a group waiting at its cap takes its
-- turn again (sleeping workers are woken: flow_freed).
local function fair_release(group, id, now)
  if group == '' or redis.call('ZREM', fair_key('act:' .. group), id) == 0 then return end
  -- An idle group leaves no trace (nothing due, nothing running): it stops counting.
  if redis.call('EXISTS', fair_key('act:' .. group), fair_key('r:' .. group)) == 0 then
    redis.call('SREM', fair_key('known'), group)
  end
  if redis.call('SREM', fair_key('blocked'), group) == 1 then
    if redis.call('ZCARD', fair_key('r:' .. group)) > 0 then
      redis.call('ZADD', fair_key('ring'), 'NX', fair_turn(), group)
    end
    redis.call('PUBLISH', string.sub(KEYS[5], 1, -7) .. 'wake', int(now))
  end
end

-- Indexes tasks (re)added to pending: scored is ZADD's {due ms, id, due ms, id, ...};
-- from_active: they were running (nack, reap), so their groups' slots free. Nothing when the
-- queue is not in fair order. The writes go once a group, not once a task.
local function fair_index(scored, now, from_active)
  if #scored == 0 or not fair_on() then return end
  local ids = {}
  for i = 2, #scored, 2 do ids[#ids + 1] = scored[i] end
  local tags = redis.call('HMGET', fair_key('tags'), unpack(ids))
  local wait, ready, groups, has_slots = {}, {}, {}, {}
  for k, id in ipairs(ids) do
    local due = tonumber(scored[2 * k - 1])
    local priority, group = fair_tag(tags[k])
    if from_active and has_slots[group] == nil then
      has_slots[group] = group ~= '' and redis.call('EXISTS', fair_key('act:' .. group)) == 1
    end
    if from_active and has_slots[group] then fair_release(group, id, now) end
    if due <= now then
      local ranked = ready[group]
      if not ranked then
        ranked = {}
        ready[group] = ranked
        groups[#groups + 1] = group
      end
      ranked[#ranked + 1] = fair_rank(priority, due)
      ranked[#ranked + 1] = id
    else
      wait[#wait + 1] = due
      wait[#wait + 1] = id
    end
  end
  for _, group in ipairs(groups) do fair_ready(group, ready[group]) end
  if #wait > 0 then redis.call('ZADD', fair_key('wait'), unpack(wait)) end
end

-- Tasks stop running without coming back to pending (dead): their groups' slots free.
-- Returns whether any task has tags (the tags hash exists).
local function fair_stopped(ids, now)
  local key = fair_key('tags')
  if #ids == 0 or redis.call('EXISTS', key) == 0 then return false end
  -- Only a group with running tasks under a cap has slots to free: none without a group cap
  -- (config.lua drops the slots when it goes), else asked once a group, not once a task. The
  -- cap is read first: without one the tags need not be (a command an ack in fair order).
  if whole(redis.call('HGET', KEYS[5], 'group_cap') or '', 1, 1000000) == nil then
    return true
  end
  local tags = redis.call('HMGET', key, unpack(ids))
  local has_slots = {}
  for k, id in ipairs(ids) do
    if tags[k] then
      local _, group = fair_tag(tags[k])
      if has_slots[group] == nil then
        has_slots[group] = group ~= '' and redis.call('EXISTS', fair_key('act:' .. group)) == 1
      end
      if has_slots[group] then fair_release(group, id, now) end
    end
  end
  return true
end

-- Tasks leave the queue (forget): their groups' slots free and their tags go.
local function fair_forget(ids, now)
  if fair_stopped(ids, now) then redis.call('HDEL', fair_key('tags'), unpack(ids)) end
end

-- How many of an action's ids its audit entry names (the count says how many there were).
local AUDIT_IDS = 10

-- act(id) on each id of ARGV[first_id..]; act returns true when it took the task. Returns
-- how many it took, one status per id: done, else the name of the first of `elsewhere`
-- ({{zset key, name}, ...}) that holds the id, else not_found; and the first AUDIT_IDS taken.
local function each_id(first_id, act, elsewhere)
  local done, statuses, taken = 0, {}, {}
  for i = first_id, #ARGV do
    local id = ARGV[i]
    local status = 'not_found'
    if act(id) then
      status = 'done'
      done = done + 1
      if done <= AUDIT_IDS then taken[done] = id end
    else
      for _, set in ipairs(elsewhere) do
        if redis.call('ZSCORE', set[1], id) then
          status = set[2]
          break
        end
      end
    end
    statuses[#statuses + 1] = status
  end
  return done, statuses, taken
end

-- For requeue and delete_dead: act(id) on the first `limit` dead tasks (mode 'all') or on
-- each id of ARGV[first_id..] (mode 'ids'), with each_id's statuses and taken ids.
local function each_dead(mode, limit, first_id, act)
  if mode ~= 'all' then
    return each_id(first_id, act, {{KEYS[1], 'pending'}, {KEYS[2], 'active'}})
  end
  local done, taken = 0, {}
  for _, id in ipairs(redis.call('ZRANGE', KEYS[3], 0, limit - 1)) do
    if act(id) then
      done = done + 1
      if done <= AUDIT_IDS then taken[done] = id end
    end
  end
  return done, {}, taken
end

-- Growing the record table (buckets.lua holds the lookup, data_key).
-- A queue without a task gets the table at its first record; one of layout 2 keeps its
-- buckets until `delayq upgrade` moves them (upgrade_buckets.lua). Called by every script that
-- writes new records (push, import, restore, schedules) just before it writes one, so a call
-- that creates nothing (a refusal) changes nothing; data_key() of a record to write comes after.
local table_checked = false
local function table_for_new_records()
  if table_checked then return end
  table_checked = true
  local t = bucket_table or table_state()
  if t.base then return end
  for i = 1, 3 do
    if redis.call('ZCARD', KEYS[i]) > 0 then return end
  end
  -- A reshard's step holds records of tasks it took out of the sets ("dq:{Q}:moving").
  if redis.call('EXISTS', string.sub(KEYS[4], 1, -3) .. 'moving') == 1 then return end
  redis.call('HSET', KEYS[4] .. 'layout', 'base', FIRST_BUCKETS, 'level', 0, 'split', 0,
    'load', BUCKET_LOAD)
  bucket_table = nil
  table_state()
end

-- HSET or HDEL of many fields, a thousand arguments a call (unpack's stack is bounded).
local function hash_write(command, key, args)
  for i = 1, #args, 1000 do
    redis.call(command, key, unpack(args, i, math.min(#args, i + 999)))
  end
end

-- Splits the bucket at the split pointer: its records whose hash picks the new bucket
-- (split + size) under the doubled size move there.
local function split_bucket(t)
  local from = t.split
  local key = string.format('%sg:%d', KEYS[4], from)
  local wide, to = t.size * 2, from + t.size
  local all, moved, gone = redis.call('HGETALL', key), {}, {}
  for i = 1, #all, 2 do
    if id_hash(all[i]) % wide == to then
      moved[#moved + 1] = all[i]
      moved[#moved + 1] = all[i + 1]
      gone[#gone + 1] = all[i]
    end
  end
  if #gone > 0 then
    hash_write('HSET', string.format('%sg:%d', KEYS[4], to), moved)
    hash_write('HDEL', key, gone)
  end
  t.split = from + 1
  if t.split == t.size then
    t.level, t.size, t.split = t.level + 1, wide, 0
  end
end

-- After a script wrote records: splits buckets (at most SPLITS_A_CALL) until the table holds
-- at most `load` tasks a bucket on average. The queue's tasks are its three sets' members.
local function grow_table()
  local t = bucket_table or table_state()
  if not t.base then return end
  local tasks = redis.call('ZCARD', KEYS[1]) + redis.call('ZCARD', KEYS[2]) +
    redis.call('ZCARD', KEYS[3])
  local splits = 0
  while splits < SPLITS_A_CALL and tasks > t.load * (t.size + t.split) do
    split_bucket(t)
    splits = splits + 1
  end
  if splits > 0 then
    redis.call('HSET', KEYS[4] .. 'layout', 'level', t.level, 'split', t.split)
  end
end

-- A record is "created|max_attempts|backoff|payload": created in base-36 ms, backoff "" for
-- the queue's. Returns created ms, max attempts, backoff, payload; nil when it is garbage.
local function parse_record(record)
  if not record then return nil end
  local created, max_attempts, backoff, at = string.match(record, '^(%w+)|(%d+)|([^|]*)|()')
  if not created then return nil end
  return tonumber(created, 36), tonumber(max_attempts), backoff, string.sub(record, at)
end

-- Whole ms to base 36 (8 digits until 2059): created is written once per push call.
local function base36(n)
  local digits, out = '0123456789abcdefghijklmnopqrstuvwxyz', ''
  repeat
    local d = n % 36
    out = string.sub(digits, d + 1, d + 1) .. out
    n = (n - d) / 36
  until n == 0
  return out
end

-- A task that has been claimed once has a run entry: "attempts|due|token|claimed|worker",
-- the last three empty when no worker holds it. Returns attempts (0 when garbage or absent),
-- due, token, claimed, worker.
local function parse_run(run)
  if not run then return 0, nil, '', '', '' end
  local attempts, due, token, claimed, worker = string.match(run, '^(%d*)|(%-?%d*)|([^|]*)|(%d*)|(.*)$')
  return tonumber(attempts) or 0, tonumber(due), token or '', claimed or '', worker or ''
end

-- The run hash is read and written a whole batch at a time (claim: HMGET + HSET, ack: HMGET +
-- HDEL). Below 512 fields of at most 64 bytes Redis keeps a hash as a listpack, where each
-- field of a batch is found by walking the list: a claim+ack then costs twice as much Redis
-- CPU as with a hash table. A field whose value is longer than any listpack value makes Redis
-- convert the hash at once, and it stays a table for as long as the key lives. Claim writes
-- this field with every batch; no task id is empty, so it never meets a task, and forget()
-- deletes the key when the field is all that is left.
local RUN_KEEPER_FIELD = ''
local RUN_KEEPER_VALUE = 'not a task: makes Redis keep this hash as a table, cheaper for batches ' ..
  '(docs/design.md, "Redis key layout")'

local function run_entry(attempts, due, token, claimed, worker)
  return int(attempts) .. '|' .. int(due) .. '|' .. token .. '|' .. claimed .. '|' .. worker
end

-- Task history (docs/design.md, "Task history"): off unless the config's `history` is N
-- (1..100). Then each task keeps its last N events in dq:{Q}:history (id -> events, one a
-- line), for at most HISTORY_TASKS tasks a queue: a flood of tasks or retries cannot grow it
-- without bound. An acked or cancelled task's history moves, with that last event, to
-- dq:{Q}:history_done (the same form), of which the last HISTORY_DONE are kept, in finishing
-- order in the ZSET dq:{Q}:history_done_at; every other way out (purge, delete) drops it. The
-- keys are built from KEYS[5], as audit() builds the stream, so they stay in the slot.
local HISTORY_TASKS = 100000
local HISTORY_DONE = 1000
local HISTORY_TEXT = 200 -- bytes of a name or an error an event keeps

local function history_key(suffix)
  return string.sub(KEYS[5], 1, -7) .. 'history' .. suffix
end

-- The config's history value as the events kept a task: 0 (off) unless it is 1..100.
local function history_limit(value)
  return whole(value or '', 1, 100) or 0
end

-- Text an event keeps: cut to HISTORY_TEXT bytes, each match of `pattern` made a space.
local function history_text(text, pattern)
  return (string.gsub(cut_utf8(text, HISTORY_TEXT), pattern, ' '))
end

-- One event: "ms|kind|due ms or empty|who|text". who (a worker, or the actor as
-- "os_user@host (tool)") holds no '|' and no line break, text no line break; both are cut.
local function history_event(now, kind, due, who, text)
  return int(now) .. '|' .. kind .. '|' .. due .. '|' .. history_text(who, '[|\n\r]') .. '|' ..
    history_text(text, '[\n\r]')
end

-- The actor of take_actor as an event's who: "os_user@host (tool)"; "" for none.
local function history_who(who)
  if who == nil then return '' end
  return history_text(who[2] .. '@' .. who[3] .. ' (' .. who[4] .. ')', '[|\n\r]')
end

-- `events` with `event` as its last line, keeping the last `limit` lines (none when limit is 0).
local function history_add(events, event, limit)
  if not events then return event end
  events = events .. '\n' .. event
  local _, lines = string.gsub(events, '\n', '\n')
  while lines >= limit and limit > 0 do
    events = string.sub(events, string.find(events, '\n', 1, true) + 1)
    lines = lines - 1
  end
  return events
end

-- Adds event_of(i) to the history of ids[i] (a task without one starts one while the queue has
-- room for it); fresh = true starts every history anew (a pushed task). Nothing when limit is 0.
local function history_note(limit, ids, event_of, fresh)
  if limit == 0 or #ids == 0 then return end
  local key = history_key('')
  local old = {}
  if not fresh then old = redis.call('HMGET', key, unpack(ids)) end
  local room = HISTORY_TASKS - redis.call('HLEN', key)
  local writes = {}
  for i, id in ipairs(ids) do
    local events = old[i]
    if events or room > 0 then
      if not events then room = room - 1 end
      writes[#writes + 1] = id
      writes[#writes + 1] = history_add(events or nil, event_of(i), limit)
    end
  end
  if #writes > 0 then redis.call('HSET', key, unpack(writes)) end
end

-- The tasks leave the queue: their histories go (forget() calls this). With event_of (ack,
-- cancel), each that has one moves to the done store with event_of(i) as its last event.
local function history_drop(ids, event_of, now)
  local key = history_key('')
  if redis.call('EXISTS', key) == 0 then return end
  if event_of then
    local limit = history_limit(redis.call('HGET', KEYS[5], 'history'))
    local old = redis.call('HMGET', key, unpack(ids))
    local moved, order = {}, {}
    for i, id in ipairs(ids) do
      if old[i] then
        moved[#moved + 1] = id
        moved[#moved + 1] = history_add(old[i], event_of(i), limit)
        order[#order + 1] = now
        order[#order + 1] = id
      end
    end
    if #moved > 0 then
      local done, at = history_key('_done'), history_key('_done_at')
      redis.call('HSET', done, unpack(moved))
      redis.call('ZADD', at, unpack(order))
      local extra = redis.call('ZCARD', at) - HISTORY_DONE
      if extra > 0 then
        local oldest = redis.call('ZPOPMIN', at, extra)
        local gone = {}
        for i = 1, #oldest, 2 do gone[#gone + 1] = oldest[i] end
        redis.call('HDEL', done, unpack(gone))
      end
    end
  end
  redis.call('HDEL', key, unpack(ids))
end

-- Dedup window and debounce (docs/design/keep.md, since layout 2.9). Keys built from KEYS[5],
-- as audit() builds the stream, so they stay in the slot:
--   done     ZSET id -> until ms: finished ids (acked or dead) a push refuses as
--            "recently_done" until then; at most the config's dedup_max (DEDUP_MAX), the
--            soonest to end go first
--   dedup    HASH id -> window ms: a push's own window, kept while its task lives
--   debounce HASH id -> ms of the first push: a debounced task's maximum wait counts from it
--   follow   HASH id -> "DUE|FIRST|RECORD": the one follow-up of a debounced task that was
--            pushed again while a worker held it (RECORD as in the data bucket)
local DEDUP_MAX = 1000000

local function keep_key(suffix)
  return string.sub(KEYS[5], 1, -7) .. suffix
end

-- The tasks finished (acked or dead): each is refused for its own window or the queue's
-- dedup_window from now on. Two calls when neither is set.
local function remember_done(ids, now)
  if #ids == 0 then return end
  local window = whole(redis.call('HGET', KEYS[5], 'dedup_window') or '', 1, MAX_MS)
  local own
  if redis.call('EXISTS', keep_key('dedup')) == 1 then
    own = redis.call('HMGET', keep_key('dedup'), unpack(ids))
  end
  if not window and not own then return end
  local zadd = {}
  for k, id in ipairs(ids) do
    local w = (own and tonumber(own[k])) or window
    if w then
      zadd[#zadd + 1] = now + w
      zadd[#zadd + 1] = id
    end
  end
  if #zadd == 0 then return end
  local done = keep_key('done')
  redis.call('ZADD', done, unpack(zadd))
  redis.call('ZREMRANGEBYSCORE', done, '-inf', now)
  local most = whole(redis.call('HGET', KEYS[5], 'dedup_max') or '', 1, 100000000) or DEDUP_MAX
  local extra = redis.call('ZCARD', done) - most
  if extra > 0 then redis.call('ZPOPMIN', done, extra) end
end

-- The tasks' own dedup windows, debounce starts and follow-ups go (forget, a replace, a move
-- out of the shard): one EXISTS for the three hashes when none is in use.
local function keep_forget(ids)
  local dedup, debounce, follow = keep_key('dedup'), keep_key('debounce'), keep_key('follow')
  if #ids > 0 and redis.call('EXISTS', dedup, debounce, follow) > 0 then
    for _, key in ipairs({dedup, debounce, follow}) do redis.call('HDEL', key, unpack(ids)) end
  end
end

-- The waiting follow-ups of ids (nil for none), read before the tasks are forgotten.
local function follow_ups(ids)
  if redis.call('EXISTS', keep_key('follow')) == 0 then return nil end
  local found = redis.call('HMGET', keep_key('follow'), unpack(ids))
  for k = 1, #ids do
    if found[k] then return found end
  end
  return nil
end

-- A follow-up "DUE|FIRST|RECORD" becomes the pending task `id` (its record, due time and first
-- push), with no run entry: attempts start again, and no fair-order tags (a debounced push
-- carries none). from_active: the task it replaces was running (nack, reap), so its group's
-- slot frees here; after an ack, forget() freed it. Returns its due ms.
local function follow_up_start(id, follow, now, from_active)
  if from_active then fair_stopped({id}, now) end
  if redis.call('EXISTS', fair_key('tags')) == 1 then redis.call('HDEL', fair_key('tags'), id) end
  -- Nor the failed task's own start-by time (expires_key below): the follow-up is a newer push,
  -- which carried none (the model check found a follow-up expired on the old task's time).
  local expires = string.sub(KEYS[5], 1, -7) .. 'expires'
  if redis.call('EXISTS', expires) == 1 then redis.call('HDEL', expires, id) end
  -- Nor its own dedup window: after a nack or reap the follow-up kept it, and its ack was then
  -- remembered for a window its push never asked for (the model check, under load). An ack
  -- dropped it already (forget).
  redis.call('HDEL', keep_key('dedup'), id)
  local due, first, at = string.match(follow, '^(%d+)|(%d+)|()')
  redis.call('HDEL', keep_key('follow'), id)
  redis.call('HSET', data_key(id), id, string.sub(follow, at))
  redis.call('HDEL', KEYS[8], id)
  redis.call('HSET', keep_key('debounce'), id, first)
  redis.call('ZADD', KEYS[1], due, id)
  -- Every way into pending indexes the task in fair order.
  fair_index({due, id}, now)
  return tonumber(due)
end

-- Removes every trace of the tasks from the data, run, error and history hashes (not from the
-- sets). event_of and now: the tasks finished (ack, cancel), so their histories are kept that
-- long with event_of(i) last (history_drop).
local function forget(ids, event_of, now)
  if #ids == 0 then return end
  history_drop(ids, event_of, now)
  fair_forget(ids, now or now_ms())
  -- A task's own expiry (expires_key) goes with it; one EXISTS when no task has one.
  local expires = string.sub(KEYS[5], 1, -7) .. 'expires'
  if redis.call('EXISTS', expires) == 1 then redis.call('HDEL', expires, unpack(ids)) end
  for _, id in ipairs(ids) do redis.call('HDEL', data_key(id), id) end
  redis.call('HDEL', KEYS[8], unpack(ids))
  if redis.call('HLEN', KEYS[8]) == 1 and redis.call('HEXISTS', KEYS[8], RUN_KEEPER_FIELD) == 1 then
    redis.call('DEL', KEYS[8])
  end
  -- Most queues hold no error most of the time: then the ids need not be sent again.
  if redis.call('EXISTS', KEYS[9]) == 1 then redis.call('HDEL', KEYS[9], unpack(ids)) end
  keep_forget(ids)
end

-- Queues written by delayq before layout 2 keep each task in a hash of its own. Scripts refuse
-- to touch such a task rather than take it for broken data; `delayq upgrade` converts it.
local function old_layout_task(id)
  return redis.call('EXISTS', string.sub(KEYS[1], 1, -8) .. 't:' .. id) == 1
end

local function old_layout_error()
  return redis.error_reply('OLD_LAYOUT this queue is stored in the layout of an older delayq: ' ..
    'run "delayq upgrade QUEUE" to convert it')
end

-- Audit trail (docs/design.md, "Audit trail"): the scripts that change tasks on behalf of
-- people (push, cancel, reschedule, requeue, delete_dead, purge, config, import) take the
-- actor as their LAST ARGV value: "" for none (workers and library producers: no entry), else
-- "ACL user\nOS user\nhost\ntool\nversion". Popping it off the end leaves the rest of each
-- script's ARGV as it was, and costs nothing per task. Returns ok (false when the value is
-- missing or malformed: the caller answers INVALID) and the actor's five fields, nil for "".
local function take_actor()
  local text = table.remove(ARGV)
  if text == nil or #text > 1024 then return false end
  if text == '' then return true, nil end
  local who = {string.match(text, '^([^\n]*)\n([^\n]*)\n([^\n]*)\n([^\n]*)\n([^\n]*)$')}
  if #who ~= 5 then return false end
  return true, who
end

-- The opening of the scripts that take tasks in a batch (push, import_tasks): the actor off
-- the end of ARGV (take_actor), then n, the number of tasks (0..1000), from ARGV[at], after
-- which ARGV must hold exactly `per` values a task. Returns who, n; or, for a malformed ARGV,
-- nil, nil and the INVALID error reply naming `script`, for the caller to return.
local function take_batch(script, at, per)
  local actor_ok, who = take_actor()
  if not actor_ok then
    return nil, nil, redis.error_reply('INVALID ' .. script ..
      ': the last ARGV value must be the actor ("" for none)')
  end
  local n = whole(ARGV[at], 0, 1000)
  if n == nil or #ARGV ~= at + n * per then
    return nil, nil, redis.error_reply('INVALID ' .. script .. ': ARGV does not hold n tasks of ' ..
      per .. ' values')
  end
  return who, n
end

-- The config's max_payload (bytes), max_attempts and history (history_limit) for the tasks a
-- batch writes, in one HMGET of KEYS[5]; the defaults (1 MiB, 5, off) where unset or garbage.
local function payload_and_attempts()
  local config = redis.call('HMGET', KEYS[5], 'max_payload', 'max_attempts', 'history')
  local max_payload = tonumber(config[1]) or 1048576
  local default_attempts = tonumber(config[2]) or 5
  if max_payload < 0 then max_payload = 1048576 end
  if default_attempts < 1 then default_attempts = 5 end
  return max_payload, default_attempts, history_limit(config[3])
end

-- Appends one entry to the queue's audit stream (dq:{Q}:audit, built from KEYS[5] as claim
-- builds the old-layout keys, so it stays in the slot), trimmed approximately (whole stream
-- nodes, cheap) to the config's audit_len, 10,000 by default. The stream id is the server's
-- time. n: tasks changed; ids: the first of them (at most AUDIT_IDS are kept); detail: what
-- else the action took, "" for nothing. Nothing is written without an actor: the caller
-- also skips it when the action changed nothing.
-- bin: the recycle bin's action id of a removal (cancel, purge, delete), written as the entry's
-- `bin` field (since layout 2.9) so `delayq restore --action ENTRY` finds what it removed.
-- Returns the entry's stream id ("" without an actor).
local function audit(who, action, n, ids, detail, bin)
  if who == nil then return '' end
  local len = whole(redis.call('HGET', KEYS[5], 'audit_len') or '', 1, 1000000) or 10000
  local shown = {}
  for i = 1, math.min(#ids, AUDIT_IDS) do shown[i] = ids[i] end
  local fields = {'action', action, 'count', int(n), 'ids', table.concat(shown, '\n'),
    'detail', detail or '', 'user', who[1], 'os_user', who[2], 'host', who[3], 'tool', who[4],
    'version', who[5]}
  if bin and bin ~= '' then
    fields[#fields + 1] = 'bin'
    fields[#fields + 1] = bin
  end
  return redis.call('XADD', string.sub(KEYS[5], 1, -7) .. 'audit', 'MAXLEN', '~', len, '*',
    unpack(fields))
end


-- Dead tasks bounded (docs/design/bounds.md, since layout 2.9). Each shard's dead set keeps at
-- most the config's dead_max tasks and dead_max_bytes bytes (0 = no bound), divided by
-- dead_shards (the shard count setConfig wrote beside them; 1 when absent). A task's bytes are
-- its id, its record and its last error; their running total is the field bytes of
-- dq:{Q}:deadbound (dead_key: not in the stats, whose fields are counters a purge keeps).
-- Every way into dead goes through died(), every way out of it through dead_left(): the bound
-- is kept where tasks die, the oldest (lowest time of death) going first, forgotten fully and
-- counted (dead_dropped, exact). Audited too, but at most once a minute a shard: a flood drops
-- a task on every failure, and an entry for each would push every operator's entry out of
-- the capped audit trail. A drop within the minute after the last entry is kept in
-- dq:{Q}:deadbound (at: that entry's ms, unaudited: drops since) and the next dropping call's
-- entry counts it.
local DEAD_MAX = 100000
local DEAD_MAX_BYTES = 67108864
-- Dropped at most per call: a death adds at most 1000, so the bound holds; a lowered bound is
-- reached over the next deaths rather than in one long call.
local DEAD_DROP_AT_ONCE = 2000
local DEAD_AUDIT_EVERY = 60000
-- The actor of a drop's audit entry: the server keeping the bound, not a person.
local DEAD_BOUND_WHO = {'', 'delayq', 'redis', 'dead bound', ''}

local function dead_key()
  return string.sub(KEYS[5], 1, -7) .. 'deadbound'
end

-- Bytes the dead task `id` counts for (its record and error may be absent: broken entries).
local function dead_size(id)
  return #id + redis.call('HSTRLEN', data_key(id), id) + redis.call('HSTRLEN', KEYS[9], id)
end

-- The tasks `ids` left dead (requeue, delete, purge, replace, reshard): their bytes leave the
-- total. Call it while their records and errors are still there.
local function dead_left(ids)
  if #ids == 0 then return end
  local bytes = 0
  for _, id in ipairs(ids) do bytes = bytes + dead_size(id) end
  if redis.call('EXISTS', KEYS[3]) == 0 then
    redis.call('HDEL', dead_key(), 'bytes') -- nothing dead: nothing to count, whatever drifted
  elseif bytes > 0 then
    redis.call('HINCRBY', dead_key(), 'bytes', -bytes)
  end
end

-- Keeps the bound: drops the oldest dead tasks while there are more than dead_max or more
-- bytes than dead_max_bytes. Returns how many it dropped.
local function dead_trim(now)
  local config = redis.call('HMGET', KEYS[5], 'dead_max', 'dead_max_bytes', 'dead_shards')
  local shards = whole(config[3] or '', 1, 1000) or 1
  local max = whole(config[1] or '', 0, 1000000000) or DEAD_MAX
  local max_bytes = whole(config[2] or '', 0, 1099511627776) or DEAD_MAX_BYTES
  max, max_bytes = math.ceil(max / shards), math.ceil(max_bytes / shards)
  local over = 0
  if max > 0 then over = redis.call('ZCARD', KEYS[3]) - max end
  local bytes = tonumber(redis.call('HGET', dead_key(), 'bytes')) or 0
  if over <= 0 and (max_bytes == 0 or bytes <= max_bytes) then return 0 end
  local dropped, freed = {}, 0
  while #dropped < DEAD_DROP_AT_ONCE do
    local want = math.min(math.max(over - #dropped, 100), DEAD_DROP_AT_ONCE - #dropped)
    local ids = redis.call('ZRANGE', KEYS[3], #dropped, #dropped + want - 1)
    local full = #ids == 0
    for _, id in ipairs(ids) do
      if #dropped >= over and (max_bytes == 0 or bytes - freed <= max_bytes) then
        full = true
        break
      end
      freed = freed + dead_size(id)
      dropped[#dropped + 1] = id
    end
    if full then break end
  end
  if #dropped == 0 then return 0 end
  -- The oldest are ranks 0..k-1: one call removes them all.
  redis.call('ZREMRANGEBYRANK', KEYS[3], 0, #dropped - 1)
  forget(dropped, nil, now)
  if redis.call('EXISTS', KEYS[3]) == 0 then
    redis.call('HDEL', dead_key(), 'bytes')
  else
    redis.call('HINCRBY', dead_key(), 'bytes', -freed)
  end
  count(KEYS[6], KEYS[7], 'dead_dropped', #dropped, now)
  local state = dead_key()
  local last = redis.call('HMGET', state, 'at', 'unaudited')
  local unaudited = (tonumber(last[2]) or 0) + #dropped
  if now - (tonumber(last[1]) or 0) >= DEAD_AUDIT_EVERY then
    -- ids: this call's first; count: every drop since the last entry.
    audit(DEAD_BOUND_WHO, 'dead_dropped', unaudited, dropped,
      'bound ' .. int(max) .. ' tasks, ' .. int(max_bytes) .. ' bytes a shard (0 = none)')
    redis.call('HSET', state, 'at', int(now), 'unaudited', 0)
  else
    redis.call('HSET', state, 'unaudited', unaudited)
  end
  return #dropped
end

-- The one way into dead: scored is ZADD's {time died ms, id, ...}, the tasks' errors already
-- written. Adds them, counts their bytes and keeps the bound (dead_trim). Returns how many
-- the bound dropped.
local function died(scored, now)
  if #scored == 0 then return 0 end
  local ids = {}
  for i = 2, #scored, 2 do ids[#ids + 1] = scored[i] end
  -- An id already dead (an import's replace) is counted once.
  local already = {}
  if redis.call('EXISTS', KEYS[3]) == 1 then already = redis.call('ZMSCORE', KEYS[3], unpack(ids)) end
  redis.call('ZADD', KEYS[3], unpack(scored))
  local bytes = 0
  for k, id in ipairs(ids) do
    if not already[k] then bytes = bytes + dead_size(id) end
  end
  if bytes > 0 then redis.call('HINCRBY', dead_key(), 'bytes', bytes) end
  -- A dead task finished too: its id is refused for its dedup window (remember_done).
  remember_done(ids, now)
  return dead_trim(now)
end

-- Expiry (docs/design/bounds.md, since layout 2.9): a task may have to start by a time. Its own
-- start-by ms is in dq:{Q}:expires (id -> ms; 0 = never, overriding the queue's max_age); else
-- the config's max_age (ms, 0 = none) counts from its record's created. Push sets the config's
-- expiry = 1 once a task of the shard has its own, so claim reads the hash only then.
-- A claim that meets a task past it never hands it out: it goes to dead with the error
-- EXPIRED_ERROR, or is forgotten when the config's expired_to is "drop"; counted in
-- expired_unstarted either way.
local EXPIRED_ERROR = 'expired before it started'

local function expires_key()
  return string.sub(KEYS[5], 1, -7) .. 'expires'
end


-- Schedules (docs/schedules.md): dq:{Q}:schedules (name -> rule record), dq:{Q}:schedule_next
-- (ZSET name -> next fire ms, for the schedules not paused) and dq:{Q}:schedule_stats
-- ("NAME|fired", "NAME|skipped", "NAME|last" -> counts and the last fire ms). Built from
-- KEYS[5] as the history keys are, so they stay in the queue's slot.
local function schedule_key(suffix)
  return string.sub(KEYS[5], 1, -7) .. 'schedule' .. suffix
end

-- A schedule's fires join pending (zadd: ZADD's {due, id, ...}; ids: theirs), indexed for
-- fair order, counted, woken for, and each starts its history with a "pushed" event.
local function schedule_pending(name, zadd, ids, now, channel, before, first_due, history)
  redis.call('ZADD', KEYS[1], unpack(zadd))
  fair_index(zadd, now)
  count(KEYS[6], KEYS[7], 'pushed', #ids, now)
  wake_if_earlier(channel, before, first_due)
  local tail = '|' .. history_text('schedule ' .. name, '[|\n\r]') .. '|'
  history_note(history, ids, function(k) return int(now) .. '|pushed|' .. zadd[2 * k - 1] .. tail end, true)
end

-- A rule record is "1|version|cron|zone|every ms|anchor ms|catch-up ms|max attempts|backoff|
-- paused|updated ms|payload" (the payload last: it may hold '|'); since protocol 2.8 a rule with
-- an overlap policy or a jitter is "2|" and the same fields with "overlap|jitter ms|" before
-- the payload (overlap: allow | skip). A rule without either stays "1|", so older clients
-- still fire it. Returns a table of the fields, nil when the record is absent or garbage.
local function parse_schedule(record)
  if not record then return nil end
  local head = '|(%d+)|([^|]*)|([^|]*)|(%d+)|(%-?%d+)|(%d+)|(%d+)|([^|]*)|([01])|(%d+)|'
  local v, cron, zone, every, anchor, catchup, attempts, backoff, paused, updated, at =
    string.match(record, '^1' .. head .. '()')
  local overlap, jitter = 'allow', '0'
  if not v then
    v, cron, zone, every, anchor, catchup, attempts, backoff, paused, updated, overlap, jitter, at =
      string.match(record, '^2' .. head .. '(%a+)|(%d+)|()')
    if not v or (overlap ~= 'allow' and overlap ~= 'skip') then return nil end
  end
  return {version = tonumber(v), cron = cron, zone = zone, every = every, anchor = anchor,
    catchup = catchup, max_attempts = tonumber(attempts), backoff = backoff, paused = paused,
    updated = updated, overlap = overlap, jitter = tonumber(jitter),
    payload = string.sub(record, at)}
end

-- How far a fire's task is pushed past its fire time (ms, 0..jitter): FNV-1a (32 bits) of
-- "NAME:FIRE_MS", modulo jitter + 1. Every worker computes the same for the same fire, and so
-- does ScheduleRule::jitterOf in the core. Done in doubles: the multiply by 16777619
-- (2^24 + 403) is split so no product passes 2^53.
local function fire_jitter(name, fire, jitter)
  if jitter <= 0 then return 0 end
  local h = 2166136261
  local bytes = {string.byte(name .. ':' .. int(fire), 1, -1)}
  for i = 1, #bytes do
    local low = h % 256
    h = h - low + bit.bxor(low, bytes[i])
    h = ((h % 256) * 16777216 + h * 403) % 4294967296
  end
  return h % (jitter + 1)
end

-- The fires a schedule has already made, as ranges of its fire times, so a backfill never
-- makes one again (even when its task is long acked and gone): the ZSET
-- dq:{Q}:schedule_made:NAME, member the first fire ms of a range, score its last. Ranges do
-- not overlap. "NAME|open" in the stats names the range the rule's own fires still extend.
-- At most SCHEDULE_RANGES are kept; the newest fire of the ones dropped is in "NAME|forgot"
-- (a backfill refuses to reach back that far).
local SCHEDULE_RANGES = 200

local function schedule_made_key(name)
  return schedule_key('_made:' .. name)
end

-- A test for fires in ascending order: true when the fire falls in a range already made. The
-- ranges from the first fire on are read once.
local function schedule_made_from(name, first)
  local ranges = redis.call('ZRANGEBYSCORE', schedule_made_key(name), first, '+inf', 'WITHSCORES')
  local r = 1
  return function(fire)
    while ranges[r] and tonumber(ranges[r + 1]) < fire do r = r + 2 end
    return ranges[r] ~= nil and tonumber(ranges[r]) <= fire
  end
end

-- Records the range [from, to] as made; `open` (a member) names a range it extends. Returns
-- the range's member.
local function schedule_note_range(name, from, to, open)
  local key = schedule_made_key(name)
  if open then
    redis.call('ZADD', key, to, open)
    return open
  end
  open = int(from)
  redis.call('ZADD', key, to, open)
  local extra = redis.call('ZCARD', key) - SCHEDULE_RANGES
  if extra > 0 then
    local gone = redis.call('ZPOPMIN', key, extra)
    redis.call('HSET', schedule_key('_stats'), name .. '|forgot', gone[#gone])
  end
  return open
end

-- Records fire as made: extends the range starting at `open` (a member) or starts one. Returns
-- the range's member.
local function schedule_note_made(name, fire, open)
  return schedule_note_range(name, fire, fire, open)
end

-- The task a fire of the rule makes: the record (pushed now), to write with HSETNX.
local function schedule_task_record(rule, now, default_attempts)
  local attempts = rule.max_attempts
  if attempts == 0 then attempts = default_attempts end
  return base36(now) .. '|' .. int(attempts) .. '|' .. rule.backoff .. '|' .. rule.payload
end

-- Recycle bin (docs/design/bin.md, since layout 2.9): the tasks an operator removes (cancel,
-- purge, delete dead) are kept restorable, each with its record, run entry, last error,
-- history and fair tag as they were, for at most the config's bin_keep ms (24 h by default),
-- bin_max tasks (100,000) and bin_bytes bytes (64 MiB); any of them 0 turns the bin off. The
-- oldest go first, counted in the stats' bin_dropped. Keys, built from KEYS[5] as the audit
-- stream is, so they stay in the slot:
--   bin          HASH id -> entry (bin_entry): the newest removal of each id
--   bin_at       ZSET id -> removed ms (oldest first: the drop order)
--   bin_actions  HASH action -> "kind|removed ms|audit entry id" of the action's first call
--   bin:a:ACTION ZSET id -> removed ms: the tasks one action removed
--   bin_bytes    STRING: the bytes of the entries held
-- Every write sets each key's expiry to bin_keep: a bin nobody touches vanishes whole.
local BIN_KEEP, BIN_MAX, BIN_BYTES = 86400000, 100000, 67108864
local BIN_DROP_AT_ONCE = 1000 -- entries one call drops past the time bound (the rest: next call)

local function bin_key(suffix)
  return string.sub(KEYS[5], 1, -7) .. 'bin' .. suffix
end

-- The bounds: keep ms, max tasks, max bytes; nil when the bin is off.
local function bin_bounds()
  local c = redis.call('HMGET', KEYS[5], 'bin_keep', 'bin_max', 'bin_bytes')
  local keep, max, bytes = tonumber(c[1]) or BIN_KEEP, tonumber(c[2]) or BIN_MAX,
    tonumber(c[3]) or BIN_BYTES
  if keep <= 0 or max <= 0 or bytes <= 0 then return nil end
  return keep, max, bytes
end

-- An action id: 1..64 of letters, digits and '.-_' (the client makes it; "" = no bin).
local function bin_action_ok(action)
  return action == '' or (#action <= 64 and string.match(action, '^[%w%.%-_]+$') ~= nil)
end

-- "1|ACTION|REMOVED|STATE|SCORE|#RUN|#ERROR|#HISTORY|#TAG|#EXPIRES|" then those five texts
-- and the record. STATE pending (SCORE: due), active (lease deadline) or dead (time it died).
local function bin_entry(action, now, state, score, run, err, hist, tag, expires, record)
  return '1|' .. action .. '|' .. int(now) .. '|' .. state .. '|' .. score .. '|' .. #run .. '|' ..
    #err .. '|' .. #hist .. '|' .. #tag .. '|' .. #expires .. '|' .. run .. err .. hist .. tag ..
    expires .. record
end

-- An entry as a table, or nil when it is garbage.
local function bin_parse(entry)
  if not entry then return nil end
  local action, removed, state, score, lr, le, lh, lt, lx, at = string.match(entry,
    '^1|([^|]*)|(%d+)|(%a+)|(%-?%d+)|(%d+)|(%d+)|(%d+)|(%d+)|(%d+)|()')
  if not action then return nil end
  local function take(n)
    local text = string.sub(entry, at, at + n - 1)
    at = at + n
    return text
  end
  local e = {action = action, removed = tonumber(removed), state = state, score = tonumber(score)}
  e.run, e.err, e.hist, e.tag, e.expires = take(tonumber(lr)), take(tonumber(le)),
    take(tonumber(lh)), take(tonumber(lt)), take(tonumber(lx))
  e.record = string.sub(entry, at)
  return e
end

-- Takes entries out of the bin: ids, and their entries as read (HMGET). Each action's set
-- loses them; an action left with none leaves bin_actions.
local function bin_take_out(ids, entries)
  if #ids == 0 then return end
  local bytes, by_action = 0, {}
  for i, id in ipairs(ids) do
    local entry = entries[i]
    if entry then
      bytes = bytes + #entry
      -- Only the action is needed: the whole bin_parse would make a dozen strings a task.
      local action = string.match(entry, '^1|([^|]*)|')
      if action then
        local some = by_action[action]
        if not some then
          some = {}
          by_action[action] = some
        end
        some[#some + 1] = id
      end
    end
  end
  redis.call('HDEL', bin_key(''), unpack(ids))
  redis.call('ZREM', bin_key('_at'), unpack(ids))
  if bytes > 0 then redis.call('DECRBY', bin_key('_bytes'), bytes) end
  for action, some in pairs(by_action) do
    local set = bin_key(':a:' .. action)
    redis.call('ZREM', set, unpack(some))
    if redis.call('ZCARD', set) == 0 then redis.call('HDEL', bin_key('_actions'), action) end
  end
end

-- Drops the oldest entries: those older than keep (at most BIN_DROP_AT_ONCE a call), then
-- while more than max tasks or bytes are held. Counted in the stats' bin_dropped.
local function bin_trim(now, keep, max, max_bytes)
  local dropped = 0
  local old = redis.call('ZRANGEBYSCORE', bin_key('_at'), '-inf', now - keep, 'LIMIT', 0,
    BIN_DROP_AT_ONCE)
  if #old > 0 then
    bin_take_out(old, redis.call('HMGET', bin_key(''), unpack(old)))
    dropped = dropped + #old
  end
  local extra = redis.call('ZCARD', bin_key('_at')) - max
  local held = tonumber(redis.call('GET', bin_key('_bytes'))) or 0
  while extra > 0 or held > max_bytes do
    -- Past the bytes bound: about as many entries as the excess holds, at the average size.
    local n = math.max(extra, 1)
    if held > max_bytes then
      local card = math.max(redis.call('ZCARD', bin_key('_at')), 1)
      n = math.max(n, math.ceil((held - max_bytes) / math.max(held / card, 1)))
    end
    if n > 1000 then n = 1000 end
    local gone = redis.call('ZRANGE', bin_key('_at'), 0, n - 1)
    if #gone == 0 then
      redis.call('DEL', bin_key('_bytes'))
      break
    end
    bin_take_out(gone, redis.call('HMGET', bin_key(''), unpack(gone)))
    dropped = dropped + #gone
    extra = extra - #gone
    held = tonumber(redis.call('GET', bin_key('_bytes'))) or 0
  end
  if dropped > 0 then count(KEYS[6], KEYS[7], 'bin_dropped', dropped, now) end
end

-- Keeps removed tasks (before forget() drops their traces): ids, and for each its state
-- ('pending' | 'active' | 'dead') and score. event: the removal's history event (appended to
-- the kept history when the task has one). Nothing when the bin is off or action is "".
local function bin_keep(action, ids, states, scores, event, now)
  if action == '' or #ids == 0 then return end
  local keep, max, max_bytes = bin_bounds()
  if not keep then return end
  local runs = redis.call('HMGET', KEYS[8], unpack(ids))
  local errs, hists, tags, expires = {}, {}, {}, {}
  if redis.call('EXISTS', KEYS[9]) == 1 then errs = redis.call('HMGET', KEYS[9], unpack(ids)) end
  if redis.call('EXISTS', history_key('')) == 1 then
    hists = redis.call('HMGET', history_key(''), unpack(ids))
  end
  if redis.call('EXISTS', fair_key('tags')) == 1 then
    tags = redis.call('HMGET', fair_key('tags'), unpack(ids))
  end
  if redis.call('EXISTS', expires_key()) == 1 then
    expires = redis.call('HMGET', expires_key(), unpack(ids))
  end
  -- An id already in the bin (removed, pushed again, removed again): its older entry goes.
  bin_take_out(ids, redis.call('HMGET', bin_key(''), unpack(ids)))
  local writes, at, bytes = {}, {}, 0
  for i, id in ipairs(ids) do
    local record = redis.call('HGET', data_key(id), id) or ''
    local hist = hists[i] or ''
    if hist ~= '' then hist = hist .. '\n' .. event end
    local entry = bin_entry(action, now, states[i], int(tonumber(scores[i])), runs[i] or '', errs[i] or '',
      hist, tags[i] or '', expires[i] or '', record)
    bytes = bytes + #entry
    writes[#writes + 1] = id
    writes[#writes + 1] = entry
    at[#at + 1] = now
    at[#at + 1] = id
  end
  redis.call('HSET', bin_key(''), unpack(writes))
  redis.call('ZADD', bin_key('_at'), unpack(at))
  redis.call('ZADD', bin_key(':a:' .. action), unpack(at))
  redis.call('INCRBY', bin_key('_bytes'), bytes)
  bin_trim(now, keep, max, max_bytes)
  for _, key in ipairs({bin_key(''), bin_key('_at'), bin_key('_actions'), bin_key('_bytes'),
    bin_key(':a:' .. action)}) do
    redis.call('PEXPIRE', key, keep)
  end
end

-- After a removal's audit entry: the action's first call names its kind, time and entry.
local function bin_note_action(action, kind, now, entry_id)
  if action == '' or redis.call('EXISTS', bin_key(':a:' .. action)) == 0 then return end
  redis.call('HSETNX', bin_key('_actions'), action, kind .. '|' .. int(now) .. '|' .. entry_id)
end
