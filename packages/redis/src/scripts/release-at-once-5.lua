--[[
  Takes out, in order, several requests that were granted at once with no limit (no record,
  entries at ticket 0). When someone waits in the namespace, a request that a waiter may
  have been held back by (something present overlaps its keys, or an exclusive request waits)
  is named in the answer: RELEASE (flag `+`) then hands on and announces its departure. One
  script for the releases of a coordinator that were made together, when no acquire goes with
  them (GRANT-AT-ONCE takes them out otherwise).

    Input:
      KEYS[1] leases    sorted set: request id -> lease deadline
      KEYS[2] present   lex sorted set: `=K` for every key K with an entry, `*` for exclusive
      KEYS[3] entries   lex sorted set of the entries (see includes/clock.lua)
      KEYS[4] queue     sorted set of the waiting requests
      KEYS[5] exclusive sorted set of the exclusive requests
      ARGV: per request, its id and its packed accesses (see includes/at-once.lua)

    Output:
      the positions (1-based) of the requests whose departure RELEASE must still hand on
]]
local rcall = redis.call
local leasesKey, presentKey, entriesKey, queueKey, exclusiveKey = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local released, first, leave_emptied = #ARGV / 2, 1, false

-- Fast path: one release of one access while nobody waits (see includes/take-out-one)
if released == 1 and not string.find(ARGV[2], '\0', 1, true) and rcall('ZCARD', queueKey) == 0 then
  local id, packed, emptied = ARGV[1], ARGV[2], false
  --- @include "includes/take-out-one"
  if emptied then rcall('ZREM', presentKey, emptied) end
  return {}
end

--- @include "includes/at-once"
--- @include "includes/take-out"

return follow_up
