"""2. The raw limit: the Redis work per command our platform does, with nothing else, driven
until the CPU is saturated.

Per command, exactly what the service and its client send: the client's XADD of the
command, the service's XREADGROUP (a batch, per partition stream), EVALSHA of our own
`append.lua` with the very keys and arguments the service passes (prepared ahead, as
the service would compute them; one call for a batch's commands of a stream, as the
service makes one for a partition's), the reply's XADD (MAXLEN ~ as the service caps it),
XACK of the batch, and the client's XREAD of its reply stream. No framework, no rules,
no projector, no redis-py: commands packed by hiredis and written on a plain socket,
replies parsed by hiredis's reader, two round trips per cycle for every command in
flight. Several processes, each owning a share of the partitions and of the matches
(client and service in one loop: one share of the load is independent of the others),
so that Python, not the turn-taking of one connection, is spread over every core.
"""

from __future__ import annotations

import contextlib
import os
import socket
import time
from typing import Any
from urllib.parse import urlparse

import msgspec

from bench.load import finish
from bench.prepare import PreparedMatch, read_prepared

GROUP = b"raw"
REPLY_MAXLEN = b"100000"  # the service's `reply_maxlen`
BATCH = b"500"  # the service's `batch_size`, per partition stream


class _CommandHead(msgspec.Struct):
    command_id: str
    reply_to: str
    sent_at: float = 0.0


class _ReplyHead(msgspec.Struct):
    command_id: str
    match_id: str
    status: str
    sent_at: float = 0.0


class Wire:
    """One connection: commands packed by hiredis, replies parsed by its reader."""

    def __init__(self, url: str) -> None:
        import hiredis

        parsed = urlparse(url)
        if parsed.scheme == "unix":
            self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            self.sock.connect(parsed.path)
        elif parsed.scheme == "redis":
            self.sock = socket.create_connection((parsed.hostname, parsed.port or 6379))
            self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        else:
            raise ValueError(f"the raw limit runs on one server (unix:// or redis://): {url}")
        self.pack = hiredis.pack_command
        self.reader = hiredis.Reader()
        self.error = hiredis.ReplyError

    def call(self, commands: list[tuple[Any, ...]]) -> list[Any]:
        """Send every command in one write; their replies, in order."""
        pack = self.pack
        self.sock.sendall(b"".join([pack(c) for c in commands]))
        out: list[Any] = []
        gets, feed, recv = self.reader.gets, self.reader.feed, self.sock.recv
        while len(out) < len(commands):
            reply = gets()
            if reply is False:
                feed(recv(1 << 20))
                continue
            out.append(reply)
        return out

    def close(self) -> None:
        self.sock.close()


def raw_limit_child(
    url: str, prep_path: str, partitions: int, index: int, count: int, q: Any, go: Any
) -> None:
    """Process `index` of `count`: the partitions p with p % count == index."""
    finish(q, "raw", _drive(url, read_prepared(prep_path), partitions, index, count, q, go))


