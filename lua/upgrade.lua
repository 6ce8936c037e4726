-- upgrade.lua: converts tasks of a queue written by an older delayq (one hash per task,
-- "dq:{Q}:t:<id>") to the current layout, a bounded number of ids per call.
-- KEYS (the same nine for every native-queue script, built by Queue::scriptKeys()):
--   [1] pending ZSET  [2] active ZSET  [3] dead ZSET
--   [4] data bucket prefix ("dq:{Q}:d:", bucket number appended: see data_key in common.lua)
--   [5] config HASH   [6] stats HASH   [7] minute counters prefix ("dq:{Q}:m:", minute appended)
--   [8] run HASH (id -> attempts and lease)   [9] errors HASH (id -> last error)
--   then [10] the old task key prefix ("dq:{Q}:t:", id appended)
-- ARGV[1] ids to look at (1..1000)  ARGV[2] cursor: "SET:RANK" (SET 1..3 = pending, active,
--   dead; "1:0" starts a pass)  ARGV[3] tasks converted by the earlier calls of this pass
-- Reply: {converted, next cursor, done (1: a whole pass converted nothing, the queue is
--   upgraded)}
-- Errors: INVALID on bad ARGV.
-- Sets are walked by rank and each converted id keeps its place, so a call never skips or
-- repeats a task of a queue that does not change meanwhile; one that does (a claim shifts the
-- ranks) is covered by the caller repeating passes until one converts nothing. The cursor is
-- kept in the config hash (upgrade_cursor) so an interrupted upgrade resumes where it was.
local limit = whole(ARGV[1], 1, 1000)
local set, rank = string.match(ARGV[2] or '', '^([123]):(%d+)$')
local before = whole(ARGV[3] or '', 0, MAX_MS)
if limit == nil or not set or before == nil or #KEYS ~= 10 then
  return redis.error_reply('INVALID upgrade: ARGV is limit (1..1000), cursor SET:RANK, converted')
end
set, rank = tonumber(set), tonumber(rank)
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
local next_cursor
if #members / 2 == limit then
  next_cursor = set .. ':' .. (rank + limit)
elseif set < 3 then
  next_cursor = (set + 1) .. ':0'
elseif before + converted > 0 then
  next_cursor = '1:0' -- another pass: the ranks may have moved under this one
else
  redis.call('HDEL', KEYS[5], 'upgrade_cursor')
  return {converted, '', 1}
end
redis.call('HSET', KEYS[5], 'upgrade_cursor', next_cursor)
return {converted, next_cursor, 0}
