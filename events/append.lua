-- Append the decisions of one partition, in order, each atomically: its events, or the
-- reply of a rejection. One call for a round's decisions in a partition: the client
-- packs, queues and parses one command instead of one a decision.
-- KEYS[1] partition log   KEYS[2] the partition's tombstones (hash: archived match id ->
--   tombstone JSON); then for decision i (from 0): KEYS[3 + 2i] its match stream,
--   KEYS[4 + 2i] its match's command replies (hash)
-- ARGV[1] how many decisions; then for each: command_id, expected_version (-1: do not
--   check), reply, n, match_id, the digest of the command's body ('': none), the first
--   event's version, the last event's type, then its n events, each one MessagePack
--   array (type, payload, command id, recorded_at, schema, hash, command) that the
--   script stores as it came, in one field `e`: the fewer arguments an event, the less
--   Redis spends taking them in and feeding them to the AOF
-- Returns one {status, value} per decision. Every check of a decision comes before its
-- first write (Redis never rolls a script back); a decision that fails ('error', why)
-- fails alone, and the ones after it are still appended.
-- The digest is kept in the same hash under '#' .. command_id ('#' is never in an id).
local log, tombstones = KEYS[1], KEYS[2]

local function decide(match, replies, a)
  local command_id, expected, reply = ARGV[a], tonumber(ARGV[a + 1]), ARGV[a + 2]
  local n, match_id, digest = tonumber(ARGV[a + 3]), ARGV[a + 4], ARGV[a + 5]
  local seen = redis.call('HMGET', replies, command_id, '#' .. command_id)
  if seen[1] then
    -- An id recorded without a digest (before digests were kept) answers as before.
    if digest ~= '' and seen[2] and seen[2] ~= digest then
      return {'reused', seen[1]}
    end
    return {'duplicate', seen[1]}
  end
  local current = redis.call('XLEN', match)
  if current == 0 then
    -- An archived match keeps its version and takes no event any more (its id is never
    -- reused); a rejection decided on its archived record is answered, not recorded.
    local stone = redis.call('HGET', tombstones, match_id)
    if stone then
      local archived = tonumber(cjson.decode(stone)['version'])
      if n > 0 or (expected >= 0 and expected ~= archived) then
        return {'conflict', tostring(archived)}
      end
      return {'ok', tostring(archived)}
    end
  end
  if expected >= 0 and current ~= expected then
    return {'conflict', tostring(current)}
  end
  -- The client numbers a decision's events from its first one on (the store refuses
  -- any other numbering before sending).
  local first = tonumber(ARGV[a + 6])
  if n > 0 and first ~= current + 1 then
    return {'error', 'versions must follow the stream without gaps'}
  end
  -- An event's link to its predecessor is not stored: it is the hash of the entry
  -- before, and readers take it from there.
  for i = 0, n - 1 do
    redis.call('XADD', match, '0-' .. (first + i), 'e', ARGV[a + 8 + i])
  end
  -- One log entry per command, naming its events (match, first version, how many, the
  -- last one's type): projectors read them from the match stream, so no event is kept
  -- twice. match.finished, when there is one, is always a command's last event.
  if n > 0 then
    redis.call('XADD', log, '*', 'm', match_id, 'v', first, 'n', n, 't', ARGV[a + 7])
  end
  if digest ~= '' then
    redis.call('HSET', replies, command_id, reply, '#' .. command_id, digest)
  else
    redis.call('HSET', replies, command_id, reply)
  end
  return {'ok', tostring(current + n)}
end

local out = {}
local a = 2
for d = 0, tonumber(ARGV[1]) - 1 do
  local ok, result = pcall(decide, KEYS[3 + 2 * d], KEYS[4 + 2 * d], a)
  if ok then
    out[d + 1] = result
  else
    -- A key of the wrong type, say: this decision's error, not the whole call's.
    local why = type(result) == 'table' and result.err or tostring(result)
    out[d + 1] = {'error', why}
  end
  a = a + 8 + tonumber(ARGV[a + 3])
end
return out
