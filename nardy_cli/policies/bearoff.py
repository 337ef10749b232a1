"""Bear-off databases on disk: built by the kernels on first use, cached, checked, rebuilt when
stale.

The cache folder is `$NARDY_CACHE_DIR`, else `$XDG_CACHE_HOME/nardy`, else
`~/.cache/nardy`.  Each file carries a format version, the rules it depends on
(two-sided: the R8 last roll) and a SHA-256 of its arrays; a file that is
missing, unreadable, of another version or whose checksum fails is rebuilt.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import zipfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from ..core.errors import BearoffError
from ..core.outcomes import CLASS_KEYS
from ..core.position import Position
from ..core.rules import PRESETS, Rules
from ..kernels import bearoff as kb

FORMAT_VERSION = 1
TWO_SIDED_VERSION = 2   # 2: Black's last roll with White off is in the database (issue 41)


@dataclass(frozen=True)
class BearoffTables:
    """The arrays the game kernel reads (see `kernels/bearoff.py`)."""

    comp: np.ndarray
    all_dist: np.ndarray
    first_dist: np.ndarray
    win2: np.ndarray
    draw2: np.ndarray
    last_roll: bool

    def arrays(self) -> kb.RaceTables:
        """As the kernels take them (in `board_race_probabilities`' order)."""
        return kb.RaceTables(self.comp, self.all_dist, self.first_dist, self.win2, self.draw2)


def empty_tables() -> kb.RaceTables:
    """Placeholder arrays of the right types for kernels run without the databases."""
    return kb.RaceTables(kb.COMP, np.zeros((0, kb.T_MAX)), np.zeros((0, kb.T_MAX)),
                         np.zeros((2, 0, 0)), np.zeros((2, 0, 0)))


def cache_dir() -> Path:
    """Where the databases are kept."""
    if os.environ.get("NARDY_CACHE_DIR"):
        return Path(os.environ["NARDY_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "nardy"


def _digest(arrays: dict[str, np.ndarray]) -> str:
    h = hashlib.sha256()
    for key in sorted(arrays):
        a = np.ascontiguousarray(arrays[key])
        h.update(key.encode() + str(a.dtype).encode() + str(a.shape).encode() + a.tobytes())
    return h.hexdigest()


def _load(path: Path, meta: dict) -> dict[str, np.ndarray] | None:
    try:
        with np.load(path, allow_pickle=False) as data:
            stored = json.loads(str(data["meta"]))
            arrays = {k: data[k] for k in data.files if k != "meta"}
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile):
        return None
    if {k: stored.get(k) for k in meta} != meta or stored.get("sha256") != _digest(arrays):
        return None
    return arrays


def _save(path: Path, meta: dict, arrays: dict[str, np.ndarray]) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        full = dict(meta, sha256=_digest(arrays))
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        with os.fdopen(fd, "wb") as f:
            np.savez(f, meta=np.array(json.dumps(full)), **arrays)
        os.replace(tmp, path)
    except OSError:  # a read-only cache folder: keep the tables in memory only
        pass


def _cached(name: str, meta: dict, build) -> dict[str, np.ndarray]:
    path = cache_dir() / name
    arrays = _load(path, meta)
    if arrays is None:
        arrays = build()
        _save(path, meta, arrays)
    return arrays


def one_sided() -> dict[str, np.ndarray]:
    """{"all_dist", "first_dist"} of every home board of up to 15 checkers."""
    meta = {"format": FORMAT_VERSION, "kind": "one-sided", "t_max": kb.T_MAX}

    def build():
        all_dist, first_dist = kb.build_one_sided(kb.COMP)
        return {"all_dist": all_dist, "first_dist": first_dist}

    return _cached(f"bearoff-one-v{FORMAT_VERSION}.npz", meta, build)


def two_sided(last_roll: bool) -> dict[str, np.ndarray]:
    """{"win", "draw"} for both sides at most `N_TWO` checkers (depends on the R8 last roll)."""
    meta = {"format": TWO_SIDED_VERSION, "kind": "two-sided", "n": kb.N_TWO,
            "last_roll": bool(last_roll)}

    def build():
        win, draw = kb.build_two_sided(kb.COMP, one_sided()["all_dist"], bool(last_roll))
        return {"win": win, "draw": draw}

    return _cached(f"bearoff-two{kb.N_TWO}-lr{int(bool(last_roll))}-v{TWO_SIDED_VERSION}.npz", meta,
                   build)


@lru_cache(maxsize=4)
def _tables(folder: str, last_roll: bool) -> BearoffTables:
    one = one_sided()
    two = two_sided(last_roll)
    return BearoffTables(kb.COMP, one["all_dist"], one["first_dist"], two["win"], two["draw"],
                         last_roll)


def tables(rules: Rules = PRESETS["federation"]) -> BearoffTables:
    """The databases for these rules, from the cache (built on first use)."""
    return _tables(str(cache_dir()), bool(rules.last_roll))


def home_board(position: Position, side: str) -> np.ndarray | None:
    """Six counts (points 19..24) of a side with every checker on the board home, else None."""
    pts = position.checkers(side)
    if sum(pts[:18]) > 0:
        return None
    return np.array(pts[18:24], dtype=np.int8)


@dataclass(frozen=True)
class BearoffValue:
    """Outcome chances of the side to move in a race with both sides all home."""

    position: Position
    exact: bool
    probabilities: dict[str, float]
    equity: float
    method: str

    def to_dict(self) -> dict:
        """Plain data for JSON."""
        return {"position": str(self.position), "method": self.method, "exact": self.exact,
                "probabilities": self.probabilities, "equity": self.equity}


def is_bearoff(position: Position) -> bool:
    """True when both sides have every checker on the board in their home."""
    return home_board(position, "w") is not None and home_board(position, "b") is not None


def bearoff_value(position: Position, rules: Rules = PRESETS["federation"]) -> BearoffValue:
    """Exact (two-sided database) or near-exact (one-sided convolution) chances of the side to
    move."""
    from ..core.engine import require_in_play
    require_in_play(position, rules)
    if not is_bearoff(position):
        raise BearoffError(f"not a bear-off: a side of {str(position)!r} has checkers "
                           "outside its home")
    t = tables(rules)
    board, _, _ = position.board()
    out = np.zeros(kb.N_CLASSES)
    exact = kb.board_race_probabilities(board, position.turn == "w", bool(rules.last_roll),
                                        *t.arrays(), np.zeros(kb.N_HOME, dtype=np.int64), out)
    probs = probabilities_dict(out)
    values = np.array(rules.points.as_tuple())
    equity = float(out[:4] @ values - out[4:8] @ values)
    return BearoffValue(position, bool(exact), probs, equity,
                        "two-sided database" if exact else "one-sided convolution")


def probabilities_dict(out: np.ndarray) -> dict[str, float]:
    """The 9 result-code probabilities as the rollout's named probabilities."""
    probs = {"win": float(out[:4].sum()), "lose": float(out[4:8].sum()), "draw": float(out[8])}
    for i, c in enumerate(CLASS_KEYS):
        probs[f"win_{c}"] = float(out[i])
        probs[f"lose_{c}"] = float(out[4 + i])
    return probs
