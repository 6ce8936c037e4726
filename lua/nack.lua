-- nack.lua: a task failed; it is retried after its backoff, or dies when attempts are spent.
-- KEYS (the same nine for every native-queue script, built by Queue::scriptKeys()):
--   [1] pending ZSET  [2] active ZSET  [3] dead ZSET
--   [4] data bucket prefix ("dq:{Q}:d:", bucket number appended: see data_key in common.lua)
--   [5] config HASH   [6] stats HASH   [7] minute counters prefix ("dq:{Q}:m:", minute appended)
--   [8] run HASH (id -> attempts and lease)   [9] errors HASH (id -> last error)
-- ARGV[1] id  ARGV[2] lease token  ARGV[3] error text (kept, cut to at most 4096 bytes at a
--   UTF-8 character boundary: cut_utf8 in common.lua)
-- ARGV[4] retry delay ms (-1 = the task's backoff, else the queue's; -2 = no retry: dead now,
--   attempts left or not, as for a webhook's 410 Gone)  ARGV[5] wake channel
-- Reply: {"retry", due ms} or {"dead", time died ms}; "retry" too when a debounced task's
--   follow-up takes its place (since layout 2.9: follow_up_start in common.lua)
-- With the config's history on, the task gets a "failed" (due: the retry) or "died" event, the
--   error as its text (history_note in common.lua).
-- A freed slot of a full concurrency cap is published on the wake channel (flow_freed in
--   common.lua, since layout 2.8).
-- A task that dies enters dead through died() (common.lua, since layout 2.9): the queue's dead
--   bound may drop the oldest dead tasks then (counted in dead_dropped, audited).
-- Errors: LEASE_LOST when the token is not the task's current lease; INVALID on bad ARGV.
if #ARGV ~= 5 then return redis.error_reply('INVALID nack: ARGV is id, token, error, delay, channel') end
local id, token, err = ARGV[1], ARGV[2], cut_utf8(ARGV[3], 4096)
local override = whole(ARGV[4], -2, MAX_MS)
if override == nil then return redis.error_reply('INVALID nack: retry delay ms') end
local attempts, due, lease, _, worker = parse_run(redis.call('HGET', KEYS[8], id))
if lease == '' or lease ~= token or not redis.call('ZSCORE', KEYS[2], id) then
  return redis.error_reply('LEASE_LOST task ' .. id .. ' is no longer leased to this worker')
end
local now = now_ms()
local _, max_attempts, spec = parse_record(redis.call('HGET', data_key(id), id))
if attempts < 1 then attempts = 1 end
if not max_attempts or max_attempts <= 0 then max_attempts = config_number(KEYS[5], 'max_attempts', 5) end
redis.call('ZREM', KEYS[2], id)
flow_freed(now)
redis.call('HSET', KEYS[9], id, err)
local history = history_limit(redis.call('HGET', KEYS[5], 'history'))
local function note(kind, when)
  history_note(history, {id}, function() return history_event(now, kind, when, worker, err) end)
end
-- A debounced task pushed again while it ran: its follow-up takes its place, due at its own
-- time with attempts from 0, whether this one would retry or die (docs/design/keep.md).
local follow = follow_ups({id})
if follow then
  local before = earliest(KEYS[1])
  local due = follow_up_start(id, follow[1], now, true)
  note('failed', int(due))
  count(KEYS[6], KEYS[7], 'retried', 1, now)
  wake_if_earlier(ARGV[5], before, due)
  return {'retry', due}
end
if attempts >= max_attempts or override == -2 then
  note('died', '')
  redis.call('HSET', KEYS[8], id, run_entry(attempts, due or now, '', '', ''))
  fair_stopped({id}, now)
  died({now, id}, now)
  count(KEYS[6], KEYS[7], 'died', 1, now)
  return {'dead', now}
end
local delay = override
if delay < 0 then
  if not spec or spec == '' then spec = config_backoff(KEYS[5]) end
  delay = backoff_delay(spec, attempts)
end
local retry = now + delay
local before = earliest(KEYS[1])
note('failed', int(retry))
redis.call('HSET', KEYS[8], id, run_entry(attempts, retry, '', '', ''))
redis.call('ZADD', KEYS[1], retry, id)
fair_index({retry, id}, now, true)
count(KEYS[6], KEYS[7], 'retried', 1, now)
wake_if_earlier(ARGV[5], before, retry)
return {'retry', retry}
