-- Trim a command stream of what every consumer group has acknowledged.
-- KEYS[1] a command stream. Returns how many entries were removed.
-- An entry before a group's oldest pending entry (with none pending: before its last
-- delivered one) was delivered to that group and acknowledged. The stream keeps
-- everything from the earliest such bound over all groups. A stream without groups
-- is left alone: nothing says what was read of it. One script, so no entry can be
-- delivered between reading the bounds and trimming.
if redis.call('EXISTS', KEYS[1]) == 0 then
  return 0
end
-- Stream ids compared as the decimal pairs they are (a double cannot hold 2^64).
local function before(a, b)
  local am, as = string.match(a, '(%d+)-(%d+)')
  local bm, bs = string.match(b, '(%d+)-(%d+)')
  if #am ~= #bm then return #am < #bm end
  if am ~= bm then return am < bm end
  if #as ~= #bs then return #as < #bs end
  return as < bs
end
local bound = nil
for _, group in ipairs(redis.call('XINFO', 'GROUPS', KEYS[1])) do
  local name, last
  for i = 1, #group, 2 do
    if group[i] == 'name' then name = group[i + 1] end
    if group[i] == 'last-delivered-id' then last = group[i + 1] end
  end
  local pending = redis.call('XPENDING', KEYS[1], name)
  local keep = last
  if pending[1] > 0 then
    keep = pending[2]
  end
  if bound == nil or before(keep, bound) then
    bound = keep
  end
end
if bound == nil or bound == '0-0' then
  return 0
end
return redis.call('XTRIM', KEYS[1], 'MINID', bound)
