"""Test data and environment helpers: the public rule vectors, the project root for subprocesses."""

from __future__ import annotations

import json
import os
from pathlib import Path

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
SHARED_CASES = ROOT.parent / "shared" / "cases"
LOCAL_CASES = TESTS / "data"


def load_vectors(name: str = "rules.jsonl") -> list[dict]:
    """Every vector of a cases file: the shared copy when present, else the one kept in
    tests/data."""
    path = SHARED_CASES / name if (SHARED_CASES / name).exists() else LOCAL_CASES / name
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def subprocess_env(**extra: str) -> dict[str, str]:
    """The environment for a `python -m nardy_cli` subprocess that can import `tests.bots`."""
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    return dict(os.environ, PYTHONPATH=path, **extra)


def default_signals() -> None:
    """In a child, before exec: SIGINT and SIGHUP back to their defaults.  A suite started in the
    background ignores them (`make test &` ignores SIGINT, `nohup make test` SIGHUP), children
    inherit that, and nardy leaves an ignored SIGHUP ignored, as `nohup nardy ...` expects."""
    import signal
    for name in ("SIGINT", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_DFL)
