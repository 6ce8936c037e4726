-- ack.lua: a worker finished tasks; each is deleted if its lease is still the worker's.
-- KEYS (the same nine for every native-queue script, built by Queue::scriptKeys()):
--   [1] pending ZSET  [2] active ZSET  [3] dead ZSET
--   [4] data bucket prefix ("dq:{Q}:d:", bucket number appended: see data_key in common.lua)
--   [5] config HASH   [6] stats HASH   [7] minute counters prefix ("dq:{Q}:m:", minute appended)
--   [8] run HASH (id -> attempts and lease)   [9] errors HASH (id -> last error)
-- ARGV[1] n (0..1000), then n pairs: id, lease token
-- Reply: n integers, 1 = acked, 0 = lease lost (another worker holds it, or it is gone)
-- An acked task's history (if any) is kept among the finished ones with an "acked" event
--   (history_drop in common.lua).
-- Since layout 2.9: an acked task is remembered for its dedup window (remember_done in
--   common.lua), and a debounced task's waiting follow-up becomes pending under the same id
--   (counted pushed; the wake channel dq:{Q}:wake is told when it is the earliest due).
-- A freed slot of a full concurrency cap is published on the wake channel (flow_freed in
--   common.lua, since layout 2.8).
-- Errors: INVALID when ARGV is malformed.
local n = whole(ARGV[1], 0, 1000)
if n == nil or #ARGV ~= 1 + 2 * n then
  return redis.error_reply('INVALID ack: ARGV does not hold n id/token pairs')
end
if n == 0 then return {} end
local ids = {}
for i = 1, n do ids[i] = ARGV[2 * i] end
local runs = redis.call('HMGET', KEYS[8], unpack(ids))
local reply, done, done_runs, seen, needles = {}, {}, {}, {}, {}
for i, id in ipairs(ids) do
  -- Every way out of active (nack, reap, forced cancel) clears the token, so a matching one
  -- means the task is still this worker's. Tokens are random and never hold '|': finding
  -- "|token|" finds the token field. A claim gives all its tasks one token, so the text to
  -- look for is joined once per token, not once per task.
  local token = ARGV[2 * i + 1]
  local needle = needles[token]
  if not needle then
    needle = '|' .. token .. '|'
    needles[token] = needle
  end
  if not seen[id] and runs[i] and token ~= '' and string.find(runs[i], needle, 1, true) then
    seen[id] = true
    done[#done + 1] = id
    done_runs[#done] = runs[i]
    reply[i] = 1
  else
    reply[i] = 0
  end
end
if #done > 0 then
  local now = now_ms()
  local follows = follow_ups(done)
  remember_done(done, now)
  forget(done, function(k)
    local _, _, _, _, worker = parse_run(done_runs[k])
    return history_event(now, 'acked', '', worker, '')
  end, now)
  redis.call('ZREM', KEYS[2], unpack(done))
  count(KEYS[6], KEYS[7], 'acked', #done, now)
  flow_freed(now)
  if follows then
    -- A debounced task pushed again while it ran: its one follow-up is pending now.
    local before, started, first_due = earliest(KEYS[1]), 0, nil
    local history = history_limit(redis.call('HGET', KEYS[5], 'history'))
    for k, id in ipairs(done) do
      if follows[k] then
        local due = follow_up_start(id, follows[k], now, false)
        started = started + 1
        if first_due == nil or due < first_due then first_due = due end
        history_note(history, {id}, function()
          return history_event(now, 'pushed', int(due), '', 'follow-up')
        end, true)
      end
    end
    count(KEYS[6], KEYS[7], 'pushed', started, now)
    wake_if_earlier(keep_key('wake'), before, first_due)
  end
end
return reply
