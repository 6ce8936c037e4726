-- bench/scale-floor/claim.lua: the least a claim must do (push.lua here says for what, and
-- RECORDS). Takes the due head of pending (ZRANGEBYSCORE, ZREMRANGEBYRANK), reads the records,
-- writes a run entry (HSET) and a lease (ZADD active) a task.
-- KEYS and ARGV: lua/claim.lua's, as measure-scale sends them (max, lease, worker, token).
-- Reply: {now, -1, 0, tasks (id, record, due, 1 a task), deadline}, as lua/claim.lua's.
-- Errors: none of its own.
local limit = tonumber(ARGV[1])
local now = now_ms()
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'WITHSCORES', 'LIMIT', 0, limit)
if #due == 0 then return {now, -1, 0, {}} end
local ids = {}
for i = 1, #due, 2 do ids[#ids + 1] = due[i] end
local records = {}
if RECORDS == 'one-hash' then records = redis.call('HMGET', KEYS[4] .. 'all', unpack(ids)) end
local deadline = int(now + 60000)
local tasks, runs, zadd = {}, {}, {}
for k, id in ipairs(ids) do
  local record = records[k] or 'x'
  if RECORDS == 'bucket' then
    record = redis.call('HGET', data_key(id), id)
  elseif RECORDS == 'one-hash-a-call' then
    record = redis.call('HGET', KEYS[4] .. 'all', id)
  end
  local score = due[2 * k]
  tasks[#tasks + 1], tasks[#tasks + 2], tasks[#tasks + 3], tasks[#tasks + 4] = id, record, score, 1
  runs[#runs + 1], runs[#runs + 2] = id, '1|' .. score .. '|' .. ARGV[4] .. '|'
end
redis.call('ZREMRANGEBYRANK', KEYS[1], 0, #ids - 1)
redis.call('HSET', KEYS[8], unpack(runs))
for i = #tasks - 3, 1, -4 do zadd[#zadd + 1] = deadline; zadd[#zadd + 1] = tasks[i] end
redis.call('ZADD', KEYS[2], unpack(zadd))
return {now, -1, 0, tasks, deadline}
