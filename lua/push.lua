-- push.lua: adds tasks to a native queue.
-- KEYS (the same nine for every native-queue script, built by Queue::scriptKeys()):
--   [1] pending ZSET  [2] active ZSET  [3] dead ZSET
--   [4] data bucket prefix ("dq:{Q}:d:", bucket number appended: see data_key in common.lua)
--   [5] config HASH   [6] stats HASH   [7] minute counters prefix ("dq:{Q}:m:", minute appended)
--   [8] run HASH (id -> attempts and lease)   [9] errors HASH (id -> last error)
-- ARGV[1] mode: "nx" (an existing id is reported) | "replace" (it is overwritten) | since
--   layout 2.9 "debounce:MAX_WAIT_MS" or "debounce_payload:MAX_WAIT_MS" (an existing pending
--   task's due time moves to the push's, never earlier and never past its first push +
--   MAX_WAIT_MS, and with debounce_payload its payload becomes the push's; a task a worker holds
--   gets one follow-up, started when it is acked, or in its place when it fails: see
--   docs/design/keep.md)
-- ARGV[2] wake channel ("" = none): published with the due ms when a created task is due
--   before everything that was pending
-- ARGV[3] due kind of every task of the call: "at" (epoch ms) | "in" (ms from server now)
-- ARGV[4] settings of every task of the call: "" for the queue's max attempts and backoff,
--   else "MAX_ATTEMPTS|BACKOFF" (0 = the queue's max attempts; BACKOFF normalized, "" = the
--   queue's), or (since layout 2.8) "MAX_ATTEMPTS|BACKOFF|PRIORITY|GROUP": priority -9..9
--   (higher is handed out first among due tasks), group 0..128 bytes of [A-Za-z0-9_.:@/-]
--   ("" = none), for a queue whose config order is "fair" (fair_index in common.lua), or
--   (since layout 2.9) "MAX_ATTEMPTS|BACKOFF|PRIORITY|GROUP|DEDUP_MS": DEDUP_MS > 0 keeps the id
--   refused that long after its task is acked or dies, instead of the queue's dedup_window
--   or (since layout 2.9) "MAX_ATTEMPTS|BACKOFF|PRIORITY|GROUP|DEDUP_MS|EXPIRES": EXPIRES the
--   tasks' start-by time, epoch ms, or "+MS" from server now (DEDUP_MS 0 = none; a task past
--   it when claimed never runs: expires_key in common.lua)
-- ARGV[5] n, the number of tasks (0..1000); then 3 values per task: id (not empty), payload
--   (bytes), due value (ms)
-- ARGV[last] actor: "" (no audit entry), or who pushes (take_actor in common.lua): one
--   audit entry "push" for the created and replaced tasks of the call, when there are any
-- With the config's history on, each created or replaced task starts its history with a
--   "pushed" event (history_note in common.lua).
-- Reply: {server now ms, {index, status, due ms, ...}}: the second element lists, flat and in
--   no set order, only the tasks whose status is not "created" (index: 1-based place in the
--   call; status: exists | replaced | too_large | active, the last when "replace" is refused
--   because a worker holds the task; since 2.9 recently_done (the id finished within its dedup
--   window: due ms is when the window ends), debounced (due ms: the pending task's new due
--   time) and follow_up (due ms: the follow-up's); due ms: the existing task's for exists and
--   active). Every
--   task not listed was created, due at its due value ("at") or server now + it ("in").
-- Errors: INVALID when ARGV is malformed (and for debounce with a priority or group); FAIR when a priority or group is given to a queue not
--   in fair order, or a new group would pass the bound on groups (FAIR_GROUPS).
-- Three values a task, the kind and the settings once a call, and a reply that names only the
-- exceptions: every ARGV value costs Redis about 70 ns to read, and every reply value about as
-- much to write (a status and a due ms per task were a tenth of a push).
local who, n, refusal = take_batch('push', 5, 3)
if refusal then return refusal end
local mode, channel, kind, settings = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
-- Since layout 2.9 the settings may end with a sixth field, EXPIRES: the tasks' start-by time,
-- epoch ms, or "+MS" from server now (a maximum age); taken off here, so the fields before it
-- read as they always did. Written to expires_key() (common.lua) for the created tasks.
local expires_spec
do
  local five, spec = string.match(settings, '^([^|]*|[^|]*|[^|]*|[^|]*|[^|]*)|(%+?%d+)$')
  if five then settings, expires_spec = five, spec end
end
local debounce, max_wait = string.match(mode, '^(debounce[_%a]*):(%d+)$')
if debounce then
  max_wait = whole(max_wait, 1, MAX_MS)
  if not max_wait or (debounce ~= 'debounce' and debounce ~= 'debounce_payload') then
    debounce = nil
  end
end
if mode ~= 'nx' and mode ~= 'replace' and not debounce then
  return redis.error_reply('INVALID push: mode must be nx, replace, debounce:MS or ' ..
    'debounce_payload:MS')
end
if kind ~= 'at' and kind ~= 'in' then
  return redis.error_reply('INVALID push: due kind must be at or in')
end
local max_attempts, backoff, tag, own_window = 0, '', nil, nil
if settings ~= '' then
  local priority, group
  max_attempts, backoff, priority, group, own_window =
    string.match(settings, '^(%d+)|([^|]*)|(%-?%d+)|([%w_.:@/%-]*)|(%d+)$')
  if max_attempts then
    own_window = whole(own_window, 0, MAX_MS)
    if own_window == 0 then own_window = nil end
  else
    max_attempts, backoff, priority, group = string.match(settings, '^(%d+)|([^|]*)|(%-?%d+)|([%w_.:@/%-]*)$')
  end
  if not max_attempts then
    max_attempts, backoff = string.match(settings, '^(%d+)|([^|]*)$')
  end
  max_attempts = max_attempts and whole(max_attempts, 0, 1000000000)
  if max_attempts == nil or (priority and (whole(priority, -9, 9) == nil or #group > 128)) then
    return redis.error_reply('INVALID push: settings must be "", MAX_ATTEMPTS|BACKOFF, ' ..
      'MAX_ATTEMPTS|BACKOFF|PRIORITY|GROUP or MAX_ATTEMPTS|BACKOFF|PRIORITY|GROUP|DEDUP_MS')
  end
  if debounce and priority and (priority ~= '0' or group ~= '') then
    return redis.error_reply('INVALID push: a debounced push takes no priority or group')
  end
  if priority and (priority ~= '0' or group ~= '') then
    if not fair_on() then
      return redis.error_reply('FAIR the queue hands out tasks in due order only: a priority ' ..
        'or group needs its config order "fair"')
    end
    if group ~= '' and redis.call('SISMEMBER', fair_key('known'), group) == 0 and
        redis.call('SCARD', fair_key('known')) >= FAIR_GROUPS then
      return redis.error_reply('FAIR the queue has ' .. FAIR_GROUPS .. ' groups with due or ' ..
        'running tasks, its most: group ' .. group .. ' must wait until one of them is done')
    end
    tag = int(tonumber(priority)) .. '|' .. group
  end
end
-- Every task is checked before the first is written: a refusal changes nothing. The tasks of
-- a call mostly share their due value: each distinct text is read once.
local values = {}
local value_of = {}
for i = 0, n - 1 do
  local a = 6 + i * 3
  if ARGV[a] == '' then return redis.error_reply('INVALID push: a task id is empty') end
  local text = ARGV[a + 2]
  local value = value_of[text]
  if value == nil then
    value = whole(text, -MAX_MS, MAX_MS)
    if value == nil then
      return redis.error_reply('INVALID push: due value is not a whole number of ms')
    end
    value_of[text] = value
  end
  values[i] = value
end
local now = now_ms()
local max_payload, default_attempts, history = payload_and_attempts()
local before = earliest(KEYS[1])
local created_text = base36(now)
-- The start-by ms (nil: none). A task that would expire before it is due is refused: it could
-- never run. Checked before anything is written.
local expires_at
if expires_spec then
  if string.sub(expires_spec, 1, 1) == '+' then
    expires_at = whole(string.sub(expires_spec, 2), 1, MAX_MS)
    expires_at = expires_at and now + expires_at
  else
    expires_at = whole(expires_spec, 1, MAX_MS)
  end
  if expires_at == nil then
    return redis.error_reply('INVALID push: the expiry must be epoch ms or +MS, above 0')
  end
  for i = 0, n - 1 do
    local due = values[i]
    if kind == 'in' then due = now + due end
    if expires_at <= due then
      return redis.error_reply('INVALID push: the task would expire (' .. int(expires_at) ..
        ' ms) before it is due (' .. int(due) .. ' ms): it could never run')
    end
  end
end
-- Ids still in their dedup window (keep_key('done') in common.lua) are refused: one ZMSCORE a
-- call, none while the set is empty. A replace overrides the window.
-- (Only the ids a replace writes leave the set, after the loop below: one answered active or
-- too_large changed nothing, its window included; the model check found a refused replace that
-- freed the id.)
local recent = {}
local done_key = keep_key('done')
local any_done = redis.call('ZCARD', done_key) > 0
if any_done and mode ~= 'replace' then
  local ids = {}
  for i = 0, n - 1 do ids[i + 1] = ARGV[6 + i * 3] end
  local until_ms = redis.call('ZMSCORE', done_key, unpack(ids))
  for i = 1, n do
    local u = tonumber(until_ms[i])
    if u and u > now then recent[i - 1] = u end
  end
end
-- Due times as text, each distinct one formatted once: a string.format per task costs about
-- a tenth of a push.
local texts = {}

-- A record starts "created|max_attempts|backoff|": the same for every task of the call.
if max_attempts == 0 then max_attempts = default_attempts end
local head = created_text .. '|' .. int(max_attempts) .. '|' .. backoff .. '|'

-- The due time an existing task already has: its score while pending, else its run entry's.
local function due_of(id, asked)
  local score = redis.call('ZSCORE', KEYS[1], id)
  if score then return tonumber(score) end
  local _, due = parse_run(redis.call('HGET', KEYS[8], id))
  return due or asked
end

-- Debounce (docs/design/keep.md) for an id that exists: a pending task moves to `due`, never
-- earlier than it was and never past its first push + max_wait; a task a worker holds gets one
-- follow-up, made or moved by the same rule from its own first push. Returns the status and
-- the due ms to reply; a dead task is reported as exists.
local function debounced(id, due, payload)
  local score = redis.call('ZSCORE', KEYS[1], id)
  if score then
    local old = tonumber(score)
    local first = tonumber(redis.call('HGET', keep_key('debounce'), id))
    if not first then
      -- Pushed without debounce before: its maximum wait counts from this push.
      first = now
      redis.call('HSET', keep_key('debounce'), id, int(now))
    end
    local moved = math.max(old, math.min(due, first + max_wait))
    if moved ~= old then
      redis.call('ZADD', KEYS[1], moved, id)
      fair_index({moved, id}, now)
    end
    if debounce == 'debounce_payload' then
      local record = redis.call('HGET', data_key(id), id)
      local at = record and string.match(record, '^[^|]*|[^|]*|[^|]*|()')
      if at then redis.call('HSET', data_key(id), id, string.sub(record, 1, at - 1) .. payload) end
    end
    return 'debounced', moved
  end
  if not redis.call('ZSCORE', KEYS[2], id) then return 'exists', due_of(id, due) end
  local follow = redis.call('HGET', keep_key('follow'), id)
  local first, record = now, head .. payload
  if follow then
    local old_due, old_first, at = string.match(follow, '^(%d+)|(%d+)|()')
    first = tonumber(old_first)
    due = math.max(tonumber(old_due), math.min(due, first + max_wait))
    if debounce ~= 'debounce_payload' then record = string.sub(follow, at) end
  else
    due = math.min(due, first + max_wait)
  end
  redis.call('HSET', keep_key('follow'), id, int(due) .. '|' .. int(first) .. '|' .. record)
  return 'follow_up', due
end

-- Per task only what must be: the tasks written go straight into the one ZADD of the call
-- (due text, id, ...), and `places` keeps each one's index in the call. A table per task, or
-- a second pass over them, costs a tenth of a push. `listed` holds the exceptions of the
-- reply (index, status, due ms, ...).
local listed, zadd, places = {}, {}, {}
local function list(index, status, due)
  local l = #listed
  listed[l + 1], listed[l + 2], listed[l + 3] = index, status, due
end
local min_due = nil
-- Counters rather than #t: the length operator is a search on every call.
local nz, np = 0, 0
for i = 0, n - 1 do
  local a = 6 + i * 3
  local id, payload = ARGV[a], ARGV[a + 1]
  local due = values[i]
  if kind == 'in' then due = now + due end
  local status = 'created'
  if #payload > max_payload then
    status = 'too_large'
  elseif recent[i] and redis.call('HEXISTS', data_key(id), id) == 0 then
    -- (A task that exists again, requeued or restored, is answered as existing.)
    status = 'recently_done'
    due = recent[i]
  else
    table_for_new_records()
    local record = head .. payload
    local bucket = data_key(id)
    if mode ~= 'replace' then
      -- One call both tests and writes: the common case (a new id) costs nothing more.
      if redis.call('HSETNX', bucket, id, record) == 0 then
        if debounce then
          status, due = debounced(id, due, payload)
        else
          status = 'exists'
          due = due_of(id, due)
        end
      end
    elseif redis.call('ZSCORE', KEYS[2], id) then
      status = 'active'
    else
      -- The old copy may sit in the dead set (even without a record, when broken); it leaves
      -- with its run entry and error.
      local had = redis.call('HEXISTS', bucket, id) == 1
      if redis.call('ZSCORE', KEYS[3], id) then
        dead_left({id})
        redis.call('ZREM', KEYS[3], id)
        had = true
      end
      if had then
        status = 'replaced'
        redis.call('HDEL', KEYS[8], id)
        redis.call('HDEL', KEYS[9], id)
        redis.call('HDEL', history_key(''), id)
        keep_forget({id})
      end
      redis.call('HSET', bucket, id, record)
    end
  end
  if status == 'created' or status == 'replaced' then
    local text = texts[due]
    if text == nil then
      text = int(due)
      texts[due] = text
    end
    zadd[nz + 1], zadd[nz + 2], nz = text, id, nz + 2
    np = np + 1
    places[np] = i + 1
    if min_due == nil or due < min_due then min_due = due end
  end
  if status ~= 'created' then list(i + 1, status, due) end
end
-- An id listed in active or dead without a record (broken, or of the older layout) took
-- HSETNX as new: it exists, and must not be pending as well. One ZMSCORE per set for the
-- whole call finds them; such a task is rare, so only then is the ZADD rebuilt. An empty set
-- (ZCARD, O(1)) holds none: its ZMSCORE, a tenth of a push, is skipped.
local function scores_in(set, ids)
  if redis.call('ZCARD', set) == 0 then return {} end
  return redis.call('ZMSCORE', set, unpack(ids))
end
if mode ~= 'replace' and #places > 0 then
  local ids = {}
  for k = 1, #places do ids[k] = zadd[2 * k] end
  local active = scores_in(KEYS[2], ids)
  local dead = scores_in(KEYS[3], ids)
  local clash = false
  for k = 1, #ids do
    if active[k] or dead[k] then clash = true end
  end
  if clash then
    local kept_zadd, kept_places = {}, {}
    min_due = nil
    for k, id in ipairs(ids) do
      local place = places[k]
      local due = tonumber(zadd[2 * k - 1])
      if active[k] or dead[k] then
        redis.call('HDEL', data_key(id), id)
        list(place, 'exists', due_of(id, due))
      else
        kept_zadd[#kept_zadd + 1] = zadd[2 * k - 1]
        kept_zadd[#kept_zadd + 1] = id
        kept_places[#kept_places + 1] = place
        if min_due == nil or due < min_due then min_due = due end
      end
    end
    zadd, places = kept_zadd, kept_places
  end
end
local created = #places
if created > 0 then
  redis.call('ZADD', KEYS[1], unpack(zadd))
  if any_done and mode == 'replace' then
    local written = {}
    for k = 2, #zadd, 2 do written[#written + 1] = zadd[k] end
    redis.call('ZREM', done_key, unpack(written))
  end
  -- Tags: written for the call's tasks when it has one; a replaced task loses its old one.
  local ids = {}
  for k = 1, created do ids[k] = zadd[2 * k] end
  if tag then
    local writes = {}
    for _, id in ipairs(ids) do writes[#writes + 1] = id; writes[#writes + 1] = tag end
    redis.call('HSET', fair_key('tags'), unpack(writes))
  elseif mode == 'replace' and redis.call('EXISTS', fair_key('tags')) == 1 then
    redis.call('HDEL', fair_key('tags'), unpack(ids))
  end
  fair_index(zadd, now)
  -- Expiry: the call's tasks get their start-by ms (and the shard's config the flag claim
  -- reads); a replaced task without one loses its old one.
  if expires_at then
    local writes = {}
    for _, id in ipairs(ids) do writes[#writes + 1] = id; writes[#writes + 1] = int(expires_at) end
    redis.call('HSET', expires_key(), unpack(writes))
    redis.call('HSET', KEYS[5], 'expiry', '1')
  elseif mode == 'replace' and redis.call('EXISTS', expires_key()) == 1 then
    redis.call('HDEL', expires_key(), unpack(ids))
  end
  -- A push's own dedup window, and a debounced task's first push, live with the task.
  if own_window or debounce then
    local writes = {}
    local value = own_window and int(own_window) or int(now)
    for _, id in ipairs(ids) do writes[#writes + 1] = id; writes[#writes + 1] = value end
    redis.call('HSET', keep_key(own_window and 'dedup' or 'debounce'), unpack(writes))
    if own_window and debounce then
      for k = 2, #writes, 2 do writes[k] = int(now) end
      redis.call('HSET', keep_key('debounce'), unpack(writes))
    end
  end
end
count(KEYS[6], KEYS[7], 'pushed', created, now)
if created > 0 then grow_table() end
if min_due then wake_if_earlier(channel, before, min_due) end
if history > 0 and created > 0 then
  -- A pushed or replaced task starts its history anew: the due time is the only part of the
  -- event that differs between the tasks of a call.
  local ids = {}
  for k = 1, created do ids[k] = zadd[2 * k] end
  local head = int(now) .. '|pushed|'
  local tail = '|' .. history_who(who) .. '|'
  history_note(history, ids, function(k) return head .. zadd[2 * k - 1] .. tail end, true)
end
if who and created > 0 then
  -- The ids are zadd's even entries: nothing was collected per task for this.
  local ids = {}
  for i = 2, math.min(#zadd, 2 * AUDIT_IDS), 2 do ids[#ids + 1] = zadd[i] end
  audit(who, 'push', created, ids, mode == 'replace' and 'replace' or '')
end
return {now, listed}
