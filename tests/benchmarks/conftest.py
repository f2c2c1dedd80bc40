"""The benchmarks are not part of the default test run: they take a minute and load
both cores. `TABLETOP_BENCH=1 pytest tests/benchmarks` runs them."""

from __future__ import annotations

import os

collect_ignore_glob = [] if os.environ.get("TABLETOP_BENCH") == "1" else ["test_*.py"]
