-- bin_put.lua: a reshard puts recycle-bin entries it took from another shard (bin_take.lua)
-- into this shard's bin, their id's home (docs/design/bin.md, "Resharding"): kept as they were
-- (the removal's time, action, state, run entry, history and record), so a restore here gives
-- the task back exactly as if it had been removed here.
-- KEYS: the nine of every native-queue script (see push.lua); the bin's keys are built from
--   KEYS[5] (bin_key in common.lua)
-- ARGV[1] n (0..500), then n triples: id, entry (bin_take's, as the bin holds it), note (the
--   action's "kind|removed ms|audit entry" in the shard it came from, "" = none)
-- Reply: how many entries were put. An entry is not put when this bin already holds a removal
--   of the id as new or newer (a step resumed after a put puts the same entry again: it is
--   kept once), nor when the bin is off here (bin_keep, bin_max or bin_bytes 0; counted in
--   the stats' bin_dropped). Then the bin's bounds hold as after a removal (bin_trim: entries
--   past bin_keep and the oldest beyond bin_max or bin_bytes go, counted in bin_dropped), and
--   the bin's keys expire after bin_keep again. An action's note is kept when this bin has
--   none for it (HSETNX).
-- Errors: INVALID on bad ARGV or an entry that is not one; nothing is put then.
local n = whole(ARGV[1], 0, 500)
if n == nil or #ARGV ~= 1 + 3 * n then
  return redis.error_reply('INVALID bin_put: ARGV is n (0..500), then n id/entry/note triples')
end
local parsed, ids = {}, {}
for i = 1, n do
  local e = bin_parse(ARGV[3 * i])
  if not e then return redis.error_reply('INVALID bin_put: the entry of ' .. ARGV[3 * i - 1] ..
    ' is not a recycle bin entry') end
  parsed[i] = e
  ids[i] = ARGV[3 * i - 1]
end
if n == 0 then return 0 end
local now = now_ms()
local keep, max, max_bytes = bin_bounds()
if not keep then
  count(KEYS[6], KEYS[7], 'bin_dropped', n, now)
  return 0
end
local have = redis.call('HMGET', bin_key(''), unpack(ids))
-- skip[id]: true when this bin keeps its own entry (as new or newer), false when this one goes in.
local skip, older, older_entries = {}, {}, {}
for i, id in ipairs(ids) do
  if skip[id] == nil then
    local mine = have[i] and tonumber(string.match(have[i], '^1|[^|]*|(%d+)|')) or nil
    skip[id] = mine ~= nil and mine >= parsed[i].removed
    if have[i] and not skip[id] then
      older[#older + 1] = id
      older_entries[#older_entries + 1] = have[i]
    end
  end
end
-- This bin's older removal of an id gives way, as a removal's does (bin_keep in common.lua).
bin_take_out(older, older_entries)
local put, bytes, actions = 0, 0, {}
for i, id in ipairs(ids) do
  if skip[id] == false then
    skip[id] = true -- an id given twice is put once
    local e, entry = parsed[i], ARGV[3 * i]
    redis.call('HSET', bin_key(''), id, entry)
    redis.call('ZADD', bin_key('_at'), e.removed, id)
    if e.action ~= '' then
      redis.call('ZADD', bin_key(':a:' .. e.action), e.removed, id)
      actions[e.action] = true
      if ARGV[3 * i + 1] ~= '' then
        redis.call('HSETNX', bin_key('_actions'), e.action, ARGV[3 * i + 1])
      end
    end
    bytes = bytes + #entry
    put = put + 1
  end
end
if put > 0 then
  redis.call('INCRBY', bin_key('_bytes'), bytes)
  bin_trim(now, keep, max, max_bytes)
  local keys = {bin_key(''), bin_key('_at'), bin_key('_actions'), bin_key('_bytes')}
  for action in pairs(actions) do keys[#keys + 1] = bin_key(':a:' .. action) end
  for _, key in ipairs(keys) do redis.call('PEXPIRE', key, keep) end
end
return put
