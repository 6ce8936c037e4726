-- cancel.lua: deletes pending tasks by id (active ones only when forced).
-- KEYS (the same nine for every native-queue script, built by Queue::scriptKeys()):
--   [1] pending ZSET  [2] active ZSET  [3] dead ZSET
--   [4] data bucket prefix ("dq:{Q}:d:", bucket number appended: see data_key in common.lua)
--   [5] config HASH   [6] stats HASH   [7] minute counters prefix ("dq:{Q}:m:", minute appended)
--   [8] run HASH (id -> attempts and lease)   [9] errors HASH (id -> last error)
-- ARGV[1] force (0 | 1: also delete tasks a worker holds), ARGV[2] recycle bin action id ("" =
--   none; since layout 2.9: each cancelled task is kept in the bin under it, bin_keep in
--   common.lua), then the ids (at most 1000)
-- ARGV[last] actor: "" (no audit entry), or who cancels (take_actor in common.lua): one
--   audit entry "cancel" (detail "force" when forced; field bin: the action id) when any task
--   was deleted
-- A cancelled task's history (if any) is kept among the finished ones with a "cancelled" event
--   (who: the actor; history_drop in common.lua).
-- Reply: {done, 0 (remaining: none, a call by ids), {one status per id: done | not_found |
--   active (refused: a worker holds it) | dead}}
-- A forced cancel's freed slot of a full concurrency cap is published on the wake channel (flow_freed in
--   common.lua, since layout 2.8).
-- Errors: INVALID on bad ARGV.
local actor_ok, who = take_actor()
if not actor_ok then
  return redis.error_reply('INVALID cancel: the last ARGV value must be the actor ("" for none)')
end
if ARGV[1] ~= '0' and ARGV[1] ~= '1' then
  return redis.error_reply('INVALID cancel: force must be 0 or 1')
end
local force = ARGV[1] == '1'
local action = ARGV[2] or ''
if not bin_action_ok(action) then
  return redis.error_reply('INVALID cancel: the bin action id must be 1..64 of letters, digits, ".-_"')
end
if #ARGV - 2 > 1000 then return redis.error_reply('INVALID cancel: at most 1000 ids a call') end
local now = now_ms()
-- Their scores before they go, for the bin (one read a set and call, only with a bin).
local pending_at, active_at = {}, {}
if action ~= '' and #ARGV > 2 and bin_bounds() then
  pending_at = redis.call('ZMSCORE', KEYS[1], unpack(ARGV, 3))
  if force then active_at = redis.call('ZMSCORE', KEYS[2], unpack(ARGV, 3)) end
end
local event = history_event(now, 'cancelled', '', history_who(who), force and 'forced' or '')
-- The removed ids are forgotten together after the loop: forget() makes about six calls
-- however many ids it gets, and a cancel of 500 ids one by one took 5 ms on a 1,000,000-task
-- queue.
local removed, states, scores = {}, {}, {}
local position = 2
local function remove(id)
  position = position + 1
  local k = position - 2
  if redis.call('ZREM', KEYS[1], id) == 1 then
    states[#removed + 1], scores[#removed + 1] = 'pending', pending_at[k]
  elseif force and redis.call('ZREM', KEYS[2], id) == 1 then
    states[#removed + 1], scores[#removed + 1] = 'active', active_at[k]
  else
    return false
  end
  removed[#removed + 1] = id
  return true
end
local cancelled, statuses, taken = each_id(3, remove, {{KEYS[2], 'active'}, {KEYS[3], 'dead'}})
bin_keep(action, removed, states, scores, event, now)
forget(removed, function() return event end, now)
if cancelled > 0 then
  count(KEYS[6], KEYS[7], 'cancelled', cancelled, now)
  bin_note_action(action, 'cancel', now,
    audit(who, 'cancel', cancelled, taken, force and 'force' or '', action))
  if force then flow_freed(now) end
end
return {cancelled, 0, statuses}
