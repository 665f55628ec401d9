--[[
  What the request scripts share, and all their fast paths need: the namespace's names bound to
  locals, the request read from ARGV, the clock, entries and tokens. Everything else is defined
  after a script's fast path, so a request that meets nobody creates none of it.

  KEYS (all under the hash tag `{namespace}`):
    1 seq           ticket counter (queue order)
    2 fence         the last fencing token
    3 requests      hash: id -> record `tool \t limit \t channel \t ticket \t token`, for the
                    requests that waited or count against a limit
    4 leases        sorted set: id -> lease deadline (Redis time, ms), waiting and holding alike
    5 queue         sorted set: waiting id -> ticket
    6 exclusive     sorted set: exclusive id -> 0 holding, else its ticket
    7 tool-holders  hash: limited tool -> how many of its calls hold a grant
    8 key-blocked   set: waiters that their last try found blocked by a key
    9 present       lex sorted set: `=K` for every key K with an entry, `*` while an exclusive
                    request is there (one lookup tells whether anything overlaps a request)
   10 entries       lex sorted set: `K \0 mode ticket(16 digits) id(36)` per access of every
                    request; a key's entries sort by mode, then ticket (holders have ticket 0)
   11 tool-waiting  sorted set: waiting id -> ticket, for the request's tool (limits)
   12 group         sorted set: waiting id -> ticket, of the request's group (same tool, accesses,
                    limit and exclusivity: a hand-off stays inside it)

  ARGV:
    1 request id (36 characters)
    2 `r` when the request may have a record, `-` when it was granted at once with no limit,
      `+` when RELEASE-AT-ONCE already took it out (RELEASE then only hands on and announces)
    3 tool, 4 limit (0 = none), 5 exclusive (`1`/`0`), 6 lease (ms)
    7 the release channel (every coordinator), 8 this coordinator's own channel (hand-offs)
    9 the departure as announced: `<accesses>\n<tool>\n<group>`
   10 n accesses, 11 m presence members, then n pairs (mode `r`/`w`, key), then n pairs
      (first, last) bounding what lies below each key, then the m members `*` and `=X` for every
      key X that is an access key or an ancestor of one
]]
local rcall = redis.call
local seqKey, fenceKey, requestsKey, leasesKey = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local queueKey, exclusiveKey, toolHoldersKey, keyBlockedKey = KEYS[5], KEYS[6], KEYS[7], KEYS[8]
local presentKey, entriesKey, toolWaitingKey, groupKey = KEYS[9], KEYS[10], KEYS[11], KEYS[12]

local id, recorded, taken_out, tool = ARGV[1], ARGV[2] == 'r', ARGV[2] == '+', ARGV[3]
local limit, exclusive, lease = tonumber(ARGV[4]), ARGV[5] == '1', tonumber(ARGV[6])
local channel, ownChannel, announced = ARGV[7], ARGV[8], ARGV[9]
local n, m = tonumber(ARGV[10]), tonumber(ARGV[11])
local modes, keys, below_first, below_last, members = {}, {}, {}, {}, {}
for i = 1, n do
  modes[i] = ARGV[10 + 2 * i]
  keys[i] = ARGV[11 + 2 * i]
  below_first[i] = ARGV[10 + 2 * n + 2 * i]
  below_last[i] = ARGV[11 + 2 * n + 2 * i]
end
for j = 1, m do members[j] = ARGV[11 + 4 * n + j] end

--- @include "clock"
