import { createHash } from 'node:crypto';

/**
 * The grant rule, in Lua, shared by {@link ENQUEUE_SCRIPT} and {@link RETRY_SCRIPT}.
 *
 * Every request (waiting or holding) is one entry of the queue, ordered by ticket. A request is
 * granted when, scanning every other live entry:
 * - no holder conflicts with it, and no earlier-queued waiter conflicts with it (FIFO: a
 *   writer queued behind readers holds back every later reader of what it writes);
 * - for a limited tool, holders of that tool plus earlier-queued waiters of it are below the cap.
 * Two requests conflict when one of them writes a key that overlaps a key of the other
 * (`keysOverlap` of the planner: equal, ancestor or descendant along `/`). Entries whose hash
 * has expired (a process that died) are dropped from the queue as the scan meets them.
 * Returns the fencing token (> 0) when granted, 0 when it must wait, -1 when the request's own
 * lease has expired. The ids of waiting requests are kept in a set, so that departures are
 * announced only when someone waits: dropping an expired entry is announced as `*`.
 */
const GRANT_RULE = `
local function covers(a, b)
  if a == b then return true end
  local la = #a
  if #b <= la or string.sub(b, 1, la) ~= a then return false end
  return string.sub(a, la, la) == '/' or string.sub(b, la + 1, la + 1) == '/'
end
local function conflicting(mine, other)
  for _, a in ipairs(mine) do
    for _, b in ipairs(other) do
      if (a[1] == 'w' or b[1] == 'w') and (covers(a[2], b[2]) or covers(b[2], a[2])) then
        return true
      end
    end
  end
  return false
end
local function next_token(fence)
  local time = redis.call('TIME')
  local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
  local token = tonumber(redis.call('GET', fence) or '0') + 1
  if now > token then token = now end
  redis.call('SET', fence, string.format('%d', token))
  return token
end
local removed = false
local function decide(queue, fence, me, id, lease, limit, prefix, waiting)
  local mine = redis.call('HMGET', me, 'acc', 'tool', 'held', 'token')
  if not mine[1] then return -1 end
  if mine[3] == '1' then return tonumber(mine[4]) end
  local myTicket = redis.call('ZSCORE', queue, id)
  if not myTicket then return -1 end
  myTicket = tonumber(myTicket)
  local myAcc = cjson.decode(mine[1])
  local taken = 0
  local entries = redis.call('ZRANGE', queue, 0, -1, 'WITHSCORES')
  for i = 1, #entries, 2 do
    local other = entries[i]
    if other ~= id then
      local o = redis.call('HMGET', prefix .. other, 'acc', 'tool', 'held')
      if not o[1] then
        redis.call('ZREM', queue, other)
        redis.call('SREM', waiting, other)
        removed = true
      else
        local holding = o[3] == '1'
        if holding or tonumber(entries[i + 1]) < myTicket then
          if conflicting(myAcc, cjson.decode(o[1])) then return 0 end
          if limit > 0 and o[2] == mine[2] then taken = taken + 1 end
        end
      end
    end
  end
  if limit > 0 and taken >= limit then return 0 end
  local token = next_token(fence)
  redis.call('HSET', me, 'held', '1', 'token', string.format('%d', token))
  redis.call('PEXPIRE', me, lease)
  return token
end
local function try_grant(queue, fence, me, id, lease, limit, prefix, channel, waiting)
  local answer = decide(queue, fence, me, id, lease, limit, prefix, waiting)
  if answer == 0 then
    redis.call('SADD', waiting, id)
  else
    redis.call('SREM', waiting, id)
  end
  if removed and redis.call('SCARD', waiting) > 0 then redis.call('PUBLISH', channel, '*') end
  return answer
end
`;

/**
 * Queues a request and tries it at once. KEYS: seq, queue, request hash, fence, waiting set.
 * ARGV: id, tool, accesses (JSON `[["r"|"w", key], ...]`), leaseMs, limit (0 = none), request prefix,
 * release channel.
 */
export const ENQUEUE_SCRIPT = `${GRANT_RULE}
local ticket = redis.call('INCR', KEYS[1])
redis.call('HSET', KEYS[3], 'acc', ARGV[3], 'tool', ARGV[2], 'held', '0')
redis.call('PEXPIRE', KEYS[3], ARGV[4])
redis.call('ZADD', KEYS[2], ticket, ARGV[1])
return try_grant(KEYS[2], KEYS[4], KEYS[3], ARGV[1], ARGV[4], tonumber(ARGV[5]), ARGV[6], ARGV[7], KEYS[5])
`;

/**
 * Renews a waiting request's lease and tries it again. KEYS: queue, request hash, fence,
 * waiting set. ARGV: id, leaseMs, limit, request prefix, release channel.
 */
export const RETRY_SCRIPT = `${GRANT_RULE}
if redis.call('PEXPIRE', KEYS[2], ARGV[2]) == 0 then
  redis.call('SREM', KEYS[4], ARGV[1])
  return -1
end
return try_grant(KEYS[1], KEYS[3], KEYS[2], ARGV[1], ARGV[2], tonumber(ARGV[3]), ARGV[4], ARGV[5], KEYS[4])
`;

/**
 * Takes a request out of the queue (released, or given up while waiting) and, when some request
 * is waiting, announces what left: `<accesses JSON>\n<tool>` (see `parseDeparture`), or `*`
 * when its entry had already expired. KEYS: queue, request hash, waiting set. ARGV: id, channel.
 */
export const RELEASE_SCRIPT = `
local gone = redis.call('HMGET', KEYS[2], 'acc', 'tool')
redis.call('DEL', KEYS[2])
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('SREM', KEYS[3], ARGV[1])
if redis.call('SCARD', KEYS[3]) == 0 then return 1 end
if gone[1] then
  redis.call('PUBLISH', ARGV[2], gone[1] .. '\\n' .. gone[2])
else
  redis.call('PUBLISH', ARGV[2], '*')
end
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
