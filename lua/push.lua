-- push.lua: adds tasks to a native queue.
-- KEYS (the same nine for every native-queue script, built by Queue::scriptKeys()):
--   [1] pending ZSET  [2] active ZSET  [3] dead ZSET
--   [4] data bucket prefix ("dq:{Q}:d:", bucket number appended: see data_key in common.lua)
--   [5] config HASH   [6] stats HASH   [7] minute counters prefix ("dq:{Q}:m:", minute appended)
--   [8] run HASH (id -> attempts and lease)   [9] errors HASH (id -> last error)
-- ARGV[1] mode: "nx" (an existing id is reported) | "replace" (it is overwritten)
-- ARGV[2] wake channel ("" = none): published with the due ms when a created task is due
--   before everything that was pending
-- ARGV[3] n, the number of tasks (0..1000); then 6 values per task:
--   id, payload (bytes), due kind ("at" | "in"), due value (ms: epoch time or delay),
--   max attempts (0 = queue default), backoff (normalized; "" = queue default)
-- ARGV[last] actor: "" (no audit entry), or who pushes (take_actor in common.lua): one
--   audit entry "push" for the created and replaced tasks of the call, when there are any
-- Reply: 2n values, flat: status, due ms, status, due ms, ...; status: created | exists | replaced | too_large | active
--   (active: "replace" refused because a worker holds the task)
-- Errors: INVALID when ARGV is malformed.
local actor_ok, who = take_actor()
if not actor_ok then
  return redis.error_reply('INVALID push: the last ARGV value must be the actor ("" for none)')
end
local mode = ARGV[1]
local channel = ARGV[2]
local n = whole(ARGV[3], 0, 1000)
if n == nil or #ARGV ~= 3 + n * 6 then
  return redis.error_reply('INVALID push: ARGV does not hold n tasks of 6 values')
end
if mode ~= 'nx' and mode ~= 'replace' then
  return redis.error_reply('INVALID push: mode must be nx or replace')
end
-- Every task is checked before the first is written: a refusal changes nothing.
local values, attempts = {}, {}
for i = 0, n - 1 do
  local a = 4 + i * 6
  if ARGV[a + 2] ~= 'at' and ARGV[a + 2] ~= 'in' then
    return redis.error_reply('INVALID push: due kind must be at or in')
  end
  values[i] = whole(ARGV[a + 3], -MAX_MS, MAX_MS)
  if values[i] == nil then
    return redis.error_reply('INVALID push: due value is not a whole number of ms')
  end
  attempts[i] = whole(ARGV[a + 4], 0, 1000000000)
  if attempts[i] == nil then
    return redis.error_reply('INVALID push: max attempts is not a whole number')
  end
end
local now = now_ms()
local config = redis.call('HMGET', KEYS[5], 'max_payload', 'max_attempts')
local max_payload = tonumber(config[1]) or 1048576
local default_attempts = tonumber(config[2]) or 5
if max_payload < 0 then max_payload = 1048576 end
if default_attempts < 1 then default_attempts = 5 end
local before = earliest(KEYS[1])
local min_due = nil
local created = 0
local reply = {}
local zadd = {}
local made = {} -- {id, due text, due, reply index, bucket} of each task written
local created_text = base36(now)
local default_attempts_text = int(default_attempts)

-- The due time an existing task already has: its score while pending, else its run entry's.
local function due_of(id, asked)
  local score = redis.call('ZSCORE', KEYS[1], id)
  if score then return tonumber(score) end
  local _, due = parse_run(redis.call('HGET', KEYS[8], id))
  return due or asked
end

for i = 0, n - 1 do
  local a = 4 + i * 6
  local id, payload, backoff = ARGV[a], ARGV[a + 1], ARGV[a + 5]
  local due = values[i]
  if ARGV[a + 2] == 'in' then due = now + due end
  -- As text for ZADD: Lua's own number to text would round a due time of 15 digits.
  local due_text = int(due)
  local attempts_text = default_attempts_text
  if attempts[i] > 0 then attempts_text = int(attempts[i]) end
  local record = created_text .. '|' .. attempts_text .. '|' .. backoff .. '|' .. payload
  local bucket = data_key(id)
  local status = 'created'
  if #payload > max_payload then
    status = 'too_large'
  elseif mode ~= 'replace' then
    -- One call both tests and writes: the common case (a new id) costs nothing more.
    if redis.call('HSETNX', bucket, id, record) == 0 then
      status = 'exists'
      due = due_of(id, due)
    end
  elseif redis.call('ZSCORE', KEYS[2], id) then
    status = 'active'
  else
    -- The old copy may sit in the dead set (even without a record, when broken); it leaves
    -- with its run entry and error.
    local had = redis.call('HEXISTS', bucket, id) == 1
    if redis.call('ZREM', KEYS[3], id) == 1 then had = true end
    if had then
      status = 'replaced'
      redis.call('HDEL', KEYS[8], id)
      redis.call('HDEL', KEYS[9], id)
    end
    redis.call('HSET', bucket, id, record)
  end
  reply[#reply + 1] = status
  reply[#reply + 1] = due
  if status == 'created' or status == 'replaced' then
    made[#made + 1] = {id, due_text, due, #reply - 1, bucket}
  end
end
-- An id listed in active or dead without a record (broken, or of the older layout) took
-- HSETNX as new: it exists, and must not be pending as well. One ZMSCORE per set for the
-- whole call finds them.
if mode ~= 'replace' and #made > 0 then
  local ids = {}
  for i, m in ipairs(made) do ids[i] = m[1] end
  local active = redis.call('ZMSCORE', KEYS[2], unpack(ids))
  local dead = redis.call('ZMSCORE', KEYS[3], unpack(ids))
  local kept = {}
  for i, m in ipairs(made) do
    if active[i] or dead[i] then
      redis.call('HDEL', m[5], m[1])
      reply[m[4]] = 'exists'
      reply[m[4] + 1] = due_of(m[1], m[3])
    else
      kept[#kept + 1] = m
    end
  end
  made = kept
end
for _, m in ipairs(made) do
  -- One ZADD for the whole call: per-task calls are most of a script's cost.
  zadd[#zadd + 1] = m[2]
  zadd[#zadd + 1] = m[1]
  created = created + 1
  if min_due == nil or m[3] < min_due then min_due = m[3] end
end
if #zadd > 0 then redis.call('ZADD', KEYS[1], unpack(zadd)) end
count(KEYS[6], KEYS[7], 'pushed', created, now)
if min_due then wake_if_earlier(channel, before, min_due) end
if who and created > 0 then
  -- The ids are zadd's even entries: nothing was collected per task for this.
  local ids = {}
  for i = 2, math.min(#zadd, 2 * AUDIT_IDS), 2 do ids[#ids + 1] = zadd[i] end
  audit(who, 'push', created, ids, mode == 'replace' and 'replace' or '')
end
return reply
