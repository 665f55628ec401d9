--[[
  Entries and liveness, for the paths that meet other requests. An entry is
  `K \0 mode ticket(16 digits) id(36)`; keys never contain NUL (the coordinator refuses them),
  so an entry is read from its end. A request past its lease deadline is dead: it is forgotten
  when a script meets it, and its entries when a lookup meets them.
]]
local removed = false
local sub = string.sub

-- removes a request's own records (not its entries, tool-waiting and group places: those are
-- dropped when met); `record` is what requests held for it, if anything
local function drop(who, record)
  rcall('ZREM', leasesKey, who)
  rcall('ZREM', queueKey, who)
  rcall('ZREM', exclusiveKey, who)
  rcall('SREM', keyBlockedKey, who)
  if record then
    rcall('HDEL', requestsKey, who)
    local its_tool, its_limit, _, _, its_token = string.match(record, '^(.*)\t(%d+)\t(.*)\t(%d*)\t(%d*)$')
    if its_token ~= '' and its_limit ~= '0' then
      if rcall('HINCRBY', toolHoldersKey, its_tool, -1) <= 0 then rcall('HDEL', toolHoldersKey, its_tool) end
    end
  end
end

local function forget(other)
  drop(other, rcall('HGET', requestsKey, other))
  removed = true
end

local function alive(other)
  local deadline = rcall('ZSCORE', leasesKey, other)
  if deadline and tonumber(deadline) >= now then return true end
  forget(other)
  return false
end

-- whether a live entry of exactly `key` in `mode`, with a ticket below `ticket`, is not `me`'s
local function earlier_at(key, mode, ticket, me)
  local first = '[' .. key .. '\0' .. mode
  local last = '(' .. key .. '\0' .. (mode == 'r' and 's' or 'x')
  local skip = 0
  while true do
    local found = rcall('ZRANGEBYLEX', entriesKey, first, last, 'LIMIT', skip, 1)[1]
    if not found or tonumber(sub(found, -52, -37)) >= ticket then return false end
    local who = sub(found, -36)
    if who == me then
      skip = skip + 1
    elseif alive(who) then
      return true
    else
      rcall('ZREM', entriesKey, found)
    end
  end
end

-- whether a live entry strictly below a key (between `first` and `last`), a write (or, with
-- `reads_too`, any), with a ticket below `ticket`, is not `me`'s; one lookup per key and mode
-- below (the earliest entry of each)
local function earlier_below(first, last, ticket, me, reads_too)
  local from, upto = '[' .. first, '(' .. last
  while true do
    local found = rcall('ZRANGEBYLEX', entriesKey, from, upto, 'LIMIT', 0, 1)[1]
    if not found then return false end
    local key, mode = sub(found, 1, -55), sub(found, -53, -53)
    local who = sub(found, -36)
    if (mode == 'w' or reads_too) and who ~= me and tonumber(sub(found, -52, -37)) < ticket then
      if alive(who) then return true end
      rcall('ZREM', entriesKey, found)
    elseif mode == 'r' then
      from = '[' .. key .. '\0w' -- this key's writes
    else
      from = '[' .. key .. '\1' -- the next key
    end
  end
end

-- `=key` leaves the present set once no entry of the key is left
local function drop_if_empty(key)
  if #rcall('ZRANGEBYLEX', entriesKey, '[' .. key .. '\0', '(' .. key .. '\1', 'LIMIT', 0, 1) == 0 then
    rcall('ZREM', presentKey, '=' .. key)
  end
end

local function announce_removed()
  if removed and rcall('ZCARD', queueKey) > 0 then rcall('PUBLISH', channel, '*') end
end

-- forgets up to `most` requests past their deadline
local function sweep(most)
  local dead = rcall('ZRANGEBYSCORE', leasesKey, '-inf', '(' .. now, 'LIMIT', 0, most)
  for _, other in ipairs(dead) do forget(other) end
  return #dead
end
