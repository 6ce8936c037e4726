-- import_tasks.lua: brings back tasks written by `delayq export` (or the app's Export…), each in
-- the state it had, stored as the other scripts store that state.
-- KEYS: the nine of every native-queue script (see push.lua).
-- ARGV[1] on existing: "skip" (a task whose id is in the queue is left as it is) | "replace"
--   (it is overwritten, unless a worker holds it)
-- ARGV[2] wake channel ("" = none): published when an imported task is due before everything
--   that was pending
-- ARGV[3] n, the number of tasks (0..1000); then 12 values per task:
--   id, state ("pending" | "dead"), due ms, time died ms (dead; ignored for pending),
--   created ms, attempts, max attempts (0 = queue default), backoff (normalized; "" = the
--   queue's), last error ("" = none), history (its events as the scripts store them, one a
--   line, at most 100; "" = none; kept while the queue has room: HISTORY_TASKS), fair order's
--   tag (since 2.9: "PRIORITY|GROUP" as push stores it, "" = none; kept whatever the queue's
--   order, as config keeps the tags when the order goes back to due), its own start-by ms
--   (since 2.9: "" = none, "0" = never even past the queue's max_age; a pending task keeps it
--   in expires_key, common.lua), then the payload as ARGV[3 + 12n + i] (one per task, last)
-- ARGV[last] actor: "" (no audit entry), or who imports (take_actor in common.lua): one audit
--   entry "import" (detail "replace" with replace) when any task was written
-- Reply: one status per task: created | exists | replaced | too_large | active
--   (active: "replace" refused because a worker holds the task)
-- The dedup window (docs/design/keep.md) is not consulted: an import brings back what its file
-- holds, as restore does, and the reshard moves tasks with it.
-- Errors: INVALID when ARGV is malformed; since 2.9 FAIR when the queue is in fair order and
--   the call's pending tasks would bring new groups past the bound on groups (FAIR_GROUPS in
--   common.lua, as push refuses one). Nothing is written then.
-- Counters are left alone: an import restores tasks, it does not produce or deliver them.
local FIELDS = 12
-- The FIELDS values of each task, then its payload.
local who, n, refusal = take_batch('import_tasks', 3, FIELDS + 1)
if refusal then return refusal end
local mode = ARGV[1]
local channel = ARGV[2]
if mode ~= 'skip' and mode ~= 'replace' then
  return redis.error_reply('INVALID import_tasks: on existing must be skip or replace')
end
-- A history as the scripts write it (history_event in common.lua), or "".
local function valid_history(text)
  if text == '' then return true end
  local lines = 0
  for line in string.gmatch(text .. '\n', '([^\n]*)\n') do
    lines = lines + 1
    if lines > 100 or not string.find(line, '^%d+|[%l_]+|%d*|[^|]*|') then return false end
  end
  return true
end
-- Every task is checked before the first is written: a refusal changes nothing.
local tasks = {}
for i = 0, n - 1 do
  local a = 4 + i * FIELDS
  local t = {id = ARGV[a], state = ARGV[a + 1], backoff = ARGV[a + 7], error = ARGV[a + 8],
             history = ARGV[a + 9], tag = ARGV[a + 10], payload = ARGV[3 + n * FIELDS + i + 1]}
  if ARGV[a + 11] ~= '' then
    t.expires = whole(ARGV[a + 11], 0, MAX_MS)
    if t.expires == nil then
      return redis.error_reply('INVALID import_tasks: a start-by time is "" or a whole ms')
    end
  end
  if t.id == '' or (t.state ~= 'pending' and t.state ~= 'dead') then
    return redis.error_reply('INVALID import_tasks: a task needs an id and the state pending or dead')
  end
  t.due = whole(ARGV[a + 2], 0, MAX_MS)
  t.died = whole(ARGV[a + 3], 0, MAX_MS)
  t.created = whole(ARGV[a + 4], 0, MAX_MS)
  t.attempts = whole(ARGV[a + 5], 0, 1000000000)
  t.max_attempts = whole(ARGV[a + 6], 0, 1000000000)
  if not (t.due and t.died and t.created and t.attempts and t.max_attempts) then
    return redis.error_reply('INVALID import_tasks: times and counts must be whole numbers in range')
  end
  if string.find(t.backoff, '|', 1, true) then
    return redis.error_reply('INVALID import_tasks: a backoff holds no "|"')
  end
  if not valid_history(t.history) then
    return redis.error_reply('INVALID import_tasks: a history is at most 100 lines of ' ..
      '"ms|kind|due|who|text"')
  end
  if t.tag ~= '' then
    local priority, group = string.match(t.tag, '^(%-?%d+)|([%w_.:@/%-]*)$')
    if not priority or whole(priority, -9, 9) == nil or #group > 128 then
      return redis.error_reply('INVALID import_tasks: a tag is "PRIORITY|GROUP", priority ' ..
        '-9..9, group up to 128 bytes of letters, digits and _.:@/-')
    end
    t.tag = int(tonumber(priority)) .. '|' .. group
  end
  tasks[i] = t
