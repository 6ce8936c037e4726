-- restore.lua: puts tasks from the queue's recycle bin back (since layout 2.9; the bin: bin_keep
-- in common.lua, docs/design/bin.md).
-- KEYS (the same nine for every native-queue script, built by Queue::scriptKeys()):
--   [1] pending ZSET  [2] active ZSET  [3] dead ZSET
--   [4] data bucket prefix ("dq:{Q}:d:", bucket number appended: see data_key in common.lua)
--   [5] config HASH   [6] stats HASH   [7] minute counters prefix ("dq:{Q}:m:", minute appended)
--   [8] run HASH (id -> attempts and lease)   [9] errors HASH (id -> last error)
-- ARGV[1] due: "keep" (each task as it was removed) | "at" (pending and formerly active tasks
--   due at ARGV[2])  ARGV[2] due ms for "at" (0..MAX_MS; ignored for "keep")
--   ARGV[3] wake channel ("" = none), then the ids (at most 1000)
-- ARGV[last] actor: "" (no audit entry), or who restores (take_actor in common.lua): one audit
--   entry "restore" (detail "due=MS" for "at") when any task was restored
-- A restored task gets back its record (payload bytes, created, max attempts, backoff), its
--   attempts, last error, fair tag, start-by time and history (with the removal's event and a
--   "restored" one, when the queue keeps histories). Where it goes: a pending task to pending at
--   its due; a task a worker held (forced cancel, purge) to pending, due now, its lease gone;
--   a dead task to dead at its time of death ("at" moves only pending and formerly active ones).
-- Reply: {done, 0, {one status per id: done | not_found (not in the bin, or older than bin_keep)
--   | exists (a task with this id is in the queue again: refused, the entry stays)}}
-- Errors: INVALID on bad ARGV (nothing changed).
local actor_ok, who = take_actor()
if not actor_ok then
  return redis.error_reply('INVALID restore: the last ARGV value must be the actor ("" for none)')
end
local mode = ARGV[1]
if mode ~= 'keep' and mode ~= 'at' then
  return redis.error_reply('INVALID restore: due must be keep or at')
end
local due_at = whole(ARGV[2], 0, MAX_MS)
if due_at == nil then return redis.error_reply('INVALID restore: due ms must be 0..' .. int(MAX_MS)) end
if ARGV[3] == nil then return redis.error_reply('INVALID restore: the wake channel is missing') end
if #ARGV - 3 > 1000 then return redis.error_reply('INVALID restore: at most 1000 ids a call') end
local now = now_ms()
local keep = bin_bounds() or BIN_KEEP
local limit = history_limit(redis.call('HGET', KEYS[5], 'history'))
local before = earliest(KEYS[1])
local event = history_event(now, 'restored', '', history_who(who), '')
local out, entries, pending, dead, histories, runs, errs, tags, expires = {}, {}, {}, {}, {}, {},
  {}, {}, {}
-- The call's reads in one command a key, not four a task (a restore of 100,000 spent half its
-- time in them); an id given twice is restored once (the second finds its entry gone).
local in_bin, in_pending, in_active, in_dead, seen = {}, {}, {}, {}, {}
if #ARGV > 3 then
  in_bin = redis.call('HMGET', bin_key(''), unpack(ARGV, 4))
  in_pending = redis.call('ZMSCORE', KEYS[1], unpack(ARGV, 4))
  in_active = redis.call('ZMSCORE', KEYS[2], unpack(ARGV, 4))
  in_dead = redis.call('ZMSCORE', KEYS[3], unpack(ARGV, 4))
end
local position = 3
local function put_back(id)
  position = position + 1
  local k = position - 3
  local entry = in_bin[k]
  if seen[id] then return false end
  local e = bin_parse(entry)
  if not e or e.removed < now - keep then return false end
  if in_pending[k] or in_active[k] or in_dead[k] or redis.call('HEXISTS', data_key(id), id) == 1 then
    return 'exists'
  end
  seen[id] = true
  table_for_new_records()
  if e.record ~= '' then redis.call('HSET', data_key(id), id, e.record) end
  local run = e.run
  if e.state == 'active' then
    -- The lease died with the removal: attempts and due stay, token, claim and worker go.
    local attempts, due = parse_run(run)
    run = run_entry(attempts, due or now, '', '', '')
  end
  if run ~= '' then runs[#runs + 1] = id; runs[#runs + 1] = run end
  if e.err ~= '' then errs[#errs + 1] = id; errs[#errs + 1] = e.err end
  if e.tag ~= '' then tags[#tags + 1] = id; tags[#tags + 1] = e.tag end
  if e.expires ~= '' then expires[#expires + 1] = id; expires[#expires + 1] = e.expires end
  if limit > 0 then
    histories[#histories + 1] = id
    histories[#histories + 1] = history_add(e.hist ~= '' and e.hist or nil, event, limit)
  end
  if e.state == 'dead' and mode == 'keep' then
    dead[#dead + 1] = e.score; dead[#dead + 1] = id
  else
    local due = e.score
    if mode == 'at' then due = due_at elseif e.state ~= 'pending' then due = now end
    pending[#pending + 1] = due; pending[#pending + 1] = id
  end
  out[#out + 1] = id
  entries[#entries + 1] = entry
  return true
end
-- each_id's statuses name sets; "exists" is this script's own word, set after it.
local refused = {}
local done, statuses, taken = each_id(4, function(id)
  local r = put_back(id)
  if r == 'exists' then refused[id] = true end
  return r == true
end, {})
for i, id in ipairs(statuses) do
  if refused[ARGV[i + 3]] and id ~= 'done' then statuses[i] = 'exists' end
end
if done > 0 then
  if #runs > 0 then redis.call('HSET', KEYS[8], unpack(runs)) end
  if #errs > 0 then redis.call('HSET', KEYS[9], unpack(errs)) end
  if #tags > 0 then redis.call('HSET', fair_key('tags'), unpack(tags)) end
  if #expires > 0 then
    redis.call('HSET', expires_key(), unpack(expires))
    redis.call('HSET', KEYS[5], 'expiry', '1')
  end
  if #histories > 0 then
    redis.call('HSET', history_key(''), unpack(histories))
    -- A cancelled task's history was also kept among the finished ones: it is not finished now.
    local order = {}
    for i = 1, #histories, 2 do order[#order + 1] = histories[i] end
    redis.call('HDEL', history_key('_done'), unpack(order))
    redis.call('ZREM', history_key('_done_at'), unpack(order))
  end
  if #pending > 0 then
    redis.call('ZADD', KEYS[1], unpack(pending))
    fair_index(pending, now)
    local first = pending[1]
    for i = 3, #pending, 2 do first = math.min(first, pending[i]) end
    wake_if_earlier(ARGV[3], before, first)
  end
  if #dead > 0 then died(dead, now) end
  bin_take_out(out, entries)
  grow_table()
  count(KEYS[6], KEYS[7], 'restored', done, now)
  audit(who, 'restore', done, taken, mode == 'at' and ('due=' .. int(due_at)) or '')
end
return {done, 0, statuses}
