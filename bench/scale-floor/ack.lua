-- bench/scale-floor/ack.lua: the least an ack must do (push.lua here says for what, and
-- RECORDS). Checks each lease's token in its run entry (HMGET), deletes the records, run
-- entries and leases.
-- KEYS and ARGV: lua/ack.lua's, as measure-scale sends them (n, then id and token pairs).
-- Reply: n integers, 1 = acked, 0 = lease not held, as lua/ack.lua's. Errors: none of its own.
local n = tonumber(ARGV[1])
local ids, reply = {}, {}
for i = 1, n do ids[i] = ARGV[2 * i] end
local runs = redis.call('HMGET', KEYS[8], unpack(ids))
for i, id in ipairs(ids) do
  reply[i] = runs[i] and string.find(runs[i], '|' .. ARGV[2 * i + 1] .. '|', 1, true) and 1 or 0
  if RECORDS == 'bucket' then
    redis.call('HDEL', data_key(id), id)
  elseif RECORDS == 'one-hash-a-call' then
    redis.call('HDEL', KEYS[4] .. 'all', id)
  end
end
if RECORDS == 'one-hash' then redis.call('HDEL', KEYS[4] .. 'all', unpack(ids)) end
redis.call('HDEL', KEYS[8], unpack(ids))
redis.call('ZREM', KEYS[2], unpack(ids))
return reply
