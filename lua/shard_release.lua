-- shard_release.lua: a reshard has copied tasks to their home shard; this deletes them from
-- the shard it took them from (shard_take.lua), without a trace in the counters or the audit
-- trail: the task lives on, in the other shard.
-- KEYS: the nine of every native-queue script (see push.lua), then [10] the shard's moving
--   HASH (id -> "target|state|due|token")
-- ARGV[1] n (0..500), then n ids
-- Reply: the number of tasks deleted (with their record, run entry, error, history, own dedup
--   window, debounce start and fair-order tag). A held task is deleted while the token of its
--   take (noted in KEYS[10]) still holds it, or once a reap put it back in pending; never while
--   a worker holds it; a dead one only while it is dead. Every given id leaves the moving hash.
-- Errors: INVALID on bad ARGV.
local n = whole(ARGV[1], 0, 500)
if n == nil or #ARGV ~= 1 + n then
  return redis.error_reply('INVALID shard_release: ARGV is n, then n ids')
end
local released = 0
for i = 1, n do
  local id = ARGV[1 + i]
  local noted = redis.call('HGET', KEYS[10], id)
  local state, token = false, false
  if noted then state, token = string.match(noted, '^%d+|(%l+)|%-?%d+|(.*)$') end
  local gone = false
  if state == 'pending' then
    local _, _, held_by = parse_run(redis.call('HGET', KEYS[8], id))
    -- Held by the take's token, or handed back to pending by a reap once the hold ran out (a
    -- move resumed late): either way the target has the task now. Claimed by a worker since,
    -- it is left to that worker.
    gone = (held_by == token and redis.call('ZREM', KEYS[2], id) == 1) or
      redis.call('ZREM', KEYS[1], id) == 1
  elseif state == 'dead' then
    gone = redis.call('ZREM', KEYS[3], id) == 1
    if gone then dead_left({id}) end
  end
  if gone then
    redis.call('HDEL', data_key(id), id)
    redis.call('HDEL', KEYS[8], id)
    redis.call('HDEL', KEYS[9], id)
    redis.call('HDEL', history_key(''), id)
    -- Its fair-order tag went with it (shard_take answered it): none is left behind here. Its
    -- old index entries are stale; claim drops them when it meets them.
    redis.call('HDEL', fair_key('tags'), id)
    -- Its own dedup window and debounce start go here: the mover wrote them in the target
    -- shard from shard_take's reply (docs/design/keep.md, "Sharded queues").
    keep_forget({id})
    released = released + 1
  end
  redis.call('HDEL', KEYS[10], id)
end
return released
