-- bin_take.lua: a reshard takes recycle-bin entries out of this shard's bin when their id's
-- home is now another shard, to put them in that shard's bin (bin_put.lua): a restore looks
-- for an id's entry in its home (docs/design/bin.md, "Resharding"). Each taken entry is held
-- in the shard's bin_moving hash until bin_release.lua, so a step that dies after the take
-- loses nothing: the next step of the reshard takes the held entries again (n = 0).
-- KEYS: the nine of every native-queue script (see push.lua); the bin's keys are built from
--   KEYS[5] (bin_key in common.lua), the hold is bin_key('_moving'): HASH id ->
--   "TARGET|#NOTE|" then the action's note and the entry
-- ARGV[1] n (0..500), then n pairs: id, target shard (a whole number 0..63)
-- Reply: one {id, target, entry, note} per entry held: those this call took out of the bin
--   (an id not in the bin is left out; an id already held answers its held entry and leaves
--   the bin alone), and with n = 0 every entry an interrupted step left held. entry: the bin's
--   text as it was (bin_entry in common.lua); note: bin_actions' "kind|removed ms|audit entry"
--   of the entry's action in this shard ("" = none).
-- A held entry is in no set of the bin: neither listed nor restored, nor counted in bin_bytes.
-- An id in bin_at without an entry (nothing to carry) leaves bin_at, so a reshard's pass that
-- scans bin_at does not find it again and again.
-- Errors: INVALID on bad ARGV; nothing is taken then.
local n = whole(ARGV[1], 0, 500)
if n == nil or #ARGV ~= 1 + 2 * n then
  return redis.error_reply('INVALID bin_take: ARGV is n (0..500), then n id/target pairs')
end
for i = 1, n do
  if whole(ARGV[1 + 2 * i], 0, 63) == nil then
    return redis.error_reply('INVALID bin_take: a target shard is a whole number 0..63')
  end
end
local hold = bin_key('_moving')
local function held_reply(id, text)
  local target, len, at = string.match(text, '^(%d+)|(%d+)|()')
  local note = string.sub(text, at, at + tonumber(len) - 1)
  return {id, target, string.sub(text, at + tonumber(len)), note}
end
local reply = {}
if n == 0 then
  local all = redis.call('HGETALL', hold)
  for i = 1, #all, 2 do reply[#reply + 1] = held_reply(all[i], all[i + 1]) end
  return reply
end
local ids = {}
for i = 1, n do ids[i] = ARGV[2 * i] end
local held = redis.call('HMGET', hold, unpack(ids))
local entries = redis.call('HMGET', bin_key(''), unpack(ids))
local out, out_entries, writes, seen, dangling = {}, {}, {}, {}, {}
for i, id in ipairs(ids) do
  if held[i] then
    reply[#reply + 1] = held_reply(id, held[i])
  elseif entries[i] and not seen[id] then
    local action = string.match(entries[i], '^1|([^|]*)|') or ''
    local note = action ~= '' and redis.call('HGET', bin_key('_actions'), action) or ''
    note = note or ''
    local target = ARGV[1 + 2 * i]
    out[#out + 1] = id
    out_entries[#out_entries + 1] = entries[i]
    seen[id] = true
    writes[#writes + 1] = id
    writes[#writes + 1] = target .. '|' .. #note .. '|' .. note .. entries[i]
    reply[#reply + 1] = {id, target, entries[i], note}
  elseif not entries[i] then
    dangling[#dangling + 1] = id
  end
end
if #dangling > 0 then redis.call('ZREM', bin_key('_at'), unpack(dangling)) end
if #out > 0 then
  redis.call('HSET', hold, unpack(writes))
  bin_take_out(out, out_entries)
end
return reply
