--[[
  Tries a waiting request again (woken by a departure, or its fallback poll), renewing its
  waiting lease.

    Input:
      KEYS[1..12], ARGV: see includes/request.lua

    Output:
      token               > 0: granted (now, or by a hand-off whose message it missed; either
                          way its lease restarts now)
      {ticket, redisNow}  it still waits
      -1                  its entry is gone (it expired): it must queue again
]]
--- @include "includes/request"
--- @include "includes/grant"

local EXPIRED = -1

read_clock()
sweep(16)
if not alive(id) then
  announce_removed()
  return EXPIRED
end
rcall('ZADD', leasesKey, 'XX', now + lease, id)
local held = string.match(rcall('HGET', requestsKey, id) or '', '\t(%d+)$')
if held then return tonumber(held) end
local ticket = tonumber(rcall('ZSCORE', queueKey, id) or '0')
if ticket == 0 then
  forget(id)
  announce_removed()
  return EXPIRED
end
local verdict = decide(id, ticket)
if verdict == GRANTABLE then
  local token = grant(id, ticket, ownChannel)
  announce_removed()
  return token
end
if verdict == BLOCKED_BY_KEY then rcall('SADD', keyBlockedKey, id) else rcall('SREM', keyBlockedKey, id) end
announce_removed()
return {ticket, now}
