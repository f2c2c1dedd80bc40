-- Append one decision's events to a match, atomically, or record a rejection's reply.
-- KEYS[1] match stream   KEYS[2] partition log   KEYS[3] command replies (hash)
-- KEYS[4] the partition's tombstones (hash: archived match id -> tombstone JSON)
-- ARGV: command_id, expected_version (-1: do not check), reply, n, match_id, then n times:
--       version, type, payload, recorded_at, schema, prev, hash, command;
--       then, optionally, the digest of the command's body
-- Every check comes before the first write: Redis never rolls a script back.
-- The digest is kept in the same hash under '#' .. command_id ('#' is never in an id).
local n = tonumber(ARGV[4])
local digest = ARGV[6 + n * 8]
local seen = redis.call('HMGET', KEYS[3], ARGV[1], '#' .. ARGV[1])
if seen[1] then
  -- An id recorded without a digest (before digests were kept) answers as before.
  if digest and digest ~= '' and seen[2] and seen[2] ~= digest then
    return {'reused', seen[1]}
  end
  return {'duplicate', seen[1]}
end
local current = redis.call('XLEN', KEYS[1])
if current == 0 then
  -- An archived match keeps its version and takes no event any more (its id is never
  -- reused); a rejection decided on its archived record is answered, not recorded.
  local stone = redis.call('HGET', KEYS[4], ARGV[5])
  if stone then
    local archived = tonumber(cjson.decode(stone)['version'])
    if n > 0 or (tonumber(ARGV[2]) >= 0 and tonumber(ARGV[2]) ~= archived) then
      return {'conflict', tostring(archived)}
    end
    return {'ok', tostring(archived)}
  end
end
local expected = tonumber(ARGV[2])
if expected >= 0 and current ~= expected then
  return {'conflict', tostring(current)}
end
local match_id = ARGV[5]
for i = 0, n - 1 do
  local a = 6 + i * 8
  local version = ARGV[a]
  if tonumber(version) ~= current + i + 1 then
    return redis.error_reply('versions must follow the stream without gaps')
  end
end
-- An event's link to its predecessor (ARGV[a + 5]) is not stored: it is the hash of the
-- entry before, and readers take it from there.
for i = 0, n - 1 do
  local a = 6 + i * 8
  redis.call('XADD', KEYS[1], '0-' .. ARGV[a], 't', ARGV[a + 1], 'd', ARGV[a + 2],
             'c', ARGV[1], 'at', ARGV[a + 3], 's', ARGV[a + 4],
             'h', ARGV[a + 6], 'x', ARGV[a + 7])
end
-- One log entry per command, naming its events (match, first version, how many, the
-- last one's type): projectors read them from the match stream, so no event is kept
-- twice. match.finished, when there is one, is always a command's last event.
if n > 0 then
  redis.call('XADD', KEYS[2], '*', 'm', match_id, 'v', ARGV[6], 'n', n,
             't', ARGV[6 + (n - 1) * 8 + 1])
end
if digest and digest ~= '' then
  redis.call('HSET', KEYS[3], ARGV[1], ARGV[3], '#' .. ARGV[1], digest)
else
  redis.call('HSET', KEYS[3], ARGV[1], ARGV[3])
end
return {'ok', tostring(current + n)}
