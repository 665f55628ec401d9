--[[
  The grant decision. A request is granted when no live holder and no live earlier waiter
  conflicts with it (FIFO) and, for a limited tool, its holders plus the earlier waiters of the
  tool not blocked by a key are under the cap (no head-of-line blocking). Conflicts are found
  from the present set first (one ZMSCORE for the request's keys and their ancestors, one range
  per access for the keys below): a request that overlaps nothing reads no entry at all.
  (ENQUEUE's fast path makes the same two lookups before any of this is defined.)
]]
--- @include "entries"

local GRANTABLE, BLOCKED_BY_KEY, BLOCKED_BY_LIMIT = 1, 0, -2

-- a score bound below `ticket` (math.huge while the request has no ticket yet: everyone is earlier)
local function before(ticket)
  if ticket == math.huge then return '+inf' end
  return '(' .. string.format('%d', ticket)
end

-- whether `above` is `key` or an ancestor of it (the planner's keysOverlap, from above)
local function covers(above, key)
  if above == key then return true end
  if #above >= #key or string.sub(key, 1, #above) ~= above then return false end
  return string.sub(above, -1) == '/' or string.byte(key, #above + 1) == 47
end

-- whether a live exclusive request other than `me` holds, or waits with a ticket below `ticket`
local function earlier_exclusive(ticket, me)
  while true do
    local found = rcall('ZRANGEBYSCORE', exclusiveKey, 0, before(ticket), 'LIMIT', 0, 2)
    local other = found[1]
    if other == me then other = found[2] end
    if not other then return false end
    if alive(other) then return true end
    rcall('ZREM', exclusiveKey, other)
  end
end

local function blocked_by_keys(me, ticket)
  local hits = {}
  for from = 1, m, 500 do
    local scores = rcall('ZMSCORE', presentKey, unpack(members, from, math.min(m, from + 499)))
    for j = 1, #scores do
      if scores[j] then hits[#hits + 1] = members[from + j - 1] end
    end
  end
  for _, hit in ipairs(hits) do
    if hit == '*' then
      if earlier_exclusive(ticket, me) then return true end
    else
      local x = string.sub(hit, 2)
      for i = 1, n do
        if covers(x, keys[i]) then
          if earlier_at(x, 'w', ticket, me) then return true end
          if modes[i] == 'w' and earlier_at(x, 'r', ticket, me) then return true end
        end
      end
    end
  end
  for i = 1, n do
    local first, last = below_first[i], below_last[i]
    if #rcall('ZRANGEBYLEX', presentKey, '[=' .. first, '(=' .. last, 'LIMIT', 0, 1) > 0 then
      if earlier_below(first, last, ticket, me, modes[i] == 'w') then return true end
    end
  end
  return false
end

-- an exclusive request waits for every live holder and every earlier waiter
local function blocked_exclusive(me, ticket)
  while sweep(100) == 100 do end -- what is left in leases is alive
  local holders = rcall('ZCARD', leasesKey) - rcall('ZCARD', queueKey)
  if holders > 0 then return true end
  local found = rcall('ZRANGEBYSCORE', queueKey, 0, before(ticket), 'LIMIT', 0, 2)
  return (found[1] ~= nil and found[1] ~= me) or found[2] ~= nil
end

local function decide(me, ticket)
  if exclusive then
    if blocked_exclusive(me, ticket) then return BLOCKED_BY_KEY end
  elseif blocked_by_keys(me, ticket) then
    return BLOCKED_BY_KEY
  end
  if limit > 0 then
    local taken = tonumber(rcall('HGET', toolHoldersKey, tool) or '0')
    if taken >= limit then return BLOCKED_BY_LIMIT end
    for _, other in ipairs(rcall('ZRANGEBYSCORE', toolWaitingKey, 0, before(ticket))) do
      if other ~= me then
        if rcall('SISMEMBER', keyBlockedKey, other) == 0 and alive(other) then
          taken = taken + 1
          if taken >= limit then return BLOCKED_BY_LIMIT end
        elseif rcall('HEXISTS', requestsKey, other) == 0 then
          rcall('ZREM', toolWaitingKey, other)
        end
      end
    end
  end
  return GRANTABLE
end
