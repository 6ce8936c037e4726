-- purge.lua: deletes up to N tasks of a queue (pending, then active, then dead).
-- KEYS (the same nine for every native-queue script, built by Queue::scriptKeys()):
--   [1] pending ZSET  [2] active ZSET  [3] dead ZSET
--   [4] data bucket prefix ("dq:{Q}:d:", bucket number appended: see data_key in common.lua)
--   [5] config HASH   [6] stats HASH   [7] minute counters prefix ("dq:{Q}:m:", minute appended)
--   [8] run HASH (id -> attempts and lease)   [9] errors HASH (id -> last error)
-- ARGV[1] limit (1..1000), ARGV[2] recycle bin action id ("" = none; since layout 2.9: each
--   deleted task is kept in the bin under it, bin_keep in common.lua)
-- ARGV[last] actor: "" (no audit entry), or who purges (take_actor in common.lua): one audit
--   entry "purge" (field bin: the action id) per call that deleted anything
-- Reply: {deleted, remaining tasks in all three sets, {} (no ids: the shape of the scripts by
--   id)}. The caller repeats until 0 remain.
-- Errors: INVALID on bad ARGV.
local actor_ok, who = take_actor()
if not actor_ok then
  return redis.error_reply('INVALID purge: the last ARGV value must be the actor ("" for none)')
end
local limit = whole(ARGV[1], 1, 1000)
if limit == nil then
  return redis.error_reply('INVALID purge: limit must be 1..1000')
end
local action = ARGV[2] or ''
if not bin_action_ok(action) then
  return redis.error_reply('INVALID purge: the bin action id must be 1..64 of letters, digits, ".-_"')
end
local binned = action ~= '' and bin_bounds() ~= nil
local now = now_ms()
local event = history_event(now, 'purged', '', history_who(who), '')
local states = {'pending', 'active', 'dead'}
local deleted, taken = 0, {}
for s = 1, 3 do
  if deleted >= limit then break end
  local ids = redis.call('ZRANGE', KEYS[s], 0, limit - deleted - 1)
  if #ids > 0 then
    if binned then
      local scores, state = redis.call('ZMSCORE', KEYS[s], unpack(ids)), {}
      for i = 1, #ids do state[i] = states[s] end
      bin_keep(action, ids, state, scores, event, now)
    end
    -- The ids are ranks 0..k-1: one ZREMRANGEBYRANK removes them all.
    if s == 3 then dead_left(ids) end
    forget(ids, nil, now)
    for i = 1, math.min(#ids, AUDIT_IDS - #taken) do taken[#taken + 1] = ids[i] end
    redis.call('ZREMRANGEBYRANK', KEYS[s], 0, #ids - 1)
  end
  deleted = deleted + #ids
end
if deleted > 0 then
  bin_note_action(action, 'purge', now, audit(who, 'purge', deleted, taken, '', action))
end
local remaining = redis.call('ZCARD', KEYS[1]) + redis.call('ZCARD', KEYS[2]) + redis.call('ZCARD', KEYS[3])
return {deleted, remaining, {}}
