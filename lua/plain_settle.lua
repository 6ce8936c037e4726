-- plain_settle.lua: ends leases plain_lease.lua gave, once the delivery target answered:
-- removes a member it confirmed, or moves a member back to a due time (a failure's retry, an
-- unrun member's old due time). Compare and set: only a member whose score is still its
-- lease score is touched; one rescheduled meanwhile (a producer's ZADD, `delayq reschedule`),
-- taken again after its lease ran out (its score is a later lease), or removed is left alone.
-- KEYS[1] the plain ZSET
-- ARGV[1] n (0..1000), then per member three values: the member, its lease score (text, as
--         plain_lease replied it), and the new score (text, in the key's unit; "" = remove)
-- Reply: one integer per member: 1 settled, 0 left alone (not at its lease score any more)
-- Errors: INVALID on bad ARGV (a wrong count, a lease or new score that is not a number).
local n = whole(ARGV[1], 0, 1000)
if n == nil then return redis.error_reply('INVALID plain_settle: n must be 0..1000') end
if #ARGV ~= 1 + 3 * n then
  return redis.error_reply('INVALID plain_settle: ARGV must be n, then n triples')
end
-- Every value is checked before the first write: an error changes nothing.
for i = 0, n - 1 do
  local lease, score = tonumber(ARGV[3 + 3 * i]), ARGV[4 + 3 * i]
  if lease == nil or lease ~= lease then
    return redis.error_reply('INVALID plain_settle: lease score')
  end
  if score ~= '' and (tonumber(score) == nil or tonumber(score) ~= tonumber(score)) then
    return redis.error_reply('INVALID plain_settle: new score')
  end
end
local reply = {}
for i = 0, n - 1 do
  local member, lease, score = ARGV[2 + 3 * i], tonumber(ARGV[3 + 3 * i]), ARGV[4 + 3 * i]
  -- As numbers: Redis may print the score it holds in another form than plain_lease wrote.
  local held = tonumber(redis.call('ZSCORE', KEYS[1], member))
  if held ~= nil and held == lease then
    if score == '' then
      redis.call('ZREM', KEYS[1], member)
    else
      redis.call('ZADD', KEYS[1], score, member)
    end
    reply[#reply + 1] = 1
  else
    reply[#reply + 1] = 0
  end
end
return reply
