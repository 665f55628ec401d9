--[[
  Asks for a request's accesses: grants them at once, or queues the request.

    Input:
      KEYS[1..13], ARGV: see includes/request.lua

    Output:
      token               > 0: granted at once (its lease started when the command was sent)
      {ticket, redisNow}  queued: it waits with this ticket; `redisNow` (ms) is when this ran,
                          so that a hand-off's lease start can be read on the local clock
]]
--- @include "includes/request"
--- @include "includes/grant"

read_clock()
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
  rcall('ZADD', modes[i] == 'r' and readsKey or writesKey, 0, entry(keys[i], ticket, id))
  rcall('ZADD', presentKey, 0, '=' .. keys[i])
end
if verdict == BLOCKED_BY_KEY then rcall('SADD', keyBlockedKey, id) end
announce_removed()
return {ticket, now}
