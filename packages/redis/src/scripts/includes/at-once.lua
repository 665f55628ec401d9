--[[
  The gathered uncontended requests of one coordinator (GRANT-AT-ONCE, RELEASE-AT-ONCE): requests
  that are not exclusive and have no limit, so they have no record and their entries sit at
  ticket 0. Each request takes two ARGV: its id, and its accesses packed as `<mode><key>` joined
  by NUL (`wfs:/a/b` or `wfs:/a\0rfs:/c`; keys never hold NUL, the coordinator refuses them). What
  a lookup needs (the presence members of a key and its ancestors, the bounds of what lies below
  it) is made here from the keys rather than sent: fewer arguments to send, parse and intern.

  Needs `rcall`, `leasesKey`, `presentKey`, `entriesKey`, `queueKey`, `exclusiveKey` and the
  clock (`includes/clock`) defined before it.
]]
local sub, find, byte = string.sub, string.find, string.byte

-- the modes and keys of packed accesses
local function accesses_of(packed)
  local to = find(packed, '\0', 1, true)
  if not to then return { sub(packed, 1, 1) }, { sub(packed, 2) } end
  local modes, keys, from = {}, {}, 1
  while true do
    modes[#modes + 1] = sub(packed, from, from)
    if not to then
      keys[#keys + 1] = sub(packed, from + 1)
      return modes, keys
    end
    keys[#keys + 1] = sub(packed, from + 1, to - 1)
    from = to + 1
    to = find(packed, '\0', from, true)
  end
end

-- the presence members of `folder` and of its ancestors (the planner's keysOverlap: every prefix
-- of a key cut just before a `/`, and just after one), made once per folder and script run: the
-- keys of requests asked together often share their folders. A key's members are its own
-- (`=K`) and those of its folder, the key up to its last `/` (`fs:/a/b` -> `=fs:`, `=fs:/`,
-- `=fs:/a`, `=fs:/a/`), which the caller is told of when first made (`new_member`).
local folders, NO_FOLDER = {}, {}
local function folder_of(key, new_member)
  local last, i = nil, find(key, '/', 1, true)
  while i do
    last = i
    i = find(key, '/', i + 1, true)
  end
  if not last then return NO_FOLDER end
  local folder = sub(key, 1, last)
  local members = folders[folder]
  if members then return members end
  members = {}
  local marked = '=' .. folder
  i = find(folder, '/', 1, true)
  while i do
    members[#members + 1] = sub(marked, 1, i)
    members[#members + 1] = sub(marked, 1, i + 1)
    i = find(folder, '/', i + 1, true)
  end
  folders[folder] = members
  if new_member then
    for j = 1, #members do new_member(members[j]) end
  end
  return members
end

-- the lex range of the presence members strictly below `key` (`=K/` up to `=K0`, `0` being the
-- byte after `/`; for a key ending with `/`, anything longer that starts with it)
local function below_range(key)
  if byte(key, -1) == 47 then return '[=' .. key .. '\1', '(=' .. sub(key, 1, -2) .. '0' end
  return '[=' .. key .. '/', '(=' .. key .. '0'
end

local function anything_below(key)
  local first, last = below_range(key)
  return #rcall('ZRANGEBYLEX', presentKey, first, last, 'LIMIT', '0', '1') > 0
end

-- runs `command` on `key` with `values` (from `from` on), `step` at a time (Lua's stack bounds
-- `unpack`)
local function in_chunks(command, key, values, step, from)
  for first = from or 1, #values, step do
    rcall(command, key, unpack(values, first, math.min(first + step - 1, #values)))
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
local LONG_MEMBER = string.rep('\0', 65)
local function add_all(key, values)
  if #values < 16 then
    in_chunks('ZADD', key, values, 2000)
    return
  end
  rcall('ZADD', key, '0', LONG_MEMBER, unpack(values, 1, math.min(#values, 1998)))
  in_chunks('ZADD', key, values, 2000, 1999)
  rcall('ZREM', key, LONG_MEMBER)
end

-- ZMSCORE of `members` on `key`, a set of the members that have a score
local function scored(key, members)
  local found = {}
  for first = 1, #members, 500 do
    local last = math.min(first + 499, #members)
    local scores = rcall('ZMSCORE', key, unpack(members, first, last))
    for j = 1, #scores do
      if scores[j] then found[members[first + j - 1]] = scores[j] end
    end
  end
  return found
end

--[[
  Takes out the requests at ARGV[first], ARGV[first + 2], ... (`count` of them), in one ZREM per
  set. A key's presence member leaves once it has no entry left: for a write of a request whose
  lease is still alive while nobody waits, without looking (no other live entry can be at a key
  that a live holder writes, and a waiter would be in the queue); else once a lookup finds none.
  Answers the positions (1-based, among these) of the requests that a waiter may have been held
  back by (something present overlaps their keys, or an exclusive request waits): RELEASE (flag
  `+`) then hands on and announces their departure.
]]
local function take_out(first, count)
  local ids, packed, mine = {}, {}, {}
  for r = 1, count do
    ids[r] = ARGV[first + 2 * r - 2]
    packed[r] = ARGV[first + 2 * r - 1]
  end
  local deadlines = scored(leasesKey, ids)
  local nobody_waits = rcall('ZCARD', queueKey) == 0
  local emptied, touched, checked = {}, {}, {}
  local modes_of, keys_of = {}, {}
  for r = 1, count do
    local id = ids[r]
    local modes, keys = accesses_of(packed[r])
    modes_of[r], keys_of[r] = modes, keys
    local alive = nobody_waits and tonumber(deadlines[id] or '-1') >= now
    for i = 1, #keys do
      mine[#mine + 1] = entry(keys[i], modes[i], 0, id)
      if alive and modes[i] == 'w' then
        if not checked[keys[i]] then emptied[#emptied + 1] = '=' .. keys[i] end
        checked[keys[i]] = true
      else
        touched[#touched + 1] = keys[i]
      end
    end
  end
  in_chunks('ZREM', entriesKey, mine, 1000)
  in_chunks('ZREM', leasesKey, ids, 1000)
  for _, key in ipairs(touched) do
    if not checked[key] then
      checked[key] = true
      if #rcall('ZRANGEBYLEX', entriesKey, '[' .. key .. '\0', '(' .. key .. '\1', 'LIMIT', '0', '1') == 0 then
        emptied[#emptied + 1] = '=' .. key
      end
    end
  end
  in_chunks('ZREM', presentKey, emptied, 1000)

  local follow_up = {}
  if nobody_waits then return follow_up end
  local everyone = rcall('ZCARD', exclusiveKey) > 0
  for r = 1, count do
    local keys = keys_of[r]
    local overlaps = everyone
    if not overlaps then
      local members = {}
      for i = 1, #keys do
        members[#members + 1] = '=' .. keys[i]
        for _, member in ipairs(folder_of(keys[i])) do members[#members + 1] = member end
      end
      overlaps = next(scored(presentKey, members)) ~= nil
    end
    for i = 1, #keys do
      if overlaps then break end
      overlaps = anything_below(keys[i])
    end
    if overlaps then follow_up[#follow_up + 1] = r end
  end
  return follow_up
end
