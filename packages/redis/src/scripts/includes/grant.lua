--[[
  Granting: a fencing token that never goes backwards, and the request marked holding.
]]
--- @include "decide"

-- max(last + 1, Redis TIME in µs): increases with every grant, and across a restart that lost
-- the counter or a promoted replica that missed the last grants, as long as the clock does not go back
local function next_token()
  local token = tonumber(rcall('GET', fenceKey) or '0') + 1
  if now_us > token then token = now_us end
  rcall('SET', fenceKey, string.format('%d', token))
  return token
end

local function record(who_channel, ticket, token)
  return tool .. '\t' .. limit .. '\t' .. who_channel .. '\t' .. string.format('%d', ticket) .. '\t' .. token
end

-- marks `who` holding, its lease starting now. `ticket` is 0 for a request granted at once (its
-- entries are written here), else its ticket in the queue (its entries move to ticket 0)
local function grant(who, ticket, who_channel)
  local token = next_token()
  local shown = string.format('%d', token)
  local queued = ticket ~= 0
  if queued or limit > 0 then rcall('HSET', requestsKey, who, record(who_channel, ticket, shown)) end
  if limit > 0 then rcall('HINCRBY', toolHoldersKey, tool, 1) end
  rcall('ZADD', leasesKey, now + lease, who)
  if queued then
    rcall('ZREM', queueKey, who)
    rcall('ZREM', groupKey, who)
    rcall('SREM', keyBlockedKey, who)
    if limit > 0 then rcall('ZREM', toolWaitingKey, who) end
  end
  for i = 1, n do
    local set = modes[i] == 'r' and readsKey or writesKey
    if queued then
      rcall('ZREM', set, entry(keys[i], ticket, who))
    else
      rcall('ZADD', presentKey, 0, '=' .. keys[i])
    end
    rcall('ZADD', set, 0, entry(keys[i], 0, who))
  end
  if exclusive then
    rcall('ZADD', exclusiveKey, 0, who)
    rcall('ZADD', presentKey, 0, '*')
  end
  return token
end
