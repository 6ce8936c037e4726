-- bench/scale-floor/one-hash/ack.lua: the least an ack must do when every record in one hash of the
-- queue, written, read and deleted by one call a batch. Not delayq's script: checks each lease's
-- token in its run entry (HMGET), deletes the records, run entries and leases; no checks,
-- counters, history or flow control.
-- KEYS and ARGV: lua/ack.lua's, as scripts/measure-scale sends them (it assembles
-- buckets.lua and common.lua ahead of this file, from the tree's lua/).
-- Reply: the shape measure-scale reads of lua/ack.lua's. Errors: none of its own.
local n = tonumber(ARGV[1])
local ids = {}
for i = 1, n do ids[i] = ARGV[2 * i] end
local runs = redis.call('HMGET', KEYS[8], unpack(ids))
local reply = {}
for i, id in ipairs(ids) do
  reply[i] = runs[i] and string.find(runs[i], '|' .. ARGV[2 * i + 1] .. '|', 1, true) and 1 or 0
end
redis.call('HDEL', KEYS[4] .. 'all', unpack(ids))
redis.call('HDEL', KEYS[8], unpack(ids))
redis.call('ZREM', KEYS[2], unpack(ids))
return reply
