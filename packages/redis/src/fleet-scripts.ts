import { createHash } from 'node:crypto';

/**
 * What every script shares. KEYS (see `requestKeys`): 1 seq, 2 fence, 3 requests, 4 leases,
 * 5 queue, 6 holders, 7 exclusive, 8 tool-holders, 9 key-blocked, 10 the tool's waiting list,
 * 11 the request's group, then its indexes. ARGV: 1 id, 2 tool, 3 limit (0 = none),
 * 4 exclusive ('1'/'0'), 5 leaseMs, 6 release channel, 7 announced accesses, 8 how many
 * entered indexes, 9 how many conflicting indexes, then their KEYS positions.
 *
 * A request is granted when no live holder conflicts with it and no live earlier waiter does
 * (FIFO), and, for a limited tool, when its holders plus the earlier waiters of the tool that
 * are not blocked by a key are under the cap (a waiter blocked on a key does not hold back a
 * free call: no head-of-line blocking). Conflicts are read from indexes (one sorted set per
 * key, mode and relation, scored 0 for holders and by ticket for waiters): one decision costs
 * O(accesses × depth × log n), never a pass over the queue. Leases are Redis-time deadlines in
 * one sorted set; a request past its deadline is dead: it is forgotten when met (a sweep of at
 * most 64 per script, and whenever an index lookup finds it), and an index entry whose request
 * is gone is dropped when a lookup meets it.
 */
const COMMON = `
local time = redis.call('TIME')
local now_us = tonumber(time[1]) * 1000000 + tonumber(time[2])
local now = math.floor(now_us / 1000)
local id, tool, limit, exclusive = ARGV[1], ARGV[2], tonumber(ARGV[3]), ARGV[4] == '1'
local lease, channel, announced = tonumber(ARGV[5]), ARGV[6], ARGV[7]
local n_entered, n_conflicting = tonumber(ARGV[8]), tonumber(ARGV[9])
local entered, conflicting = {}, {}
for i = 1, n_entered do entered[i] = KEYS[tonumber(ARGV[9 + i])] end
for i = 1, n_conflicting do conflicting[i] = KEYS[tonumber(ARGV[9 + n_entered + i])] end
local removed = false

local function forget(other)
  local record = redis.call('HGET', KEYS[3], other)
  redis.call('HDEL', KEYS[3], other)
  redis.call('ZREM', KEYS[4], other)
  redis.call('ZREM', KEYS[5], other)
  redis.call('ZREM', KEYS[7], other)
  redis.call('SREM', KEYS[9], other)
  if redis.call('SREM', KEYS[6], other) == 1 and record then
    local its_tool = string.match(record, '^([^\\t]*)')
    if redis.call('HINCRBY', KEYS[8], its_tool, -1) <= 0 then redis.call('HDEL', KEYS[8], its_tool) end
  end
  removed = true
end

local function sweep()
  local dead = redis.call('ZRANGEBYSCORE', KEYS[4], '-inf', '(' .. now, 'LIMIT', 0, 64)
  for _, other in ipairs(dead) do forget(other) end
end

local function alive(other)
  local deadline = redis.call('ZSCORE', KEYS[4], other)
  if deadline and tonumber(deadline) >= now then return true end
  if redis.call('HEXISTS', KEYS[3], other) == 1 then forget(other) end
  return false
end

-- whether the sorted set holds a live entry other than me scored in [0, ticket): a holder or an earlier waiter
local function any_before(set, ticket, me)
  while true do
    local found = redis.call('ZRANGEBYSCORE', set, 0, '(' .. ticket, 'LIMIT', 0, 2)
    local other = found[1]
    if other == me then other = found[2] end
    if not other then return false end
    if alive(other) then return true end
    redis.call('ZREM', set, other)
  end
end

local function any_holder()
  while true do
    local other = redis.call('SRANDMEMBER', KEYS[6])
    if not other then return false end
    if alive(other) then return true end
    redis.call('SREM', KEYS[6], other)
  end
end

-- 1 granted-able, 0 blocked by a key (or the exclusive lock), -2 blocked by the limit only
local function decide(me, ticket)
  if exclusive then
    if any_holder() or any_before(KEYS[5], ticket, me) then return 0 end
  else
    if any_before(KEYS[7], ticket, me) then return 0 end
    for _, set in ipairs(conflicting) do
      if any_before(set, ticket, me) then return 0 end
    end
  end
  if limit > 0 then
    local taken = tonumber(redis.call('HGET', KEYS[8], tool) or '0')
    if taken >= limit then return -2 end
    for _, other in ipairs(redis.call('ZRANGEBYSCORE', KEYS[10], 0, '(' .. ticket)) do
      if other ~= me then
        if redis.call('SISMEMBER', KEYS[9], other) == 0 and alive(other) then
          taken = taken + 1
          if taken >= limit then return -2 end
        elseif redis.call('HEXISTS', KEYS[3], other) == 0 then
          redis.call('ZREM', KEYS[10], other)
        end
      end
    end
  end
  return 1
end

local function next_token()
  local token = tonumber(redis.call('GET', KEYS[2]) or '0') + 1
  if now_us > token then token = now_us end
  redis.call('SET', KEYS[2], string.format('%d', token))
  return token
end

-- marks a request holding: in the indexes with score 0; \`queued\` when it was waiting
local function grant(me, queued)
  local token = next_token()
  redis.call('HSET', KEYS[3], me, tool .. '\\t' .. string.format('%d', token))
  redis.call('SADD', KEYS[6], me)
  redis.call('HINCRBY', KEYS[8], tool, 1)
  if queued then
    redis.call('ZREM', KEYS[5], me)
    redis.call('ZREM', KEYS[10], me)
    redis.call('ZREM', KEYS[11], me)
    redis.call('SREM', KEYS[9], me)
    redis.call('ZADD', KEYS[4], now + lease, me)
  end
  if exclusive then redis.call('ZADD', KEYS[7], 0, me) end
  for _, set in ipairs(entered) do redis.call('ZADD', set, 0, me) end
  return token
end

local function try(me, ticket)
  local verdict = decide(me, ticket)
  if verdict == 1 then return grant(me, true) end
  if verdict == 0 then redis.call('SADD', KEYS[9], me) else redis.call('SREM', KEYS[9], me) end
  return 0
end

local function announce_removed()
  if removed and redis.call('ZCARD', KEYS[5]) > 0 then redis.call('PUBLISH', channel, '*') end
end
`;

