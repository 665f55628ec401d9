--[[
  Takes out the releases gathered with it (as RELEASE-AT-ONCE does), then grants at once, in
  order, each of several requests that overlap nothing present: no entry at their keys, at their
  ancestors or below them, and no exclusive request (so no holder and no waiter can conflict
  with them, FIFO included), nor any request granted before it here. A request that overlaps
  something is left alone, nothing written: it goes through ENQUEUE, and so does every request
  after it here (they were asked after it, and must not be granted before it is queued). One
  script for the uncontended calls of a coordinator that were asked, and given back, together.
  Nothing is read for the releases when nobody waits, and nothing but the presence set for the
  requests (see includes/take-out.lua and includes/at-once.lua).

    Input:
      KEYS[1] fence     the last fencing token
      KEYS[2] leases    sorted set: request id -> lease deadline (Redis time, ms)
      KEYS[3] present   lex sorted set: `=K` for every key K with an entry, `*` for exclusive
      KEYS[4] entries   lex sorted set of the entries (see includes/clock.lua)
      KEYS[5] queue     sorted set of the waiting requests
      KEYS[6] exclusive sorted set of the exclusive requests
      ARGV[1] the lease (ms)
      ARGV[2] how many releases come first
      then per release, then per request to grant: its id and its packed accesses
      (see includes/at-once.lua)

    Output:
      { the positions (1-based) of the releases whose departure RELEASE must still hand on,
        per request to grant its fencing token (> 0, the lease started when the command was
        sent), or NOT_GRANTED (0): it overlaps something, or comes after one that does }
]]
local rcall = redis.call
local fenceKey, leasesKey, presentKey, entriesKey = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local queueKey, exclusiveKey = KEYS[5], KEYS[6]
local lease, released = tonumber(ARGV[1]), tonumber(ARGV[2])
local first, leave_emptied = 3, true
local NOT_GRANTED = 0

