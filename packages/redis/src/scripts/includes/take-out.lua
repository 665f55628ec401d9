--[[
  Takes out the first `released` requests read by includes/at-once: statements run in place,
  leaving `follow_up`, the positions (1-based, among them) of the requests that a waiter may have
  been held back by (something present overlaps their keys, or an exclusive request waits):
  RELEASE (flag `+`) then hands on and announces their departure. Nothing is looked up for that
  when nobody waits.

  One ZREM per set. A key's presence member leaves once it has no entry left: for a write while
  nobody waits and every one of these requests was still in the lease set, without looking;
  else once a lookup finds none. A request still in the lease set was never forgotten, so no
  other request holds what it writes: whatever takes a key over an entry (a grant at once, a
  decision, an exclusive request's sweep) meets that entry first and forgets its request,
  expired, before anything may be granted there; and a waiter would be in the queue.

  With `leave_emptied` (GRANT-AT-ONCE) and nobody waiting, the presence members found emptied are
  left in `emptied` for the script to take out (a request granted with them may keep them);
  else they are taken out here, before the follow-ups are looked for.

  Needs `rcall`, `leasesKey`, `presentKey`, `entriesKey`, `queueKey`, `exclusiveKey`, `released`,
  `leave_emptied` and includes/at-once defined before it.
]]
local follow_up, emptied = {}, {}
if released > 0 then
  local nobody_waits = rcall('ZCARD', queueKey) == 0
  local gone = 0
  for at = 1, released, 1000 do
    local last = at + 999
    if last > released then last = released end
    gone = gone + rcall('ZREM', leasesKey, unpack(ids, at, last))
  end
  local without_looking = nobody_waits and gone == released
  local mine, touched = {}, nil
  for r = 1, released do
    local id = ids[r]
    for i = starts[r], starts[r + 1] - 1 do
      local key = keys[i]
      mine[#mine + 1] = key .. '\0' .. modes[i] .. TICKET_ZERO .. id
      if without_looking and modes[i] == 'w' then
        emptied[#emptied + 1] = '=' .. key
      else
        touched = touched or {}
        touched[key] = true
      end
    end
  end
  in_chunks('ZREM', entriesKey, mine, 1000)
  if touched then
    for key in pairs(touched) do
      if #rcall('ZRANGEBYLEX', entriesKey, '[' .. key .. '\0', '(' .. key .. '\1', 'LIMIT', '0', '1') == 0 then
        emptied[#emptied + 1] = '=' .. key
      end
    end
  end
  if not (leave_emptied and nobody_waits) then
    in_chunks('ZREM', presentKey, emptied, 1000)
    emptied = {}
  end

  if not nobody_waits then
    local everyone = rcall('ZCARD', exclusiveKey) > 0
    for r = 1, released do
      local overlaps = everyone
      if not overlaps then
        local members = {}
        for i = starts[r], starts[r + 1] - 1 do
          members[#members + 1] = '=' .. keys[i]
          for _, member in ipairs(folder_of(keys[i]) or {}) do members[#members + 1] = member end
        end
        overlaps = next(scored(presentKey, members)) ~= nil
      end
      for i = starts[r], starts[r + 1] - 1 do
        if overlaps then break end
        overlaps = anything_below(keys[i])
      end
      if overlaps then follow_up[#follow_up + 1] = r end
    end
  end
end
