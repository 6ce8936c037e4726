-- plain_pop.lua: atomically takes up to N due members from a plain sorted-set queue
-- (member = the message, score = due time), optionally handing each to a Redis list.
-- KEYS[1] the plain ZSET   KEYS[2] (only when forwarding) the LIST each member is LPUSHed to
-- ARGV[1] max members (1..1000)   ARGV[2] score unit: "ms" | "s"   ARGV[3] forward: 0 | 1
-- Reply: {server now ms, next due score as text ("" = empty), {member, score text, ...}}
-- Errors: INVALID on bad ARGV.
-- Two consumers never get the same member: ZRANGEBYSCORE and ZREM run in one script.
local limit = whole(ARGV[1], 1, 1000)
if limit == nil then
  return redis.error_reply('INVALID plain_pop: max members must be 1..1000')
end
if ARGV[3] ~= '0' and ARGV[3] ~= '1' then
  return redis.error_reply('INVALID plain_pop: forward must be 0 or 1')
end
local unit, forward = ARGV[2], ARGV[3] == '1'
if unit ~= 'ms' and unit ~= 's' then return redis.error_reply('INVALID plain_pop: unit') end
if forward and KEYS[2] == nil then return redis.error_reply('INVALID plain_pop: no list key') end
local now = now_ms()
local bound = now
if unit == 's' then bound = now / 1000 end
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', bound, 'WITHSCORES', 'LIMIT', 0, limit)
for i = 1, #due, 2 do
  redis.call('ZREM', KEYS[1], due[i])
  if forward then redis.call('LPUSH', KEYS[2], due[i]) end
end
local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return {int(now), first[2] or '', due}
