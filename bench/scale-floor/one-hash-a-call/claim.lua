-- bench/scale-floor/one-hash-a-call/claim.lua: the least a claim must do when every record in one
-- hash of the queue, one call a task. Not delayq's script: takes the due head of pending
-- (ZRANGEBYSCORE, ZREMRANGEBYRANK), reads the records, writes a run entry (HSET) and a lease (ZADD
-- active) a task; no checks, counters, history or flow control.
-- KEYS and ARGV: lua/claim.lua's, as scripts/measure-scale sends them (it assembles
-- buckets.lua and common.lua ahead of this file, from the tree's lua/).
-- Reply: the shape measure-scale reads of lua/claim.lua's. Errors: none of its own.
local limit = tonumber(ARGV[1])
local now = now_ms()
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'WITHSCORES', 'LIMIT', 0, limit)
if #due == 0 then return {now, -1, 0, {}} end
local deadline = int(now + 60000)
local tasks, runs, zadd = {}, {}, {}
for i = 1, #due, 2 do
  local id = due[i]
  local record = redis.call('HGET', KEYS[4] .. 'all', id)
  tasks[#tasks + 1], tasks[#tasks + 2], tasks[#tasks + 3], tasks[#tasks + 4] = id, record, due[i + 1], 1
  runs[#runs + 1], runs[#runs + 2] = id, '1|' .. due[i + 1] .. '|' .. ARGV[4] .. '|'
end
redis.call('ZREMRANGEBYRANK', KEYS[1], 0, #due / 2 - 1)
redis.call('HSET', KEYS[8], unpack(runs))
for i = #tasks - 3, 1, -4 do zadd[#zadd + 1] = deadline; zadd[#zadd + 1] = tasks[i] end
redis.call('ZADD', KEYS[2], unpack(zadd))
return {now, -1, 0, tasks, deadline}
