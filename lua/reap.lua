-- reap.lua: takes back tasks whose lease ran out (their worker died or hung).
-- KEYS (the same nine for every native-queue script, built by Queue::scriptKeys()):
--   [1] pending ZSET  [2] active ZSET  [3] dead ZSET
--   [4] data bucket prefix ("dq:{Q}:d:", bucket number appended: see data_key in common.lua)
--   [5] config HASH   [6] stats HASH   [7] minute counters prefix ("dq:{Q}:m:", minute appended)
--   [8] run HASH (id -> attempts and lease)   [9] errors HASH (id -> last error)
-- ARGV[1] max tasks (1..1000)  ARGV[2] wake channel
-- Reply: {requeued, dead, more (1 = expired leases remain: call again)}
-- Errors: INVALID on bad ARGV; OLD_LAYOUT when an expired task is stored in the layout of an
--   older delayq (nothing moves).
-- A task with attempts left goes back to pending, due now; one with none left goes to dead,
-- as does one whose record is missing or garbled (counted in died and broken). Since layout
-- 2.9 a debounced task with a waiting follow-up is replaced by it instead (follow_up_start in
-- common.lua; counted requeued).
-- Tasks that die enter dead through died() (common.lua, since layout 2.9): the dead bound
-- may drop the oldest dead tasks then.
-- With the config's history on, each task taken back gets an "expired" event (due: when it is
-- due again, empty when it died; history_note in common.lua).
local limit = whole(ARGV[1], 1, 1000)
if limit == nil or #ARGV ~= 2 then
  return redis.error_reply('INVALID reap: max tasks must be 1..1000, then the wake channel')
end
local now = now_ms()
local ids = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now, 'LIMIT', 0, limit)
local requeued, spent = 0, 0 -- spent: attempts used up (died() is common.lua's)
local before = earliest(KEYS[1])
local default_attempts = config_number(KEYS[5], 'max_attempts', 5)
-- Read before anything moves: a task of the older layout is refused (upgrade converts it),
-- never taken for broken data.
local records = {}
for i, id in ipairs(ids) do
  records[i] = redis.call('HGET', data_key(id), id)
  if not records[i] and old_layout_task(id) then return old_layout_error() end
end
-- Each write is one call for the whole batch (ZREM, HSET, ZADD with every member): a
-- redis.call per task and write was most of a reap's cost (4 µs a task at 1,000).
local runs = #ids > 0 and redis.call('HMGET', KEYS[8], unpack(ids)) or {}
local history = history_limit(redis.call('HGET', KEYS[5], 'history'))
local broken = 0
local expired, events = {}, {}
local run_writes, error_writes, to_pending, to_dead = {}, {}, {}, {}
local why_of = {} -- the error text per worker name, built once
-- A debounced task pushed again while it ran: its follow-up takes its place (as in nack).
local follows, takeover = #ids > 0 and follow_ups(ids) or nil, {}
local function put(t, a, b)
  t[#t + 1], t[#t + 2] = a, b
end
for i, id in ipairs(ids) do
  local _, max_attempts = parse_record(records[i])
  if max_attempts then
    local attempts, due, _, _, worker = parse_run(runs[i])
    if attempts < 1 then attempts = 1 end
    if max_attempts <= 0 then max_attempts = default_attempts end
    if worker == '' then worker = '?' end
    local why = why_of[worker]
    if why == nil then
      why = 'lease expired: worker ' .. worker .. ' stopped renewing it'
      why_of[worker] = why
    end
    put(error_writes, id, why)
    expired[#expired + 1] = id
    local last = attempts >= max_attempts
    if history > 0 then
      events[#expired] = history_event(now, 'expired', last and '' or int(now), worker,
        last and 'no attempts left' or '')
    end
    if follows and follows[i] then
      takeover[#takeover + 1] = i
      requeued = requeued + 1
    elseif last then
      put(run_writes, id, run_entry(attempts, due or now, '', '', ''))
      put(to_dead, now, id)
      spent = spent + 1
    else
      put(run_writes, id, run_entry(attempts, now, '', '', ''))
      put(to_pending, now, id)
      requeued = requeued + 1
    end
  else
    -- As claim does with a due id whose record is missing or garbled: to dead, with why.
    put(error_writes, id, 'task data was missing or incomplete when its lease ran out')
    put(to_dead, now, id)
    broken = broken + 1
  end
end
if #ids > 0 then redis.call('ZREM', KEYS[2], unpack(ids)) end
if #error_writes > 0 then redis.call('HSET', KEYS[9], unpack(error_writes)) end
if #run_writes > 0 then redis.call('HSET', KEYS[8], unpack(run_writes)) end
if #to_pending > 0 then redis.call('ZADD', KEYS[1], unpack(to_pending)) end
for _, i in ipairs(takeover) do follow_up_start(ids[i], follows[i], now, true) end
fair_index(to_pending, now, true)
local gone = {}
for i = 2, #to_dead, 2 do gone[#gone + 1] = to_dead[i] end
fair_stopped(gone, now)
history_note(history, expired, function(k) return events[k] end)
-- Last: the dead bound may forget the oldest dead tasks, these too (died in common.lua).
died(to_dead, now)
count(KEYS[6], KEYS[7], 'expired', requeued + spent + broken, now)
count(KEYS[6], KEYS[7], 'died', spent + broken, now)
count(KEYS[6], KEYS[7], 'broken', broken, now)
if requeued > 0 then wake_if_earlier(ARGV[2], before, now) end
local more = 0
if #ids == limit and redis.call('ZCOUNT', KEYS[2], '-inf', now) > 0 then more = 1 end
return {requeued, spent + broken, more}
