"""Ratings of play from a library's decisions: error rates, the PR-style figure, intervals, bands.

For a player (docs/library.md gives the definitions and their reasons):

- **checker error rate**: the equity lost per non-forced checker play (one legal result is no
  decision), in millipoints (mp, x 1000).  At a match score the loss is normalised equity (a
  single game won +1, lost -1), as the review gives it;
- **cube error rate**: the equity lost per counted cube decision, in mp.  A cube decision counts
  when a double was right or was made (the roller's), and every answer to a double (the taker's):
  the positions where the cube was a question;
- **PR** (performance rating, as eXtreme Gammon's): 500 x the equity lost in checker play and cube
  action together per non-forced decision of both kinds;
- **errors and blunders per game**: decisions that lost at least the review's error threshold
  (0.08) but less than its blunder threshold (0.16), and those that lost 0.16 or more.

Intervals are 95% percentile bootstrap intervals of the ratio (lost / decisions), resampling
whole games (`BOOTSTRAP` resamples, seeded); a set of fewer than `MIN_GAMES` games resamples
single decisions instead, which understates the spread (decisions of one game are not
independent).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..core.errors import ArgumentError
from ..core.limits import check_seed
from ..core.phases import PHASES
from ..review.game_review import Thresholds

BOOTSTRAP = 2000
MIN_GAMES = 10
DEFAULT_SEED = 39
LEVEL = 0.95
BY = ("player", "phase", "month", "match")
THRESHOLDS = Thresholds()


def counted_cube(cube: pd.DataFrame, player: str) -> pd.DataFrame:
    """The player's counted cube decisions: (game_id, lost) rows — its doubling decisions where a
    double was right or made, and its answers to doubles."""
    if cube.empty:
        return pd.DataFrame({"game_id": [], "lost": [], "day": [], "source": [],
                             "source_id": []})
    doubled = cube["action"] != "no double"
    rolled = ((cube["player"] == player) & cube["double_lost"].notna()
              & (doubled | cube["best"].str.startswith("double")))
    answered = (cube["taker"] == player) & cube["take_lost"].notna() & doubled
    keep = ["game_id", "day", "source", "source_id"]
    return pd.concat([cube.loc[rolled, keep].assign(lost=cube.loc[rolled, "double_lost"]),
                      cube.loc[answered, keep].assign(lost=cube.loc[answered, "take_lost"])],
                     ignore_index=True)


def ratio_interval(lost: np.ndarray, counts: np.ndarray, rng: np.random.Generator,
                   scale: float = 1.0) -> tuple[float, float]:
    """The 95% percentile bootstrap interval of scale x sum(lost) / sum(counts) over units (games
    or decisions), each unit's loss and count resampled together; NaNs for fewer than 2 units."""
    lost, counts = np.asarray(lost, dtype=float), np.asarray(counts, dtype=float)
    if len(lost) < 2 or counts.sum() == 0:
        return float("nan"), float("nan")
    picks = rng.integers(0, len(lost), size=(BOOTSTRAP, len(lost)))
    n = counts[picks].sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        ratios = scale * lost[picks].sum(axis=1) / n
    ratios = ratios[n > 0]
    tail = 100 * (1 - LEVEL) / 2
    low, high = np.percentile(ratios, [tail, 100 - tail])
    return float(low), float(high)


def _units(checker: pd.DataFrame, cube: pd.DataFrame, use_cube: bool) -> tuple[np.ndarray,
                                                                                np.ndarray]:
    """Per game (or per decision when there are fewer than `MIN_GAMES` games): loss and count."""
    parts = [checker[["game_id", "lost"]]] + ([cube[["game_id", "lost"]]] if use_cube else [])
    rows = pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(columns=["game_id",
                                                                                   "lost"])
    if rows["game_id"].nunique() >= MIN_GAMES:
        grouped = rows.groupby("game_id")["lost"].agg(["sum", "count"])
        return grouped["sum"].to_numpy(), grouped["count"].to_numpy()
    return rows["lost"].to_numpy(dtype=float), np.ones(len(rows))


