-- upgrade.lua: converts tasks of a queue written by an older delayq (one hash per task,
-- "dq:{Q}:t:<id>") to the current layout, a bounded number of ids per call.
-- KEYS (the same nine for every native-queue script, built by Queue::scriptKeys()):
--   [1] pending ZSET  [2] active ZSET  [3] dead ZSET
--   [4] data bucket prefix ("dq:{Q}:d:", bucket number appended: see data_key in common.lua)
--   [5] config HASH   [6] stats HASH   [7] minute counters prefix ("dq:{Q}:m:", minute appended)
--   [8] run HASH (id -> attempts and lease)   [9] errors HASH (id -> last error)
--   then [10] the old task key prefix ("dq:{Q}:t:", id appended)
-- ARGV[1] ids to look at (1..1000)
-- Reply: {converted, done (1: a whole pass converted nothing, the queue is upgraded)}
-- Errors: INVALID on bad ARGV.
-- Each set is walked in order from the last id looked at (its rank found again at each call),
-- so tasks claimed, acked or pushed meanwhile shift nothing under the walk; a pass that
-- converted anything is followed by another all the same, and the first pass that converts
-- nothing ends the upgrade. Where a pass is, and what it converted so far, is kept in the
-- config hash (upgrade_cursor "SET:CONVERTED:SCORE:ID", SET 1..3 = pending, active, dead; ID
-- empty at a set's start), so an interrupted upgrade resumes where it was.
local limit = whole(ARGV[1], 1, 1000)
if limit == nil or #ARGV ~= 1 or #KEYS ~= 10 then
  return redis.error_reply('INVALID upgrade: ARGV is the number of ids to look at (1..1000)')
end
local set, before, last_score, last_id = string.match(
  redis.call('HGET', KEYS[5], 'upgrade_cursor') or '', '^([123]):(%d+):([^:]*):(.*)$')
if not set then set, before, last_score, last_id = '1', '0', '', '' end
set, before = tonumber(set), tonumber(before)
-- Just after the last id looked at; when it has gone meanwhile, from the first id of its
-- score (looking at some again converts nothing twice).
local rank = 0
if last_id ~= '' then
  local at = redis.call('ZRANK', KEYS[set], last_id)
  if at then
    rank = at + 1
  else
    rank = redis.call('ZCOUNT', KEYS[set], '-inf', '(' .. last_score)
  end
end
local now = now_ms()
local default_attempts = config_number(KEYS[5], 'max_attempts', 5)

local function convert(id, score)
  local key = KEYS[10] .. id
  local h = redis.call('HGETALL', key)
  if #h == 0 then return false end
  local f = {}
  for i = 1, #h, 2 do f[h[i]] = h[i + 1] end
  redis.call('DEL', key)
  -- A task pushed by a newer delayq under the same id meanwhile is the one to keep.
  local bucket = data_key(id)
  if redis.call('HEXISTS', bucket, id) == 1 then return true end
  local attempts = whole(f.attempts or '0', 0, 1000000000) or 0
  if f.payload then
    local created = whole(f.created or '', 0, MAX_MS) or now
    local max_attempts = whole(f.max_attempts or '', 1, 1000000000) or default_attempts
    redis.call('HSET', bucket, id, base36(created) .. '|' .. int(max_attempts) .. '|' ..
      (f.backoff or '') .. '|' .. f.payload)
  end
  -- Without a payload no record is written: the task stays recognisably broken.
  if attempts > 0 or set ~= 1 or f.lease then
    local due = whole(f.due or '', -MAX_MS, MAX_MS) or score
    -- A leased task keeps its token: a worker of this version can still ack it.
    local lease, claimed = f.lease or '', ''
    if set == 2 then claimed = f.claimed or '' end
    if set ~= 2 then lease = '' end
    redis.call('HSET', KEYS[8], id, run_entry(attempts, due, lease, claimed, f.worker or ''))
  end
  if f.last_error then redis.call('HSET', KEYS[9], id, f.last_error) end
  return true
end

local converted = 0
local members = redis.call('ZRANGE', KEYS[set], rank, rank + limit - 1, 'WITHSCORES')
for i = 1, #members, 2 do
  if convert(members[i], tonumber(members[i + 1])) then converted = converted + 1 end
end
local in_pass = before + converted
local next_cursor
if #members / 2 == limit then
  next_cursor = set .. ':' .. in_pass .. ':' .. members[#members] .. ':' .. members[#members - 1]
elseif set < 3 then
  next_cursor = (set + 1) .. ':' .. in_pass .. '::'
elseif in_pass > 0 then
  next_cursor = '1:0::' -- another pass, to find what the first one may have missed
else
  redis.call('HDEL', KEYS[5], 'upgrade_cursor')
  return {converted, 1}
end
redis.call('HSET', KEYS[5], 'upgrade_cursor', next_cursor)
return {converted, 0}
