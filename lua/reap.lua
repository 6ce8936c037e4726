-- reap.lua: takes back tasks whose lease ran out (their worker died or hung).
-- KEYS (the same seven for every native-queue script, built by Queue::scriptKeys()):
--   [1] pending ZSET  [2] active ZSET  [3] dead ZSET  [4] task key prefix ("dq:{Q}:t:", id appended)
--   [5] config HASH   [6] stats HASH   [7] minute counters prefix ("dq:{Q}:m:", minute appended)
-- ARGV[1] max tasks (1..1000)  ARGV[2] wake channel
-- Reply: {requeued, dead, more (1 = expired leases remain: call again)}
-- Errors: INVALID on bad ARGV.
-- A task with attempts left goes back to pending, due now; one with none left goes to dead.
local limit = whole(ARGV[1], 1, 1000)
if limit == nil or #ARGV ~= 2 then
  return redis.error_reply('INVALID reap: max tasks must be 1..1000, then the wake channel')
end
local now = now_ms()
local ids = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now, 'LIMIT', 0, limit)
local requeued, died = 0, 0
local before = earliest(KEYS[1])
local default_attempts = config_number(KEYS[5], 'max_attempts', 5)
for _, id in ipairs(ids) do
  local key = KEYS[4] .. id
  redis.call('ZREM', KEYS[2], id)
  if redis.call('EXISTS', key) == 1 then
    local f = redis.call('HMGET', key, 'attempts', 'max_attempts', 'worker')
    local attempts = tonumber(f[1]) or 1
    local max_attempts = tonumber(f[2]) or 0
    if max_attempts <= 0 then max_attempts = default_attempts end
    local why = 'lease expired: worker ' .. (f[3] or '?') .. ' stopped renewing it'
    redis.call('HDEL', key, 'lease', 'worker', 'claimed')
    if attempts >= max_attempts then
      redis.call('HSET', key, 'state', 'dead', 'last_error', why)
      redis.call('ZADD', KEYS[3], now, id)
      died = died + 1
    else
      redis.call('HSET', key, 'state', 'pending', 'due', int(now), 'last_error', why)
      redis.call('ZADD', KEYS[1], now, id)
      requeued = requeued + 1
    end
  end
end
count(KEYS[6], KEYS[7], 'expired', requeued + died, now)
count(KEYS[6], KEYS[7], 'died', died, now)
if requeued > 0 then wake_if_earlier(ARGV[2], before, now) end
local more = 0
if #ids == limit and redis.call('ZCOUNT', KEYS[2], '-inf', now) > 0 then more = 1 end
return {requeued, died, more}
