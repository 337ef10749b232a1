"""Reading the book: its entries by decision, the first exchange, a first roll's tree, as
DataFrames.

`load_book()` reads the book shipped with nardy (`nardy_cli/data/opening-book.jsonl.gz`), or a
file a build wrote.  Nothing here plays a game: every figure is the entry's own.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import pandas as pd

from ..core.dice import ALL_ROLLS, Dice
from ..core.position import START, Position
from ..core.rules import Rules
from .store import SHIPPED, BookError, Entries, book_frame, read_entries
from .tree import DEPTHS, exchange_lines


@dataclass(frozen=True)
class Book:
    """The entries of a book file, by key (`depth|position|dice`)."""

    path: Path
    entries: Mapping[str, dict]

    def frame(self) -> pd.DataFrame:
        """One row per judged play (and per valued position of the first exchange)."""
        return book_frame(self.entries)

    def depth_counts(self) -> dict[str, int]:
        """Entries per depth."""
        out: dict[str, int] = {}
        for entry in self.entries.values():
            out[entry["depth"]] = out.get(entry["depth"], 0) + 1
        return out

    def entry(self, position: Position, dice: Dice | None) -> dict | None:
        """The entry of a decision (`dice` None: the position's value before the roll), from any
        depth; None when the book lacks it."""
        pos = str(position.with_dice(None))
        for depth in ("white-1", "white-2", "black-2", "exchange"):
            entry = self.entries.get(f"{depth}|{pos}|{dice or '-'}")
            if entry is not None:
                return entry
        return None

    def answers(self, position: Position, dice: Dice | None, rules: Rules,
                policy: str | None = None) -> dict | None:
        """The entry for this decision when it was made under `rules` (and by `policy`, when
        given); None otherwise."""
        entry = self.entry(position, dice)
        if entry is None:
            return None
        prov = entry["provenance"]
        if prov["rules"] != rules.to_dict() or (policy is not None and prov["policy"] != policy):
            return None
        return entry

    def value(self, position: Position | str) -> dict | None:
        """The first exchange's rollout of a position (White to roll; or its text, without dice),
        or None."""
        text = position if isinstance(position, str) else str(position.with_dice(None))
        entry = self.entries.get(f"exchange|{text}|-")
        return entry["value"] if entry else None

    def first_plays(self) -> dict[str, str]:
        """White's first play of each roll: the only one, or the best by the book (3-3)."""
        out = {}
        for roll in ALL_ROLLS:
            entry = self.entries.get(f"white-1|{START}|{roll}")
            if entry is not None:
                out[str(roll)] = entry["plays"][0]["play"]
        return out

    def exchange_frame(self, rules: Rules) -> pd.DataFrame:
        """The first exchange: one row per (White's first roll, Black's roll) with White's play
        (the book's best for 3-3), Black's reply (the one leaving White the least, by the
        exchange rollouts, when Black has a choice), the position and White's equity there with
        its SE (NaN where the book lacks the position)."""
        return _exchange(self, rules)

    def first_roll_frame(self, rules: Rules) -> pd.DataFrame:
        """Each first roll's White play and its equity averaged over Black's 21 replies (weighted by
        their chances), with the SE of that average."""
        ex = self.exchange_frame(rules)
        if ex.empty:
            return ex
        ex = ex.assign(w=ex["black_roll"].map(_weight))
        rows = []
        for roll, g in ex.groupby("white_roll", sort=False):
            equity, se = _average(g["w"], g["equity"], g["equity_se"])
            rows.append({"roll": roll, "play": g["white_play"].iloc[0], "equity": equity,
                         "equity_se": se, "replies": int(g["equity"].notna().sum())})
        return pd.DataFrame(rows)

    def standing(self, rules: Rules) -> dict:
        """Who stands better after the first exchange: White's equity (White to roll) averaged over
        every first roll and reply by their chances, its SE, and how many exchanges the book
        values."""
        ex = self.exchange_frame(rules)
        if ex.empty:
            return {"equity": float("nan"), "equity_se": float("nan"), "exchanges": 0}
        equity, se = _average(ex["white_roll"].map(_weight) * ex["black_roll"].map(_weight),
                              ex["equity"], ex["equity_se"])
        return {"equity": equity, "equity_se": se, "exchanges": int(ex["equity"].notna().sum())}

    def provenance(self, depths: tuple[str, ...] | None = None) -> dict:
        """The provenance (policy, network, rules, settings, version, dates) of the entries of
        `depths` (default: every depth), computed from them: each setting they share as its
        value, and each they do not under `by_depth`, depth by depth (`{"white-1": {"truncate":
        7}, "black-2": {"truncate": 8}}`; `setting_groups` reads it).  {} when none is built."""
        if isinstance(self.entries, Entries):
            texts = self.entries.provenance_texts(depths)
            seen = {d: [json.loads(t) for t in ts] for d, ts in texts.items()}
        else:
            seen = {}
            for entry in self.entries.values():
                seen.setdefault(entry["depth"], []).append(entry["provenance"])
        seen = {d: provs for d, provs in seen.items() if depths is None or d in depths}
        if not seen:
            return {}
        dates = sorted({p.get("date") for provs in seen.values() for p in provs} - {None})
        per_depth = {d: _shared([{k: v for k, v in p.items() if k != "date"} for p in provs])
                     for d, provs in sorted(seen.items(), key=lambda kv: _depth_order(kv[0]))}
        common = _shared(list(per_depth.values()))
        out = dict(common)
        differ = {d: {k: v for k, v in settings.items() if k not in common}
                  for d, settings in per_depth.items()}
        if any(differ.values()):
            out["by_depth"] = differ
        if dates:
            out["date"] = dates[0] if len(dates) == 1 else f"{dates[0]} to {dates[-1]}"
        return out

    def tree(self, roll: Dice, rules: Rules) -> pd.DataFrame:
        """A first roll's tree: White's play, Black's 21 replies (the play Black chooses), the
        position each leads to and White's equity there (`lessons.second_turn_grid` adds White's
        best second plays)."""
        ex = self.exchange_frame(rules)
        return ex[ex["white_roll"] == str(roll)].reset_index(drop=True)

    def second_turn(self, position: Position) -> pd.DataFrame:
        """White's second turn in a position after the first exchange: the best play of each
        roll, its equity, the runner-up and its loss, how it was judged."""
        rows = []
        for roll in ALL_ROLLS:
            entry = self.entry(position, roll)
            if entry is None:
                continue
            plays = entry["plays"]
            best = plays[0]
            second = plays[1] if len(plays) > 1 else None
            rows.append({"dice": str(roll), "best": best["play"], "equity": best["equity"],
                         "equity_se": best.get("equity_se"), "method": entry["method"],
                         "plays": len(plays),
                         "runner_up": second["play"] if second else None,
                         "verdict": second["verdict"] if second else None,
                         "loss": second["loss"] if second else None})
        return pd.DataFrame(rows)


def _average(weights: pd.Series, equity: pd.Series, se: pd.Series) -> tuple[float, float]:
    """The mean of `equity` by the rolls' `weights` and its SE; NaN while any figure is missing.
    Every rollout of the book plays the same seeded dice, so their errors may go together: the SE
    is the bound for errors that go together entirely (the weighted mean of the SEs), not the
    smaller figure for independent ones."""
    if equity.isna().any() or equity.empty:
        return float("nan"), float("nan")
    w = weights / weights.sum()
    return float((w * equity).sum()), float((w * se).sum())


def _weight(roll: str) -> float:
    return 1.0 if roll[0] == roll[-1] else 2.0


def _exchange(book: Book, rules: Rules) -> pd.DataFrame:
    firsts = book.first_plays()
    best: dict[tuple, tuple] = {}
    for wroll, wplay, broll, bplay, position in exchange_lines(rules):
        if firsts.get(wroll, wplay) != wplay:
            continue
        value = book.value(position)
        eq = value["equity"] if value else float("nan")
        se = value["equity_se"] if value else float("nan")
        key = (wroll, broll)
        # Black picks the reply that leaves White the least (by the rollouts)
        if key not in best or (eq == eq and not eq >= best[key][3]):
            best[key] = (wplay, bplay, position, eq, se)
    rows = [{"white_roll": w, "white_play": v[0], "black_roll": b, "black_play": v[1],
             "position": v[2], "equity": v[3], "equity_se": v[4]}
            for (w, b), v in best.items()]
    return pd.DataFrame(rows)


@lru_cache(maxsize=4)
def _load(path: str, mtime: float) -> Book:
    return Book(Path(path), read_entries(path))


def load_book(path: str | Path | None = None) -> Book:
    """The book at `path` (None: the book shipped with nardy); read once per process while the
    file is unchanged."""
    if path is not None and not Path(path).exists():
        raise BookError(f"no opening book at {str(path)!r}")
    path = Path(path) if path is not None else SHIPPED
    mtime = path.stat().st_mtime if path.exists() else 0.0
    return _load(str(path), mtime)




def _depth_order(depth: str) -> int:
    return DEPTHS.index(depth) if depth in DEPTHS else len(DEPTHS)


def _shared(settings: list[dict]) -> dict:
    """The settings (key: value) that every dict of `settings` holds alike."""
    first = settings[0]
    return {k: v for k, v in first.items() if all(k in s and s[k] == v for s in settings[1:])}


def setting_groups(provenance: dict, key: str) -> list[tuple[tuple[str, ...], object]]:
    """A setting of a `Book.provenance`, as (depths, value) groups in the game's order: one group
    `((), value)` when every depth shares it, else the depths of each value (`[(("white-1",
    "exchange", "white-2"), 7), (("black-2",), 8)]`)."""
    if key in provenance:
        return [((), provenance[key])]
    groups: list[tuple[tuple[str, ...], object]] = []
    for depth, settings in provenance.get("by_depth", {}).items():
        value = settings.get(key)
        for i, (names, seen) in enumerate(groups):
            if seen == value:
                groups[i] = (names + (depth,), seen)
                break
        else:
            groups.append(((depth,), value))
    return groups
