"""Whole matches between two policies: every game played at its score, in the compiled loop or
recorded.

Game g of match m is game number `m * GAMES_PER_MATCH + g` of the seed, so its
dice depend only on (seed, m, g); who plays White in the first game (and after a
draw, or whenever the rule says "lot") is drawn from a generator seeded by
(seed, m).  `match_duel` plays every match twice, with each policy as the first
player on the same dice, and reports A's share of match wins.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from .. import __version__
from ..core.errors import ArgumentError, NoGamesError
from ..core.limits import check_kept
from ..core.outcomes import CLASS_NAMES, class_code
from ..core.position import START
from ..core.rules import PRESETS, Rules
from ..kernels.board import DRAW, LOSE_BASE, UNFINISHED
from ..match.stakes import Stakes
from ..match.stakes import game_points as stakes_points
from ..match.state import MatchState, state_before
from ..match.table import DEFAULT_DRAW_POINTS, DEFAULT_NEXT_WHITE, next_colour
from ..policies import Policy
from . import RESULTS, GameSpec, Jobs, chunks, play_chunk, policy_pair
from .executors import run_jobs
from .stats import share_ci95

GAMES_PER_MATCH = 4096     # game numbers reserved for one match (no match comes near it)


@dataclass(frozen=True)
class MatchGame:
    """One game of a match: who was White, the score before it (A's, B's), its result for White."""

    a_white: bool
    score: tuple[float, float]
    result: int               # the kernels' result code for White (0-3 wins, 4-7 losses, 8 draw)

    @property
    def winner(self) -> str | None:
        """'a', 'b', or None for a draw."""
        if self.result == DRAW:
            return None
        white_won = self.result < LOSE_BASE
        return "a" if white_won == self.a_white else "b"


@dataclass(frozen=True)
class MatchPlayed:
    """A finished match: its games, the final score (A's, B's) and the winner ('a' or 'b')."""

    index: int
    a_first: bool                 # A was the first player of this copy of the match
    games: tuple[MatchGame, ...]
    score: tuple[float, float]
    winner: str


@dataclass(frozen=True)
class MatchSettings:
    """What every match of a run shares: length, rules, seed, colour rule and draw points."""

    length: int
    rules: Rules = PRESETS["federation"]
    seed: int = 1
    next_white: str = DEFAULT_NEXT_WHITE
    draw_points: float = DEFAULT_DRAW_POINTS

    def __post_init__(self) -> None:
        MatchState(self.length, (0, 0), self.next_white, self.draw_points)    # checks the settings


def game_points(result: int, rules: Rules, draw_points: float,
                cube: int = 1) -> tuple[float, float]:
    """(White's, Black's) points from a game's result code for White with the cube at `cube`
    (`stakes.game_points`)."""
    if result == DRAW:
        return stakes_points(rules, None, cube=cube, draw_points=draw_points)
    winner = "w" if result < LOSE_BASE else "b"
    return stakes_points(rules, winner, CLASS_NAMES[result % LOSE_BASE], cube)


def game_state(settings: MatchSettings, score_white: float, score_black: float) -> MatchState:
    """The match state before a game of these settings (`match.state_before`)."""
    return state_before(settings.length, score_white, score_black, settings.next_white,
                        settings.draw_points)


GameRunner = Callable[[Policy, Policy, MatchState, int], "int | tuple[int, tuple[float, float]]"]
"""play(white, black, state, game number) -> White's result code, or (the code, (White's, Black's)
points) when the game's points are not the code's (a game with the cube)."""


def compiled_game(white: Policy, black: Policy, state: MatchState, game: int, rules: Rules,
                  seed: int) -> int:
    """One game from the start at `state`, in the compiled loop (or the Python loop for Python
    bots)."""
    spec = GameSpec(START, rules, white, black, seed, False, stakes=Stakes(state))
    codes = play_chunk(spec, RESULTS, None, game, game + 1).results[(None, game)]
    return int(codes[0])


def play_match(a: Policy, b: Policy, settings: MatchSettings, index: int, a_first: bool = True,
               runner: GameRunner | None = None) -> MatchPlayed:
    """Match `index` between A and B (`a_first`: A is the first player, whose colour the first lot
    decides)."""
    rules = settings.rules
    run = (runner
           or (lambda w, bl, state, game: compiled_game(w, bl, state, game, rules, settings.seed)))
    lot = np.random.default_rng([settings.seed, index])
    score = [0.0, 0.0]           # A's, B's
    games: list[MatchGame] = []
    first_white = bool(lot.integers(2))       # the opening roll: does the first player take White?
    a_white = first_white if a_first else not first_white
    n = settings.length
    while True:
        white, black = (a, b) if a_white else (b, a)
        sw, sb = (score[0], score[1]) if a_white else (score[1], score[0])
        played = run(white, black, game_state(settings, sw, sb),
                     index * GAMES_PER_MATCH + len(games))
        result, points = (played, None) if isinstance(played, (int, np.integer)) else played
        if result == UNFINISHED:
            raise NoGamesError(f"game {len(games) + 1} of match {index + 1} did not finish")
        games.append(MatchGame(a_white, (score[0], score[1]), result))
        pw, pb = points if points is not None else game_points(result, rules, settings.draw_points)
        pa, pbb = (pw, pb) if a_white else (pb, pw)
        deciding = score[0] >= n and score[1] >= n
        score = [score[0] + pa, score[1] + pbb]
        winner = games[-1].winner
        if deciding and winner is not None:
            return MatchPlayed(index, a_first, tuple(games), (score[0], score[1]), winner)
        if (score[0] >= n) != (score[1] >= n):
            return MatchPlayed(index, a_first, tuple(games), (score[0], score[1]),
                               "a" if score[0] >= n else "b")
        colour = next_colour(settings.next_white, winner, a_white)
        draw = bool(lot.integers(2))
        a_white = colour if colour is not None else (draw if a_first else not draw)


@dataclass
class _Matches:
    """Finished matches of a run, keyed by (index, a_first)."""

    played: dict = field(default_factory=dict)

    def add(self, other: "_Matches") -> None:
        self.played.update(other.played)

    @property
    def games(self) -> int:
        return len(self.played)


def matches_chunk(a: Policy, b: Policy, settings: MatchSettings, lo: int, hi: int) -> _Matches:
    """Matches lo..hi-1, each played twice (A first, then B first) on the same dice."""
    out = _Matches()
    for m in range(lo, hi):
        for a_first in (True, False):
            out.played[(m, a_first)] = play_match(a, b, settings, m, a_first)
    return out


@dataclass(frozen=True)
class MatchDuelResult:
    """A's share of match wins against B over duplicate matches, with its SE (over the pairs) and
    95% interval (Wilson's, `stats.share_ci95`: not [1, 1] when A won every match)."""

    a: str
    b: str
    matches: int
    match_win_share: float
    se: float
    ci95: tuple[float, float]
    games: int
    mean_games: float
    params: dict
    interrupted: bool = False

    def to_dict(self) -> dict:
        """The JSON object of `nardy duel --match N --format json`."""
        return {"a": self.a, "b": self.b, "matches": self.matches,
                "match_win_share": self.match_win_share, "se": self.se, "ci95": list(self.ci95),
                "games": self.games, "mean_games_per_match": self.mean_games, "params": self.params,
                "interrupted": self.interrupted}


def match_duel(a: str | Policy, b: str | Policy, matches: int, settings: MatchSettings, *,
               workers: int = 1, executor: str = "local", scheduler: str | None = None,
               progress=None, chunk: Callable | None = None, chunk_args: tuple = (),
               extra_params: dict | None = None) -> MatchDuelResult:
    """`matches` duplicate pairs of matches between A and B; A's share of match wins (SE over
    pairs).

    `chunk(a, b, settings, *chunk_args, lo, hi)`, a module-level function, plays the matches instead
    of `matches_chunk` (`match_cube_play.cube_match_duel`: with the cube); `extra_params` go into
    `params`.
    """
    if matches < 1:
        raise ArgumentError(f"{{matches}} must be at least 1, got {matches}")
    check_kept(matches, "matches")
    pa, pb = policy_pair((a, b))
    step = max(1, min(50, matches // max(workers * 4, 1)))
    task = chunk or matches_chunk
    jobs = Jobs(chunks(matches, step), lambda lohi: (pa, pb, settings, *chunk_args, *lohi))

    def report(tally: _Matches) -> None:
        if progress is not None:
            progress(len(tally.played) // 2, matches)

    tally, interrupted = run_jobs(jobs, task=task, new_tally=_Matches, workers=workers,
                                  executor=executor, scheduler=scheduler, report=report)
    pairs: dict[int, list[float]] = {}
    games = 0
    for (m, _), played in tally.played.items():
        pairs.setdefault(m, []).append(1.0 if played.winner == "a" else 0.0)
        games += len(played.games)
    pair_means = np.array([sum(v) / 2 for v in pairs.values() if len(v) == 2])
    if len(pair_means) == 0:
        raise NoGamesError("no match was finished")
    mean = float(pair_means.mean())
    se = (float(pair_means.std(ddof=1) / math.sqrt(len(pair_means))) if len(pair_means) > 1
          else float("nan"))
    params = {"rules": settings.rules.to_dict(), "length": settings.length,
              "next_white": settings.next_white, "draw_points": settings.draw_points,
              "seed": settings.seed, "duplicate_dice": True, "version": __version__}
    params.update(extra_params or {})
    return MatchDuelResult(pa.name, pb.name, len(pair_means), mean, se,
                           share_ci95(mean, se, 2 * len(pair_means)), games,
                           games / (2 * len(pair_means)), params, interrupted)


def result_code(outcome) -> int:
    """White's result code of a finished game's `engine.Outcome` (UNFINISHED for None)."""
    if outcome is None:
        return UNFINISHED
    if outcome.winner is None:
        return DRAW
    return class_code(outcome.kind) + (0 if outcome.winner == "w" else LOSE_BASE)


def recorded_match(a: Policy, b: Policy, settings: MatchSettings, index: int = 0, date: str = "?"
                   ) -> tuple[MatchPlayed, list]:
    """Match `index` with every game recorded (`selfplay.play_game`, the same games as
    `play_match`'s): (the match, its game records in order)."""
    from .selfplay import play_game
    records = []

    def run(white: Policy, black: Policy, state: MatchState, game: int) -> int:
        record = play_game(white, black, rules=settings.rules, seed=settings.seed, game=game,
                           date=date, stakes=Stakes(state))
        records.append(record)
        return result_code(record.result)

    return play_match(a, b, settings, index, True, run), records


def match_record(a: Policy, b: Policy, settings: MatchSettings, index: int = 0, date: str = "?"):
    """Match `index` between A and B as a `match_records.MatchRecord` (the record knows players by
    name, so two policies with one name are written `NAME (A)` and `NAME (B)`)."""
    played, records = recorded_match(a, b, settings, index, date)
    return named_match_record(a, b, settings, played, records)


def named_match_record(a: Policy, b: Policy, settings: MatchSettings, played: MatchPlayed,
                       records: list):
    """The `MatchRecord` of a played match's game records (one name for both: `NAME (A)`,
    `NAME (B)`)."""
    from dataclasses import replace
    from ..records.match_record import MatchRecord
    if a.name == b.name:
        name_a, name_b = f"{a.name} (A)", f"{b.name} (B)"
        records = [replace(r, white=name_a if g.a_white else name_b,
                           black=name_b if g.a_white else name_a)
                   for r, g in zip(records, played.games)]
    return MatchRecord(settings.length, tuple(records),
                       (("Event", f"nardy bot match, seed {settings.seed}"),))


def result_text(result: int) -> str:
    """`White wins by mars`, `draw` from a result code for White."""
    if result == DRAW:
        return "draw"
    side = "White" if result < LOSE_BASE else "Black"
    return f"{side} wins by {CLASS_NAMES[result % 4]}"


