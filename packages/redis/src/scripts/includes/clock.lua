--[[
  The clock, entries and fencing tokens: what every request script needs, fast paths included.
  An entry is `K \0 mode ticket(16 digits) id(36)`, one per access of a request, in the entries set.
]]
local now, now_us
local function read_clock()
  local time = rcall('TIME')
  now_us = tonumber(time[1]) * 1000000 + tonumber(time[2])
  now = math.floor(now_us / 1000)
end

-- the ticket of every entry granted at once, formatted once rather than per entry
local TICKET_ZERO = string.format('%016d', 0)
local function entry(key, mode, ticket, who)
  if ticket == 0 then return key .. '\0' .. mode .. TICKET_ZERO .. who end
  return key .. '\0' .. mode .. string.format('%016d', ticket) .. who
end

-- max(last + 1, Redis TIME in µs): increases with every grant, and across a restart that lost
-- the counter or a promoted replica that missed the last grants, as long as the clock does not
-- go back. One command when the clock is ahead of the last token, as it almost always is.
local function next_token()
  local shown = string.format('%d', now_us)
  local last = tonumber(rcall('SET', fenceKey, shown, 'GET') or '0')
  if last < now_us then return now_us end
  rcall('SET', fenceKey, string.format('%d', last + 1))
  return last + 1
end
