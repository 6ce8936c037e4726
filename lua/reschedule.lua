-- reschedule.lua: moves pending tasks to a new due time ("run now" is a delay of 0).
-- KEYS (the same nine for every native-queue script, built by Queue::scriptKeys()):
--   [1] pending ZSET  [2] active ZSET  [3] dead ZSET
--   [4] data bucket prefix ("dq:{Q}:d:", bucket number appended: see data_key in common.lua)
--   [5] config HASH   [6] stats HASH   [7] minute counters prefix ("dq:{Q}:m:", minute appended)
--   [8] run HASH (id -> attempts and lease)   [9] errors HASH (id -> last error)
-- ARGV[1] due kind ("at" | "in")  ARGV[2] due value (ms: epoch time or delay from server now)
-- ARGV[3] wake channel, then the ids (at most 1000)
-- ARGV[last] actor: "" (no audit entry), or who reschedules (take_actor in common.lua): one
--   audit entry "reschedule" (detail "due=MS") when any task moved
-- With the config's history on, each task moved gets a "rescheduled" event (due: the new due
--   time, who: the actor; history_note in common.lua).
-- Reply: {done, 0 (remaining: none, a call by ids), {one status per id: done | not_found |
--   active | dead}}
-- Errors: INVALID on bad ARGV.
local actor_ok, who = take_actor()
if not actor_ok then
  return redis.error_reply('INVALID reschedule: the last ARGV value must be the actor ("" for none)')
end
local kind, value = ARGV[1], whole(ARGV[2], -MAX_MS, MAX_MS)
if value == nil or (kind ~= 'at' and kind ~= 'in') or #ARGV < 3 then
  return redis.error_reply('INVALID reschedule: due kind and value')
end
if #ARGV - 3 > 1000 then return redis.error_reply('INVALID reschedule: at most 1000 ids a call') end
local now = now_ms()
local due = value
if kind == 'in' then due = now + value end
local before = earliest(KEYS[1])
local taken_all = {}
local function move(id)
  if not redis.call('ZSCORE', KEYS[1], id) then return false end
  taken_all[#taken_all + 1] = id
  -- A pending task's due time is its score: nothing else to change.
  redis.call('ZADD', KEYS[1], 'XX', due, id)
  return true
end
local moved, statuses, taken = each_id(4, move, {{KEYS[2], 'active'}, {KEYS[3], 'dead'}})
if moved > 0 then
  local scored = {}
  for _, id in ipairs(taken_all) do scored[#scored + 1] = due; scored[#scored + 1] = id end
  fair_index(scored, now)
  local event = history_event(now, 'rescheduled', int(due), history_who(who), '')
  history_note(history_limit(redis.call('HGET', KEYS[5], 'history')), taken_all,
    function() return event end)
  wake_if_earlier(ARGV[3], before, due)
  audit(who, 'reschedule', moved, taken, 'due=' .. int(due))
end
return {moved, 0, statuses}
