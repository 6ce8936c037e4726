-- config.lua: sets queue settings, with their audit entry in the same call.
-- KEYS (the same nine for every native-queue script, built by Queue::scriptKeys()):
--   [1] pending ZSET  [2] active ZSET  [3] dead ZSET
--   [4] data bucket prefix ("dq:{Q}:d:", bucket number appended: see data_key in common.lua)
--   [5] config HASH   [6] stats HASH   [7] minute counters prefix ("dq:{Q}:m:", minute appended)
--   [8] run HASH (id -> attempts and lease)   [9] errors HASH (id -> last error)
-- ARGV: one or more pairs, each a field and its value, then the actor:
--   field: max_attempts | backoff | lease_ms (ms) | max_payload (bytes) | paused (0 | 1)
--     | audit_len (entries) | history (events kept a task, 0 = off)
--     | rate ("N/MS": N tasks started per MS ms, "0" = none) | burst (tasks, 0 = N)
--     | cap (tasks active at once, 0 = none) | order ("due" | "fair": fair_index in common.lua)
--     | group_cap (tasks of one group active at once, 0 = none) | group_rate ("N/MS" per group,
--     burst N; "0" = none) (the last six since layout 2.8) | dedup_window (ms a finished id
--     stays refused, 0 = off) | dedup_max (ids remembered at most) | bin_keep (ms a removed task
--     stays restorable) | bin_max (tasks) | bin_bytes (bytes); any bin bound 0 turns the recycle
--     bin off and empties it (since 2.9); each at most once
--   | dead_max (dead tasks kept, 0 = no bound) | dead_max_bytes (their bytes, 0 = none)
--     | dead_shards (the shard count the two are divided by: dead_trim in common.lua)
--     | max_age (ms a task may wait to start, 0 = none) | expired_to ("dead" | "drop") (the
--     last five since 2.9)
--   value: as Queue::setConfig stores it (numbers whole; backoff in its ms form)
-- ARGV[last] actor: "" (no audit entry), or who changes it (take_actor in common.lua). Only
--   fields whose value changed are written, and they are audited together: one "config" entry
--   whose detail names each, "FIELD=VALUE FIELD=VALUE"; paused gets its own "pause" or "resume".
-- A change of paused to 0 (resume) publishes the earliest pending due ms on the queue's wake
--   channel (dq:{Q}:wake, built from KEYS[5] as audit() builds the stream), when a task is
--   pending: consumers of a paused queue wait for it rather than poll.
-- A change of history to 0 (off) deletes every task history of the queue, kept and finished
--   (UNLINK: Redis frees them in the background).
-- A change of order to "fair" indexes the pending tasks (at most FAIR_INDEX_AT_ONCE of them);
--   back to "due" drops the index (the tasks keep their priority and group, fl:tags).
-- Reply: how many fields changed (0 when each already had its value).
-- Errors: INVALID on bad ARGV; FAIR when more tasks are pending than an order change indexes
--   at once; then nothing is written.
local actor_ok, who = take_actor()
if not actor_ok then
  return redis.error_reply('INVALID config: the last ARGV value must be the actor ("" for none)')
end
if #ARGV == 0 or #ARGV % 2 ~= 0 then
  return redis.error_reply('INVALID config: pairs of field and value')
end
-- The same bounds as Queue::setConfig: the core refuses first, with the friendlier message.
local ranges = {max_attempts = {1, 1000000}, lease_ms = {100, 604800000},
  max_payload = {1, 536870912}, audit_len = {1, 1000000}, paused = {0, 1}, history = {0, 100},
  burst = {0, 1000000}, cap = {0, 1000000}, group_cap = {0, 1000000},
  dedup_window = {0, 31622400000}, dedup_max = {1, 100000000},
  bin_keep = {0, 2592000000}, bin_max = {0, 10000000}, bin_bytes = {0, 4294967296},
  dead_max = {0, 1000000000}, dead_max_bytes = {0, 1099511627776}, dead_shards = {1, 1000},
  max_age = {0, 315360000000}}
local FAIR_INDEX_AT_ONCE = 100000
local seen = {}
for i = 1, #ARGV, 2 do
  local field, value = ARGV[i], ARGV[i + 1]
  if ranges[field] then
    if whole(value, ranges[field][1], ranges[field][2]) == nil or value ~= int(tonumber(value)) then
      return redis.error_reply('INVALID config: ' .. field .. ' out of range')
    end
  elseif field == 'order' then
    if value ~= 'due' and value ~= 'fair' then
      return redis.error_reply('INVALID config: order must be due or fair')
    end
    local pending = redis.call('ZCARD', KEYS[1])
    if value == 'fair' and pending > FAIR_INDEX_AT_ONCE and not fair_on() then
      return redis.error_reply('FAIR the queue has ' .. pending .. ' pending tasks: fair order ' ..
        'indexes them when it is turned on, at most ' .. FAIR_INDEX_AT_ONCE .. ' at once')
    end
  elseif field == 'expired_to' then
    if value ~= 'dead' and value ~= 'drop' then
      return redis.error_reply('INVALID config: expired_to must be dead or drop')
    end
  elseif field == 'rate' or field == 'group_rate' then
    local n, per = string.match(value, '^(%d+)/(%d+)$')
    if value ~= '0' and not (n and whole(n, 1, 1000000) and whole(per, 1, 86400000)) then
      return redis.error_reply('INVALID config: ' .. field .. ' must be "0" or N/MS')
    end
  elseif field ~= 'backoff' or value == '' or #value > 4096 then
    return redis.error_reply('INVALID config: unknown field or empty backoff')
  end
  if seen[field] then return redis.error_reply('INVALID config: ' .. field .. ' given twice') end
  seen[field] = true
