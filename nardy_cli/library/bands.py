"""Grade bands of the PR-style rating for long nardy, and the reference bots that set them.

`BANDS` are (name, PR below which the band holds), best first.  They were set from the built-in
bots' ratings (`reference()`, the data file `data/library-reference.json` written by
`experiments/library_reference.py`): each bot's self-play games rated by a reviewer.  Between
bots with a clear gap the cut lies near the geometric middle of their PRs (lookahead:heuristic
29 | 35 | heuristic 40, heuristic | 50 | racer 61, racer | 90 | random 125, reviewed by
lookahead:neural); the wide gap between the network (about 2) and lookahead:heuristic (about
30), where human play is expected, is split by doublings (2.5, 5, 10, 20), as eXtreme Gammon's
bands are.  docs/library.md tells the story with the figures.
"""

from __future__ import annotations

import json
import math
from functools import lru_cache
from pathlib import Path

import pandas as pd

from ..core.i18n import N_

BANDS: tuple[tuple[str, float], ...] = (
    (N_("Supernatural"), 2.5),
    (N_("World class"), 5.0),
    (N_("Expert"), 10.0),
    (N_("Advanced"), 20.0),
    (N_("Intermediate"), 35.0),
    (N_("Casual"), 50.0),
    (N_("Beginner"), 90.0),
    (N_("Awful"), math.inf),
)
REFERENCE_FILE = Path(__file__).resolve().parent.parent / "data" / "library-reference.json"
# the reviewer whose figures set the bands (the stronger judge: every bot but itself rated
# independently)
BAND_REVIEWER = "lookahead:neural"


def band_of(pr: float) -> str:
    """The band of a PR ('' for NaN)."""
    if pr != pr:
        return ""
    return next(name for name, top in BANDS if pr < top)


@lru_cache(maxsize=1)
def _reference_data() -> dict:
    return json.loads(REFERENCE_FILE.read_text(encoding="utf-8"))


def reference(evaluator: str | None = None) -> dict:
    """The reference run reviewed by `evaluator` when there is one, else by `BAND_REVIEWER`:
    `{"evaluator", "bots": [{"name", "pr", "pr_low", "pr_high", "checker_mp", "phases": {...}},
    ...]}` with the run's games, seed and command."""
    data = _reference_data()
    runs = {run["evaluator"]: run for run in data["runs"]}
    run = runs.get(evaluator) or runs[BAND_REVIEWER]
    return {**{k: v for k, v in data.items() if k != "runs"}, **run}


def band_table() -> pd.DataFrame:
    """The bands: name, PR from, PR below, and the reference bots in each (their PR by
    `BAND_REVIEWER`)."""
    bots = reference(BAND_REVIEWER)["bots"]
    rows, floor = [], 0.0
    for name, top in BANDS:
        inside = [f"{b['name']} {b['pr']:.1f}" for b in bots if floor <= b["pr"] < top]
        rows.append({"band": name, "from": floor, "below": top, "reference": ", ".join(inside)})
        floor = top
    return pd.DataFrame(rows)


__all__ = ["BANDS", "band_of", "reference", "band_table", "BAND_REVIEWER"]
