-- Take an archived match's keys out of Redis, leaving its tombstone, atomically.
-- KEYS[1] match stream  KEYS[2] command replies  KEYS[3] snapshot  KEYS[4] summary
-- KEYS[5] views  KEYS[6] tombstones (hash)  KEYS[7..] the histories, one per reader
-- ARGV[1] match id  ARGV[2] the version the cold store holds  ARGV[3] the tombstone
-- Returns 1, or 0 when the stream is not the one archived (it changed meanwhile: the
-- archiver reads it again next pass) and nothing is removed.
if redis.call('XLEN', KEYS[1]) ~= tonumber(ARGV[2]) then
  return 0
end
redis.call('HSET', KEYS[6], ARGV[1], ARGV[3])
for i = 1, #KEYS do
  if i ~= 6 then redis.call('DEL', KEYS[i]) end
end
return 1
