-- nack.lua: a task failed; it is retried after its backoff, or dies when attempts are spent.
-- KEYS (the same seven for every native-queue script, built by Queue::scriptKeys()):
--   [1] pending ZSET  [2] active ZSET  [3] dead ZSET  [4] task key prefix ("dq:{Q}:t:", id appended)
--   [5] config HASH   [6] stats HASH   [7] minute counters prefix ("dq:{Q}:m:", minute appended)
-- ARGV[1] id  ARGV[2] lease token  ARGV[3] error text (kept, cut to 4096 bytes)
-- ARGV[4] retry delay ms (-1 = the task's backoff, else the queue's)  ARGV[5] wake channel
-- Reply: {"retry", due ms} or {"dead", time died ms}
-- Errors: LEASE_LOST when the token is not the task's current lease; INVALID on bad ARGV.
if #ARGV ~= 5 then return redis.error_reply('INVALID nack: ARGV is id, token, error, delay, channel') end
local id, token, err = ARGV[1], ARGV[2], string.sub(ARGV[3], 1, 4096)
local override = whole(ARGV[4], -1, MAX_MS)
if override == nil then return redis.error_reply('INVALID nack: retry delay ms') end
local key = KEYS[4] .. id
if redis.call('HGET', key, 'lease') ~= token or not redis.call('ZSCORE', KEYS[2], id) then
  return redis.error_reply('LEASE_LOST task ' .. id .. ' is no longer leased to this worker')
end
local now = now_ms()
local f = redis.call('HMGET', key, 'attempts', 'max_attempts', 'backoff')
local attempts = tonumber(f[1]) or 1
local max_attempts = tonumber(f[2]) or 0
if max_attempts <= 0 then max_attempts = config_number(KEYS[5], 'max_attempts', 5) end
redis.call('ZREM', KEYS[2], id)
redis.call('HDEL', key, 'lease', 'worker', 'claimed')
if attempts >= max_attempts then
  redis.call('HSET', key, 'state', 'dead', 'last_error', err)
  redis.call('ZADD', KEYS[3], now, id)
  count(KEYS[6], KEYS[7], 'died', 1, now)
  return {'dead', int(now)}
end
local delay = override
if delay < 0 then
  local spec = f[3]
  if not spec or spec == '' then spec = config_backoff(KEYS[5]) end
  delay = backoff_delay(spec, attempts)
end
local due = now + delay
local before = earliest(KEYS[1])
redis.call('HSET', key, 'state', 'pending', 'due', int(due), 'last_error', err)
redis.call('ZADD', KEYS[1], due, id)
count(KEYS[6], KEYS[7], 'retried', 1, now)
wake_if_earlier(ARGV[5], before, due)
return {'retry', int(due)}
