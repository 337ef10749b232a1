"""Building the book: every decision of the chosen depths judged, resumably, on any executor.

`build_book` judges the decisions its file lacks, one job each, on this process, local worker
processes or a Dask cluster (`games.executors.run_jobs`); each finished entry is appended to the
file at once, so a kill or Ctrl-C loses only the entries being judged and the same call goes on
where it stopped.  A depth keeps one network and one set of rules: a build whose network or rules
differ from the entries already in that depth is refused (`BookError`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Mapping

from ..core.dice import parse_dice
from ..core.errors import ArgumentError, NoGamesError
from ..core.position import Position
from ..core.rules import Rules, rules_from_dict
from ..games.executors import run_jobs
from .entry import BookSettings, judge, network_hash
from .store import BookError, append_entries, pack, read_entries
from .tree import DEPTHS, Decision, decisions

DEFAULT_DEPTHS = ("white-1", "exchange", "white-2")


@dataclass
class BookTally:
    """The entries finished by jobs (summed with `add`, as the executors sum tallies)."""

    entries: list

    def add(self, other: "BookTally") -> None:
        self.entries.extend(other.entries)


def _new_tally() -> BookTally:
    return BookTally([])


def judge_task(settings: dict, rules: dict, net: str | None, depth: str, position: str,
               dice: str | None, lo: int, hi: int) -> BookTally:
    """One job (module level, so it travels to workers): the entry of one decision, with the CPU
    seconds it took."""
    start = time.process_time()
    decision = Decision(depth, Position.parse(position), parse_dice(dice) if dice else None)
    try:
        entry = judge(decision, BookSettings.from_dict(settings), rules_from_dict(rules), net)
    except NoGamesError:        # interrupted before its rollouts played a game
        raise KeyboardInterrupt from None
    if entry.pop("interrupted", False):
        raise KeyboardInterrupt     # a half-made entry is never kept: the next build redoes it
    entry["cpu_seconds"] = round(time.process_time() - start, 2)
    return BookTally([entry])


@dataclass(frozen=True)
class BuildResult:
    """What a build did: entries in the book for its depths, those it added, the total, whether it
    was interrupted, and the wall and summed entry CPU seconds of this run."""

    done: int
    added: int
    total: int
    interrupted: bool
    seconds: float
    cpu_seconds: float
    size: int


def check_depth(entries: Mapping[str, dict], depth: str, rules: Rules, net: str | None) -> None:
    """Refuse to add entries made with another network or other rules to a depth."""
    for entry in entries.values():
        if entry["depth"] != depth:
            continue
        prov = entry["provenance"]
        if prov.get("network") != net:
            raise BookError(f"the book's {depth} entries were made with network "
                            f"{prov.get('network')}, this build's is {net}: one depth keeps one "
                            "network (build into another file)")
        if prov["rules"] != rules.to_dict():
            raise BookError(f"the book's {depth} entries were made under other rules "
                            f"({prov['rules'].get('preset')}): one depth keeps one set of rules "
                            "(build into another file)")
        return


def black_positions(entries: Mapping[str, dict]) -> list[Position]:
    """The positions after White's second plays judged best or close: where Black's second turn is
    built first."""
    seen: dict[str, None] = {}
    for key in sorted(entries):
        entry = entries[key]
        if entry["depth"] == "white-2":
            for play in entry["plays"]:
                if play["verdict"] in ("best", "close"):
                    seen.setdefault(play["result"], None)
    return [Position.parse(p) for p in seen]


def planned(path: str | Path, depths, rules: Rules, limit: int | None = None) -> list[Decision]:
    """The decisions a build of `depths` covers (the first `limit` of each depth with a limit)."""
    out: list[Decision] = []
    for depth in depths:
        if depth not in DEPTHS:
            raise ArgumentError(f"unknown book depth {depth!r}: choose from {', '.join(DEPTHS)}")
        after = black_positions(read_entries(path)) if depth == "black-2" else None
        out += decisions(depth, rules, after)[:limit]
    return out


def build_book(path: str | Path, depths=DEFAULT_DEPTHS, settings: BookSettings = BookSettings(),
               rules: Rules | None = None, *, workers: int = 1, executor: str = "local",
               scheduler: str | None = None, limit: int | None = None,
               progress: Callable | None = None) -> BuildResult:
    """Judge every decision of `depths` missing from the book at `path` (see the module doc);
    `progress(done, total)` hears of every entry."""
    from ..core.rules import PRESETS
    rules = rules or PRESETS["federation"]
    path = Path(path)
    net = network_hash(settings.policy)
    entries = read_entries(path)
    for depth in depths:
        check_depth(entries, depth, rules, net)
    started = time.monotonic()
    todo, done = [], 0
    total = 0
    for depth in depths:    # black-2's positions come from the white-2 entries: a depth at a time
        plan = planned(path, [depth], rules, limit)
        total += len(plan)
        have = read_entries(path)
        todo_depth = [d for d in plan if d.key not in have]
        done += len(plan) - len(todo_depth)
        todo.append(todo_depth)
    report = progress or (lambda done, total: None)
    report(done, total)
    added, cpu, interrupted = 0, 0.0, False
    for depth_todo in todo:
        if not depth_todo or interrupted:
            continue
        jobs = [(settings.to_dict(), rules.to_dict(), net, d.depth, str(d.position),
                 str(d.dice) if d.dice else None, i, i + 1) for i, d in enumerate(depth_todo)]
        written = [0]

        def save(tally: BookTally) -> None:
            nonlocal added, cpu
            new = tally.entries[written[0]:]
            append_entries(path, new)
            written[0] += len(new)
            added += len(new)
            cpu += sum(e.get("cpu_seconds", 0.0) for e in new)
            report(done + added, total)

        tally, interrupted = run_jobs(jobs, task=judge_task, new_tally=_new_tally, workers=workers,
                                      executor=executor, scheduler=scheduler, report=save)
        save(tally)
    size = pack(path) if path.exists() else 0
    return BuildResult(done + added, added, total, interrupted, time.monotonic() - started, cpu,
                       size)
