-- plain_reschedule.lua: moves members of a plain sorted-set queue to a new due time,
-- reporting the ones that are no longer there (ZADD XX alone cannot tell them apart).
-- KEYS[1] the plain ZSET
-- ARGV[1] the new score (text, in the queue's unit), ARGV[2..] the members (at most 1000)
-- Reply: one status per member: done | not_found
-- Errors: INVALID on bad ARGV.
local score = tonumber(ARGV[1])
-- A fraction is fine (a score in s), NaN is not (ZADD would refuse it with an ERR).
if score == nil or score ~= score then return redis.error_reply('INVALID plain_reschedule: score') end
if #ARGV - 1 > 1000 then
  return redis.error_reply('INVALID plain_reschedule: at most 1000 members a call')
end
local reply = {}
for i = 2, #ARGV do
  if redis.call('ZADD', KEYS[1], 'XX', 'CH', ARGV[1], ARGV[i]) == 1
      or redis.call('ZSCORE', KEYS[1], ARGV[i]) then
    reply[#reply + 1] = 'done'
  else
    reply[#reply + 1] = 'not_found'
  end
end
return reply