/**
 * Tries a request and grants it at once (its token, > 0), or queues it (0: it waits). Granted
 * at once, it is entered in its indexes as a holder directly, never as a waiter first.
 */
export const ENQUEUE_SCRIPT = `${COMMON}
sweep()
local ticket = redis.call('INCR', KEYS[1])
redis.call('HSET', KEYS[3], id, tool)
redis.call('ZADD', KEYS[4], now + lease, id)
local verdict = decide(id, ticket)
if verdict == 1 then
  local token = grant(id, false)
  announce_removed()
  return token
end
redis.call('ZADD', KEYS[5], ticket, id)
redis.call('ZADD', KEYS[11], ticket, id)
if exclusive then redis.call('ZADD', KEYS[7], ticket, id) end
if limit > 0 then redis.call('ZADD', KEYS[10], ticket, id) end
for _, set in ipairs(entered) do redis.call('ZADD', set, ticket, id) end
if verdict == 0 then redis.call('SADD', KEYS[9], id) end
announce_removed()
return 0
`;

/**
 * Renews a waiting request's lease and tries it again: its token (> 0, also when it was handed
 * the grant meanwhile), 0 (it waits) or -1 (its entry is gone: it expired).
 */
export const RETRY_SCRIPT = `${COMMON}
sweep()
if not alive(id) then announce_removed() return -1 end
local record = redis.call('HGET', KEYS[3], id)
local held = string.match(record, '\\t(%d+)$')
if held then return tonumber(held) end
redis.call('ZADD', KEYS[4], 'XX', now + lease, id)
local ticket = redis.call('ZSCORE', KEYS[5], id)
if not ticket then forget(id) announce_removed() return -1 end
local answer = try(id, tonumber(ticket))
announce_removed()
return answer
`;

