-- bench/scale-floor/push.lua: the least a push must do, for the floor measures of
-- scripts/measure-scale (FLOOR=...; README.md here). Not delayq's script: it writes the batch's
-- records as RECORDS keeps them and ZADDs the ids to pending; no checks, counters, dedup,
-- history or flow control.
-- RECORDS (a line measure-scale puts ahead of this file): 'bucket' (each record in its layout-3
--   bucket, data_key in lua/buckets.lua, one call a task), 'one-hash-a-call' (all in the
--   hash KEYS[4] .. 'all', one call a task), 'one-hash' (the same, one call a batch), 'none'.
-- KEYS and ARGV: lua/push.lua's, as measure-scale sends them. Reply: {n, {}}, the part of
-- push.lua's reply measure-scale reads. Errors: none of its own.
local n = tonumber(ARGV[5])
local now = now_ms()
local kind = ARGV[3]
if RECORDS == 'bucket' then table_for_new_records() end
local zadd, records = {}, {}
for i = 0, n - 1 do
  local id, payload, due = ARGV[6 + 3 * i], ARGV[7 + 3 * i], ARGV[8 + 3 * i]
  local record = '0|5|1000|' .. payload
  if RECORDS == 'bucket' then
    redis.call('HSET', data_key(id), id, record)
  elseif RECORDS == 'one-hash-a-call' then
    redis.call('HSET', KEYS[4] .. 'all', id, record)
  else
    records[#records + 1], records[#records + 2] = id, record
  end
  zadd[#zadd + 1] = kind == 'in' and now + tonumber(due) or due
  zadd[#zadd + 1] = id
end
if RECORDS == 'one-hash' then redis.call('HSET', KEYS[4] .. 'all', unpack(records)) end
redis.call('ZADD', KEYS[1], unpack(zadd))
if RECORDS == 'bucket' then grow_table() end
return {n, {}}
