--[[
  Entries and liveness. An entry is `K \0 ticket(16 digits) id(36)` in the reads or writes set;
  keys never contain NUL (the coordinator refuses them), so an entry is read from its end.
  A request past its lease deadline is dead: it is forgotten when a script meets it, and its
  entries when a lookup meets them.
]]
local removed = false

local function entry(key, ticket, who)
  return key .. '\0' .. string.format('%016d', ticket) .. who
end

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

-- `=key` leaves the present set once no entry of the key is left
local function drop_if_empty(key)
  local first, last = '[' .. key .. '\0', '(' .. key .. '\1'
  if #rcall('ZRANGEBYLEX', readsKey, first, last, 'LIMIT', 0, 1) == 0
    and #rcall('ZRANGEBYLEX', writesKey, first, last, 'LIMIT', 0, 1) == 0 then
    rcall('ZREM', presentKey, '=' .. key)
  end
end

-- whether `set` holds a live entry of exactly `key` with a ticket below `ticket`, not `me`'s
local function earlier_at(set, key, ticket, me)
  local first, last = '[' .. key .. '\0', '(' .. key .. '\1'
  local skip = 0
  while true do
    local found = rcall('ZRANGEBYLEX', set, first, last, 'LIMIT', skip, 1)[1]
    if not found or tonumber(string.sub(found, -52, -37)) >= ticket then return false end
    local who = string.sub(found, -36)
    if who == me then
      skip = skip + 1
    elseif alive(who) then
      return true
    else
      rcall('ZREM', set, found)
    end
  end
end

-- whether `set` holds a live entry strictly below a key (between `first` and `last`) with a
-- ticket below `ticket`, not `me`'s; one lookup per key below (its earliest entry)
local function earlier_below(set, first, last, ticket, me)
  local from, upto = '[' .. first, '(' .. last
  while true do
    local found = rcall('ZRANGEBYLEX', set, from, upto, 'LIMIT', 0, 1)[1]
    if not found then return false end
    local who = string.sub(found, -36)
    if who ~= me and tonumber(string.sub(found, -52, -37)) < ticket then
      if alive(who) then return true end
      rcall('ZREM', set, found)
    else
      -- the earliest entry of this key is mine or not earlier: so are the others of the key
      from = '[' .. string.sub(found, 1, -54) .. '\1'
    end
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
