-- Append one decision's events to a match, atomically, or record a rejection's reply.
-- KEYS[1] match stream   KEYS[2] partition log   KEYS[3] command replies (hash)
-- ARGV: command_id, expected_version (-1: do not check), reply, n, match_id, then n times:
--       version, type, payload, recorded_at, schema, prev, hash, command
-- Every check comes before the first write: Redis never rolls a script back.
local seen = redis.call('HGET', KEYS[3], ARGV[1])
if seen then
  return {'duplicate', seen}
end
local n = tonumber(ARGV[4])
local current = redis.call('XLEN', KEYS[1])
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
-- The log carries what projectors read; the hash chain and the command stay in the
-- match stream, the record an audit reads.
for i = 0, n - 1 do
  local a = 6 + i * 8
  redis.call('XADD', KEYS[1], '0-' .. ARGV[a], 't', ARGV[a + 1], 'd', ARGV[a + 2],
             'c', ARGV[1], 'at', ARGV[a + 3], 's', ARGV[a + 4], 'pv', ARGV[a + 5],
             'h', ARGV[a + 6], 'x', ARGV[a + 7])
  redis.call('XADD', KEYS[2], '*', 'm', match_id, 'v', ARGV[a], 't', ARGV[a + 1],
             'd', ARGV[a + 2], 'c', ARGV[1], 'at', ARGV[a + 3], 's', ARGV[a + 4])
end
redis.call('HSET', KEYS[3], ARGV[1], ARGV[3])
return {'ok', tostring(current + n)}
