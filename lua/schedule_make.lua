-- schedule_make.lua: makes fires of a schedule outside its rule's turn, for an operator; the
-- rule and its next fire stay as they are (since 2.8).
--   "now" (run now): one task "s:NAME:run:REQUEST" due at server now; the request id makes a
--   repeated request harmless (the id is there already: nothing is made).
--   "backfill": the given past fires of the rule, each "s:NAME:FIRE_MS" due at the fire time
--   plus its jitter (fire_jitter in common.lua), as the rule's own fire would have made it. A
--   fire the schedule made already (in its ranges of fires made, schedule_made_from in common.lua,
--   or its task still there) is not made again. Neither is subject to the overlap policy: the
--   operator asked for these fires.
-- KEYS: the nine of every native-queue script (push.lua); the schedule keys are built from
--   KEYS[5] (schedule_key in common.lua).
-- ARGV[1] mode: "now" | "backfill"  ARGV[2] name  ARGV[3] the rule's version read (backfill:
--   the fires were planned from that rule; "" = any, for "now")  ARGV[4] wake channel ("" =
--   none): published when a task made is due before every pending one
-- ARGV[5] now: the request id (1 to 64 of letters, digits, '.', '_', '-')
--   backfill: n (1..1000), then n fire times (ms, ascending, each before server now and before
--   the schedule's next fire: those are the rule's to make)
-- ARGV[last] actor: "" (no audit entry), or who asks (take_actor in common.lua): one audit
--   entry "schedule_run_now" or "schedule_backfill", detail the name (and the fires' span)
-- Reply: {server now ms, tasks made (-1: nothing written, the rule is no longer the version
--   read), fires not made because the schedule had made them already}
-- Errors: INVALID when ARGV is malformed, a fire is not in the past or not before the next
--   fire, or a backfill reaches further back than the ranges the schedule keeps;
--   NOT_FOUND when there is no such schedule.
local actor_ok, who = take_actor()
if not actor_ok or #ARGV < 5 then
  return redis.error_reply('INVALID schedule_make: ARGV and the actor')
end
local mode, name, expected, channel = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
if mode ~= 'now' and mode ~= 'backfill' then
  return redis.error_reply('INVALID schedule_make: mode must be now or backfill')
end
if expected ~= '' and not whole(expected, 1, MAX_MS) then
  return redis.error_reply('INVALID schedule_make: the version read is malformed')
end
local now = now_ms()
local fires = {}
if mode == 'now' then
  local request = ARGV[5]
  if #ARGV ~= 5 or request == '' or #request > 64 or string.find(request, '[^%w._-]') then
    return redis.error_reply('INVALID schedule_make: a request id is 1 to 64 of letters, ' ..
      'digits, . _ -')
  end
else
  local n = whole(ARGV[5], 1, 1000)
  if not n or #ARGV ~= 5 + n then
    return redis.error_reply('INVALID schedule_make: n (1..1000) and n fire times')
  end
  local last = -MAX_MS - 1
  for i = 1, n do
    local fire = whole(ARGV[5 + i], -MAX_MS, now - 1)
    if not fire or fire <= last then
      return redis.error_reply('INVALID schedule_make: the fires must ascend and be before ' ..
        'server now')
    end
    fires[i], last = fire, fire
  end
end
local rules, stats = schedule_key('s'), schedule_key('_stats')
local rule = parse_schedule(redis.call('HGET', rules, name))
if not rule then return redis.error_reply("NOT_FOUND no schedule '" .. name .. "'") end
if expected ~= '' and rule.version ~= tonumber(expected) then return {now, -1, 0} end
if mode == 'backfill' then
  local next_fire = tonumber(redis.call('ZSCORE', schedule_key('_next'), name))
  if next_fire and fires[#fires] >= next_fire then
    return redis.error_reply('INVALID schedule_make: the fire at ' .. int(fires[#fires]) ..
      ' ms is not before the next fire (' .. int(next_fire) .. " ms): the rule's own to make")
  end
  local forgot = tonumber(redis.call('HGET', stats, name .. '|forgot'))
  if forgot and fires[1] <= forgot then
    return redis.error_reply('INVALID schedule_make: the fire at ' .. int(fires[1]) ..
      ' ms is older than the fires this schedule remembers making (after ' .. int(forgot) ..
      ' ms)')
  end
end

local _, default_attempts, history = payload_and_attempts()
local record = schedule_task_record(rule, now, default_attempts)
local before = earliest(KEYS[1])
local zadd, ids, first_due, already = {}, {}, nil, 0
local function make(id, due)
  table_for_new_records()
  if redis.call('HSETNX', data_key(id), id, record) == 0 then return false end
  zadd[#zadd + 1] = int(due)
  zadd[#zadd + 1] = id
  ids[#ids + 1] = id
  if not first_due or due < first_due then first_due = due end
  return true
end
if mode == 'now' then
  local id = 's:' .. name .. ':run:' .. ARGV[5]
  if not make(id, now) then already = 1 end
  -- The overlap policy's previous fire: the rule's next fire waits for this one's task.
  if rule.overlap == 'skip' then redis.call('HSET', stats, name .. '|task', id) end
else
  -- The fires handled in a row form one range, written once when the row ends.
  local made_before = schedule_made_from(name, fires[1])
  local run_from, run_to = nil, nil
  for _, fire in ipairs(fires) do
    if made_before(fire) then
      already = already + 1
      if run_from then schedule_note_range(name, run_from, run_to, false) end
      run_from = nil
    else
      if not make('s:' .. name .. ':' .. int(fire), fire + fire_jitter(name, fire, rule.jitter)) then
        already = already + 1
      end
      run_from, run_to = run_from or fire, fire
    end
  end
  if run_from then schedule_note_range(name, run_from, run_to, false) end
  -- The range the rule extends may end before these: it must not grow over them.
  redis.call('HDEL', stats, name .. '|open')
end
if #ids > 0 then
  schedule_pending(name, zadd, ids, now, channel, before, first_due, history)
  redis.call('HINCRBY', stats, name .. '|fired', #ids)
  grow_table()
end
if mode == 'now' then
  audit(who, 'schedule_run_now', #ids, ids, name)
else
  audit(who, 'schedule_backfill', #ids, ids,
    name .. ': ' .. int(fires[1]) .. '..' .. int(fires[#fires]) .. ' ms')
end
return {now, #ids, already}
