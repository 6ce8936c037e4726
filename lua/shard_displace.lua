-- shard_displace.lua: a push to a sharded queue while a reshard runs (docs/design.md, "Sharded
-- queues"). An id's task may still be in its old home shard, which push on the new home cannot
-- see; the producer asks the old home with this script first. For "nx" it reports the ids that
-- have a task here (the push must treat them as existing); for "replace" it deletes the copy
-- here (pending, dead, or held by the reshard itself) so that the push makes the only one, and
-- reports the ids a worker holds (the push must refuse them as push's "active" does).
-- KEYS: the nine of every native-queue script (see push.lua), of the old home shard, then
--   [10] its moving HASH (id -> "target|state|due|token")
-- ARGV[1] mode: "nx" | "replace"  ARGV[2] n (0..1000), then n ids
-- Since layout 2.9, an id with no task here that finished here within its dedup window
-- (docs/design/keep.md) is reported "recently_done" for "nx" (due ms: when the window ends);
-- "replace" leaves it here: the caller forgets it once the push in the new home succeeded (a
-- push refused there, "active", must change nothing: forgetting it here first lost the window
-- of a finished id, found by the model check).
-- Reply: a flat array naming only the ids that have a task here, three values each, in no set
--   order: index (1-based place in the call), status, due ms (integer; for a pending task its
--   due time, for one a worker or the reshard holds the due time it was claimed or taken at,
--   for a dead one the time it died). Status: nx: "exists"; replace: "active" (a worker holds
--   it: nothing changed) or "replaced" (the copy here was deleted).
-- Errors: INVALID on bad ARGV; nothing changes then.
-- Counters, the audit trail and the wake channel are left to the push that follows.
local mode, n = ARGV[1], whole(ARGV[2], 0, 1000)
if (mode ~= 'nx' and mode ~= 'replace') or n == nil or #ARGV ~= 2 + n then
  return redis.error_reply('INVALID shard_displace: ARGV is mode (nx | replace), n, then n ids')
end
local reply = {}
local deleted = {}
local done_key = keep_key('done')
local remembered = redis.call('ZCARD', done_key) > 0
local now = remembered and now_ms()
for i = 1, n do
  local id = ARGV[2 + i]
  local exists = redis.call('HEXISTS', data_key(id), id) == 1
  if not exists and remembered then
    local until_ms = tonumber(redis.call('ZSCORE', done_key, id))
    if until_ms and until_ms > now and mode ~= 'replace' then
      local l = #reply
      reply[l + 1], reply[l + 2], reply[l + 3] = i, 'recently_done', until_ms
    end
  end
  if exists then
    local due = redis.call('ZSCORE', KEYS[1], id)
    local set = due and KEYS[1]
    local _, run_due, _, _, worker = parse_run(redis.call('HGET', KEYS[8], id))
    if not due then
      due = redis.call('ZSCORE', KEYS[3], id)
      set = due and KEYS[3]
    end
    if not due and redis.call('ZSCORE', KEYS[2], id) then
      due, set = run_due or 0, KEYS[2]
    end
    if set then
      local status = 'exists'
      if mode == 'replace' then
        if set == KEYS[2] and worker ~= 'delayq-reshard' then
          status = 'active'
        else
          status = 'replaced'
          redis.call('ZREM', set, id)
          redis.call('HDEL', KEYS[10], id)
          deleted[#deleted + 1] = id
        end
      end
      local l = #reply
      reply[l + 1], reply[l + 2], reply[l + 3] = i, status, tonumber(due)
    end
  end
end
-- The copies replaced leave with their record, run entry, error and history.
if #deleted > 0 then
  history_drop(deleted, nil, now_ms())
  for _, id in ipairs(deleted) do redis.call('HDEL', data_key(id), id) end
  redis.call('HDEL', KEYS[8], unpack(deleted))
  redis.call('HDEL', KEYS[9], unpack(deleted))
  keep_forget(deleted)
end
return reply