end
-- The bound on groups (FAIR_GROUPS in common.lua) as push keeps it: in fair order, a call whose
-- pending tasks bring new groups past it is refused whole, before anything is written. (Out
-- of fair order the tags wait unindexed, and a change of order indexes at most 100,000 tasks.)
if fair_on() then
  local groups, seen = {}, {}
  for i = 0, n - 1 do
    local t = tasks[i]
    if t.state == 'pending' and t.tag ~= '' then
      local _, group = fair_tag(t.tag)
      if group ~= '' and not seen[group] then
        seen[group] = true
        groups[#groups + 1] = group
      end
    end
  end
  if #groups > 0 then
    local new = 0
    for _, member in ipairs(redis.call('SMISMEMBER', fair_key('known'), unpack(groups))) do
      if member == 0 then new = new + 1 end
    end
    local known = redis.call('SCARD', fair_key('known'))
    if new > 0 and known + new > FAIR_GROUPS then
      return redis.error_reply('FAIR the queue has ' .. known .. ' groups with due or running ' ..
        'tasks and these tasks would add ' .. new .. ' more, past its most of ' .. FAIR_GROUPS ..
        ' groups: none of them was imported (import them once groups are done)')
    end
  end
end
local max_payload, default_attempts = payload_and_attempts()
local before = earliest(KEYS[1])
local import_now = now_ms()
local min_due = nil
local reply, written, to_dead = {}, {}, {}
local room = HISTORY_TASKS - redis.call('HLEN', history_key(''))

-- True when the id is anywhere in the queue: a record, or a listed id without one.
local function present(id, bucket)
  return redis.call('HEXISTS', bucket, id) == 1 or redis.call('ZSCORE', KEYS[1], id) ~= false
    or redis.call('ZSCORE', KEYS[3], id) ~= false
end

for i = 0, n - 1 do
  local t = tasks[i]
  table_for_new_records()
  local bucket = data_key(t.id)
  local status = 'created'
  if #t.payload > max_payload then
    status = 'too_large'
  elseif redis.call('ZSCORE', KEYS[2], t.id) then
    status = mode == 'replace' and 'active' or 'exists'
  elseif present(t.id, bucket) then
    status = mode == 'replace' and 'replaced' or 'exists'
  end
  if status == 'created' or status == 'replaced' then
    if status == 'replaced' then
      redis.call('ZREM', KEYS[1], t.id)
      if redis.call('ZSCORE', KEYS[3], t.id) then
        dead_left({t.id})
        redis.call('ZREM', KEYS[3], t.id)
      end
      redis.call('HDEL', KEYS[8], t.id)
      redis.call('HDEL', KEYS[9], t.id)
      keep_forget({t.id})
      -- The replaced task's own start-by time goes with it, as on push --replace (the model
      -- check found a replaced task expiring on its old time); the import's own comes below.
      if redis.call('EXISTS', expires_key()) == 1 then redis.call('HDEL', expires_key(), t.id) end
    end
    local attempts_max = t.max_attempts
    if attempts_max == 0 then attempts_max = default_attempts end
    redis.call('HSET', bucket, t.id,
      base36(t.created) .. '|' .. int(attempts_max) .. '|' .. t.backoff .. '|' .. t.payload)
    -- As claim, nack and reap leave them: a run entry once a task was tried (always for a dead
    -- one, which keeps its due time there), an error only when there is one.
    if t.state == 'dead' or t.attempts > 0 then
      redis.call('HSET', KEYS[8], t.id, run_entry(t.attempts, t.due, '', '', ''))
    end
    if t.error ~= '' then redis.call('HSET', KEYS[9], t.id, t.error) end
    -- Kept whatever the queue's history setting: it is the task's past, not a new event.
    if t.history ~= '' and room > 0 then
      room = room - 1
      redis.call('HSET', history_key(''), t.id, t.history)
    elseif status == 'replaced' then
      redis.call('HDEL', history_key(''), t.id)
    end
    -- Its priority and group come back with it (a replaced task's tag goes when it has none).
    if t.tag ~= '' then
      redis.call('HSET', fair_key('tags'), t.id, t.tag)
    elseif status == 'replaced' then
      redis.call('HDEL', fair_key('tags'), t.id)
    end
    if t.state == 'dead' then
      to_dead[#to_dead + 1], to_dead[#to_dead + 2] = int(t.died), t.id
    else
      redis.call('ZADD', KEYS[1], int(t.due), t.id)
      if t.expires then
        redis.call('HSET', expires_key(), t.id, int(t.expires))
        redis.call('HSET', KEYS[5], 'expiry', '1')
      end
      fair_index({int(t.due), t.id}, import_now)
      if min_due == nil or t.due < min_due then min_due = t.due end
    end
  end
  reply[#reply + 1] = status
  if status == 'created' or status == 'replaced' then written[#written + 1] = t.id end
end
-- Into dead through died() (common.lua, since layout 2.9): the dead bound holds for imports too.
died(to_dead, import_now)
if #written > 0 then grow_table() end
if min_due then wake_if_earlier(channel, before, min_due) end
if #written > 0 then audit(who, 'import', #written, written, mode == 'replace' and 'replace' or '') end
return reply
