"""The store's Lua scripts: each change is one compare-and-set on the game's version, and
rate-limit counts are taken in the same round trip as the read or the write they guard.
The comment above each script says its KEYS, ARGV and reply.
"""

from __future__ import annotations

from core.store.records import GAME_FIELDS

# Compare-and-set of a change: a move, or a change of the table (seats, start, away...).
# KEYS: game hash, events list, advice list, then (with an owed task) its hash and its
# sorted set.
# ARGV: the version read, the new state ("" when the cards did not change), the new event
# count, the TTL, the change channel, the score sheet's new records as JSON objects joined
# by commas ("" when the change finished no hand), the new meta ("" when unchanged), the
# turn's deadline ("" when no clock runs: the field is dropped), the field and time of the
# seat the change shows is here ("" and "" for none), the bot's advice on this move to
# append ("" for none: written only with the move, so a turn played again never adds it
# twice), the number n of owed-task arguments that follow (0 or: its TTL, score, member,
# then its fields and values), then the events to append. The records are spliced into
# the stored JSON array here, so that a move needs neither to read the score sheet nor to
# write it whole.
# Returns the new version, -1 if the game is gone, -2 if another write came first.
APPLY_LUA = """
local version = redis.call('HGET', KEYS[1], 'version')
if not version then return -1 end
if version ~= ARGV[1] then return -2 end
local new_version = tonumber(version) + 1
redis.call('HSET', KEYS[1], 'version', new_version, 'events', ARGV[3])
if ARGV[2] ~= '' then redis.call('HSET', KEYS[1], 'state', ARGV[2]) end
if ARGV[7] ~= '' then redis.call('HSET', KEYS[1], 'meta', ARGV[7]) end
if ARGV[8] ~= '' then
  redis.call('HSET', KEYS[1], 'clock', ARGV[8])
else
  redis.call('HDEL', KEYS[1], 'clock')
end
if ARGV[6] ~= '' then
  local sheet = redis.call('HGET', KEYS[1], 'history')
  if not sheet or sheet == '[]' then
    sheet = '[' .. ARGV[6] .. ']'
  else
    sheet = string.sub(sheet, 1, -2) .. ',' .. ARGV[6] .. ']'
  end
  redis.call('HSET', KEYS[1], 'history', sheet)
end
if ARGV[9] ~= '' then redis.call('HSET', KEYS[1], ARGV[9], ARGV[10]) end
if ARGV[11] ~= '' then redis.call('RPUSH', KEYS[3], ARGV[11]) end
local n = tonumber(ARGV[12])
if n > 0 and redis.call('EXISTS', KEYS[4]) == 0 then
  redis.call('HSET', KEYS[4], unpack(ARGV, 16, 12 + n))
  redis.call('EXPIRE', KEYS[4], ARGV[13])
  redis.call('ZADD', KEYS[5], ARGV[14], ARGV[15])
end
if #ARGV > 12 + n then
  redis.call('RPUSH', KEYS[2], unpack(ARGV, 13 + n))
end
redis.call('EXPIRE', KEYS[1], ARGV[4])
redis.call('EXPIRE', KEYS[2], ARGV[4])
redis.call('EXPIRE', KEYS[3], ARGV[4])
redis.call('PUBLISH', ARGV[5], new_version)
return new_version
"""


# When a seat was last seen, written only while the game exists. KEYS: the game hash.
# ARGV: the seat's field, the time.
TOUCH_LUA = """
if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) end
"""


# Rate-limit counts, taken first by the scripts below (so a request over a limit reads
# and writes nothing). KEYS: one counter per limit, then the script's own keys (as K).
# ARGV: the number c of counters, their TTLs, their limits, then the script's own
# arguments (as A). Leaves `counts` and `over` (any count above its limit).
COUNT_LUA = """
local c = tonumber(ARGV[1])
local counts = {}
local over = false
for i = 1, c do
  local n = redis.call('INCR', KEYS[i])
  if n == 1 then redis.call('EXPIRE', KEYS[i], ARGV[1 + i]) end
  counts[i] = n
  if n > tonumber(ARGV[1 + c + i]) then over = true end
end
local K = {unpack(KEYS, c + 1)}
local A = {unpack(ARGV, 2 + 2 * c)}
"""


# The counts alone (a request that failed before reading its game). Returns {counts}.
COUNT_ONLY_LUA = COUNT_LUA + "return {counts}\n"


# The counts, then the game's hash fields named in A (K: the game hash), in one round
# trip. Returns {counts, fields} (fields empty when over a limit; nil for a missing one).
COUNT_AND_LOAD_LUA = (
    COUNT_LUA
    + """
if over then return {counts, {}} end
return {counts, redis.call('HMGET', K[1], unpack(A))}
"""
)


# A move made on the game as this process kept it (`GameStore.apply_kept`), with its
# counts, in one round trip: K and A are the apply script's keys and arguments. Returns
# {counts, status, fields}: status is the apply script's result, or -3 (over a limit:
# nothing written); when another write came first (-2), fields are the game's stored
# `GAME_FIELDS`, so the move can be decided again on them without another read.
COUNT_AND_APPLY_LUA = (
    COUNT_LUA
    + "local FIELDS = {"
    + ", ".join(f"'{name}'" for name in GAME_FIELDS)
    + "}\n"
    + """
if over then return {counts, -3, {}} end
local function apply()
"""
    + APPLY_LUA.replace("KEYS", "K").replace("ARGV", "A")
    + """
end
local status = apply()
if status == -2 then
  return {counts, -2, redis.call('HMGET', K[1], unpack(FIELDS))}
end
return {counts, status, {}}
"""
)
