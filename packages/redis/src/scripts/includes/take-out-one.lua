--[[
  The fast path of includes/take-out: takes out one request of one access (`id`, and `packed` as
  in includes/at-once) while nobody waits, so that nothing is to be handed on. Statements run in
  place; they leave `emptied`, the key's presence member when no entry is left at it, else false,
  for the script to take out (GRANT-AT-ONCE keeps it when the request it grants asks it again).
  Its write leaves the key without looking when its request was still in the lease set (see
  includes/take-out for why).

  Needs `rcall`, `leasesKey`, `entriesKey`, `id`, `packed` and `emptied` defined before it.
]]
do
  local mode, key = string.sub(packed, 1, 1), string.sub(packed, 2)
  local there = rcall('ZREM', leasesKey, id) == 1
  rcall('ZREM', entriesKey, key .. '\0' .. mode .. '0000000000000000' .. id)
  if (there and mode == 'w')
    or #rcall('ZRANGEBYLEX', entriesKey, '[' .. key .. '\0', '(' .. key .. '\1', 'LIMIT', '0', '1') == 0 then
    emptied = '=' .. key
  end
end