def _drive(
    url: str,
    matches: list[PreparedMatch],
    partitions: int,
    index: int,
    count: int,
    q: Any,
    go: Any,
) -> dict[str, Any]:
    from events.keys import Keys, reply_stream
    from events.redis_store import APPEND_LUA, merged

    mine = [pm for pm in matches if pm.partition % count == index]
    del matches
    table = {d.command_id: d for pm in mine for d in pm.decisions}
    streams = [Keys(p).commands.encode() for p in range(partitions) if p % count == index]
    reply_to = reply_stream(f"raw-{index}").encode()
    # What the client sends: the command JSON framed as a CommandMessage at send time,
    # byte for byte as the load generator frames it.
    frames = []
    for pm in mine:
        mid = pm.match_id.encode()
        head = b'{"command_id":"' + mid + b"."
        middle = b'","match_id":"' + mid + b'","reply_to":"' + reply_to + b'","command":'
        frames.append((Keys(pm.partition).commands.encode(), head, middle, pm.decisions))
    by_match = {pm.match_id: n for n, pm in enumerate(mine)}
    wire = Wire(url)
    (sha,) = wire.call([(b"SCRIPT", b"LOAD", APPEND_LUA)])
    for s in streams:
        wire.call([(b"XGROUP", b"CREATE", s, GROUP, b"0", b"MKSTREAM")])  # BUSYGROUP: fine
    decode_command = msgspec.json.Decoder(_CommandHead).decode
    decode_reply = msgspec.json.Decoder(_ReplyHead).decode
    read_group: tuple[bytes, ...] = (b"XREADGROUP", b"GROUP", GROUP, b"raw", b"COUNT", BATCH)
    read_group += (b"STREAMS", *streams, *([b">"] * len(streams)))
    q.put(("ready", "raw", os.getpid(), None))
    go.wait()
    pos = [0] * len(mine)
    ready = list(range(len(mine)))
    remaining = len(mine)
    last = b"0-0"
    latencies: list[float] = []
    refused: dict[str, int] = {}
    t0 = time.time()
    quiet_since = time.monotonic()
    while remaining:
        stamp = repr(time.time()).encode()
        sends: list[tuple[Any, ...]] = []
        for n in ready:
            stream, head, middle, decisions = frames[n]
            i = pos[n]
            body = b"".join(
                (head, str(i).encode(), middle, decisions[i].command, b',"sent_at":', stamp, b"}")
            )
            sends.append((b"XADD", stream, b"*", b"c", body))
        ready.clear()
        found = wire.call([*sends, read_group])[-1]
        work: list[tuple[Any, ...]] = []
        if found:
            for stream, entries in found:
                # The stream's decisions in one script call, as the service sends a
                # partition's (a stream is one partition's), then each reply.
                answers: list[tuple[Any, ...]] = []
                calls = []
                for _eid, fields in entries:
                    cmd = decode_command(fields[1])
                    d = table[cmd.command_id]
                    calls.append((d.keys, d.args))
                    reply = d.reply[:-1] + b',"sent_at":' + repr(cmd.sent_at).encode() + b"}"
                    answers.append(
                        (b"XADD", cmd.reply_to, b"MAXLEN", b"~", REPLY_MAXLEN, b"*", b"r", reply)
                    )
                keys, args = merged(calls)
                work += [(b"EVALSHA", sha, len(keys), *keys, *args), *answers]
                work.append((b"XACK", stream, GROUP, *[eid for eid, _ in entries]))
        work.append((b"XREAD", b"COUNT", b"2000", b"STREAMS", reply_to, last))
        results = wire.call(work)
        for command, result in zip(work, results, strict=True):
            if command[0] != b"EVALSHA":
                continue
            for one in [result] if isinstance(result, wire.error) else result:
                if isinstance(one, wire.error) or one[0] != b"ok":
                    why = str(one) if isinstance(one, wire.error) else one[0].decode()
                    refused[why] = refused.get(why, 0) + 1
        replies = results[-1]
        if not replies:
            if time.monotonic() - quiet_since > 60:
                raise RuntimeError(f"raw limit {index}: no reply for 60 s, {remaining} left")
            continue
        quiet_since = time.monotonic()
        now = time.time()
        for eid, fields in replies[0][1]:
            last = eid
            h = decode_reply(fields[1])
            latencies.append(now - h.sent_at)
            n = by_match[h.match_id]
            pos[n] += 1
            if pos[n] < len(frames[n][3]):
                ready.append(n)
            else:
                remaining -= 1
    t1 = time.time()
    wire.close()
    return {
        "index": index,
        "matches": len(mine),
        "replies": len(latencies),
        "t0": t0,
        "t1": t1,
        "latencies": latencies,
        "refused": refused,
    }


