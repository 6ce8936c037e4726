-- config.lua: sets one queue setting, with its audit entry in the same call.
-- KEYS (the same nine for every native-queue script, built by Queue::scriptKeys()):
--   [1] pending ZSET  [2] active ZSET  [3] dead ZSET
--   [4] data bucket prefix ("dq:{Q}:d:", bucket number appended: see data_key in common.lua)
--   [5] config HASH   [6] stats HASH   [7] minute counters prefix ("dq:{Q}:m:", minute appended)
--   [8] run HASH (id -> attempts and lease)   [9] errors HASH (id -> last error)
-- ARGV[1] field: max_attempts | backoff | lease_ms (ms) | max_payload (bytes) | paused (0 | 1)
--   | audit_len (entries)
-- ARGV[2] value, as Queue::setConfig stores it (numbers whole; backoff in its ms form)
-- ARGV[last] actor: "" (no audit entry), or who changes it (take_actor in common.lua): one
--   audit entry, "pause" or "resume" for paused, else "config" with detail "FIELD=VALUE",
--   written only when the value changed
-- A change of paused to 0 (resume) publishes the earliest pending due ms on the queue's wake
--   channel (dq:{Q}:wake, built from KEYS[5] as audit() builds the stream), when a task is
--   pending: consumers of a paused queue wait for it rather than poll.
-- Reply: 1 when the value changed, 0 when it already was that value.
-- Errors: INVALID on bad ARGV.
local actor_ok, who = take_actor()
if not actor_ok then
  return redis.error_reply('INVALID config: the last ARGV value must be the actor ("" for none)')
end
local field, value = ARGV[1], ARGV[2]
if #ARGV ~= 2 then return redis.error_reply('INVALID config: field and value') end
-- The same bounds as Queue::setConfig: the core refuses first, with the friendlier message.
local ranges = {max_attempts = {1, 1000000}, lease_ms = {100, 604800000},
  max_payload = {1, 536870912}, audit_len = {1, 1000000}, paused = {0, 1}}
if ranges[field] then
  if whole(value, ranges[field][1], ranges[field][2]) == nil or value ~= int(tonumber(value)) then
    return redis.error_reply('INVALID config: ' .. field .. ' out of range')
  end
elseif field ~= 'backoff' or value == '' or #value > 4096 then
  return redis.error_reply('INVALID config: unknown field or empty backoff')
end
if redis.call('HGET', KEYS[5], field) == value then return 0 end
redis.call('HSET', KEYS[5], field, value)
if field == 'paused' then
  audit(who, value == '1' and 'pause' or 'resume', 0, {}, '')
  local first = value == '0' and earliest(KEYS[1])
  if first then redis.call('PUBLISH', string.sub(KEYS[5], 1, -7) .. 'wake', int(first)) end
else
  audit(who, 'config', 0, {}, field .. '=' .. value)
end
return 1
