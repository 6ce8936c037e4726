-- reap.lua: takes back tasks whose lease ran out (their worker died or hung).
-- KEYS (the same nine for every native-queue script, built by Queue::scriptKeys()):
--   [1] pending ZSET  [2] active ZSET  [3] dead ZSET
--   [4] data bucket prefix ("dq:{Q}:d:", bucket number appended: see data_key in common.lua)
--   [5] config HASH   [6] stats HASH   [7] minute counters prefix ("dq:{Q}:m:", minute appended)
--   [8] run HASH (id -> attempts and lease)   [9] errors HASH (id -> last error)
-- ARGV[1] max tasks (1..1000)  ARGV[2] wake channel
-- Reply: {requeued, dead, more (1 = expired leases remain: call again)}
-- Errors: INVALID on bad ARGV; OLD_LAYOUT when an expired task is stored in the layout of an
--   older delayq (nothing moves).
-- A task with attempts left goes back to pending, due now; one with none left goes to dead,
-- as does one whose record is missing or garbled (counted in died and broken).
-- With the config's history on, each task taken back gets an "expired" event (due: when it is
-- due again, empty when it died; history_note in common.lua).
local limit = whole(ARGV[1], 1, 1000)
if limit == nil or #ARGV ~= 2 then
  return redis.error_reply('INVALID reap: max tasks must be 1..1000, then the wake channel')
end
local now = now_ms()
local ids = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now, 'LIMIT', 0, limit)
local requeued, died = 0, 0
local before = earliest(KEYS[1])
local default_attempts = config_number(KEYS[5], 'max_attempts', 5)
-- Read before anything moves: a task of the older layout is refused (upgrade converts it),
-- never taken for broken data.
local records = {}
for i, id in ipairs(ids) do
  records[i] = redis.call('HGET', data_key(id), id)
  if not records[i] and old_layout_task(id) then return old_layout_error() end
end
local broken = 0
local expired, events = {}, {}
for i, id in ipairs(ids) do
  redis.call('ZREM', KEYS[2], id)
  local _, max_attempts = parse_record(records[i])
  if max_attempts then
    local attempts, due, _, _, worker = parse_run(redis.call('HGET', KEYS[8], id))
    if attempts < 1 then attempts = 1 end
    if max_attempts <= 0 then max_attempts = default_attempts end
    if worker == '' then worker = '?' end
    redis.call('HSET', KEYS[9], id, 'lease expired: worker ' .. worker .. ' stopped renewing it')
    expired[#expired + 1] = id
    events[#expired] = history_event(now, 'expired', attempts >= max_attempts and '' or int(now),
      worker, attempts >= max_attempts and 'no attempts left' or '')
    if attempts >= max_attempts then
      redis.call('HSET', KEYS[8], id, run_entry(attempts, due or now, '', '', ''))
      redis.call('ZADD', KEYS[3], now, id)
      died = died + 1
    else
      redis.call('HSET', KEYS[8], id, run_entry(attempts, now, '', '', ''))
      redis.call('ZADD', KEYS[1], now, id)
      requeued = requeued + 1
    end
  else
    -- As claim does with a due id whose record is missing or garbled: to dead, with why.
    redis.call('HSET', KEYS[9], id, 'task data was missing or incomplete when its lease ran out')
    redis.call('ZADD', KEYS[3], now, id)
    broken = broken + 1
  end
end
history_note(history_limit(redis.call('HGET', KEYS[5], 'history')), expired,
  function(k) return events[k] end)
count(KEYS[6], KEYS[7], 'expired', requeued + died + broken, now)
count(KEYS[6], KEYS[7], 'died', died + broken, now)
count(KEYS[6], KEYS[7], 'broken', broken, now)
if requeued > 0 then wake_if_earlier(ARGV[2], before, now) end
local more = 0
if #ids == limit and redis.call('ZCOUNT', KEYS[2], '-inf', now) > 0 then more = 1 end
return {requeued, died + broken, more}
