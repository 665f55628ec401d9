--[[
  Asks for a request's accesses: grants them at once, or queues the request.

    Input:
      KEYS[1..12], ARGV: see includes/request.lua

    Output:
      token               > 0: granted at once (its lease started when the command was sent)
      {ticket, redisNow}  queued: it waits with this ticket; `redisNow` (ms) is when this ran,
                          so that a hand-off's lease start can be read on the local clock
]]
--- @include "includes/request"

read_clock()

-- Fast path: nothing present overlaps the request (no entry at its keys, their ancestors or
-- below them, no exclusive request), no limit: it is granted with a handful of commands.
local function overlaps_nothing()
  if exclusive or limit > 0 then return false end
  for _, score in ipairs(rcall('ZMSCORE', presentKey, unpack(members, 1, math.min(m, 500)))) do
    if score then return false end
  end
  if m > 500 then return false end
  for i = 1, n do
    if #rcall('ZRANGEBYLEX', presentKey, '[=' .. below_first[i], '(=' .. below_last[i], 'LIMIT', 0, 1) > 0 then
      return false
    end
  end
  return true
end

if overlaps_nothing() then
  local token = next_token()
  rcall('ZADD', leasesKey, now + lease, id)
  for i = 1, n do
    rcall('ZADD', entriesKey, 0, entry(keys[i], modes[i], 0, id))
    rcall('ZADD', presentKey, 0, '=' .. keys[i])
  end
  return token
end

--- @include "includes/grant"

local verdict = decide(id, math.huge)
if verdict ~= GRANTABLE and sweep(16) > 0 then
  -- something it met, or something dead in the way of its limit, was forgotten: look again
  verdict = decide(id, math.huge)
end
if verdict == GRANTABLE then
  local token = grant(id, 0, ownChannel)
  announce_removed()
  return token
end

local ticket = rcall('INCR', seqKey)
rcall('HSET', requestsKey, id, record(ownChannel, ticket, ''))
rcall('ZADD', leasesKey, now + lease, id)
rcall('ZADD', queueKey, ticket, id)
rcall('ZADD', groupKey, ticket, id)
if exclusive then
  rcall('ZADD', exclusiveKey, ticket, id)
  rcall('ZADD', presentKey, 0, '*')
end
if limit > 0 then rcall('ZADD', toolWaitingKey, ticket, id) end
for i = 1, n do
  rcall('ZADD', entriesKey, 0, entry(keys[i], modes[i], ticket, id))
  rcall('ZADD', presentKey, 0, '=' .. keys[i])
end
if verdict == BLOCKED_BY_KEY then rcall('SADD', keyBlockedKey, id) end
announce_removed()
return {ticket, now}
