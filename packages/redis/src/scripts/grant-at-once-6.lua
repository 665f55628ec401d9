--[[
  Takes out the releases gathered with it (as RELEASE-AT-ONCE does), then grants at once, in
  order, each of several requests that overlap nothing present: no entry at their keys, at their
  ancestors or below them, and no exclusive request (so no holder and no waiter can conflict
  with them, FIFO included), nor any request granted before it here. A request that overlaps
  something is left alone, nothing written: it goes through ENQUEUE, and so does every request
  after it here (they were asked after it, and must not be granted before it is queued). One
  script for the uncontended calls of a coordinator that were asked, and given back, together.

    Input:
      KEYS[1] fence     the last fencing token
      KEYS[2] leases    sorted set: request id -> lease deadline (Redis time, ms)
      KEYS[3] present   lex sorted set: `=K` for every key K with an entry, `*` for exclusive
      KEYS[4] entries   lex sorted set of the entries (see includes/clock.lua)
      KEYS[5] queue     sorted set of the waiting requests
      KEYS[6] exclusive sorted set of the exclusive requests
      ARGV[1] the lease (ms)
      ARGV[2] how many releases come first
      then per release, then per request to grant: its id and its packed accesses
      (see includes/at-once.lua)

    Output:
      { the positions (1-based) of the releases whose departure RELEASE must still hand on,
        per request to grant its fencing token (> 0, the lease started when the command was
        sent), or NOT_GRANTED (0): it overlaps something, or comes after one that does }
]]
local rcall = redis.call
local fenceKey, leasesKey, presentKey, entriesKey = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local queueKey, exclusiveKey = KEYS[5], KEYS[6]
local lease, releases = tonumber(ARGV[1]), tonumber(ARGV[2])
local NOT_GRANTED = 0
--- @include "includes/clock"
--- @include "includes/at-once"

read_clock()
local follow_up = releases > 0 and take_out(3, releases) or {}

-- what each request to grant asks, and one ZMSCORE for the presence members of them all: each
-- key's own (`=K`) and its folder's (see `folder_of`), each folder's made once
local first_grant = 3 + 2 * releases
local modes_of, keys_of, marks_of, folders_of = {}, {}, {}, {}
local wanted, seen = { '*' }, { ['*'] = true }
local function want(member)
  if not seen[member] then
    seen[member] = true
    wanted[#wanted + 1] = member
  end
end
local count = 0
for at = first_grant, #ARGV, 2 do
  count = count + 1
  local modes, keys = accesses_of(ARGV[at + 1])
  local marks, its_folders = {}, {}
  for i = 1, #keys do
    marks[i] = '=' .. keys[i]
    want(marks[i])
    its_folders[i] = folder_of(keys[i], want)
  end
  modes_of[count], keys_of[count], marks_of[count], folders_of[count] = modes, keys, marks, its_folders
end
local present = scored(presentKey, wanted)

-- grants in order while nothing overlaps; what is granted here is seen by the requests after it
-- (`here`: the keys granted, `above_here`: those keys and their ancestors) before anything is
-- written
local answers, leased, entries, markers = {}, {}, {}, {}
local here, above_here, folder_marked = {}, {}, {}
local ZERO = '0'
local deadline = string.format('%d', now + lease)
local granted = 0
local blocked = present['*'] ~= nil
for r = 1, count do
  local keys, marks, its_folders = keys_of[r], marks_of[r], folders_of[r]
  local free = not blocked
  for i = 1, #keys do
    if not free then break end
    local mark = marks[i]
    -- the key itself, present or granted here, or something granted here below it
    free = not (present[mark] or here[mark] or above_here[mark])
    local members = its_folders[i]
    for j = 1, #members do
      if not free then break end
      -- an ancestor, present or granted here
      free = not (present[members[j]] or here[members[j]])
    end
    -- something present below it
    free = free and not anything_below(keys[i])
  end
  if free then
    local id, modes = ARGV[first_grant + 2 * r - 2], modes_of[r]
    for i = 1, #keys do
      entries[#entries + 1] = ZERO
      entries[#entries + 1] = entry(keys[i], modes[i], 0, id)
      markers[#markers + 1] = ZERO
      markers[#markers + 1] = marks[i]
      here[marks[i]] = true
      above_here[marks[i]] = true
      local members = its_folders[i]
      if not folder_marked[members] then
        folder_marked[members] = true
        for j = 1, #members do above_here[members[j]] = true end
      end
    end
    granted = granted + 1
    answers[r] = granted -- its place among the grants: its token once the first is known
    leased[#leased + 1] = deadline
    leased[#leased + 1] = id
  else
    blocked = true
    answers[r] = NOT_GRANTED
  end
end
if granted > 0 then
  in_chunks('ZADD', entriesKey, entries, 2000) -- entries are longer than 64 bytes: a skip list
  add_all(presentKey, markers)
  add_all(leasesKey, leased)
  -- the tokens follow max(last, Redis TIME in µs - 1), one per grant: one SET ... GET when the
  -- clock is ahead of the last token, as it almost always is; else counted on from the last
  local base = now_us - 1
  local last = tonumber(rcall('SET', fenceKey, string.format('%d', base + granted), 'GET') or '0')
  if last > base then
    base = last
    rcall('SET', fenceKey, string.format('%d', base + granted))
  end
  for r = 1, count do
    if answers[r] ~= NOT_GRANTED then answers[r] = base + answers[r] end
  end
end
return { follow_up, answers }
