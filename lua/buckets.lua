-- Task records (docs/design/key-layout.md, "Layout 3: buckets that grow with the queue").
-- Sent ahead of common.lua with every native-queue script, and alone with read_record.lua.
-- A record lives in a small hash (a listpack, about half a big hash's memory) whose field is
-- the id. Layout 3 keeps about BUCKET_LOAD records a bucket at any queue size by linear
-- hashing: the table starts at `base` buckets and splits one bucket at a time as the queue
-- grows, so a push or claim walks a listpack of the same few dozen entries at 10,000 tasks
-- and at 10,000,000 (layout 2's 8192 fixed buckets held 494 records each at 4,000,000).
--   PREFIX:{Q}:d:layout  HASH  base, level, split (the table: bucket = h mod base*2^level,
--                               or h mod base*2^(level+1) when that is below split), load
--                               (records a bucket, 32), migrated (layout 2 buckets moved)
--   PREFIX:{Q}:d:g:B     HASH  id -> record, the table's bucket B
--   PREFIX:{Q}:d:B       HASH  id -> record, layout 2's bucket B = 0..8191 (until upgraded)
-- Every key is built from KEYS[4], the prefix "PREFIX:{Q}:d:", in the queue's slot.
local LEGACY_BUCKETS = 8192
local FIRST_BUCKETS = 64
local BUCKET_LOAD = 32
local SPLITS_A_CALL = 40

-- Layout 2's bucket: the last four bytes of the id.
local function legacy_bucket(id)
  local a, b, c, d = string.byte(id, -4, -1)
  return ((((a or 0) * 31 + (b or 0)) * 31 + (c or 0)) * 31 + (d or 0)) % LEGACY_BUCKETS
end

-- Layout 3 hashes every byte (ids with a common suffix, "42-remind", must spread too), four
-- at a time modulo a prime: exact in Lua's doubles (below 2^53), and the prime spreads the
-- low bits that pick a bucket.
-- Sixteen bytes a string.byte call: the same hash as one call a four, in a quarter of the calls
-- (a claim and its ack hash every id; this was a tenth of their Redis CPU).
local function id_hash(id)
  local h = 0
  for i = 1, #id, 16 do
    local a, b, c, d, e, f, g, k, l, m, o, p, q, r, s, t = string.byte(id, i, i + 15)
    h = ((((h * 31 + a) * 31 + (b or 0)) * 31 + (c or 0)) * 31 + (d or 0)) % 2147483647
    if e then
      h = ((((h * 31 + e) * 31 + (f or 0)) * 31 + (g or 0)) * 31 + (k or 0)) % 2147483647
      if l then
        h = ((((h * 31 + l) * 31 + (m or 0)) * 31 + (o or 0)) * 31 + (p or 0)) % 2147483647
        if q then
          h = ((((h * 31 + q) * 31 + (r or 0)) * 31 + (s or 0)) * 31 + (t or 0)) % 2147483647
        end
      end
    end
  end
  return h
end

-- The table's state, read once a call. nil fields: a queue of layout 2 (no table yet).
local bucket_table
local function table_state()
  if not bucket_table then
    local s = redis.call('HMGET', KEYS[4] .. 'layout', 'base', 'level', 'split', 'load',
      'migrated')
    bucket_table = {
      base = tonumber(s[1]), level = tonumber(s[2]) or 0, split = tonumber(s[3]) or 0,
      load = tonumber(s[4]) or BUCKET_LOAD, migrated = tonumber(s[5]) or LEGACY_BUCKETS,
    }
    if bucket_table.base then
      bucket_table.size = bucket_table.base * 2 ^ bucket_table.level
    end
  end
  return bucket_table
end

local function grown_key(h, t)
  local b = h % t.size
  if b < t.split then b = h % (t.size * 2) end
  return string.format('%sg:%d', KEYS[4], b)
end

-- The key of the hash that holds (or is to hold) id's record. While an upgrade moves layout
-- 2's buckets into the table (migrated of 8192 done), an id of a bucket not yet moved stays in
-- it, and one of the bucket being moved is wherever its record is now.
local function data_key(id)
  local t = bucket_table or table_state()
  if not t.base then
    return string.format('%s%d', KEYS[4], legacy_bucket(id))
  end
  if t.migrated < LEGACY_BUCKETS then
    local lb = legacy_bucket(id)
    if lb > t.migrated then return string.format('%s%d', KEYS[4], lb) end
    if lb == t.migrated then
      local legacy = string.format('%s%d', KEYS[4], lb)
      if redis.call('HEXISTS', legacy, id) == 1 then return legacy end
    end
  end
  return grown_key(id_hash(id), t)
end

