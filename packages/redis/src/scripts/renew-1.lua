--[[
  Extends a granted lease.

    Input:
      KEYS[1] leases   sorted set: request id -> lease deadline (Redis time, ms)
      ARGV[1] the request id
      ARGV[2] the lease (ms)

    Output:
      1  renewed: the deadline is now + the lease
      0  lost: gone, or past its deadline (the waiters may already have been granted its keys)
]]
local leasesKey = KEYS[1]
local id, lease = ARGV[1], tonumber(ARGV[2])
local RENEWED, LOST = 1, 0

local time = redis.call('TIME')
local now = math.floor((tonumber(time[1]) * 1000000 + tonumber(time[2])) / 1000)
local deadline = redis.call('ZSCORE', leasesKey, id)
if not deadline or tonumber(deadline) < now then return LOST end
redis.call('ZADD', leasesKey, 'XX', now + lease, id)
return RENEWED