def rating(checker: pd.DataFrame, cube: pd.DataFrame, rng: np.random.Generator) -> dict:
    """One set of a player's decisions rated: counts, rates in mp, PR, their intervals, marks per
    game.  `checker` holds every checker-play row (forced too); `cube` the counted cube rows."""
    plays = checker[~checker["forced"]]
    games = len(set(checker["game_id"]) | set(cube["game_id"]))
    lost_c, lost_q = float(plays["lost"].sum()), float(cube["lost"].sum())
    n_c, n_q = len(plays), len(cube)
    both = np.concatenate([plays["lost"].to_numpy(float), cube["lost"].to_numpy(float)])
    errors = int(((both >= THRESHOLDS.error) & (both < THRESHOLDS.blunder)).sum())
    blunders = int((both >= THRESHOLDS.blunder).sum())
    c_low, c_high = ratio_interval(*_units(plays, cube, False), rng, 1000)
    q_low, q_high = (ratio_interval(*_units(cube.iloc[:0], cube, True), rng, 1000) if n_q
                     else (float("nan"), float("nan")))
    p_low, p_high = ratio_interval(*_units(plays, cube, True), rng, 500)
    nan = float("nan")
    return {"games": games, "decisions": len(checker), "non_forced": n_c,
            "checker_mp": 1000 * lost_c / n_c if n_c else nan,
            "checker_low": c_low, "checker_high": c_high,
            "cube_decisions": n_q, "cube_mp": 1000 * lost_q / n_q if n_q else nan,
            "cube_low": q_low, "cube_high": q_high,
            "pr": 500 * (lost_c + lost_q) / (n_c + n_q) if n_c + n_q else nan,
            "pr_low": p_low, "pr_high": p_high,
            "errors_per_game": errors / games if games else nan,
            "blunders_per_game": blunders / games if games else nan}


def rate(decisions: pd.DataFrame, cube: pd.DataFrame, *, by: str = "player",
         player: str | None = None, seed: int = DEFAULT_SEED) -> pd.DataFrame:
    """Ratings per player (`by="player"`, with the grade band), per player and phase (`phase`: the
    checker plays only), or per player and month / match (`month`, `match`: a source file, in
    order of its first day), from `Library.decisions` and `Library.cube_decisions` frames."""
    from .bands import band_of
    if by not in BY:
        raise ArgumentError(f"unknown grouping {by!r} for {{by}}: choose one of {', '.join(BY)}")
    check_seed(seed)
    rng = np.random.default_rng(seed)
    players = [player] if player is not None else sorted(set(decisions.get("player", [])))
    twins: set = set()      # source ids whose files share a name: a match row names its id too
    if by == "match" and not decisions.empty:
        names = decisions.groupby("source_id")["source"].first()
        twins = set(names[names.duplicated(keep=False)].index)
    rows = []
    for name in players:
        mine = decisions[decisions["player"] == name] if not decisions.empty else decisions
        if mine.empty:
            continue
        counted = counted_cube(cube, name)
        if by == "player":
            row = {"player": name, **rating(mine, counted, rng)}
            row["band"] = band_of(row["pr"])
            rows.append(row)
        elif by == "phase":
            for phase in PHASES:
                part = mine[mine["phase"] == phase]
                if not part[~part["forced"]].empty:
                    rows.append({"player": name, "phase": phase,
                                 **_phase_row(part, rng)})
        else:
            rows += _periods(name, mine, counted, by, rng, twins)
    return pd.DataFrame(rows)


def _phase_row(part: pd.DataFrame, rng: np.random.Generator) -> dict:
    """A phase's checker figures: games, non-forced decisions, error rate and interval, share."""
    r = rating(part, part.iloc[:0].assign(lost=[]), rng)
    return {"games": r["games"], "non_forced": r["non_forced"], "checker_mp": r["checker_mp"],
            "checker_low": r["checker_low"], "checker_high": r["checker_high"]}


def _periods(name: str, mine: pd.DataFrame, counted: pd.DataFrame, by: str,
             rng: np.random.Generator, twins: set = frozenset()) -> list[dict]:
    """The player's rating per month (`YYYY-MM` of the game's day) or per match (source file; one
    of `twins`, source ids whose files share a name, with its id)."""
    if by == "month":
        key_d, key_q = mine["day"].str[:7], counted["day"].astype(str).str[:7]
    else:
        key_d, key_q = mine["source_id"], counted["source_id"]
    order = mine.groupby(key_d)["day"].min().sort_values(kind="stable")
    names = mine.groupby("source_id")["source"].first().astype(str)
    rows = []
    for key in order.index:
        part = mine[key_d == key]
        r = rating(part, counted[key_q == key], rng)
        label = (key if by == "month" else
                 f"{names[key]} (source {key})" if key in twins else names[key])
        rows.append({"player": name, by: label, "first_day": order[key],
                     **{k: r[k] for k in ("games", "non_forced", "cube_decisions", "pr",
                                          "pr_low", "pr_high", "checker_mp")}})
    return rows


__all__ = ["rate", "rating", "ratio_interval", "counted_cube", "BY", "BOOTSTRAP", "MIN_GAMES",
           "DEFAULT_SEED"]
