"""A batch's read-model writes, sent to Redis as one script call.

Inside MULTI every command costs the client a request to pack and a QUEUED reply to
parse (about 15 µs each with redis-py, more than Redis spends on most of them), and a
batch of the matches projection wrote several per command: a history, a summary, the
views, turns, lobby moves, notices. `Writes` collects them, each a command on one key,
and `send` queues them as one EVAL inside the projector's transaction, so the
checkpoint still moves in the same MULTI as everything it covers.

The commands' arguments travel as one MessagePack array (ARGV[1]), unpacked by the
script: redis-py packs each argument of a command in Python (about 1.4 µs each, and a
batch has one or more per event), msgspec packs the array in one C call. Lua's
cmsgpack reads no binary type, so every argument is sent as a string (they are JSON,
names and numbers: UTF-8 all).

An argument a command repeats (a game that keeps no secrets shows every reader one
view: the views' HSET carries it once per reader) travels once when the command is
added with `add_shared`: each later copy is sent as the number of the argument it
repeats, which the script puts back. Redis gets every
copy, as if each had been sent; the socket, the packing and the script's unpacking
carry a view once. (Arguments are never numbers otherwise.)

The script runs the commands in the order they were added, with the projector's own
ACL user (each command is checked as if sent alone). One that fails does not stop the
others, as inside MULTI: the script returns the first error once all have run, and
the transaction's caller raises it.
"""

from __future__ import annotations

import msgspec
from redis.asyncio.client import Pipeline
from redis.typing import EncodableT

# ARGV[1]: a MessagePack array of, per command, its name, its number of arguments after
# the key (negated when some repeat an earlier one: a number, that argument's), the
# arguments; KEYS: each command's key, in the same order.
RUN_LUA = """
local args = cmsgpack.unpack(ARGV[1])
local k, i, failed = 1, 1, nil
while i <= #args do
  local n = args[i + 1]
  local done
  if n < 0 then
    n = -n
    local call = {}
    for j = 1, n do
      local a = args[i + 1 + j]
      if type(a) == 'number' then a = call[a] end
      call[j] = a
    end
    done = redis.pcall(args[i], KEYS[k], unpack(call))
  else
    done = redis.pcall(args[i], KEYS[k], unpack(args, i + 2, i + 1 + n))
  end
  if type(done) == 'table' and done.err and not failed then failed = done.err end
  k, i = k + 1, i + 2 + n
end
if failed then return redis.error_reply(failed) end
return k - 1
"""

# Lua's unpack gives at most a few thousand values: longer argument lists are split
# into several commands on the same key (RPUSH, ZADD and ZREM may be; others are short).
MOST_ARGS = 1000


_PACK = msgspec.msgpack.Encoder()


def _text(arg: EncodableT) -> str:
    if isinstance(arg, str):
        return arg
    if isinstance(arg, bytes | bytearray | memoryview):
        return bytes(arg).decode()
    return str(arg)


class Writes:
    def __init__(self) -> None:
        self.keys: list[str] = []
        self.args: list[str | int] = []

    def __len__(self) -> int:
        return len(self.keys)

    def add(self, command: str, key: str, *args: EncodableT) -> None:
        self.keys.append(key)
        self.args += [command, len(args)]
        # Most arguments are bytes (a history's lines): decoded here, not in a call each.
        self.args += [a.decode() if type(a) is bytes else _text(a) for a in args]

    def add_shared(self, command: str, key: str, *args: EncodableT) -> None:
        """`add` for a command that may give one object several times (the view every
        reader shares): each later copy travels as the number of its first."""
        first: dict[int, int] = {}
        texts: list[str | int] = []
        for j, a in enumerate(args):
            seen = first.setdefault(id(a), j)
            texts.append(seen + 1 if seen != j else a.decode() if type(a) is bytes else _text(a))
        if len(first) == len(args):  # nothing repeated
            self.add(command, key, *args)
            return
        self.keys.append(key)
        self.args += [command, -len(args), *texts]

    def packed(self) -> bytes:
        """RUN_LUA's one argument, after the keys."""
        return _PACK.encode(self.args)

    def add_many(self, command: str, key: str, args: list[EncodableT], step: int = 1) -> None:
        """One command over many arguments (taken `step` at a time, e.g. ZADD's score
        and member pairs), split where it would be too long for the script."""
        most = MOST_ARGS - MOST_ARGS % step
        for start in range(0, len(args), most):
            self.add(command, key, *args[start : start + most])

    def send(self, tx: Pipeline) -> None:
        """Queue every write as one EVAL (nothing when there are none)."""
        if self.keys:
            tx.eval(RUN_LUA, len(self.keys), *self.keys, self.packed())
