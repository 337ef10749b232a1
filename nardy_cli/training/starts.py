"""Starting positions for training beyond `start`: the lopsided games self-play seldom reaches."""

from __future__ import annotations

from itertools import islice

import numpy as np

from ..core.engine import outcome
from ..core.errors import NardyError
from ..core.position import BLACK, N_CHECKERS, N_POINTS, WHITE, Position
from ..core.positions_file import NamedPosition
from ..games.selfplay import play_game, sample_decisions

LOPSIDED_PLIES = (12, 24, 36)


def lopsided_starts(games: int, seed: int,
                    plies: tuple[int, ...] = LOPSIDED_PLIES) -> list[NamedPosition]:
    """Positions after the given plies of games where `neural` plays one side and `random` the other
    (each way round in turn): long blocks, stuck heads and stragglers, decided between oin, mars and
    koks."""
    out = []
    for g in range(games):
        white, black = ("neural", "random") if g % 2 == 0 else ("random", "neural")
        positions = play_game(white, black, seed=seed, game=g).positions()
        for ply in plies:
            if ply < len(positions) and outcome(positions[ply]) is None:
                out.append(NamedPosition(f"game{g + 1}-ply{ply}", positions[ply].with_dice(None),
                                         f"{white} (White) vs {black} (Black), "
                                         f"game {g + 1} of seed {seed}"))
    return out


def selfplay_starts(count: int, seed: int, phases: tuple[str, ...] = ("blocked",),
                    ) -> list[NamedPosition]:
    """`count` positions of the given phases (`phases.phase_of`) from `neural` self-play games of
    `seed`, at most one a phase a game, drawn as the benchmark database draws its decisions
    (`games.selfplay.sample_decisions`; use another seed than the database's)."""
    picked = ((p, ph, src) for p, ph, src in sample_decisions(seed) if ph in phases)
    return [NamedPosition(f"{phase}{i + 1}", position.with_dice(None),
                          f"{phase}: {source} of neural self-play, seed {seed}")
            for i, (position, phase, source) in enumerate(islice(picked, count))]


def trapped_starts(count: int, seed: int) -> list[NamedPosition]:
    """`count` random positions where one side's 5- or 6-point block in its first half traps 1-5 of
    the other side's checkers, and the blocking side is the one left behind: both must judge how
    long the block holds."""
    return _drawn("trapped", count, seed, _trapped_position)


def _trapped_position(rng: np.random.Generator) -> Position:
    """One random trapped position (drawn again until it is legal and still in play)."""
    while True:
        # by point 1..24, the blocking side's numbering
        blocker = np.zeros(N_POINTS + 1, dtype=int)
        length = int(rng.choice([5, 6], p=[0.5, 0.5]))
        first = int(rng.integers(1, 9))
        for q in range(first, first + length):
            blocker[q] = int(rng.choice([1, 2, 3], p=[0.35, 0.5, 0.15]))
        reach = min(first + length + int(rng.integers(0, 8)), N_POINTS)
        # half on the head, half up to `reach`
        for _ in range(N_CHECKERS - int(blocker.sum())):
            blocker[1 if rng.random() < 0.5 else int(rng.integers(1, reach + 1))] += 1
        stragglers = int(rng.integers(1, 6))
        # the blocker's counts by the other side's points
        mirrored = np.roll(blocker[1:], 12)
        behind = [p for p in range(1, first + 12) if mirrored[p - 1] == 0]
        if not behind:
            continue
        trapped = np.zeros(N_POINTS + 1, dtype=int)
        for _ in range(stragglers):
            trapped[int(rng.choice(behind))] += 1
        off = int(rng.integers(0, 4)) if rng.random() < 0.3 else 0
        ahead = [p for p in range(first + 12 + length, N_POINTS + 1) if mirrored[p - 1] == 0]
        if not ahead:
            continue
        for _ in range(N_CHECKERS - stragglers - off):
            trapped[int(rng.choice(ahead))] += 1
        position = _in_play(rng, blocker, trapped)
        if position is not None:
            return position


def walled_starts(count: int, seed: int) -> list[NamedPosition]:
    """`count` random positions where one side's wall (5-11 points from its point 1-8, gaps allowed)
    stands in front of 1-15 of the other side's checkers, often stacked on their head; the rest of
    both sides is ahead of the wall, or the wall's side keeps some back."""
    return _drawn("walled", count, seed, _walled_position)


def _walled_position(rng: np.random.Generator) -> Position:
    """One random walled position (drawn again until it is legal and still in play)."""
    while True:
        # by point 1..24, the wall side's numbering
        wall = np.zeros(N_POINTS + 1, dtype=int)
        first, length = int(rng.integers(1, 9)), int(rng.integers(5, 12))
        end = min(first + length, N_POINTS + 1)
        for q in range(first, end):
            if rng.random() < 0.85:
                wall[q] = int(rng.choice([1, 2, 3], p=[0.45, 0.45, 0.10]))
        if not 0 < wall.sum() <= N_CHECKERS:
            continue
        keeps_back = rng.random() < 0.5
        for _ in range(N_CHECKERS - int(wall.sum())):
            if keeps_back:
                wall[1 if rng.random() < 0.5 else int(rng.integers(1, end))] += 1
            else:
                wall[int(rng.integers(end, N_POINTS + 1)) if end <= N_POINTS else N_POINTS] += 1
        # the wall side's counts by the other's points
        mirrored = np.roll(wall[1:], 12)
        behind = [p for p in range(1, first + 12) if mirrored[p - 1] == 0]
        ahead = [p for p in range(end + 12, N_POINTS + 1) if mirrored[p - 1] == 0]
        if not behind or not ahead:
            continue
        other, held_back = np.zeros(N_POINTS + 1, dtype=int), int(rng.integers(1, 16))
        on_head = rng.random() < 0.5 and mirrored[0] == 0
        for _ in range(held_back):
            other[1 if on_head and rng.random() < 0.6 else int(rng.choice(behind))] += 1
        for _ in range(N_CHECKERS - held_back):
            other[int(rng.choice(ahead))] += 1
        position = _in_play(rng, wall, other)
        if position is not None:
            return position


def _drawn(kind: str, count: int, seed: int, draw) -> list[NamedPosition]:
    """`count` positions from `draw(rng)`, named kind1, kind2, ...; the note says how to make them
    again."""
    rng = np.random.default_rng(seed)
    return [NamedPosition(f"{kind}{i + 1}", draw(rng), f"{kind}_starts({count}, seed={seed})")
            for i in range(count)]


def _in_play(rng: np.random.Generator, one: np.ndarray, other: np.ndarray) -> Position | None:
    """The two sides' counts (by point 1..24) as White and Black at random, either to move; None
    unless the position is legal and still in play."""
    a, b = tuple(int(x) for x in one[1:]), tuple(int(x) for x in other[1:])
    white, black = (a, b) if rng.random() < 0.5 else (b, a)
    try:
        position = Position(white, black, WHITE if rng.random() < 0.5 else BLACK)
    except NardyError:
        return None
    return position if outcome(position) is None else None
