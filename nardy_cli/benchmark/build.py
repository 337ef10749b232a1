"""Building the benchmark database: positions drawn from bot games, their plays ranked by staged
rollouts.

The positions come from `games.selfplay.sample_decisions` (one non-forced decision of each
phase from each seeded self-play game of `SAMPLER`), so position k of a seed never depends on
how many positions are asked for, and a build that stopped resumes where it stopped.

Each position's plays are ranked by `analysis.staged.staged_rank`: every distinct
play's result at 0-ply and at 1-ply (the mean over the opponent's 21 rolls of
its best reply: the value `lookahead:neural` gives the plays it searches, over every
play), then the plays kept by the 1-ply
filter rolled out with common dice, variance reduction and truncation.  A
bear-off (both sides home) is valued by the bear-off databases instead (exact
where the two-sided one covers it, else the one-sided convolution), as such a
rollout would score it: its games stop at once.  Position k's rollouts use seed `seed + 1 + k`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from .. import __version__
from ..core.dice import Dice
from ..core.engine import legal_plays
from ..core.errors import ArgumentError, BenchmarkFileError, NoGamesError
from ..core.interrupts import held_interrupts
from ..core.phases import BLOCK_LENGTH, OPENING_HEAD, PHASES, TRAP_REACH
from ..core.position import Position
from ..core.position_id import format_position_id
from ..core.rules import PRESETS, Rules
from ..games.scoring import Scoring
from ..games.selfplay import SAMPLER, sample_decisions
from ..policies.bearoff import is_bearoff
from .db import BenchPosition, Candidate, header_record, line_of, read_lines

ROLLOUT_POLICY = "neural"
DEFAULT_GAMES = 216          # per rolled-out play: 6 per first roll (docs/strength.md says why)
DEFAULT_TRUNCATE = 10
DEFAULT_FILTER = "top8:0.16"
KEEP_ALL = "1000"            # the 0-ply filter: every play goes on to 1-ply


@dataclass(frozen=True)
class BuildSettings:
    """What a build does; two builds with equal settings write equal lines."""

    seed: int = 2026
    games: int = DEFAULT_GAMES
    truncate: int | None = DEFAULT_TRUNCATE
    vr: bool = True
    filter: str = DEFAULT_FILTER
    rules: Rules = PRESETS["federation"]
    policy: str = ROLLOUT_POLICY          # the truth: the policy of the 1-ply stage and rollouts
    samplers: tuple[str, ...] = (SAMPLER,)
    weights: tuple[tuple[str, float], ...] | None = None   # phase -> decisions drawn a game

    def to_dict(self) -> dict:
        """The header's settings (with the nardy version that began the build)."""
        sampler = f"{SAMPLER} self-play, one non-forced decision of each phase per game"
        if self.samplers != (SAMPLER,) or self.weights is not None:
            drawn = ("one non-forced decision of each phase per game" if self.weights is None
                     else "per game, of each phase: " + ", ".join(f"{p} {w:g}"
                                                                  for p, w in self.weights))
            sampler = f"games of every ordered pair of {', '.join(self.samplers)}; {drawn}"
        one_ply = (f"lookahead:{self.policy}" if not self.policy.startswith("lookahead")
                   else self.policy)
        return {"sampler": sampler,
                "phases": {"names": list(PHASES), "block_length": BLOCK_LENGTH,
                           "trap_reach": TRAP_REACH, "opening_head": OPENING_HEAD},
                "one_ply": one_ply, "filter": self.filter,
                "rollout": {"policy": self.policy, "games_per_play": self.games, "vr": self.vr,
                            "truncate": self.truncate, "exact_bearoff": True, "stratify": True,
                            "common_dice": True, "seed": f"{self.seed} + 1 + position index"},
                "bearoff": "bear-off databases (two-sided exact, else one-sided "
                           "convolution), no rollout",
                "seed": self.seed, "rules": self.rules.to_dict(), "version": __version__}


@dataclass(frozen=True)
class BuildResult:
    """What a build call did: positions found in the file, added, and whether it was interrupted."""

    path: str
    found: int
    added: int
    target: int
    interrupted: bool
    dropped_partial: bool = False

    @property
    def total(self) -> int:
        """Positions in the file now."""
        return self.found + self.added