/**
 * Takes a request out (released, or given up while waiting), then hands the grant on: the
 * waiters of the same group (same tool, accesses, limit), in ticket order, are granted here
 * while they can be (at most 16; beyond, \`~<group>\` tells the rest to try), each announced as
 * \`+<id> <token>\` (one round trip from release to the next holder's start, no retry). When a waiter it
 * conflicted with (or of its tool, or an exclusive one) still waits, what left is announced as
 * \`<accesses>\\n<tool>\\n<group>\` (\`*\` for an exclusive request) so the waiters it may unblock
 * try again.
 */
export const RELEASE_SCRIPT = `${COMMON}
sweep()
local swept = removed
local was_there = redis.call('HEXISTS', KEYS[3], id) == 1
forget(id)
redis.call('ZREM', KEYS[10], id)
redis.call('ZREM', KEYS[11], id)
for _, set in ipairs(entered) do redis.call('ZREM', set, id) end
removed = swept
local handed = 0
local next_ones = redis.call('ZRANGE', KEYS[11], 0, 15)
for _, next_id in ipairs(next_ones) do
  if not alive(next_id) then
    redis.call('ZREM', KEYS[11], next_id)
  else
    local ticket = redis.call('ZSCORE', KEYS[5], next_id)
    if not ticket then break end
    local verdict = decide(next_id, tonumber(ticket))
    if verdict ~= 1 then
      if verdict == 0 then redis.call('SADD', KEYS[9], next_id) end
      break
    end
    redis.call('PUBLISH', channel, '+' .. next_id .. ' ' .. string.format('%d', grant(next_id, true)))
    handed = handed + 1
  end
end
if handed == 16 and redis.call('ZCARD', KEYS[11]) > 0 then
  -- more of the group may share the grant (readers): they try themselves
  redis.call('PUBLISH', channel, '~' .. KEYS[11])
end
-- announce the departure only when someone waits for it: a waiter among the requests it
-- conflicted with, a waiter of its tool (limits), an exclusive waiter (it waits for everyone)
local function someone_waits_in(set)
  return #redis.call('ZRANGEBYSCORE', set, 1, '+inf', 'LIMIT', 0, 1) > 0
end
local concerned = false
if was_there and redis.call('ZCARD', KEYS[5]) > 0 then
  if exclusive then
    concerned = redis.call('ZCARD', KEYS[5]) > 0
  else
    concerned = someone_waits_in(KEYS[7]) or redis.call('ZCARD', KEYS[10]) > 0
    for _, set in ipairs(conflicting) do
      if concerned then break end
      concerned = someone_waits_in(set)
    end
  end
end
if concerned then
  if exclusive then
    redis.call('PUBLISH', channel, '*')
  else
    redis.call('PUBLISH', channel, announced .. '\\n' .. tool .. '\\n' .. KEYS[11])
  end
else
  announce_removed()
end
return handed
`;

/**
 * Extends a granted lease: 1, or 0 when it is gone or past its deadline (then it is lost: the
 * waiters may already have been granted its keys). KEYS: leases, holders. ARGV: id, leaseMs.
 */
export const RENEW_SCRIPT = `
local time = redis.call('TIME')
local now = math.floor((tonumber(time[1]) * 1000000 + tonumber(time[2])) / 1000)
local deadline = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not deadline or tonumber(deadline) < now or redis.call('SISMEMBER', KEYS[2], ARGV[1]) == 0 then
  return 0
end
redis.call('ZADD', KEYS[1], 'XX', now + tonumber(ARGV[2]), ARGV[1])
return 1
`;

/** A Lua script with its SHA1, run with EVALSHA (falling back to EVAL after a server restart). */
export interface FleetScript {
  readonly source: string;
  readonly sha: string;
}

/** Pairs a script with its SHA1. */
export function fleetScript(source: string): FleetScript {
  return { source, sha: createHash('sha1').update(source).digest('hex') };
}

/** The coordinator's scripts, loaded (`SCRIPT LOAD`) on every connect before any is run. */
export const ENQUEUE = fleetScript(ENQUEUE_SCRIPT);
export const RETRY = fleetScript(RETRY_SCRIPT);
export const RELEASE = fleetScript(RELEASE_SCRIPT);
export const RENEW = fleetScript(RENEW_SCRIPT);
export const FLEET_SCRIPTS: readonly FleetScript[] = [ENQUEUE, RETRY, RELEASE, RENEW];
