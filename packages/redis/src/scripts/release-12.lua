--[[
  Takes a request out (released, or given up while waiting), then, when someone waits, hands
  the grant on: the waiters of the request's group (same tool, accesses, limit), in ticket
  order, are granted here while they can be (at most 16; beyond, `~<group>` on the release
  channel tells the rest to try), each told on its own coordinator's channel as
  `+<id> <token> <lease start, Redis ms>` (one message to the coordinator that waits, and no
  renewal needed at once). When a waiter it may have held back still waits, the departure is
  announced on the release channel (`<accesses>\n<tool>\n<group>`, `*` for an exclusive request).

    Input:
      KEYS[1..12], ARGV: see includes/request.lua

    Output:
      how many waiters were handed the grant (0, at once, when nobody waits)
]]
--- @include "includes/request"

local was_there = taken_out or rcall('ZREM', leasesKey, id) == 1

-- Fast path: a request granted at once with no limit has no record and its entries at ticket 0;
-- when nobody waits in the namespace, nothing else is to be done.
if not recorded and not exclusive and not taken_out then
  for i = 1, n do
    rcall('ZREM', entriesKey, entry(keys[i], modes[i], 0, id))
    if #rcall('ZRANGEBYLEX', entriesKey, '[' .. keys[i] .. '\0', '(' .. keys[i] .. '\1', 'LIMIT', 0, 1) == 0 then
      rcall('ZREM', presentKey, '=' .. keys[i])
    end
  end
  if rcall('ZCARD', queueKey) == 0 then return 0 end
end

--- @include "includes/grant"

local FIRST_WAITING = '0000000000000001'

-- whether a waiter that this request may have held back has an entry overlapping its keys
local function waiter_overlaps()
  local scores = rcall('ZMSCORE', presentKey, unpack(members, 1, math.min(m, 500)))
  for j = 1, #scores do
    local hit = members[j]
    if scores[j] and hit ~= '*' then
      local x = sub(hit, 2)
      for i = 1, n do
        if covers(x, keys[i]) then
          for _, mode in ipairs(modes[i] == 'w' and {'r', 'w'} or {'w'}) do
            local first = '[' .. x .. '\0' .. mode .. FIRST_WAITING
            local last = '(' .. x .. '\0' .. (mode == 'r' and 's' or 'x')
            if #rcall('ZRANGEBYLEX', entriesKey, first, last, 'LIMIT', 0, 1) > 0 then return true end
          end
        end
      end
    end
  end
  if m > 500 then return true end
  for i = 1, n do
    if #rcall('ZRANGEBYLEX', presentKey, '[=' .. below_first[i], '(=' .. below_last[i], 'LIMIT', 0, 1) > 0 then return true end
  end
  return false
end

if recorded or exclusive then
  local ticket = 0
  local its = recorded and rcall('HGET', requestsKey, id)
  if its then
    local waiting_ticket, token = string.match(its, '\t(%d*)\t(%d*)$')
    if token == '' then ticket = tonumber(waiting_ticket) end
    rcall('ZREM', groupKey, id)
    if limit > 0 then rcall('ZREM', toolWaitingKey, id) end
  end
  drop(id, its or nil)
  if exclusive and rcall('ZCARD', exclusiveKey) == 0 then rcall('ZREM', presentKey, '*') end
  for i = 1, n do
    rcall('ZREM', entriesKey, entry(keys[i], modes[i], ticket, id))
    drop_if_empty(keys[i])
  end
  if rcall('ZCARD', queueKey) == 0 then return 0 end
end

read_clock()
local handed = 0
for _, next_id in ipairs(rcall('ZRANGE', groupKey, 0, 15)) do
  if not alive(next_id) then
    rcall('ZREM', groupKey, next_id)
  else
    local next_ticket = rcall('ZSCORE', queueKey, next_id)
    if not next_ticket then break end
    next_ticket = tonumber(next_ticket)
    local verdict = decide(next_id, next_ticket)
    if verdict ~= GRANTABLE then
      if verdict == BLOCKED_BY_KEY then rcall('SADD', keyBlockedKey, next_id) end
      break
    end
    local its_channel = string.match(rcall('HGET', requestsKey, next_id) or '', '^.*\t%d+\t(.*)\t%d*\t%d*$') or channel
    local token = grant(next_id, next_ticket, its_channel)
    rcall('PUBLISH', its_channel, '+' .. next_id .. ' ' .. string.format('%d', token) .. ' ' .. string.format('%d', now))
    handed = handed + 1
  end
end
if handed == 16 and rcall('ZCARD', groupKey) > 0 then
  -- more of the group may share the grant (readers): they try themselves
  rcall('PUBLISH', channel, '~' .. groupKey)
end

local concerned = false
if was_there then
  concerned = exclusive or rcall('ZCARD', exclusiveKey) > 0
    or (limit > 0 and rcall('ZCARD', toolWaitingKey) > 0)
    or waiter_overlaps()
end
if concerned then
  rcall('PUBLISH', channel, exclusive and '*' or announced)
else
  announce_removed()
end
return handed
