"""The reliability suite kills and restarts real processes under load: a few minutes,
so not part of the default run. `.ci/run` runs it on its own:
`TABLETOP_RELIABILITY=1 pytest -m reliability tests/reliability`."""

from __future__ import annotations

import os

collect_ignore_glob = [] if os.environ.get("TABLETOP_RELIABILITY") == "1" else ["test_*.py"]
