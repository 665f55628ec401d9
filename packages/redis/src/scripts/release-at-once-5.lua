--[[
  Takes out, in order, several requests that were granted at once with no limit (no record,
  entries at ticket 0). When someone waits in the namespace, a request that a waiter may
  have been held back by (something present overlaps its keys, or an exclusive request waits)
  is named in the answer: RELEASE (flag `+`) then hands on and announces its departure. One
  script for the releases of a coordinator that were made together.

    Input:
      KEYS[1] leases    sorted set: request id -> lease deadline
      KEYS[2] present   lex sorted set: `=K` for every key K with an entry, `*` for exclusive
      KEYS[3] entries   lex sorted set of the entries (see includes/clock.lua)
      KEYS[4] queue     sorted set of the waiting requests
      KEYS[5] exclusive sorted set of the exclusive requests
      ARGV: per request, as GRANT-AT-ONCE takes them (its id, n, m, accesses, bounds, members)

    Output:
      the positions (1-based) of the requests whose departure RELEASE must still hand on
]]
local rcall = redis.call
local leasesKey, presentKey, entriesKey, queueKey, exclusiveKey = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
--- @include "includes/clock"

-- removes `members` from `key`: one ZREM per thousand rather than one per request
local function remove_all(key, members)
  for first = 1, #members, 1000 do
    rcall('ZREM', key, unpack(members, first, math.min(first + 999, #members)))
  end
end

local ids, touched, requests, mine = {}, {}, {}, {}
local at = 1
while at <= #ARGV do
  local id, n, m = ARGV[at], tonumber(ARGV[at + 1]), tonumber(ARGV[at + 2])
  for i = 0, n - 1 do
    local mode, key = ARGV[at + 3 + 2 * i], ARGV[at + 4 + 2 * i]
    mine[#mine + 1] = entry(key, mode, 0, id)
    touched[key] = true
  end
  ids[#ids + 1] = id
  requests[#requests + 1] = at
  at = at + 3 + 4 * n + m
end
remove_all(entriesKey, mine)
remove_all(leasesKey, ids)
local emptied = {}
for key in pairs(touched) do
  if #rcall('ZRANGEBYLEX', entriesKey, '[' .. key .. '\0', '(' .. key .. '\1', 'LIMIT', 0, 1) == 0 then
    emptied[#emptied + 1] = '=' .. key
  end
end
remove_all(presentKey, emptied)

local follow_up = {}
if rcall('ZCARD', queueKey) == 0 then return follow_up end
local everyone = rcall('ZCARD', exclusiveKey) > 0
for r, start in ipairs(requests) do
  local n, m = tonumber(ARGV[start + 1]), tonumber(ARGV[start + 2])
  local overlaps = everyone or m > 500
  if not overlaps then
    local first_member = start + 3 + 4 * n
    for _, score in ipairs(rcall('ZMSCORE', presentKey, unpack(ARGV, first_member, first_member + m - 1))) do
      if score then overlaps = true break end
    end
  end
  for i = 0, n - 1 do
    if overlaps then break end
    local first, last = ARGV[start + 3 + 2 * n + 2 * i], ARGV[start + 4 + 2 * n + 2 * i]
    overlaps = #rcall('ZRANGEBYLEX', presentKey, '[=' .. first, '(=' .. last, 'LIMIT', 0, 1) > 0
  end
  if overlaps then follow_up[#follow_up + 1] = r end
end
return follow_up