def run_raw_limit(lab: Any, processes: int) -> dict[str, Any]:
    """The raw limit with `processes` drivers; its rate, latency and the cores it used."""
    import asyncio
    import multiprocessing as mp

    from bench.common import cpu_seconds, percentile
    from bench.end_to_end import next_message, redis_cpu_info, reset, server_pids

    cfg = lab.cfg
    asyncio.run(reset(lab.url))
    ctx = mp.get_context("spawn")
    q = ctx.Queue()
    go = ctx.Event()
    procs = [
        ctx.Process(
            target=raw_limit_child,
            args=(lab.url, lab.prep_path, cfg.partitions, k, processes, q, go),
        )
        for k in range(processes)
    ]
    for p in procs:
        p.start()
    results: list[dict[str, Any]] = []
    pids: list[int] = []
    redis_pids: list[int] = []
    try:
        deadline = time.monotonic() + 120
        while len(pids) < processes:
            kind, _role, pid, _data = next_message(q, procs, deadline)
            if kind == "ready":
                pids.append(pid)
        redis_pids = server_pids(lab.server)
        pinned = _pin(redis_pids, pids)
        info0 = asyncio.run(redis_cpu_info(lab.url))
        cpu0 = {pid: cpu_seconds(pid) for pid in [*pids, *redis_pids]}
        go.set()
        t_go = time.time()
        cpu_at: dict[int, float] = {}
        while len(results) < processes:
            kind, _role, pid, data = next_message(q, procs, time.monotonic() + 3600)
            if kind == "result":
                results.append(data)
                cpu_at[pid] = cpu_seconds(pid)
        t_end = time.time()
        cpu1 = {pid: cpu_seconds(pid) for pid in redis_pids}
        info1 = asyncio.run(redis_cpu_info(lab.url))
    finally:
        go.set()
        _unpin(redis_pids)
        for p in procs:
            p.join(timeout=30)
            if p.is_alive():
                p.terminate()
                p.join()
    wall = max(1e-9, t_end - t_go)
    replies = sum(r["replies"] for r in results)
    seconds = max(r["t1"] for r in results) - min(r["t0"] for r in results)
    lat = [x * 1000 for r in results for x in r["latencies"]]
    driver_cpu = sum(cpu_at.get(pid, cpu0[pid]) - cpu0[pid] for pid in pids)
    redis_cpu = sum(cpu1[p] - cpu0[p] for p in redis_pids)
    refused: dict[str, int] = {}
    for r in results:
        for k, v in r["refused"].items():
            refused[k] = refused.get(k, 0) + v
    return {
        "mode": "raw",
        "processes": processes,
        "commands": lab.commands,
        "replies": replies,
        "seconds": round(seconds, 3),
        "cmds_per_s": round(replies / max(1e-9, seconds), 1),
        "reply_p50_ms": round(percentile(lat, 50), 2),
        "reply_p99_ms": round(percentile(lat, 99), 2),
        "refused": refused,
        "pinned": pinned,
        # CPU used by the drivers and by redis-server over the run: how saturated it was.
        "raw_cores": round((driver_cpu + redis_cpu) / wall, 3),
        "driver_cores": round(driver_cpu / wall, 3),
        "redis_cores": round(redis_cpu / wall, 3),
        "redis_us_per_cmd": round(1e6 * redis_cpu / max(1, replies), 1),
        "driver_us_per_cmd": round(1e6 * driver_cpu / max(1, replies), 1),
        "redis_commandstats": command_costs(info0, info1, replies),
    }


def drivers_for(cores: int) -> int:
    """Four drivers a core: pinned on two cores, 6 to 16 drivers ran within 5 % of each
    other and 4 about 5 % slower (docs/performance-log.md)."""
    return 4 * max(1, cores)


def _pin(redis_pids: list[int], driver_pids: list[int]) -> bool:
    """redis-server on a core of its own, the drivers on the others.

    Redis is one thread and the limit is its limit: a driver scheduled onto its core
    takes turns with it while another core idles. Unpinned, two cores ran 8 drivers at
    1.60 cores busy (redis-server 0.89); pinned, redis-server was busy 0.90-0.94."""
    cores = sorted(os.sched_getaffinity(0))
    if len(cores) < 2:
        return False
    try:
        for pid in redis_pids:
            os.sched_setaffinity(pid, {cores[-1]})
        for pid in driver_pids:
            os.sched_setaffinity(pid, set(cores[:-1]))
    except OSError:  # not ours to pin (another user's server): run as scheduled
        _unpin(redis_pids)
        return False
    return True


def _unpin(redis_pids: list[int]) -> None:
    """redis-server free again for the sections that follow."""
    for pid in redis_pids:
        with contextlib.suppress(OSError):
            os.sched_setaffinity(pid, os.sched_getaffinity(0))


def command_costs(before: dict[str, Any], after: dict[str, Any], commands: int) -> dict[str, Any]:
    """INFO commandstats between two readings, per command handled: calls and µs of
    Redis CPU for each Redis command (scripts' inner calls counted apart, as Redis does)."""
    out: dict[str, Any] = {}
    for name, now in after.items():
        if not name.startswith("cmdstat_"):
            continue
        was = before.get(name, {"calls": 0, "usec": 0})
        calls = int(now["calls"]) - int(was["calls"])
        usec = int(now["usec"]) - int(was["usec"])
        if calls <= 0:
            continue
        out[name.removeprefix("cmdstat_")] = {
            "calls_per_cmd": round(calls / max(1, commands), 3),
            "us_per_cmd": round(usec / max(1, commands), 2),
        }
    return dict(sorted(out.items(), key=lambda kv: -float(kv[1]["us_per_cmd"])))