end
-- Fair order turned on: every pending task joins the index; off: the index goes.
local function set_order(value)
  if value == 'fair' then
    local scored = {}
    local all = redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')
    for i = 1, #all, 2 do scored[#scored + 1] = all[i + 1]; scored[#scored + 1] = all[i] end
    for i = 1, #scored, 2000 do
      fair_index({unpack(scored, i, math.min(i + 1999, #scored))}, now_ms())
    end
    return
  end
  local doomed = {fair_key('ring'), fair_key('wait'), fair_key('blocked'), fair_key('known'),
    fair_key('later')}
  for _, group in ipairs(redis.call('SMEMBERS', fair_key('known'))) do
    doomed[#doomed + 1] = fair_key('r:' .. group)
    doomed[#doomed + 1] = fair_key('act:' .. group)
    doomed[#doomed + 1] = fair_key('b:' .. group)
  end
  for i = 1, #doomed, 1000 do
    redis.call('UNLINK', unpack(doomed, i, math.min(i + 999, #doomed)))
  end
end
local changed, details = 0, {}
for i = 1, #ARGV, 2 do
  local field, value = ARGV[i], ARGV[i + 1]
  if redis.call('HGET', KEYS[5], field) ~= value then
    redis.call('HSET', KEYS[5], field, value)
    changed = changed + 1
    if field == 'paused' then
      audit(who, value == '1' and 'pause' or 'resume', 0, {}, '')
      local first = value == '0' and earliest(KEYS[1])
      if first then redis.call('PUBLISH', string.sub(KEYS[5], 1, -7) .. 'wake', int(first)) end
    else
      details[#details + 1] = field .. '=' .. value
      if field == 'order' then set_order(value) end
      if field == 'group_cap' and value == '0' then
        -- No cap, no slots: the running tasks' entries go (fair_stopped no longer frees them).
        for _, group in ipairs(redis.call('SMEMBERS', fair_key('known'))) do
          redis.call('UNLINK', fair_key('act:' .. group))
        end
        -- and the groups that waited at their cap take their turns again.
        for _, group in ipairs(redis.call('SMEMBERS', fair_key('blocked'))) do
          redis.call('ZADD', fair_key('ring'), 'NX', fair_turn(), group)
        end
        redis.call('DEL', fair_key('blocked'))
      elseif field == 'group_cap' then
        -- A cap raised: a group waiting at the old one with fewer tasks running than the new
        -- one takes its turn at once, not only when one of its tasks ends (the model check
        -- found a group held at 1 after the cap went to 2).
        local cap, freed = tonumber(value), false
        for _, group in ipairs(redis.call('SMEMBERS', fair_key('blocked'))) do
          if redis.call('ZCARD', fair_key('act:' .. group)) < cap then
            redis.call('SREM', fair_key('blocked'), group)
            if redis.call('ZCARD', fair_key('r:' .. group)) > 0 then
              redis.call('ZADD', fair_key('ring'), 'NX', fair_turn(), group)
              freed = true
            end
          end
        end
        -- Workers sleeping on the cap are woken, as fair_release wakes them.
        if freed then redis.call('PUBLISH', string.sub(KEYS[5], 1, -7) .. 'wake', int(now_ms())) end
      end
      if (field == 'bin_keep' or field == 'bin_max' or field == 'bin_bytes') and value == '0' then
        -- The recycle bin turned off: what it held goes (bin_keep in common.lua).
        local doomed = {bin_key(''), bin_key('_at'), bin_key('_actions'), bin_key('_bytes')}
        for _, action in ipairs(redis.call('HKEYS', bin_key('_actions'))) do
          doomed[#doomed + 1] = bin_key(':a:' .. action)
        end
        for i = 1, #doomed, 1000 do
          redis.call('UNLINK', unpack(doomed, i, math.min(i + 999, #doomed)))
        end
      end
      if field == 'history' and value == '0' then
        redis.call('UNLINK', history_key(''), history_key('_done'), history_key('_done_at'))
      end
    end
  end
end
if #details > 0 then audit(who, 'config', 0, {}, table.concat(details, ' ')) end
-- A lowered dead bound holds from now: the oldest go at once (at most DEAD_DROP_AT_ONCE; the
-- next deaths drop the rest), with their own audit entry.
if seen.dead_max or seen.dead_max_bytes or seen.dead_shards then dead_trim(now_ms()) end
return changed
