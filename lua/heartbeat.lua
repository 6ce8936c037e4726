-- heartbeat.lua: a worker says it is alive in its queue's worker registry, or leaves it.
-- KEYS [1] workers ZSET (worker name -> live until, ms on the server clock)
--      [2] worker records HASH (worker name -> "last_seen|" .. the record below)
-- ARGV [1] "beat" or "leave"  [2] the worker's name (1..200 bytes)
--   beat only: [3] live for, ms (1..3600000: without another beat within it, the worker is
--   gone)  [4] keep a gone worker listed for, ms (1..86400000)  [5] its record, at most 1024
--   bytes: "started|interval_ms|pid|threads|held|acked|failed|last_ack|lateness_p99_ms|version|
--   handler|host"
--   (docs/protocol.md, "Workers"); stored after the server's now as last_seen
-- Reply: {server now ms, gone workers removed}
-- Errors: INVALID on bad ARGV; nothing changes.
-- Bounded: a call removes at most 10 workers gone longer than ARGV[4] and keeps at most 1000
--   workers listed (the longest gone go first), so dead workers never pile up; no SCAN.
local mode, name = ARGV[1], ARGV[2]
if (mode ~= 'beat' and mode ~= 'leave') or name == nil or #name < 1 or #name > 200 then
  return redis.error_reply('INVALID heartbeat: "beat" or "leave", then a worker name of 1..200 bytes')
end
local now = now_ms()
if mode == 'leave' then
  if #ARGV ~= 2 then return redis.error_reply('INVALID heartbeat: leave takes a name only') end
  redis.call('ZREM', KEYS[1], name)
  redis.call('HDEL', KEYS[2], name)
  return {now, 0}
end
local live_for = whole(ARGV[3], 1, 3600000)
local keep_for = whole(ARGV[4], 1, 86400000)
local record = ARGV[5]
if live_for == nil or keep_for == nil or record == nil or #ARGV ~= 5 or #record > 1024 then
  return redis.error_reply('INVALID heartbeat: beat takes live ms (1..3600000), keep ms ' ..
    '(1..86400000) and a record of at most 1024 bytes')
end
redis.call('ZADD', KEYS[1], now + live_for, name)
redis.call('HSET', KEYS[2], name, int(now) .. '|' .. record)
local removed = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now - keep_for, 'LIMIT', 0, 10)
local over = redis.call('ZCARD', KEYS[1]) - #removed - 1000
if over > 0 then
  for _, extra in ipairs(redis.call('ZRANGE', KEYS[1], #removed, #removed + math.min(over, 10) - 1)) do
    removed[#removed + 1] = extra
  end
end
for _, gone in ipairs(removed) do
  redis.call('ZREM', KEYS[1], gone)
  redis.call('HDEL', KEYS[2], gone)
end
return {now, #removed}
