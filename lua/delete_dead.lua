-- delete_dead.lua: deletes dead tasks for good.
-- KEYS (the same nine for every native-queue script, built by Queue::scriptKeys()):
--   [1] pending ZSET  [2] active ZSET  [3] dead ZSET
--   [4] data bucket prefix ("dq:{Q}:d:", bucket number appended: see data_key in common.lua)
--   [5] config HASH   [6] stats HASH   [7] minute counters prefix ("dq:{Q}:m:", minute appended)
--   [8] run HASH (id -> attempts and lease)   [9] errors HASH (id -> last error)
-- ARGV[1] mode ("ids" | "all")  ARGV[2] limit for "all" (1..1000)  ARGV[3] recycle bin action
--   id ("" = none; since layout 2.9: each deleted task is kept in the bin under it, bin_keep in
--   common.lua), then the ids for "ids"
-- ARGV[last] actor: "" (no audit entry), or who deletes (take_actor in common.lua): one
--   audit entry "delete" (detail "all" in that mode; field bin: the action id) when any task
--   was deleted
-- Reply: {done, remaining (mode "all": the tasks left in dead; "ids": 0), {one status per
--   given id: done | not_found | pending | active; none in mode "all"}}
-- Errors: INVALID on bad ARGV.
local actor_ok, who = take_actor()
if not actor_ok then
  return redis.error_reply('INVALID delete_dead: the last ARGV value must be the actor ("" for none)')
end
local mode, limit = ARGV[1], whole(ARGV[2], 1, 1000)
if limit == nil or (mode ~= 'ids' and mode ~= 'all') then
  return redis.error_reply('INVALID delete_dead: mode and limit')
end
local action = ARGV[3] or ''
if not bin_action_ok(action) then
  return redis.error_reply('INVALID delete_dead: the bin action id must be 1..64 of letters, digits, ".-_"')
end
if #ARGV - 3 > 1000 then return redis.error_reply('INVALID delete_dead: at most 1000 ids a call') end
local binned = action ~= '' and bin_bounds() ~= nil
local now = now_ms()
-- Forgotten together after the loop, as cancel does: forget() costs about six calls a batch.
-- With a bin, each one's time of death is read before it goes.
local removed, states, scores = {}, {}, {}
local function remove(id)
  local died = binned and redis.call('ZSCORE', KEYS[3], id)
  if redis.call('ZREM', KEYS[3], id) == 0 then return false end
  removed[#removed + 1] = id
  states[#removed], scores[#removed] = 'dead', died
  return true
end
local done, statuses, taken = each_dead(mode, limit, 4, remove)
if binned then
  bin_keep(action, removed, states, scores,
    history_event(now, 'deleted', '', history_who(who), ''), now)
end
dead_left(removed)
forget(removed, nil, now)
if done > 0 then
  bin_note_action(action, 'delete', now,
    audit(who, 'delete', done, taken, mode == 'all' and 'all' or '', action))
end
-- A call by ids leaves nothing for a repeat of it to find: remaining is 0 there.
return {done, mode == 'all' and redis.call('ZCARD', KEYS[3]) or 0, statuses}
