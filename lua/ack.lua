-- ack.lua: a worker finished tasks; each is deleted if its lease is still the worker's.
-- KEYS (the same seven for every native-queue script, built by Queue::scriptKeys()):
--   [1] pending ZSET  [2] active ZSET  [3] dead ZSET  [4] task key prefix ("dq:{Q}:t:", id appended)
--   [5] config HASH   [6] stats HASH   [7] minute counters prefix ("dq:{Q}:m:", minute appended)
-- ARGV[1] n (0..1000), then n pairs: id, lease token
-- Reply: n integers, 1 = acked, 0 = lease lost (another worker holds it, or it is gone)
-- Errors: INVALID when ARGV is malformed.
local n = whole(ARGV[1], 0, 1000)
if n == nil or #ARGV ~= 1 + 2 * n then
  return redis.error_reply('INVALID ack: ARGV does not hold n id/token pairs')
end
local reply = {}
local acked = 0
local keys, ids, seen = {}, {}, {}
for i = 0, n - 1 do
  local id, token = ARGV[2 + 2 * i], ARGV[3 + 2 * i]
  local key = KEYS[4] .. id
  -- Every way out of active (nack, reap, forced cancel) removes the lease field, so a
  -- matching token means the task is still this worker's.
  if not seen[id] and redis.call('HGET', key, 'lease') == token then
    seen[id] = true
    keys[#keys + 1] = key
    ids[#ids + 1] = id
    acked = acked + 1
    reply[#reply + 1] = 1
  else
    reply[#reply + 1] = 0
  end
end
if acked > 0 then
  redis.call('DEL', unpack(keys))
  redis.call('ZREM', KEYS[2], unpack(ids))
end
if acked > 0 then count(KEYS[6], KEYS[7], 'acked', acked, now_ms()) end
return reply
