-- claim.lua: hands up to N due tasks to a worker, each under a lease.
-- KEYS (the same seven for every native-queue script, built by Queue::scriptKeys()):
--   [1] pending ZSET  [2] active ZSET  [3] dead ZSET  [4] task key prefix ("dq:{Q}:t:", id appended)
--   [5] config HASH   [6] stats HASH   [7] minute counters prefix ("dq:{Q}:m:", minute appended)
-- ARGV[1] max tasks (1..1000)  ARGV[2] lease ms (0 = the queue's lease_ms, default 30000)
-- ARGV[3] worker name          ARGV[4] token base (random; each task's token is base:i)
-- Reply: {server now ms, next due ms (-1 = nothing pending), paused (0|1),
--         {{id, payload, due, attempts, max_attempts, token, lease deadline}, ...}}
-- Errors: INVALID when ARGV is malformed.
-- A paused queue (config paused = "1") hands out nothing and changes nothing.
-- An id in pending whose hash is missing (or has no payload) is moved to dead with an error
-- saying so, and a garbage attempts count is read as 0: one broken entry never blocks the queue.
local limit = whole(ARGV[1], 1, 1000)
if limit == nil then
  return redis.error_reply('INVALID claim: max tasks must be 1..1000')
end
-- Checked before anything moves: a task taken out of pending must reach active.
if #ARGV ~= 4 then return redis.error_reply('INVALID claim: ARGV is max, lease, worker, token') end
local now = now_ms()
local lease = whole(ARGV[2], 0, MAX_MS)
if lease == nil then return redis.error_reply('INVALID claim: lease ms') end
if lease == 0 then lease = config_number(KEYS[5], 'lease_ms', 30000) end
local worker, token_base = ARGV[3], ARGV[4]

local function next_due()
  return earliest(KEYS[1]) or -1
end

if redis.call('HGET', KEYS[5], 'paused') == '1' then
  return {int(now), int(next_due()), 1, {}}
end

local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'WITHSCORES', 'LIMIT', 0, limit)
-- From -inf, the due tasks are exactly ranks 0..k-1: one call removes them all.
if #ids > 0 then redis.call('ZREMRANGEBYRANK', KEYS[1], 0, #ids / 2 - 1) end
local tasks = {}
local leases = {}
local claimed, broken = 0, 0
local deadline = now + lease
for i = 1, #ids, 2 do
  local id, score = ids[i], ids[i + 1]
  local key = KEYS[4] .. id
  local f = redis.call('HMGET', key, 'payload', 'due', 'max_attempts', 'attempts')
  if not f[1] then
    local had = redis.call('EXISTS', key) == 1
    -- No payload is written: the record stays recognisably broken, so a requeue cannot
    -- turn it into an empty task (it comes back here and dies again).
    redis.call('HSET', key, 'due', score, 'state', 'dead',
      'last_error', 'task data was missing or incomplete when it came due (deleted by hand?)')
    if not had then redis.call('HSET', key, 'created', int(now), 'attempts', '0') end
    redis.call('ZADD', KEYS[3], now, id)
    broken = broken + 1
  else
    local attempts = math.floor(tonumber(f[4]) or 0) + 1
    local token = token_base .. ':' .. int((i + 1) / 2)
    redis.call('HSET', key, 'state', 'active', 'lease', token, 'worker', worker,
      'claimed', int(now), 'attempts', int(attempts))
    leases[#leases + 1] = deadline
    leases[#leases + 1] = id
    local due = tonumber(f[2]) or tonumber(score)
    tasks[#tasks + 1] = {id, f[1], int(due), attempts, f[3] or '0', token, int(deadline)}
    claimed = claimed + 1
  end
end
if #leases > 0 then redis.call('ZADD', KEYS[2], unpack(leases)) end
count(KEYS[6], KEYS[7], 'claimed', claimed, now)
count(KEYS[6], KEYS[7], 'died', broken, now)
-- Counted on their own too, so an operator sees that foreign or damaged data turned up.
count(KEYS[6], KEYS[7], 'broken', broken, now)
return {int(now), int(next_due()), 0, tasks}
