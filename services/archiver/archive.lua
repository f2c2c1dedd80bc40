-- Take an archived match's keys out of Redis, leaving its tombstone, atomically.
-- KEYS[1] match stream  KEYS[2] command replies  KEYS[3] snapshot  KEYS[4] summary
-- KEYS[5] views  KEYS[6] tombstones (hash)  KEYS[7] the partition's latest chat lines
-- (hash, one field a match)  KEYS[8..] the histories, one per reader, then the inboxes
-- of the match's players in its partition (ARGV[4] of them)
-- ARGV[1] match id  ARGV[2] the version the cold store holds  ARGV[3] the tombstone
-- ARGV[4] how many inboxes end KEYS  ARGV[5] notices older than this (ms) leave them
-- Returns 1, or 0 when the stream is not the one archived (it changed meanwhile: the
-- archiver reads it again next pass) and nothing is removed.
if redis.call('XLEN', KEYS[1]) ~= tonumber(ARGV[2]) then
  return 0
end
redis.call('HSET', KEYS[6], ARGV[1], ARGV[3])
redis.call('HDEL', KEYS[7], ARGV[1])  -- the table's chat leaves with it
local inboxes = tonumber(ARGV[4])
for i = 1, #KEYS - inboxes do
  if i ~= 6 and i ~= 7 then redis.call('DEL', KEYS[i]) end
end
-- An inbox keeps a player's latest notices; those older than the retention leave with
-- the match, so inboxes of players who stopped playing empty (and go) in time.
for i = #KEYS - inboxes + 1, #KEYS do
  redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', '(' .. ARGV[5])
end
return 1
