"""`tabletop bench`: how fast the whole thing is, on this machine and against its limits.

The measurements, a module each (docs/benchmarks.md shows the latest full run):

1. `end_to_end`: M concurrent matches played by bots through the real command streams,
   with the command service and the projector running, each in a process of its own.
   The bots' commands are prepared ahead (`prepare`): every match is first played
   in-process with the same code the service runs (`CommandProcessor.plan`: decide,
   fold, seal) and the same seeds (the Rng depends only on (seed, version)), so
   replaying those commands through the streams reproduces the same events; a load
   generator (`load`, another process, several connections) sends each match's next
   command when its previous reply arrives and measures the latency from the reply's
   `sent_at`.
2. `raw_limit`, the limit: the same Redis work per command (the client's XADD, XREADGROUP,
   EVALSHA of our `append.lua` with the service's arguments, the reply's XADD, XACK, the
   client's XREAD) and nothing else, driven by several processes packing commands with
   hiredis onto plain sockets until the cores are saturated.
3. `eventsourcing_peer`: the `eventsourcing` package (SQLite recorder, aggregate cache
   on) doing the same per-command work in-process: load the match, decide with our
   rules, append one event. Compared at equal durability, two levels: ours (AOF fsync
   every second) against SQLite `synchronous=NORMAL`, and the end-to-end run again
   against a Redis with `appendfsync always` against SQLite's default (an fsync per
   commit). `peer_service`: the service a Python team would build instead (FastStream,
   one message per call, that `eventsourcing` application, a reply stream), fed the
   same load by the same generator.
4. `rules_cost`: decide+evolve per command for every registered game; random matches/s.
5. `growth`: match load time by length, with and without snapshots; projection rebuild
   rate over a log of 1,000,000 events; memory per live match in the service's cache.
6. `scale_out`: the end-to-end run with 1, 2 and 4 command-service processes.

The end-to-end run also gives the sustained rate (the projector's catch-up counted),
runs again paced at half its peak (reply latency there), and once more with the roles
in turn (service and client, then the projector alone) for Redis's cost per role.

`suite` runs them in turn, `report` writes docs/benchmarks.md and the table, `command`
is the click command. The processes are built by the house's composition root
(`services.compose`), as `tabletop serve` builds them. Every module imports the
product and the bench extra inside its functions, so `import bench` (the CLI does, to
register the command) stays light. Linux only (peak memory and CPU time come from
/proc). Every Redis used is a private embedded one, never the server on 6379.
"""

from __future__ import annotations

from bench.command import bench_command

__all__ = ["bench_command"]
