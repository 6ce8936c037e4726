-- extend.lua: renews a lease, so a long task is not handed to another worker.
-- KEYS (the same nine for every native-queue script, built by Queue::scriptKeys()):
--   [1] pending ZSET  [2] active ZSET  [3] dead ZSET
--   [4] data bucket prefix ("dq:{Q}:d:", bucket number appended: see data_key in common.lua)
--   [5] config HASH   [6] stats HASH   [7] minute counters prefix ("dq:{Q}:m:", minute appended)
--   [8] run HASH (id -> attempts and lease)   [9] errors HASH (id -> last error)
-- ARGV[1] id  ARGV[2] lease token  ARGV[3] lease ms from now (0 = the queue's lease_ms)
-- Reply: the new lease deadline, ms
-- Since layout 2.8 a task of a capped group's slot (fl:act:GROUP) is renewed with its lease.
-- Errors: LEASE_LOST when the token is not the task's current lease, or when its deadline has
--   passed (deadline <= server now, as reap counts it): the next reap may hand the task to
--   another worker, so a lease that ran out is never renewed; nothing changes. INVALID on bad
--   ARGV.
local id, token = ARGV[1], ARGV[2]
local lease = whole(ARGV[3], 0, MAX_MS)
if lease == nil then return redis.error_reply('INVALID extend: lease ms') end
local _, _, held = parse_run(redis.call('HGET', KEYS[8], id))
local current = redis.call('ZSCORE', KEYS[2], id)
if held == '' or held ~= token or not current then
  return redis.error_reply('LEASE_LOST task ' .. id .. ' is no longer leased to this worker')
end
local now = now_ms()
if tonumber(current) <= now then
  return redis.error_reply('LEASE_LOST task ' .. id .. ': its lease ran out at ' .. current ..
    ' ms (server time ' .. int(now) .. '); a reap may hand it to another worker')
end
if lease == 0 then lease = config_number(KEYS[5], 'lease_ms', 30000) end
local deadline = now + lease
redis.call('ZADD', KEYS[2], deadline, id)
-- A task of a group under a cap holds its group's slot as long as its lease (fair_take in
-- claim.lua): renewed with it, or another task of the group would start beside it.
local tag = redis.call('HGET', fair_key('tags'), id)
if tag then
  local _, group = fair_tag(tag)
  if group ~= '' then redis.call('ZADD', fair_key('act:' .. group), 'XX', deadline, id) end
end
return deadline
