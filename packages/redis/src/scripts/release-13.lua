--[[
  Takes a request out (released, or given up while waiting), then, when someone waits, hands
  the grant on: the waiters of the request's group (same tool, accesses, limit), in ticket
  order, are granted here while they can be (at most 16; beyond, `~<group>` on the release
  channel tells the rest to try), each told on its own coordinator's channel as
  `+<id> <token> <lease start, Redis ms>` (one message to the coordinator that waits, and no
  renewal needed at once). When a waiter it may have held back still waits, the departure is
  announced on the release channel (`<accesses>\n<tool>\n<group>`, `*` for an exclusive request).

    Input:
      KEYS[1..13], ARGV: see includes/request.lua

    Output:
      how many waiters were handed the grant (0 at once when nobody waits)
]]
--- @include "includes/request"
--- @include "includes/grant"

local FIRST_WAITING = '0000000000000001'

-- whether a waiter that this request may have held back has an entry overlapping its keys
local function waiter_overlaps()
  local scores = rcall('ZMSCORE', presentKey, unpack(members, 1, math.min(m, 500)))
  for j = 1, #scores do
    local hit = members[j]
    if scores[j] and hit ~= '*' then
      local x = string.sub(hit, 2)
      local first, last = '[' .. x .. '\0' .. FIRST_WAITING, '(' .. x .. '\1'
      for i = 1, n do
        if covers(x, keys[i]) then
          if #rcall('ZRANGEBYLEX', writesKey, first, last, 'LIMIT', 0, 1) > 0 then return true end
          if modes[i] == 'w' and #rcall('ZRANGEBYLEX', readsKey, first, last, 'LIMIT', 0, 1) > 0 then return true end
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

local was_there = rcall('ZREM', leasesKey, id) == 1
local ticket = 0
if recorded then
  local its = rcall('HGET', requestsKey, id)
  if its then
    local waiting_ticket, token = string.match(its, '\t(%d*)\t(%d*)$')
    if token == '' then ticket = tonumber(waiting_ticket) end
    drop(id, its)
    rcall('ZREM', groupKey, id)
    if limit > 0 then rcall('ZREM', toolWaitingKey, id) end
  elseif exclusive then
    drop(id, nil)
  end
end
if exclusive and rcall('ZCARD', exclusiveKey) == 0 then rcall('ZREM', presentKey, '*') end
for i = 1, n do
  rcall('ZREM', modes[i] == 'r' and readsKey or writesKey, entry(keys[i], ticket, id))
  drop_if_empty(keys[i])
end
if rcall('ZCARD', queueKey) == 0 then return 0 end

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
