-- bench/scale-floor/one-hash/push.lua: the least a push must do when every record in one hash of
-- the queue, written, read and deleted by one call a batch. Not delayq's script: writes the
-- batch's records (as this variant keeps them) and ZADDs them to pending; no checks, counters,
-- history or flow control.
-- KEYS and ARGV: lua/push.lua's, as scripts/measure-scale sends them (it assembles
-- buckets.lua and common.lua ahead of this file, from the tree's lua/).
-- Reply: the shape measure-scale reads of lua/push.lua's. Errors: none of its own.
local n = tonumber(ARGV[5])
local now = now_ms()
local kind = ARGV[3]
local zadd, rec = {}, {}
for i = 0, n - 1 do
  local id, payload, due = ARGV[6 + 3 * i], ARGV[7 + 3 * i], ARGV[8 + 3 * i]
  local at = kind == 'in' and now + tonumber(due) or due
  rec[#rec + 1], rec[#rec + 2] = id, '0|5|1000|' .. payload
  zadd[#zadd + 1] = at
  zadd[#zadd + 1] = id
end
redis.call('HSET', KEYS[4] .. 'all', unpack(rec))
redis.call('ZADD', KEYS[1], unpack(zadd))
return {n, {}}
