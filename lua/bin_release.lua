-- bin_release.lua: a reshard has put the recycle-bin entries it took (bin_take.lua) into their
-- home's bin (bin_put.lua); this forgets them in the shard they came from
-- (docs/design/bin.md, "Resharding").
-- KEYS: the nine of every native-queue script (see push.lua); the hold is bin_key('_moving'),
--   built from KEYS[5] (common.lua)
-- ARGV[1] n (0..500), then n ids
-- Reply: how many held entries were forgotten.
-- Errors: INVALID on bad ARGV; nothing changes then.
local n = whole(ARGV[1], 0, 500)
if n == nil or #ARGV ~= 1 + n then
  return redis.error_reply('INVALID bin_release: ARGV is n (0..500), then n ids')
end
if n == 0 then return 0 end
return redis.call('HDEL', bin_key('_moving'), unpack(ARGV, 2))