--[[
  Fast path: at most one release and one request, of one access each, while nobody waits (a
  process that gives a lock back and asks for the next, one call at a time). Nothing is made but
  what the commands take, and a presence member that the release empties and the request asks
  again is left in place rather than taken out and added back. Else (more requests or accesses,
  or someone waits), the general path below.
]]
local argv = ARGV
if released <= 1 and #argv == 4 + 2 * released and not string.find(argv[#argv], '\0', 1, true)
  and (released == 0 or (not string.find(argv[4], '\0', 1, true) and rcall('ZCARD', queueKey) == 0)) then
  local emptied = false
  if released == 1 then
    local id, packed = argv[3], argv[4]
    --- @include "includes/take-out-one"
  end
  local id, packed = argv[#argv - 1], argv[#argv]
  local mode, key = string.sub(packed, 1, 1), string.sub(packed, 2)
  local mark = '=' .. key
  local kept = emptied == mark
  if emptied and not kept then rcall('ZREM', presentKey, emptied) end
  -- `*`, the key's own member (unless kept: no entry is left at it) and its ancestors' (see
  -- `folder_of` in includes/at-once), in a table made with room for a key two folders deep
  local members = { '*', mark, false, false, false, false, false, false }
  local n = kept and 1 or 2
  local at, last_slash = string.find(key, '/', 1, true), 0
  while at do
    n = n + 1
    members[n] = string.sub(mark, 1, at)
    if at < #key then
      n = n + 1
      members[n] = string.sub(mark, 1, at + 1)
    end
    last_slash = at
    at = string.find(key, '/', at + 1, true)
  end
  local free = true
  local scores = rcall('ZMSCORE', presentKey, unpack(members, 1, n))
  for j = 1, n do
    if scores[j] then
      free = false
      break
    end
  end
  -- something present below it (see `anything_below` in includes/at-once)
  if free then
    if last_slash > 0 and last_slash == #key then
      free = rcall('ZLEXCOUNT', presentKey, '[' .. mark .. '\1', '(' .. string.sub(mark, 1, -2) .. '0') == 0
    else
      free = rcall('ZLEXCOUNT', presentKey, '[' .. mark .. '/', '(' .. mark .. '0') == 0
    end
  end
  if not free then
    if kept then rcall('ZREM', presentKey, mark) end
    return { {}, { NOT_GRANTED } }
  end
  -- numbers are passed to Redis as strings made here (a Lua number is formatted as a float)
  local time = rcall('TIME')
  local now_us = time[1] * 1000000 + time[2]
  rcall('ZADD', entriesKey, '0', key .. '\0' .. mode .. '0000000000000000' .. id)
  if not kept then rcall('ZADD', presentKey, '0', mark) end
  rcall('ZADD', leasesKey, string.format('%d', (now_us - now_us % 1000) / 1000 + lease), id)
  -- max(last + 1, Redis TIME in µs), as includes/clock's next_token
  local last = tonumber(rcall('SET', fenceKey, string.format('%d', now_us), 'GET') or '0')
  if last >= now_us then
    now_us = last + 1
    rcall('SET', fenceKey, string.format('%d', now_us))
  end
  return { {}, { now_us } }
end

--- @include "includes/at-once"
--- @include "includes/take-out"

-- the requests to grant (those after the releases): one ZMSCORE for the presence members of
-- them all, `*`, each key's own (`=K`) and its folder's (see `folder_of`), each folder's once.
-- A member that the releases emptied and that a request here asks again is still in place
-- (see includes/take-out): it is seen as absent, and stays if that request is granted.
local marks, folder_members, wanted = {}, {}, { '*' }
local asked
for i = starts[released + 1], starts[requests + 1] - 1 do
  local mark = '=' .. keys[i]
  marks[i] = mark
  wanted[#wanted + 1] = mark
  local members, made = folder_of(keys[i])
  folder_members[i] = members
  if made then
    for j = 1, #members do wanted[#wanted + 1] = members[j] end
  end
  if emptied[1] then
    asked = asked or {}
    asked[mark] = true
  end
end
local kept = {}
if emptied[1] then
  local gone = {}
  for _, member in ipairs(emptied) do
    if asked[member] then kept[member] = true else gone[#gone + 1] = member end
  end
  in_chunks('ZREM', presentKey, gone, 1000)
end
local present = scored(presentKey, wanted)
for member in pairs(kept) do present[member] = nil end

-- grants in order while nothing overlaps; what is granted here is seen by the requests after it
-- (`here`: the keys granted, `above_here`: those keys and their ancestors, made at the first
-- grant that has requests after it) before anything is written
local answers, granted = {}, 0
local here, above_here
local blocked = present['*'] ~= nil
for r = released + 1, requests do
  local free = not blocked
  for i = starts[r], starts[r + 1] - 1 do
    if not free then break end
    local mark, members = marks[i], folder_members[i]
    -- the key itself, present or granted here, or something granted here below it
    free = not (present[mark] or (here and (here[mark] or above_here[mark])))
    -- an ancestor, present or granted here
    if free and members then
      for j = 1, #members do
        if present[members[j]] or (here and here[members[j]]) then
          free = false
          break
        end
      end
    end
    -- something present below it
    free = free and not anything_below(keys[i])
  end
  if free then
    granted = granted + 1
    answers[#answers + 1] = granted -- its place among the grants: its token once the first is known
    if r < requests then
      here, above_here = here or {}, above_here or {}
      for i = starts[r], starts[r + 1] - 1 do
        here[marks[i]] = true
        above_here[marks[i]] = true
        for _, member in ipairs(folder_members[i] or {}) do above_here[member] = true end
      end
    end
  else
    blocked = true
    answers[#answers + 1] = NOT_GRANTED
  end
end

--[[
  ZADD of `values` (score, member, ...) to `key`, which is left a skip list when many are added.
  Redis keeps a sorted set of under 128 members of at most 64 bytes as a listpack, which every
  lookup, insert and removal scans from its start: with the presence and lease sets of a batch
  (tens of members, looked up and written once per request) that is most of the script's time.
  A member longer than 64 bytes makes it a skip list with a dict (lookups by member at once,
  ranges in log time), and it stays one until it is emptied; that member (NUL bytes, which no
  key or id holds) is added with the first values and taken out again before the script ends.
]]
local function add_all(key, values)
  if #values < 16 then
    in_chunks('ZADD', key, values, 2000)
    return
  end
  local long_member = string.rep('\0', 65)
  rcall('ZADD', key, '0', long_member, unpack(values, 1, math.min(#values, 1998)))
  in_chunks('ZADD', key, values, 2000, 1999)
  rcall('ZREM', key, long_member)
end

-- the granted requests (the first `granted` after the releases): their entries, presence members
-- (but those kept) and leases, then their tokens; kept members of requests not granted leave
if granted > 0 then
  local time = rcall('TIME')
  local now_us = tonumber(time[1]) * 1000000 + tonumber(time[2])
  local deadline = string.format('%d', math.floor(now_us / 1000) + lease)
  local entries, markers, leased = {}, {}, {}
  for r = released + 1, released + granted do
    local id = ids[r]
    for i = starts[r], starts[r + 1] - 1 do
      entries[#entries + 1] = '0'
      entries[#entries + 1] = keys[i] .. '\0' .. modes[i] .. TICKET_ZERO .. id
      if kept[marks[i]] then
        kept[marks[i]] = nil
      else
        markers[#markers + 1] = '0'
        markers[#markers + 1] = marks[i]
      end
    end
    leased[#leased + 1] = deadline
    leased[#leased + 1] = id
  end
  in_chunks('ZADD', entriesKey, entries, 2000) -- entries are longer than 64 bytes: a skip list
  add_all(presentKey, markers)
  add_all(leasesKey, leased)
  -- the tokens follow max(last, Redis TIME in µs - 1), one per grant: one SET ... GET when the
  -- clock is ahead of the last token, as it almost always is; else counted on from the last
  local base = now_us - 1
  local last = tonumber(rcall('SET', fenceKey, string.format('%d', base + granted), 'GET') or '0')
  if last > base then
    base = last
    rcall('SET', fenceKey, string.format('%d', base + granted))
  end
  for r = 1, granted do answers[r] = base + answers[r] end
end
if next(kept) then
  local left = {}
  for member in pairs(kept) do left[#left + 1] = member end
  in_chunks('ZREM', presentKey, left, 1000)
end
return { follow_up, answers }
