-- shard_take.lua: a reshard takes tasks out of the shard they are in, to copy them to their
-- home shard (docs/design.md, "Sharded queues"). A pending task is held in active under the
-- move's token (worker "delayq-reshard"), so no worker claims it while it is copied; a dead
-- task stays where it is (nothing runs it). Each taken id is noted in KEYS[10], so a move that
-- was interrupted takes the same tasks again: taking is idempotent.
-- KEYS: the nine of every native-queue script (see push.lua), then [10] the shard's moving
--   HASH (id -> "target|state|due|token")
-- ARGV[1] hold ms (how long a held task is kept from workers; an interrupted move is resumed
--   within it, else reap hands the task back to pending, due now)
-- ARGV[2] token (no '|')  ARGV[3] n (0..500), then n pairs: id, target shard (a whole number)
-- Reply: one entry per task taken (ids no longer pending or dead, and not held, are left
--   out): {id, state ("pending" | "dead"), due ms (dead: time died), record, attempts,
--   last error ("" = none), history ("" = none), own start-by ms ("" = none; since 2.9, from
--   expires_key in common.lua: the move keeps it, so a moved task never runs after it), fair
--   order's tag ("PRIORITY|GROUP" as push stores it, "" = none; since 2.9), own dedup window
--   ms and debounce first-push ms ("" = none; since 2.9, from keep_key('dedup') and
--   keep_key('debounce') in common.lua: the mover writes them in the target shard, so a moved
--   task keeps its window and its maximum wait counts from its first push, docs/design/keep.md)}
-- Errors: INVALID on bad ARGV; nothing is taken then.
-- Counters and the audit trail are left alone: a move neither produces nor runs a task.
local hold = whole(ARGV[1], 1, MAX_MS)
local token = ARGV[2]
local n = whole(ARGV[3], 0, 500)
if hold == nil or n == nil or #ARGV ~= 3 + 2 * n or token == '' or string.find(token, '|', 1, true) then
  return redis.error_reply('INVALID shard_take: ARGV is hold ms, token, n, then n id/target pairs')
end
local now = now_ms()
local history_on = history_limit(redis.call('HGET', KEYS[5], 'history')) > 0
local expiry_on = redis.call('EXISTS', expires_key()) == 1
local dedup_on = redis.call('EXISTS', keep_key('dedup')) == 1
local debounce_on = redis.call('EXISTS', keep_key('debounce')) == 1
local reply = {}
for i = 1, n do
  local id, target = ARGV[2 + 2 * i], ARGV[3 + 2 * i]
  local noted = redis.call('HGET', KEYS[10], id)
  local state, due
  if noted then
    state, due = string.match(noted, '^%d+|(%l+)|(%-?%d+)|')
    due = tonumber(due)
  elseif redis.call('HEXISTS', data_key(id), id) == 1 then
    -- (A task with no record is broken, not moved: it stays for the scripts that handle it.)
    due = redis.call('ZSCORE', KEYS[1], id)
    if due then
      state, due = 'pending', tonumber(due)
      local attempts = parse_run(redis.call('HGET', KEYS[8], id))
      redis.call('ZREM', KEYS[1], id)
      redis.call('ZADD', KEYS[2], now + hold, id)
      redis.call('HSET', KEYS[8], id, run_entry(attempts, due, token, now, 'delayq-reshard'))
    else
      due = redis.call('ZSCORE', KEYS[3], id)
      if due then state, due = 'dead', tonumber(due) end
    end
    if state then
      redis.call('HSET', KEYS[10], id, target .. '|' .. state .. '|' .. int(due) .. '|' .. token)
    end
  end
  local record = state and redis.call('HGET', data_key(id), id)
  if record then
    local attempts = parse_run(redis.call('HGET', KEYS[8], id))
    local history = history_on and redis.call('HGET', history_key(''), id) or false
    local expires = expiry_on and redis.call('HGET', expires_key(), id) or false
    local window = dedup_on and redis.call('HGET', keep_key('dedup'), id) or false
    local first = debounce_on and redis.call('HGET', keep_key('debounce'), id) or false
    reply[#reply + 1] = {id, state, int(due), record, attempts,
                         redis.call('HGET', KEYS[9], id) or '', history or '', expires or '',
                         redis.call('HGET', fair_key('tags'), id) or '', window or '',
                         first or ''}
  end
end
return reply
