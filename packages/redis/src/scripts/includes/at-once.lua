--[[
  The gathered uncontended requests of one coordinator (GRANT-AT-ONCE, RELEASE-AT-ONCE): requests
  that are not exclusive and have no limit, so they have no record and their entries sit at
  ticket 0. Each request takes two ARGV: its id, and its accesses packed as `<mode><key>` joined
  by NUL (`wfs:/a/b` or `wfs:/a\0rfs:/c`; keys never hold NUL, the coordinator refuses them). What
  a lookup needs (the presence members of a key and its ancestors, the bounds of what lies below
  it) is made here from the keys rather than sent: fewer arguments to send, parse and intern.

  These scripts are what every uncontended acquire and release costs Redis. In its Lua, each
  table, closure, captured local and new string made per run is an allocation through Redis's
  allocator and work for its collector, and each call of a library function costs about as much,
  together more than the commands: so the requests are read once into flat arrays (one per
  field, not a table per request or per access), the helpers are few, and what only a
  contended path needs is made on that path.

  Reads the requests from ARGV[first] on into `ids` (per request), `modes` and `keys` (per
  access; request r's accesses are starts[r] .. starts[r + 1] - 1) and `requests` (how many).
  Needs `rcall`, `presentKey` and `first` defined before it.
]]
local sub, find = string.sub, string.find
local TICKET_ZERO = '0000000000000000'

local ids, modes, keys, starts, requests = {}, {}, {}, {}, 0
do
  local argv, n = ARGV, 0
  for at = first, #argv, 2 do
    requests = requests + 1
    ids[requests] = argv[at]
    starts[requests] = n + 1
    local packed, from = argv[at + 1], 1
    repeat
      local to = find(packed, '\0', from, true)
      n = n + 1
      modes[n] = sub(packed, from, from)
      keys[n] = sub(packed, from + 1, (to or 0) - 1)
      from = (to or 0) + 1
    until not to
  end
  starts[requests + 1] = n + 1
end

-- the presence members of `folder` and of its ancestors (the planner's keysOverlap: every prefix
-- of a key cut just before a `/`, and just after one), made once per folder and script run: the
-- keys of requests asked together often share their folders. A key's members are its own
-- (`=K`) and those of its folder, the key up to its last `/` (`fs:/a/b` -> `=fs:`, `=fs:/`,
-- `=fs:/a`, `=fs:/a/`); false for a key with no `/`. The second answer is true when they were
-- made by this call (the caller looks them up once).
local folders = {}
local function folder_of(key)
  local last, i = nil, find(key, '/', 1, true)
  while i do
    last = i
    i = find(key, '/', i + 1, true)
  end
  if not last then return false, false end
  local folder = sub(key, 1, last)
  local members = folders[folder]
  if members then return members, false end
  members = {}
  local marked = '=' .. folder
  i = find(folder, '/', 1, true)
  while i do
    members[#members + 1] = sub(marked, 1, i)
    members[#members + 1] = sub(marked, 1, i + 1)
    i = find(folder, '/', i + 1, true)
  end
  folders[folder] = members
  return members, true
end

-- whether a presence member lies strictly below `key` (`=K/` up to `=K0`, `0` being the byte
-- after `/`; for a key ending with `/`, anything longer that starts with it)
local function anything_below(key)
  if sub(key, -1) == '/' then
    return rcall('ZLEXCOUNT', presentKey, '[=' .. key .. '\1', '(=' .. sub(key, 1, -2) .. '0') > 0
  end
  return rcall('ZLEXCOUNT', presentKey, '[=' .. key .. '/', '(=' .. key .. '0') > 0
end

-- runs `command` on `key` with `values` (from `from` on), `step` at a time (Lua's stack bounds
-- `unpack`)
local function in_chunks(command, key, values, step, from)
  local count = #values
  for at = from or 1, count, step do
    local last = at + step - 1
    if last > count then last = count end
    rcall(command, key, unpack(values, at, last))
  end
end

-- ZMSCORE of `members` on `key`, a set of the members that have a score
local function scored(key, members)
  local found, count = {}, #members
  for at = 1, count, 500 do
    local last = at + 499
    if last > count then last = count end
    local scores = rcall('ZMSCORE', key, unpack(members, at, last))
    for j = 1, #scores do
      if scores[j] then found[members[at + j - 1]] = true end
    end
  end
  return found
end
