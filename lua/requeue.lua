-- requeue.lua: gives dead tasks a new life: pending, due now, attempts reset to 0.
-- KEYS (the same nine for every native-queue script, built by Queue::scriptKeys()):
--   [1] pending ZSET  [2] active ZSET  [3] dead ZSET
--   [4] data bucket prefix ("dq:{Q}:d:", bucket number appended: see data_key in common.lua)
--   [5] config HASH   [6] stats HASH   [7] minute counters prefix ("dq:{Q}:m:", minute appended)
--   [8] run HASH (id -> attempts and lease)   [9] errors HASH (id -> last error)
-- ARGV[1] mode ("ids" | "all")  ARGV[2] limit for "all" (1..1000)  ARGV[3] wake channel
-- ARGV[4..] the ids for "ids" (at most 1000)
-- ARGV[last] actor: "" (no audit entry), or who requeues (take_actor in common.lua): one
--   audit entry "requeue" (detail "all" in that mode) when any task came back
-- With the config's history on, each task brought back gets a "requeued" event (who: the
--   actor; history_note in common.lua).
-- Since layout 2.9 a requeued task leaves dead through dead_left() and never expires: its
--   start-by time (expires_key in common.lua) becomes 0 when the queue has any expiry.
-- Reply: {done, remaining (mode "all": the tasks left in dead; "ids": 0), {one status per
--   given id: done | not_found | pending | active; none in mode "all"}}
-- Errors: INVALID on bad ARGV.
local actor_ok, who = take_actor()
if not actor_ok then
  return redis.error_reply('INVALID requeue: the last ARGV value must be the actor ("" for none)')
end
local mode, limit = ARGV[1], whole(ARGV[2], 1, 1000)
if limit == nil or (mode ~= 'ids' and mode ~= 'all') or #ARGV < 3 then
  return redis.error_reply('INVALID requeue: mode and limit')
end
if #ARGV - 3 > 1000 then return redis.error_reply('INVALID requeue: at most 1000 ids a call') end
local now = now_ms()
local before = earliest(KEYS[1])
local revived = {}
local function revive(id)
  if not redis.call('ZSCORE', KEYS[3], id) then return false end
  revived[#revived + 1] = id
  dead_left({id})
  redis.call('ZREM', KEYS[3], id)
  -- Attempts start again from 0 (no run entry); the last error stays for the operator. A
  -- broken entry (no record) stays broken: claim sends it back to dead with the reason.
  redis.call('HDEL', KEYS[8], id)
  redis.call('ZADD', KEYS[1], now, id)
  return true
end
local done, statuses, taken = each_dead(mode, limit, 4, revive)
if done > 0 then
  local scored = {}
  for _, id in ipairs(revived) do scored[#scored + 1] = now; scored[#scored + 1] = id end
  fair_index(scored, now)
  -- An operator's requeue means "run it": a requeued task never expires (its own start-by
  -- becomes 0, which also overrides the queue's max_age). Nothing when the queue has no expiry.
  local expiry = redis.call('HMGET', KEYS[5], 'expiry', 'max_age')
  if expiry[1] == '1' or whole(expiry[2] or '', 1, MAX_MS) then
    local writes = {}
    for _, id in ipairs(revived) do writes[#writes + 1] = id; writes[#writes + 1] = '0' end
    redis.call('HSET', expires_key(), unpack(writes))
    redis.call('HSET', KEYS[5], 'expiry', '1')
  end
  local event = history_event(now, 'requeued', int(now), history_who(who), '')
  history_note(history_limit(redis.call('HGET', KEYS[5], 'history')), revived,
    function() return event end)
  wake_if_earlier(ARGV[3], before, now)
  audit(who, 'requeue', done, taken, mode == 'all' and 'all' or '')
end
-- A call by ids leaves nothing for a repeat of it to find: remaining is 0 there.
return {done, mode == 'all' and redis.call('ZCARD', KEYS[3]) or 0, statuses}
