"""Shared fixtures: the public rule vectors, read from ../shared/cases when present."""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))

SHARED_CASES = HERE.parent.parent / "shared" / "cases"
LOCAL_CASES = HERE / "data"


def load_vectors(name: str = "rules.jsonl") -> list[dict]:
    """Every vector of a cases file: the shared copy when present, else the one kept in tests/data."""
    path = SHARED_CASES / name if (SHARED_CASES / name).exists() else LOCAL_CASES / name
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
