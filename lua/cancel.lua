-- cancel.lua: deletes pending tasks by id (active ones only when forced).
-- KEYS (the same seven for every native-queue script, built by Queue::scriptKeys()):
--   [1] pending ZSET  [2] active ZSET  [3] dead ZSET  [4] task key prefix ("dq:{Q}:t:", id appended)
--   [5] config HASH   [6] stats HASH   [7] minute counters prefix ("dq:{Q}:m:", minute appended)
-- ARGV[1] force (0 | 1: also delete tasks a worker holds), then the ids (at most 1000)
-- Reply: one status per id: done | not_found | active (refused: a worker holds it) | dead
-- Errors: INVALID on bad ARGV.
if ARGV[1] ~= '0' and ARGV[1] ~= '1' then
  return redis.error_reply('INVALID cancel: force must be 0 or 1')
end
local force = ARGV[1] == '1'
if #ARGV - 1 > 1000 then return redis.error_reply('INVALID cancel: at most 1000 ids a call') end
local reply = {}
local cancelled = 0
for i = 2, #ARGV do
  local id = ARGV[i]
  local key = KEYS[4] .. id
  local status = 'not_found'
  if redis.call('ZREM', KEYS[1], id) == 1 then
    redis.call('DEL', key)
    status = 'done'
  elseif redis.call('ZSCORE', KEYS[2], id) then
    if force then
      redis.call('ZREM', KEYS[2], id)
      redis.call('DEL', key)
      status = 'done'
    else
      status = 'active'
    end
  elseif redis.call('ZSCORE', KEYS[3], id) then
    status = 'dead'
  end
  if status == 'done' then cancelled = cancelled + 1 end
  reply[#reply + 1] = status
end
if cancelled > 0 then count(KEYS[6], KEYS[7], 'cancelled', cancelled, now_ms()) end
return reply
