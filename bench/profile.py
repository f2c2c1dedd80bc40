"""py-spy on the command service during an end-to-end run, summed up per function."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from bench.common import Lab, say

REPO = f"{Path(__file__).resolve().parent.parent}/"  # frames of ours, named from here


def start_profile(lab: Lab, pid: int) -> Any:
    import shutil
    import subprocess

    exe = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    if not os.path.exists(exe):
        say("py-spy not found: no profile")
        return None
    out = lab.tmp / "profile.txt"
    proc = subprocess.Popen(
        [exe, "record", "--pid", str(pid), "--rate", "200", "--format", "raw",
         "--nonblocking", "--output", str(out)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    lab.profiles["raw_path"] = str(out)
    return proc


def stop_profile(lab: Lab, proc: Any) -> None:
    import signal

    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=30)
    except Exception:
        proc.kill()
        proc.wait()
    path = Path(lab.profiles.get("raw_path", ""))
    if path.exists():
        lab.profiles["summary"] = summarize_profile(path.read_text())


def summarize_profile(collapsed: str, top: int = 25) -> str:
    """Self and inclusive sample shares per function, from py-spy's collapsed stacks."""
    own: dict[str, int] = {}
    incl: dict[str, int] = {}
    total = 0
    for line in collapsed.splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        n = int(count)
        total += n
        frames = [_frame_name(f) for f in stack.split(";")]
        own[frames[-1]] = own.get(frames[-1], 0) + n
        for name in set(frames):
            incl[name] = incl.get(name, 0) + n
    if not total:
        return "(no samples)"
    lines = [f"{total} samples", "", "self %  function", "------  --------"]
    for name, n in sorted(own.items(), key=lambda x: -x[1])[:top]:
        lines.append(f"{100 * n / total:6.1f}  {name}")
    lines += ["", "incl %  function (ours)", "------  --------"]
    ours = [
        (k, v) for k, v in incl.items() if any(s in k for s in ("services/", "domain/", "events/"))
    ]
    for name, n in sorted(ours, key=lambda x: -x[1])[:top]:
        lines.append(f"{100 * n / total:6.1f}  {name}")
    return "\n".join(lines)


def _frame_name(frame: str) -> str:
    # "function (path/to/file.py:123)" -> "function (file path from the package)"
    fn, _, where = frame.partition(" (")
    where = where.rstrip(")")
    path = where.rsplit(":", 1)[0]
    for marker in ("site-packages/", REPO, "lib/python3"):
        if marker in path:
            path = path.split(marker, 1)[1]
            break
    return f"{fn} ({path})"
