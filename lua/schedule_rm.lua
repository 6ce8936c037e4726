-- schedule_rm.lua: deletes a schedule of a native queue: its rule, next fire, counters and
-- ranges of fires made.
-- The tasks its fires made stay.
-- KEYS: the nine of every native-queue script (push.lua); the schedule keys are built from
--   KEYS[5] (schedule_key in common.lua).
-- ARGV[1] name
-- ARGV[last] actor: "" (no audit entry), or who deletes it: one audit entry "schedule_rm",
--   detail the name
-- Reply: 1 when it was deleted, 0 when there was no such schedule.
-- Errors: INVALID when ARGV is malformed.
local actor_ok, who = take_actor()
if not actor_ok or #ARGV ~= 1 or ARGV[1] == '' then
  return redis.error_reply('INVALID schedule_rm: a name and the actor')
end
local name = ARGV[1]
if redis.call('HDEL', schedule_key('s'), name) == 0 then return 0 end
redis.call('ZREM', schedule_key('_next'), name)
redis.call('HDEL', schedule_key('_stats'), name .. '|fired', name .. '|skipped', name .. '|last',
  name .. '|overlapped', name .. '|open', name .. '|task', name .. '|forgot')
redis.call('DEL', schedule_made_key(name))
audit(who, 'schedule_rm', 0, {}, name)
return 1
