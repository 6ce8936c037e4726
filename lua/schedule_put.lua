-- schedule_put.lua: adds a schedule to a native queue, or replaces one's rule.
-- KEYS: the nine of every native-queue script (push.lua); the schedule keys are built from
--   KEYS[5] (schedule_key in common.lua).
-- ARGV[1] mode: "add" (refused when the name exists) | "edit" | "pause" | "resume" (the last
--   three refused when it does not); the mode names the audit entry
-- ARGV[2] the version the caller read ("" = any): a schedule changed since is not written
-- ARGV[3] name  ARGV[4] cron ("" for every)  ARGV[5] zone  ARGV[6] every ms (0 for cron)
-- ARGV[7] anchor ms (every: the fires are anchor + k * every)  ARGV[8] catch-up ms
-- ARGV[9] max attempts of the tasks (0 = the queue's)  ARGV[10] backoff ("" = the queue's)
-- ARGV[11] paused: 0 | 1  ARGV[12] payload (bytes)
-- ARGV[13] next fire ms, computed by the caller from the rule and the server's TIME; "" when
--   paused or when the rule fires no more
-- ARGV[14] overlap: "allow" | "skip" (a fire is skipped while the previous fire's task is
--   pending or active)  ARGV[15] jitter ms (0..every, and at most 86400000): each fire's task
--   is due up to that much after the fire (fire_jitter in common.lua). Since 2.8; a rule with
--   "allow" and 0 is written as a "1|" record, older clients read it.
-- ARGV[last] actor: "" (no audit entry), or who changes it (take_actor in common.lua): one
--   audit entry "schedule_MODE", detail "NAME: RULE"
-- The counters (fired, skipped, last fire) stay across edits; the fires the rule makes after a
--   change start a new range of fires made (schedule_note_made in common.lua).
-- Reply: {version written (0: not written, the schedule changed since ARGV[2]), the version
--   now stored (0 = none), server now ms}
-- Errors: INVALID when ARGV is malformed; NOT_FOUND, EXISTS as the mode says; TOO_LARGE when
--   the payload is over the queue's max_payload.
local actor_ok, who = take_actor()
if not actor_ok or #ARGV ~= 15 then
  return redis.error_reply('INVALID schedule_put: 15 values and the actor')
end
local mode, expected, name = ARGV[1], ARGV[2], ARGV[3]
local cron, zone, every, anchor, catchup = ARGV[4], ARGV[5], ARGV[6], ARGV[7], ARGV[8]
local attempts, backoff, paused, payload, next_fire = ARGV[9], ARGV[10], ARGV[11], ARGV[12], ARGV[13]
local overlap, jitter = ARGV[14], whole(ARGV[15], 0, 86400000)
if mode ~= 'add' and mode ~= 'edit' and mode ~= 'pause' and mode ~= 'resume' then
  return redis.error_reply('INVALID schedule_put: mode must be add, edit, pause or resume')
end
if name == '' or #name > 100 or string.find(name, '[^%w._-]') then
  return redis.error_reply('INVALID schedule_put: name')
end
if (expected ~= '' and not whole(expected, 1, MAX_MS)) or not whole(every, 0, MAX_MS) or
    not whole(anchor, -MAX_MS, MAX_MS) or not whole(catchup, 0, MAX_MS) or
    not whole(attempts, 0, 1000000000) or (paused ~= '0' and paused ~= '1') or
    (next_fire ~= '' and not whole(next_fire, -MAX_MS, MAX_MS)) or
    string.find(cron .. zone .. backoff, '[|\n\r]') or (cron == '') == (every == '0') or
    (overlap ~= 'allow' and overlap ~= 'skip') or not jitter or (every ~= '0' and jitter > tonumber(every)) then
  return redis.error_reply('INVALID schedule_put: a value is malformed')
end
local max_payload = payload_and_attempts()
if #payload > max_payload then
  return redis.error_reply('TOO_LARGE the payload is ' .. #payload .. ' bytes, over the ' ..
    "queue's max_payload of " .. max_payload)
end
local rules, next_set = schedule_key('s'), schedule_key('_next')
local old = parse_schedule(redis.call('HGET', rules, name))
if mode == 'add' and old then
  return redis.error_reply("EXISTS schedule '" .. name .. "' exists already")
elseif mode ~= 'add' and not old then
  return redis.error_reply("NOT_FOUND no schedule '" .. name .. "'")
end
local now = now_ms()
local current = old and old.version or 0
if expected ~= '' and tonumber(expected) ~= current then return {0, current, now} end
local version = current + 1
local fields = {'1', int(version), cron, zone, every, anchor, catchup, attempts, backoff, paused,
  int(now)}
if overlap ~= 'allow' or jitter > 0 then
  fields[1] = '2'
  fields[#fields + 1] = overlap
  fields[#fields + 1] = int(jitter)
end
fields[#fields + 1] = payload
redis.call('HSET', rules, name, table.concat(fields, '|'))
redis.call('HDEL', schedule_key('_stats'), name .. '|open')
if paused == '0' and next_fire ~= '' then
  redis.call('ZADD', next_set, next_fire, name)
else
  redis.call('ZREM', next_set, name)
end
local rule = cron ~= '' and ('cron ' .. cron .. ' (' .. zone .. ')') or ('every ' .. every .. ' ms')
audit(who, 'schedule_' .. mode, 0, {}, name .. ': ' .. rule)
return {version, version, now}
