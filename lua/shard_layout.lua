-- shard_layout.lua: starts a change of a queue's shard count (docs/design.md, "Sharded
-- queues"), on shard 0, with its audit entry in the same call: writes shards, shard_tags,
-- shard_move ("FROM>TO"), shard_moved 0, shard_since (the server's ms now: the mover's last
-- pass begins at least 2 s later) and the mover's cursor at its start
-- ("SHARD|SET|ZSCAN CURSOR|PASS|SEEN|HELD|PASS START", see ShardMover).
-- KEYS: the nine of every native-queue script (see push.lua), shard 0's
-- ARGV[1] the new count (1..64)  ARGV[2] shard_tags, the tags of every shard, space-separated
--   (the first the queue's name; at least as many as the count)  ARGV[3] the count the change
--   is from (as the caller read it)
-- ARGV[last] actor: "" (no audit entry), or who changes it (take_actor in common.lua): one
--   "reshard" entry, detail "FROM>TO"
-- Reply: 1 when the change was started; 0, writing nothing, when a change is under way
--   (shard_move is set: another process started one since the caller read the layout); the
--   caller reads the layout again and says so.
-- Errors: INVALID on bad ARGV; nothing is written then.
local actor_ok, who = take_actor()
if not actor_ok then
  return redis.error_reply('INVALID shard_layout: the last ARGV value must be the actor ("" for none)')
end
local count, from = whole(ARGV[1], 1, 64), whole(ARGV[3], 1, 64)
if #ARGV ~= 3 or count == nil or from == nil then
  return redis.error_reply('INVALID shard_layout: ARGV is the count, the tags, the count read, the actor')
end
local tags = 0
for _ in string.gmatch(ARGV[2], '%S+') do tags = tags + 1 end
if tags < count then
  return redis.error_reply('INVALID shard_layout: fewer tags than shards')
end
if redis.call('HEXISTS', KEYS[5], 'shard_move') == 1 then return 0 end
local now = now_ms()
redis.call('HSET', KEYS[5], 'shards', count, 'shard_tags', ARGV[2],
  'shard_move', from .. '>' .. count, 'shard_moved', 0, 'shard_since', int(now),
  'shard_cursor', '0|pending|0|1|0|0|' .. int(now))
audit(who, 'reshard', 0, {}, from .. '>' .. count)
return 1
