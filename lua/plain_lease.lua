-- plain_lease.lua: takes up to N due members of a plain sorted-set queue for a delivery
-- target, leasing each in place: its score becomes the lease's end (server now + lease), so
-- a member whose worker dies before the target confirmed it is due again when the lease
-- runs out. No other key is touched: the key is someone else's (in a Cluster it may have
-- no hash tag), so the lease lives in the score itself.
-- KEYS[1] the plain ZSET
-- ARGV[1] max members (1..1000)   ARGV[2] score unit: "ms" | "s"
-- ARGV[3] lease ms (1..86400000)
-- Reply: {server now ms, next due score as text ("" = empty; a leased member counts, due at
--         its lease's end), lease score as text (in the key's unit: ms whole, s with three
--         decimals), {member, old score text, ...}}
-- Errors: INVALID on bad ARGV.
-- Two consumers never get the same member while its lease runs: ZRANGEBYSCORE and the ZADD
-- that moves it past now run in one script. plain_settle.lua ends the lease.
local limit = whole(ARGV[1], 1, 1000)
if limit == nil then
  return redis.error_reply('INVALID plain_lease: max members must be 1..1000')
end
local unit = ARGV[2]
if unit ~= 'ms' and unit ~= 's' then return redis.error_reply('INVALID plain_lease: unit') end
local lease = whole(ARGV[3], 1, 86400000)
if lease == nil then
  return redis.error_reply('INVALID plain_lease: lease must be 1..86400000 ms')
end
local now = now_ms()
local bound, until_score = now, int(now + lease)
if unit == 's' then
  bound = now / 1000
  until_score = string.format('%.3f', (now + lease) / 1000)
end
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', bound, 'WITHSCORES', 'LIMIT', 0, limit)
for i = 1, #due, 2 do
  redis.call('ZADD', KEYS[1], until_score, due[i])
end
local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return {int(now), first[2] or '', until_score, due}
