-- push.lua: adds tasks to a native queue.
-- KEYS (the same seven for every native-queue script, built by Queue::scriptKeys()):
--   [1] pending ZSET  [2] active ZSET  [3] dead ZSET  [4] task key prefix ("dq:{Q}:t:", id appended)
--   [5] config HASH   [6] stats HASH   [7] minute counters prefix ("dq:{Q}:m:", minute appended)
-- ARGV[1] mode: "nx" (an existing id is reported) | "replace" (it is overwritten)
-- ARGV[2] wake channel ("" = none): published with the due ms when a created task is due
--   before everything that was pending
-- ARGV[3] n, the number of tasks (0..1000); then 6 values per task:
--   id, payload (bytes), due kind ("at" | "in"), due value (ms: epoch time or delay),
--   max attempts (0 = queue default), backoff (normalized; "" = queue default)
-- Reply: 2n values, flat: status, due ms, status, due ms, ...; status: created | exists | replaced | too_large | active
--   (active: "replace" refused because a worker holds the task)
-- Errors: INVALID when ARGV is malformed.
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
for i = 0, n - 1 do
  local a = 4 + i * 6
  if ARGV[a + 2] ~= 'at' and ARGV[a + 2] ~= 'in' then
    return redis.error_reply('INVALID push: due kind must be at or in')
  end
  if whole(ARGV[a + 3], -MAX_MS, MAX_MS) == nil then
    return redis.error_reply('INVALID push: due value is not a whole number of ms')
  end
  if whole(ARGV[a + 4], 0, 1000000000) == nil then
    return redis.error_reply('INVALID push: max attempts is not a whole number')
  end
end
local now = now_ms()
local max_payload = config_number(KEYS[5], 'max_payload', 1048576)
local default_attempts = config_number(KEYS[5], 'max_attempts', 5)
local before = earliest(KEYS[1])
local min_due = nil
local created = 0
local reply = {}
local zadd = {}
local now_text = int(now)
local default_attempts_text = int(default_attempts)
for i = 0, n - 1 do
  local a = 4 + i * 6
  local id, payload, kind, value = ARGV[a], ARGV[a + 1], ARGV[a + 2], tonumber(ARGV[a + 3])
  local max_attempts, backoff = tonumber(ARGV[a + 4]), ARGV[a + 5]
  local due = value
  if kind == 'in' then due = now + value end
  local key = KEYS[4] .. id
  local status = 'created'
  if #payload > max_payload then
    status = 'too_large'
  elseif redis.call('EXISTS', key) == 1 then
    if mode ~= 'replace' then
      status = 'exists'
      -- Report the due time the task already has, not the one asked for.
      due = tonumber(redis.call('HGET', key, 'due')) or due
    elseif redis.call('HGET', key, 'state') == 'active' then
      status = 'active'
    else
      status = 'replaced'
      -- The old copy may sit in the dead set; it leaves with its data.
      redis.call('ZREM', KEYS[3], id)
      redis.call('DEL', key)
    end
  end
  if status == 'created' or status == 'replaced' then
    local attempts_text = default_attempts_text
    if max_attempts ~= nil and max_attempts > 0 then attempts_text = int(max_attempts) end
    local due_text = int(due)
    if backoff ~= '' then
      redis.call('HSET', key, 'payload', payload, 'due', due_text, 'created', now_text,
        'attempts', '0', 'max_attempts', attempts_text, 'state', 'pending', 'backoff', backoff)
    else
      redis.call('HSET', key, 'payload', payload, 'due', due_text, 'created', now_text,
        'attempts', '0', 'max_attempts', attempts_text, 'state', 'pending')
    end
    -- One ZADD for the whole call: per-task calls are most of a script's cost.
    zadd[#zadd + 1] = due_text
    zadd[#zadd + 1] = id
    created = created + 1
    if min_due == nil or due < min_due then min_due = due end
  end
  reply[#reply + 1] = status
  reply[#reply + 1] = int(due)
end
if #zadd > 0 then redis.call('ZADD', KEYS[1], unpack(zadd)) end
count(KEYS[6], KEYS[7], 'pushed', created, now)
if min_due then wake_if_earlier(channel, before, min_due) end
return reply