def score_decision(index: int, position: Position, phase: str, source: str,
                   settings: BuildSettings) -> BenchPosition:
    """Rank one decision's plays (module doc) into a `BenchPosition`; Ctrl-C raises
    KeyboardInterrupt."""
    from ..analysis.staged import staged_rank
    dice: Dice = position.dice
    plays = legal_plays(position, dice, settings.rules)
    ids = {str(p): format_position_id(p.result) for p in plays}
    exact = is_bearoff(position)
    ranking = staged_rank(position.with_dice(None), dice, settings.policy,
                          games=36 if exact else settings.games, seed=settings.seed + 1 + index,
                          rules=settings.rules,
                          filters=(KEEP_ALL, "top1" if exact else settings.filter), until_se=None,
                          scoring=Scoring(vr=settings.vr, truncate=settings.truncate))
    if ranking.params.get("interrupted"):
        raise KeyboardInterrupt
    one_ply = dict(ranking.stages[1].scores)
    # the bear-off databases' values, as a rollout would score them (it stops at once)
    if exact:
        rolled = {p: (v, 0.0, 0.0) for p, v in one_ply.items()}
    else:
        rolled = {r.play: (r.equity, r.equity_se, r.diff_se) for r in ranking.plays}
    candidates = tuple(Candidate(ids[p], v, *rolled.get(p, ())) for p,
                       v in ranking.stages[1].scores)
    return BenchPosition(index, position.with_dice(None), dice, phase, source,
                         "database" if exact else "rollout", candidates)


def build_benchmark(path: str | Path, positions: int, settings: BuildSettings = BuildSettings(), *,
                    progress: Callable[[int, int], None] | None = None) -> BuildResult:
    """Build (or resume) the benchmark file at `path` up to `positions` positions.

    Each finished position is appended as one line at once, so a killed build loses at most the
    position it was on; run again with the same settings, it checks the lines it finds (digests,
    settings, and that they are the sampler's first positions), drops a last line cut short, and
    goes on. Ctrl-C stops it after the finished positions (`interrupted`).  Raises
    `BenchmarkFileError` for a damaged file or one built with other settings.
    """
    if positions < 1:
        raise ArgumentError(f"{{positions}} must be at least 1, got {positions}")
    if settings.games < 1:
        raise ArgumentError(f"{{games}} must be at least 1, got {settings.games}")
    path = Path(path)
    header = header_record(settings.to_dict())
    found, previous, dropped = _resume(path, header)
    report = progress or (lambda done, total: None)
    done = len(found)
    report(done, positions)
    added = 0
    interrupted = False
    weights = None if settings.weights is None else dict(settings.weights)
    drawn = sample_decisions(settings.seed, settings.rules, samplers=settings.samplers,
                             weights=weights)
    try:
        for index, (position, phase, source) in enumerate(drawn):
            if index >= positions:
                break
            if index < done:
                if (found[index]["position"],
                    found[index]["dice"]) != (str(position.with_dice(None)),
                                              str(position.dice)):
                    raise BenchmarkFileError(f"benchmark file {str(path)!r}: "
                                             f"position {index + 1} is not the "
                                             "sampler's; the file was built by another nardy or "
                                             "other settings")
                continue
            record = score_decision(index, position, phase, source, settings).to_dict()
            member, digest = line_of(record, previous)
            with held_interrupts():
                _append(path, member)
                previous = digest
                added += 1
            report(done + added, positions)
    except (KeyboardInterrupt, NoGamesError):
        interrupted = True
    return BuildResult(str(path), done, added, positions, interrupted, dropped)


def _resume(path: Path, header: dict) -> tuple[list[dict], str, bool]:
    """(the position lines already in the file, the last digest, whether a cut-short line was
    dropped); a new file gets the header line."""
    if not path.exists() or path.stat().st_size == 0:
        path.parent.mkdir(parents=True, exist_ok=True)
        member, digest = line_of(header, "")
        path.write_bytes(member)
        return [], digest, False
    records, used = read_lines(path, partial_ok=True)
    dropped = used < path.stat().st_size
    if dropped:
        os.truncate(path, used)
    mine = {k: v for k, v in header["settings"].items() if k != "version"}
    theirs = {k: v for k, v in records[0]["settings"].items() if k != "version"}
    if mine != theirs:
        changed = sorted(k for k in mine.keys() | theirs.keys() if mine.get(k) != theirs.get(k))
        raise BenchmarkFileError(f"benchmark file {str(path)!r} was built with other settings "
                                 f"({', '.join(changed)}): resume it with its own, "
                                 "or write a new file")
    return records[1:], records[-1]["digest"], dropped


def _append(path: Path, member: bytes) -> None:
    """Append one line's gzip member and flush it to disk."""
    with open(path, "ab") as f:
        f.write(member)
        f.flush()
        os.fsync(f.fileno())
