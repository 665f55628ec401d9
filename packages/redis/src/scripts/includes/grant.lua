--[[
  Granting on the paths that meet other requests: the request marked holding.
]]
--- @include "decide"

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
    if queued then
      rcall('ZREM', entriesKey, entry(keys[i], modes[i], ticket, who))
    else
      rcall('ZADD', presentKey, 0, '=' .. keys[i])
    end
    rcall('ZADD', entriesKey, 0, entry(keys[i], modes[i], 0, who))
  end
  if exclusive then
    rcall('ZADD', exclusiveKey, 0, who)
    rcall('ZADD', presentKey, 0, '*')
  end
  return token
end
