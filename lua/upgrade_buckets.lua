-- upgrade_buckets.lua: moves the records of a queue of layout 2 (8192 fixed buckets,
-- "dq:{Q}:d:B") into the table of layout 3, whose buckets grow with the queue (buckets.lua),
-- a bounded number of records a call, bucket after bucket.
-- KEYS: the nine of every native-queue script (push.lua).
-- ARGV[1] records to move at most (1..1000)
-- Reply: {moved, done (1: every bucket of layout 2 is moved, or the queue never had them)}
-- Errors: INVALID on bad ARGV.
-- The first call makes the table with `migrated` 0; data_key() then finds an id of a bucket
-- below `migrated` in the table, one above it in its old bucket, and one of the bucket being
-- moved where its record is now; every record moves in the call that deletes it from its old
-- bucket, so claims, acks and pushes between the calls find each task exactly once, and an
-- interrupted upgrade resumes at `migrated`.
local limit = whole(ARGV[1], 1, 1000)
if limit == nil or #ARGV ~= 1 then
  return redis.error_reply('INVALID upgrade_buckets: ARGV is the number of records to move (1..1000)')
end
local t = table_state()
if not t.base then
  redis.call('HSET', KEYS[4] .. 'layout', 'base', FIRST_BUCKETS, 'level', 0, 'split', 0,
    'load', BUCKET_LOAD, 'migrated', 0)
  bucket_table = nil
  t = table_state()
end
local moved, looked = 0, 0
-- An empty bucket costs one HLEN: a thousand of them a call keep the call short.
while t.migrated < LEGACY_BUCKETS and moved < limit and looked < 1000 do
  local key = string.format('%s%d', KEYS[4], t.migrated)
  local fields = redis.call('HLEN', key)
  looked = looked + 1
  if fields > 0 then
    -- A listpack is read whole; a bigger bucket (a hash table) a part at a time.
    local part
    if fields <= limit - moved then
      part = redis.call('HGETALL', key)
    else
      local cursor = '0'
      repeat
        local scan = redis.call('HSCAN', key, cursor, 'COUNT', limit - moved)
        cursor, part = scan[1], scan[2]
      until #part > 0 or cursor == '0'
    end
    local gone = {}
    for i = 1, #part, 2 do
      redis.call('HSET', grown_key(id_hash(part[i]), t), part[i], part[i + 1])
      gone[#gone + 1] = part[i]
    end
    if #gone > 0 then hash_write('HDEL', key, gone) end
    moved = moved + #gone
  end
  if redis.call('EXISTS', key) == 0 then t.migrated = t.migrated + 1 end
end
redis.call('HSET', KEYS[4] .. 'layout', 'migrated', t.migrated)
grow_table()
if t.migrated >= LEGACY_BUCKETS then return {moved, 1} end
return {moved, 0}
