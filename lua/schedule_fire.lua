-- schedule_fire.lua: makes the tasks of a schedule's due fires and advances it, once: the
-- caller (any worker of the queue) read the schedule and planned its fires from the rule;
-- when the schedule changed or another worker fired it meanwhile, nothing is written.
-- KEYS: the nine of every native-queue script (push.lua); the schedule keys are built from
--   KEYS[5] (schedule_key in common.lua).
-- ARGV[1] name  ARGV[2] version read  ARGV[3] the next fire read (ms): it must still be stored
-- ARGV[4] wake channel ("" = none): published when a task made is due before every pending one
-- ARGV[5] skipped: fires older than the catch-up window, counted and not made
-- ARGV[6] the next fire after these (ms), "" when the rule fires no more
-- ARGV[7] n (0..1000), then n fire times (ms, ascending, from ARGV[3], none after server now)
-- Each fire makes one task "s:NAME:FIRE_MS" due at the fire time plus the rule's jitter for it
--   (fire_jitter in common.lua: 0 without a jitter) with the rule's payload and settings (an id
--   already there is left as it is, and not counted); with the config's history on it starts
--   with a "pushed" event by "schedule NAME". With the overlap policy "skip", a fire is not
--   made while the task of the schedule's previous fire ("NAME|task" in the stats) is pending
--   or active: counted in "NAME|skipped" and "NAME|overlapped". The fires made join the
--   schedule's ranges of fires made (schedule_note_made in common.lua).
-- Reply: {server now ms, tasks made (-1: not written, the schedule changed or was fired, or
--   its rule is gone or garbage: then its next fire is dropped too), fires skipped because
--   the previous one's task was still pending or active}
-- Errors: INVALID when ARGV is malformed or names a fire after server now.
if #ARGV < 7 then return redis.error_reply('INVALID schedule_fire: ARGV') end
local name, version, expected, channel = ARGV[1], whole(ARGV[2], 1, MAX_MS), whole(ARGV[3], -MAX_MS, MAX_MS), ARGV[4]
local skipped, n = whole(ARGV[5], 0, MAX_MS), whole(ARGV[7], 0, 1000)
local next_fire = ARGV[6] == '' and '' or whole(ARGV[6], -MAX_MS, MAX_MS)
if not version or not expected or not skipped or not n or not next_fire or #ARGV ~= 7 + n then
  return redis.error_reply('INVALID schedule_fire: a value is malformed')
end
local now = now_ms()
local fires, last = {}, expected - 1
for i = 1, n do
  local fire = whole(ARGV[7 + i], expected, now)
  if not fire or fire <= last then
    return redis.error_reply('INVALID schedule_fire: the fires must ascend from the next fire ' ..
      'read and none may be after server now')
  end
  fires[i], last = fire, fire
end
if next_fire ~= '' and next_fire <= last then
  return redis.error_reply('INVALID schedule_fire: the next fire must come after the fires')
end
local rules, next_set, stats = schedule_key('s'), schedule_key('_next'), schedule_key('_stats')
local rule = parse_schedule(redis.call('HGET', rules, name))
local stored = tonumber(redis.call('ZSCORE', next_set, name))
if not rule and stored then
  -- No rule (or garbage) under a next fire: the entry would be due for ever.
  redis.call('ZREM', next_set, name)
  return {now, -1}
end
if not rule or rule.version ~= version or stored ~= expected then return {now, -1} end

local _, default_attempts, history = payload_and_attempts()
local record = schedule_task_record(rule, now, default_attempts)
local before = earliest(KEYS[1])
local zadd, ids, first_due = {}, {}, nil
-- Fires skipped for catch-up lie between the range the rule extends and these: a new one.
local open = skipped == 0 and redis.call('HGET', stats, name .. '|open')
local skip_overlap = rule.overlap == 'skip'
local previous = skip_overlap and redis.call('HGET', stats, name .. '|task')
-- A task made in this call is pending (its ZADD comes after the loop).
local overlapped, previous_here = 0, false
for _, fire in ipairs(fires) do
  if previous and (previous_here or redis.call('ZSCORE', KEYS[1], previous) or
      redis.call('ZSCORE', KEYS[2], previous)) then
    overlapped = overlapped + 1
    open = false
  else
    local id = 's:' .. name .. ':' .. int(fire)
    local due = fire + fire_jitter(name, fire, rule.jitter)
    table_for_new_records()
    if redis.call('HSETNX', data_key(id), id, record) == 1 then
      zadd[#zadd + 1] = int(due)
      zadd[#zadd + 1] = id
      ids[#ids + 1] = id
      if not first_due or due < first_due then first_due = due end
    end
    open = schedule_note_made(name, fire, open)
    if skip_overlap then previous, previous_here = id, true end
  end
end
if #ids > 0 then
  schedule_pending(name, zadd, ids, now, channel, before, first_due, history)
end
if next_fire == '' then
  redis.call('ZREM', next_set, name)
else
  redis.call('ZADD', next_set, next_fire, name)
end
if open and next_fire ~= '' then
  redis.call('HSET', stats, name .. '|open', open)
else
  redis.call('HDEL', stats, name .. '|open')
end
if skip_overlap and previous then redis.call('HSET', stats, name .. '|task', previous) end
if #ids > 0 then
  redis.call('HINCRBY', stats, name .. '|fired', #ids)
  grow_table()
end
if skipped + overlapped > 0 then redis.call('HINCRBY', stats, name .. '|skipped', skipped + overlapped) end
if overlapped > 0 then redis.call('HINCRBY', stats, name .. '|overlapped', overlapped) end
if n > 0 then redis.call('HSET', stats, name .. '|last', int(last)) end
return {now, #ids, overlapped}
