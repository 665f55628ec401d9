--[[
  Grants at once, in order, each of several requests that overlap nothing present: no entry at
  their keys, at their ancestors or below them, and no exclusive request (so no holder and no
  waiter can conflict with them, FIFO included). A request that overlaps something is left
  alone, nothing written: it goes through ENQUEUE, and so does every request after it here (they
  were asked after it, and must not be granted before it is queued). One script for the
  uncontended calls of a coordinator that were asked together.

    Input:
      KEYS[1] fence     the last fencing token
      KEYS[2] leases    sorted set: request id -> lease deadline (Redis time, ms)
      KEYS[3] present   lex sorted set: `=K` for every key K with an entry, `*` for exclusive
      KEYS[4] entries   lex sorted set of the entries (see includes/clock.lua)
      ARGV[1] the lease (ms)
      then per request: its id, n accesses, m presence members, n pairs (mode `r`/`w`, key),
      n pairs (first, last) bounding what lies below each key, and the m members (`*`, and
      `=X` for every access key and ancestor X)

    Output:
      per request: its fencing token (> 0, the lease started when the command was sent), or
      NOT_GRANTED (0): it overlaps something, or comes after one that does
]]
local rcall = redis.call
local fenceKey, leasesKey, presentKey, entriesKey = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local lease = tonumber(ARGV[1])
local NOT_GRANTED = 0
--- @include "includes/clock"

read_clock()
local answers, leased = {}, {}
local last = tonumber(rcall('GET', fenceKey) or '0')
local token = math.max(last, now_us - 1)
local at = 2
local blocked = false
while at <= #ARGV do
  local id, n, m = ARGV[at], tonumber(ARGV[at + 1]), tonumber(ARGV[at + 2])
  local first_member = at + 3 + 4 * n
  local free = not blocked and m <= 500
  if free then
    for _, score in ipairs(rcall('ZMSCORE', presentKey, unpack(ARGV, first_member, first_member + m - 1))) do
      if score then free = false break end
    end
  end
  for i = 0, n - 1 do
    if not free then break end
    local first, last_below = ARGV[at + 3 + 2 * n + 2 * i], ARGV[at + 4 + 2 * n + 2 * i]
    free = #rcall('ZRANGEBYLEX', presentKey, '[=' .. first, '(=' .. last_below, 'LIMIT', 0, 1) == 0
  end
  if free then
    local mine, present = {}, {}
    for i = 0, n - 1 do
      local mode, key = ARGV[at + 3 + 2 * i], ARGV[at + 4 + 2 * i]
      mine[#mine + 1] = 0
      mine[#mine + 1] = entry(key, mode, 0, id)
      present[#present + 1] = 0
      present[#present + 1] = '=' .. key
    end
    rcall('ZADD', entriesKey, unpack(mine))
    rcall('ZADD', presentKey, unpack(present))
    token = token + 1
    answers[#answers + 1] = token
    leased[#leased + 1] = now + lease
    leased[#leased + 1] = id
  else
    blocked = true
    answers[#answers + 1] = NOT_GRANTED
  end
  at = first_member + m
end
if #leased > 0 then
  rcall('ZADD', leasesKey, unpack(leased))
  rcall('SET', fenceKey, string.format('%d', token))
end
return answers
