-- claim.lua: hands up to N due tasks to a worker, each under a lease.
-- KEYS (the same nine for every native-queue script, built by Queue::scriptKeys()):
--   [1] pending ZSET  [2] active ZSET  [3] dead ZSET
--   [4] data bucket prefix ("dq:{Q}:d:", bucket number appended: see data_key in common.lua)
--   [5] config HASH   [6] stats HASH   [7] minute counters prefix ("dq:{Q}:m:", minute appended)
--   [8] run HASH (id -> attempts and lease)   [9] errors HASH (id -> last error)
-- ARGV[1] max tasks (1..1000)  ARGV[2] lease ms (0 = the queue's lease_ms, default 30000)
-- ARGV[3] worker name          ARGV[4] lease token (random, no '|'): every task of this call
--   gets it; ack, nack and extend name the task and the token
-- ARGV[5] (optional, since layout 2.8) this shard's share of the queue's flow limits, "K/S":
--   shard K (0-based) of S; absent = "0/1" (an unsharded queue)
-- Reply: {server now ms, next due ms (-1 = nothing pending, or paused), paused (0|1),
--         {id, record ("created|max_attempts|backoff|payload"), due, attempts, id, ...}: four
--         values a task, flat (every task has ARGV[4] as its token),
--         lease deadline ms (when tasks were handed out)}
-- Flow control (since layout 2.8; flow_key in common.lua): with the config's rate or cap set, a
--   claim takes no more than they allow; when they hold back a due task, next due is when the
--   next one may start (a token comes, or the first live lease runs out: an ack that frees a
--   slot also publishes on the wake channel), so a worker sleeps exactly that long.
-- Errors: INVALID when ARGV is malformed; OLD_LAYOUT when a due task is stored in the layout
--   of an older delayq (nothing moves).
-- A paused queue (config paused = "1") hands out nothing, changes nothing and replies next due
--   -1, whatever is pending: no due time is worth sleeping for until resume (config.lua), which
--   publishes the earliest due ms on the wake channel.
-- With the config's history on, each task handed out gets a "claimed" event (history_note).
-- Expiry (since layout 2.9, expires_key in common.lua): a due task past its start-by time (its
-- own, or created + the config's max_age) is not handed out: it goes to dead with the error
-- "expired before it started" (attempts unchanged), or is forgotten when the config's
-- expired_to is "drop"; counted in expired_unstarted (and died when it went to dead).
-- Tasks that go to dead enter through died() (common.lua): the dead bound may drop the oldest.
-- An id in pending whose record is missing or garbled is moved to dead with an error saying
-- so, and a garbage run entry counts as 0 attempts: one broken entry never blocks the queue.
local limit = whole(ARGV[1], 1, 1000)
if limit == nil then
  return redis.error_reply('INVALID claim: max tasks must be 1..1000')
end
-- Checked before anything moves: a task taken out of pending must reach active.
if #ARGV ~= 4 and #ARGV ~= 5 then
  return redis.error_reply('INVALID claim: ARGV is max, lease, worker, token[, share]')
end
local share_k, share_n = 0, 1
if ARGV[5] then
  local k, n = string.match(ARGV[5], '^(%d+)/(%d+)$')
  share_k, share_n = tonumber(k), tonumber(n)
  if not share_k or share_n < 1 or share_k >= share_n then
    return redis.error_reply('INVALID claim: the share must be K/S with K < S')
  end
end
local now = now_ms()
local lease = whole(ARGV[2], 0, MAX_MS)
if lease == nil then return redis.error_reply('INVALID claim: lease ms') end
local worker, token = ARGV[3], ARGV[4]
if token == '' or string.find(token, '|', 1, true) then
  return redis.error_reply('INVALID claim: the token must be non-empty text without |')
end
local config = redis.call('HMGET', KEYS[5], 'paused', 'lease_ms', 'history', 'rate', 'burst', 'cap',
  'order', 'group_cap', 'group_rate', 'max_age', 'expired_to', 'expiry')
if lease == 0 then
  lease = tonumber(config[2]) or 30000
  if lease < 0 then lease = 30000 end
end

local function next_due()
  return earliest(KEYS[1]) or -1
end

if config[1] == '1' then
  -- Not the earliest due time: one already past would have a client that sleeps until next due
  -- claim again at once, over and over, for as long as the pause lasts.
  return {now, -1, 1, {}}
end

-- The token bucket of the rate (nil without one): tokens now, and tokens a ms.
local bucket
local function rate_bucket()
  local n, per = string.match(config[4] or '', '^(%d+)/(%d+)$')
  n, per = tonumber(n), tonumber(per)
  if not n or n < 1 or per < 1 then return nil end
  local burst = tonumber(config[5]) or 0
  if burst < 1 then burst = n end
  burst = burst / share_n
  local speed = n / per / share_n
  local state = redis.call('HMGET', flow_key(''), 'tokens', 'at')
  local tokens, at = tonumber(state[1]), tonumber(state[2])
  if not tokens or not at then
    tokens = burst
  elseif now > at then
    tokens = tokens + (now - at) * speed
  end
  return {tokens = math.min(tokens, burst), speed = speed}
end
-- When a task may start next: the bucket's next token, or the first live lease's end while
-- this shard's share of the cap is taken (then the ack that frees a slot wakes the workers).
local function next_start(cap_share)
  local at = now
  if bucket and bucket.tokens < 1 then
    at = now + math.ceil((1 - bucket.tokens) / bucket.speed)
  end
  if cap_share and redis.call('ZCOUNT', KEYS[2], '(' .. int(now), '+inf') >= cap_share then
    local first = redis.call('ZRANGEBYSCORE', KEYS[2], '(' .. int(now), '+inf', 'WITHSCORES', 'LIMIT', 0, 1)
    redis.call('SET', flow_key('_full'), '1')
    if first[2] then at = math.max(at, tonumber(first[2])) end
  end
  return at
end
local cap_share
do
  local cap = whole(config[6] or '', 1, 1000000)
  if cap then cap_share = math.floor(cap / share_n) + ((share_k < cap % share_n) and 1 or 0) end
end
bucket = rate_bucket()
local allowed = limit
if bucket then allowed = math.min(allowed, math.floor(bucket.tokens)) end
if cap_share then
  allowed = math.min(allowed, cap_share - redis.call('ZCOUNT', KEYS[2], '(' .. int(now), '+inf'))
end
-- Held back: a due task waits only for the limit. Noted for stats ("limited").
local function held(by)
  redis.call('HSET', flow_key(''), 'held_at', int(now), 'held_by', by)
end
if allowed < 1 then
  local first = earliest(KEYS[1])
  if not first then return {now, -1, 0, {}} end
  if first > now then return {now, first, 0, {}} end
  held((bucket and bucket.tokens < 1) and 'rate' or 'cap')
  return {now, next_start(cap_share), 0, {}}
end
limit = allowed

-- Fair order (fair_index in common.lua): the index's newly due tasks join their groups' ready
-- sets, then the groups in the ring give up to FAIR_TURN tasks each in turn (an equal share
-- of `want` when that is more), until `want` are taken; a
-- group at its cap waits in fl:blocked, one out of its rate in fl:later (ZSET group -> when).
-- Returns {id, due, ...} as ZRANGEBYSCORE WITHSCORES would. Stale entries are dropped as they
-- are met, at most 1000 a claim.
-- A group's rate (config group_rate "N/MS", burst N): its bucket in fl:b:GROUP, "tokens|at",
-- expiring once it would be full again, so an idle group keeps no key and gains nothing by
-- going idle. Returns the group's tokens now, and tokens a ms.
-- On a sharded queue each shard keeps its share of a group's rate, as of the queue's: the rate
-- and its burst divided by S (setConfig refuses a burst below S, which would never start).
local group_speed
do
  local n, per = string.match(config[9] or '', '^(%d+)/(%d+)$')
  n, per = tonumber(n), tonumber(per)
  if n and n >= 1 and per >= 1 then group_speed = {n = n / share_n, per_ms = n / per / share_n} end
end
local function group_tokens(group)
  local tokens, at = string.match(redis.call('GET', fair_key('b:' .. group)) or '', '^([^|]+)|(%d+)$')
  tokens, at = tonumber(tokens), tonumber(at)
  if not tokens or not at then return group_speed.n end
  if now > at then tokens = tokens + (now - at) * group_speed.per_ms end
  return math.min(tokens, group_speed.n)
end
local function group_spend(group, tokens, n)
  local left = tokens - n
  local full_in = math.ceil((group_speed.n - left) / group_speed.per_ms) + 1
  redis.call('SET', fair_key('b:' .. group), string.format('%.17g', left) .. '|' .. int(now),
    'PX', full_in)
end

local function fair_take(want, group_cap, deadline)
  -- Groups whose rate let them start again rejoin the ring.
  local rested = redis.call('ZRANGEBYSCORE', fair_key('later'), '-inf', now, 'LIMIT', 0, 1000)
  if #rested > 0 then
    redis.call('ZREM', fair_key('later'), unpack(rested))
    for _, group in ipairs(rested) do
      if redis.call('EXISTS', fair_key('r:' .. group)) == 1 then
        redis.call('ZADD', fair_key('ring'), 'NX', fair_turn(), group)
      end
    end
  end
  local woke = redis.call('ZRANGEBYSCORE', fair_key('wait'), '-inf', now, 'LIMIT', 0, 1000)
  if #woke > 0 then
    redis.call('ZREM', fair_key('wait'), unpack(woke))
    -- Indexed again by their due time now in pending: a task gone is dropped, one rescheduled
    -- later waits again.
    local scores = redis.call('ZMSCORE', KEYS[1], unpack(woke))
    local scored = {}
    for k, id in ipairs(woke) do
      if scores[k] then scored[#scored + 1], scored[#scored + 2] = scores[k], id end
    end
    fair_index(scored, now)
  end
  -- In passes: the ring's first groups, each giving its share of what is still wanted (its
  -- best tasks, ZPOPMIN), checked together, then sent to the back of the ring in their order
  -- (or out of it). Per task that is a ZPOPMIN and a share of a few calls a pass: one call per
  -- group and task each way cost 3× a claim in due order (flowbench).
  local out, passes = {}, 0
  -- Each group's ready key made once a claim, and each tag text parsed once (a group's tags are
  -- mostly one text): a new string costs Lua as much as a small redis.call.
  local ready_keys, tag_groups = {}, {}
  local function ready_key(group)
    local key = ready_keys[group]
    if not key then
      key = fair_key('r:' .. group)
      ready_keys[group] = key
    end
    return key
  end
  while #out < 2 * want and passes < 100 do
    passes = passes + 1
    local left = want - #out / 2
    local groups = redis.call('ZRANGE', fair_key('ring'), 0, left - 1)
    if #groups == 0 then break end
    -- The whole ring was read (fewer than asked), and (below) every group of it looked at.
    local whole_ring, looked = #groups < left, 0
    -- A turn is up to FAIR_TURN tasks (common.lua), or an equal share of what is wanted when
    -- that is more: serving 100 groups one or two tasks each a claim cost 1.7x a claim in due
    -- order, 10 a turn about 1.45x, 20 about 1.3x (docs/design/flow.md "Turns").
    local share = math.max(math.ceil(left / #groups), FAIR_TURN)
    local ids, owners, served, spent, emptied = {}, {}, {}, {}, {}
    for _, group in ipairs(groups) do
      local room = math.min(share, left - #ids)
      if group ~= '' and group_cap then
        local act = fair_key('act:' .. group)
        redis.call('ZREMRANGEBYSCORE', act, '-inf', now) -- leases that ran out hold no slot
        room = math.min(room, group_cap - redis.call('ZCARD', act))
      end
      local tokens = group ~= '' and group_speed and group_tokens(group)
      if tokens then room = math.min(room, math.floor(tokens)) end
      if left - #ids < 1 then
        break -- this pass has all it wants; the rest keep their places
      end
      looked = looked + 1
      if room < 1 and not (tokens and tokens < 1) then
        redis.call('ZREM', fair_key('ring'), group)
        redis.call('SADD', fair_key('blocked'), group)
      elseif room < 1 then
        -- Out of its rate: out of the ring until its next token.
        redis.call('ZREM', fair_key('ring'), group)
        redis.call('ZADD', fair_key('later'), now + math.ceil((1 - tokens) / group_speed.per_ms), group)
      else
        local top = redis.call('ZPOPMIN', ready_key(group), room)
        local n = #ids
        for i = 1, #top, 2 do
          n = n + 1
          ids[n], owners[n] = top[i], group
        end
        served[#served + 1] = group
        -- Fewer than asked: the ready set is empty now, no need to ask (below).
        if #top < 2 * room then emptied[group] = true end
        if tokens then spent[group] = {tokens = tokens, n = 0} end
      end
    end
    if #ids > 0 then
      local scores = redis.call('ZMSCORE', KEYS[1], unpack(ids))
      local tags = redis.call('HMGET', fair_key('tags'), unpack(ids))
      local slots = {}
      for k, id in ipairs(ids) do
        local due = tonumber(scores[k])
        local tag = tags[k] or ''
        local tagged = tag_groups[tag]
        if not tagged then
          local _, g = fair_tag(tags[k])
          tagged = g
          tag_groups[tag] = g
        end
        local group = owners[k]
        -- Stale entries (the task left, is not due, or changed group) are dropped here.
        -- (An id is taken at most once: it is in one ready set for the group its tag names,
        -- and a ZPOPMIN took it out of that one.)
        if due and due <= now and tagged == group then
          -- The score as Redis wrote it: the due ms's digits, as a read of pending gives them.
          out[#out + 1], out[#out + 2] = id, scores[k]
          if group ~= '' and group_cap then
            slots[group] = slots[group] or {}
            slots[group][#slots[group] + 1] = deadline
            slots[group][#slots[group] + 1] = id
          end
          if spent[group] then spent[group].n = spent[group].n + 1 end
        end
      end
      for group, writes in pairs(slots) do
        redis.call('ZADD', fair_key('act:' .. group), unpack(writes))
      end
      for group, s in pairs(spent) do
        if s.n > 0 then group_spend(group, s.tokens, s.n) end
      end
    end
    -- The served groups go to the back of the ring in their order, or leave it with nothing due.
    -- Whether a group has tasks left: known (none) when its ZPOPMIN gave fewer than asked;
    -- else one EXISTS for all of them, which mostly finds every set there (busy groups), and
    -- only when it does not, one a group. An EXISTS a group served was a third of the
    -- commands a task with 100 groups (flowbench).
    local maybe = {}
    for _, group in ipairs(served) do
      if not emptied[group] then maybe[#maybe + 1] = ready_key(group) end
    end
    local all_left = #maybe > 0 and redis.call('EXISTS', unpack(maybe)) == #maybe
    local back, gone, idle = {}, {}, {}
    for _, group in ipairs(served) do
      if not emptied[group] and
          (all_left or redis.call('EXISTS', ready_key(group)) == 1) then
        back[#back + 1] = group
      else
        gone[#gone + 1] = group
        -- Running tasks (slots) exist only under a group cap: config.lua drops them with it.
        if not group_cap or group == '' or
            redis.call('EXISTS', fair_key('act:' .. group)) == 0 then
          idle[#idle + 1] = group
        end
      end
    end
    if #gone > 0 then redis.call('ZREM', fair_key('ring'), unpack(gone)) end
    if #idle > 0 then redis.call('SREM', fair_key('known'), unpack(idle)) end
    -- When the pass looked at the whole ring, the groups left in it are the served ones in their
    -- order: sending them to the back changes no place, so their turns stay (new groups join
    -- after them all, fair_turn). The rewrite was a ZADD of every group a pass.
    if #back > 0 and not (whole_ring and looked == #groups) then
      local last = redis.call('HINCRBY', flow_key(''), 'turn', #back)
      local zadd = {}
      for i, group in ipairs(back) do
        zadd[#zadd + 1], zadd[#zadd + 2] = last - #back + i, group
      end
      redis.call('ZADD', fair_key('ring'), 'XX', unpack(zadd))
    end
  end
  return out
end
-- Fair order's next due: now while a group has due tasks, else the first not yet due, or
-- (groups waiting at their caps) the first lease to run out; their acks also wake workers.
local function fair_next()
  if redis.call('ZCARD', fair_key('ring')) > 0 then return now end
  local first = earliest(fair_key('wait')) or -1
  local rested = earliest(fair_key('later'))
  if rested and (first < 0 or rested < first) then first = rested end
  if redis.call('SCARD', fair_key('blocked')) > 0 then
    local lease_end = redis.call('ZRANGEBYSCORE', KEYS[2], '(' .. int(now), '+inf', 'WITHSCORES', 'LIMIT', 0, 1)
    local at = tonumber(lease_end[2])
    if at and (first < 0 or at < first) then first = at end
  end
  return first
end
local fair = config[7] == 'fair'
if fair then
  next_due = fair_next
end

local due
if fair then
  -- A group's tasks spread over every shard: each keeps its share of the group cap, split as the
  -- queue's cap is (the shares add up to it; setConfig refuses a group cap below S).
  local group_cap = whole(config[8] or '', 1, 1000000)
  if group_cap then
    group_cap = math.floor(group_cap / share_n) + ((share_k < group_cap % share_n) and 1 or 0)
  end
  due = fair_take(limit, group_cap, now + lease)
  -- A due task the index lacks (written by a script that did not index it) would never be
  -- handed out: when nothing is servable and no group waits at its cap, the due tasks of
  -- pending are indexed again (at most 1000) and looked at once more.
  if #due == 0 and redis.call('SCARD', fair_key('blocked')) == 0 and
      redis.call('EXISTS', fair_key('later')) == 0 then
    local stray = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'WITHSCORES', 'LIMIT', 0, 1000)
    if #stray > 0 then
      local scored = {}
      for i = 1, #stray, 2 do scored[#scored + 1] = stray[i + 1]; scored[#scored + 1] = stray[i] end
      fair_index(scored, now)
      due = fair_take(limit, group_cap, now + lease)
    end
  end
else
  due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'WITHSCORES', 'LIMIT', 0, limit)
end
if #due == 0 then return {now, next_due(), 0, {}} end
local ids, records = {}, {}
for i = 1, #due, 2 do
  local id = due[i]
  ids[#ids + 1] = id
  records[#records + 1] = redis.call('HGET', data_key(id), id)
  if not records[#records] and old_layout_task(id) then return old_layout_error() end
end
if fair then
  redis.call('ZREM', KEYS[1], unpack(ids))
else
  -- From -inf, the due tasks are exactly ranks 0..k-1: one call removes them all.
  redis.call('ZREMRANGEBYRANK', KEYS[1], 0, #ids - 1)
end
local runs = redis.call('HMGET', KEYS[8], unpack(ids))
-- Expiry (expires_key in common.lua): looked at only when the queue has a max_age or a task of
-- this shard was pushed with its own start-by time (the config's expiry flag); else no call.
local max_age = whole(config[10] or '', 1, MAX_MS)
local own_expiry = config[12] == '1' and redis.call('HMGET', expires_key(), unpack(ids)) or nil
local drop_expired = config[11] == 'drop'
local expired_ids, expired_drop = {}, {}
-- True when task i (record valid) is claimed after its start-by time: its own (0 = never),
-- else created + max_age.
local function past_start_by(i, record)
  local by = own_expiry and tonumber(own_expiry[i])
  if by == nil and max_age then by = tonumber(string.match(record, '^%w+'), 36) + max_age end
  return by ~= nil and by > 0 and now > by
end
local tasks, dead, errors = {}, {}, {}
local run_entries = {RUN_KEEPER_FIELD, RUN_KEEPER_VALUE}
local broken = 0
local deadline = now + lease
local deadline_text = int(deadline)
local tail = '|' .. token .. '|' .. int(now) .. '|' .. worker
-- Per task only what must be: the record goes out whole (the client reads its fields), and
-- the run entry is joined from texts Redis already gave (the score is the due time). No
-- number becomes text per task: each conversion costs as much as a redis.call's overhead.
for i, id in ipairs(ids) do
  local score, record = due[2 * i], records[i]
  local attempts, attempts_text = 1, '1'
  if runs[i] then
    attempts = parse_run(runs[i]) + 1
    attempts_text = int(attempts)
  end
  if not record or not string.find(record, '^%w+|%d+|[^|]*|') then
    -- No record is written: the task stays recognisably broken, so a requeue cannot turn it
    -- into an empty task (it comes back here and dies again).
    run_entries[#run_entries + 1] = id
    run_entries[#run_entries + 1] = int(attempts - 1) .. '|' .. score .. '|||'
    errors[#errors + 1] = id
    errors[#errors + 1] = 'task data was missing or incomplete when it came due (deleted by hand?)'
    dead[#dead + 1] = int(now)
    dead[#dead + 1] = id
    broken = broken + 1
  elseif (own_expiry or max_age) and past_start_by(i, record) then
    -- Past its start-by time: never handed out. To dead (not started: attempts stay) with
    -- the reason, or forgotten when the queue says drop.
    if drop_expired then
      expired_drop[#expired_drop + 1] = id
    else
      run_entries[#run_entries + 1] = id
      run_entries[#run_entries + 1] = int(attempts - 1) .. '|' .. score .. '|||'
      errors[#errors + 1] = id
      errors[#errors + 1] = EXPIRED_ERROR
      dead[#dead + 1] = int(now)
      dead[#dead + 1] = id
      expired_ids[#expired_ids + 1] = id
    end
  else
    run_entries[#run_entries + 1] = id
    run_entries[#run_entries + 1] = attempts_text .. '|' .. score .. tail
    -- Flat, and without the token the caller sent: a table per task and a fifth value cost
    -- Redis a fifth of a claim to build and write out.
    local t = #tasks
    tasks[t + 1], tasks[t + 2], tasks[t + 3], tasks[t + 4] = id, record, score, attempts
  end
end
redis.call('HSET', KEYS[8], unpack(run_entries))
if #tasks > 0 then
  -- In reverse order: the leases share one deadline, so the set orders them by id, and ids
  -- of one due time come out of pending ascending. While the active set is small Redis keeps
  -- it as a listpack and inserts each member by scanning from the head to its place: in
  -- ascending order each insert would walk past the whole batch (a third of a claim's cost),
  -- in descending order each place is found at once.
  local zadd = {}
  for i = #tasks - 3, 1, -4 do
    zadd[#zadd + 1] = deadline_text
    zadd[#zadd + 1] = tasks[i]
  end
  redis.call('ZADD', KEYS[2], unpack(zadd))
end
if #errors > 0 then redis.call('HSET', KEYS[9], unpack(errors)) end
count(KEYS[6], KEYS[7], 'died', broken + #expired_ids, now)
-- Counted on their own too, so an operator sees that foreign or damaged data turned up.
count(KEYS[6], KEYS[7], 'broken', broken, now)
if #expired_ids + #expired_drop > 0 then
  count(KEYS[6], KEYS[7], 'expired_unstarted', #expired_ids + #expired_drop, now)
  -- Their groups' slots (fair order took them) free; the dropped ones leave no trace.
  fair_stopped(expired_ids, now)
  forget(expired_drop, nil, now)
end
count(KEYS[6], KEYS[7], 'claimed', #tasks / 4, now)
local history = history_limit(config[3])
if history > 0 and #tasks > 0 then
  local ids = {}
  for i = 1, #tasks, 4 do ids[#ids + 1] = tasks[i] end
  local head, mid = int(now) .. '|claimed|', '|' .. history_text(worker, '[|\n\r]') .. '|attempt '
  history_note(history, ids, function(k)
    return head .. tasks[4 * k - 1] .. mid .. tasks[4 * k]
  end)
end
if #expired_ids > 0 and history > 0 then
  history_note(history, expired_ids, function() return history_event(now, 'died', '', '', EXPIRED_ERROR) end)
end
-- Last of the writes to dead: the bound may forget the oldest dead tasks (died in common.lua).
died(dead, now)
local next = next_due()
if bucket or cap_share then
  if bucket then
    bucket.tokens = bucket.tokens - #tasks / 4
    redis.call('HSET', flow_key(''), 'tokens', string.format('%.17g', bucket.tokens), 'at', int(now))
  end
  -- Due tasks left behind wait for the limit: say when the next may start.
  if next >= 0 and next <= now then
    local at = next_start(cap_share)
    if at > now then
      held((bucket and bucket.tokens < 1) and 'rate' or 'cap')
      next = at
    end
  end
end
return {now, next, 0, tasks, deadline}
