"""Whole matches with the doubling cube and the Crawford rule, between two policies
(`duel`/`play --match N --cube`).

Every game starts with the cube centred at 1.  Before each roll the side on roll
may double (the cube centred or its own; never in the Crawford game, the game
after a player first needs 1 point; doubles again after it): its evaluator's
chances of the position before the roll go through `cube_analysis.cube_decision`
at the current score (the cubeful match model), and the taker answers by the same
decision from its own evaluator.  A `nodouble` side never doubles and always
takes.  A drop gives the doubler the cube's value before the double (in oins), a
game played out its class's points times the cube (`cube_records`).  The games
run in the Python turn loop (`selfplay.play_game` with a cube judge) on the dice
of the cubeless matches (`match_play`), so with neither side doubling the matches
are the cubeless ones.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core.errors import CubeError
from ..core.outcomes import RESULT_KEYS
from ..core.position import WHITE, Position
from ..core.rules import Rules
from ..kernels.board import LOSE_BASE, WIN_BASE
from ..match.cube import BEHAVIOURS, CubePlay, CubeState
from ..match.state import MatchState, match_valuation
from ..policies import Policy
from ..records.cube_record import cube_factor, drop_points
from ..records.game_record import GameRecord
from . import policy_pair
from .match_play import (MatchDuelResult, MatchPlayed, MatchSettings, _Matches, game_points,
                         match_duel, play_match, result_code)


@dataclass(frozen=True)
class MatchCube:
    """How A and B use the cube in a match: each `model` (the cube model at the score) or
    `nodouble`."""

    a: str = "model"
    b: str = "model"

    def __post_init__(self) -> None:
        for b in (self.a, self.b):
            if b not in BEHAVIOURS:
                raise CubeError(f"unknown cube behaviour {b!r}: "
                                f"choose one of {', '.join(BEHAVIOURS)}")

    def to_dict(self) -> dict:
        """Plain data for JSON."""
        return {"a": self.a, "b": self.b, "start": CubeState().to_dict(), "crawford_rule": True}


def check_cube_pair(a: Policy, b: Policy, cube: MatchCube) -> None:
    """Raise `PolicyError` before any game unless A and B can play with the cube as `cube` says."""
    from .cube_loop import check_cube_policies
    check_cube_policies(a, b, CubePlay(CubeState(), cube.a, cube.b))


class MatchCubeJudge:
    """The cube actions before a roll in one game of a match, each side judging by its own
    evaluator."""

    def __init__(self, white: Policy, black: Policy, behaviours: tuple[str, str], rules: Rules,
                 state: MatchState, crawford: bool) -> None:
        from .cube_loop import CubeJudge
        self.kernel = CubeJudge(CubePlay(CubeState(), *behaviours), white, black, rules,
                                match_valuation(state, rules))
        self.behaviours, self.rules, self.state, self.crawford = behaviours, rules, state, crawford
        self.cube = CubeState(crawford=crawford)

    def probabilities(self, board: np.ndarray, white_on_roll: bool, side: int) -> dict:
        """The chances of the side on roll by colour `side`'s evaluator (0 White), by result key."""
        from ..kernels.value import position_probs, value_scratch
        k, out = self.kernel, np.zeros(len(RESULT_KEYS))
        position_probs(board, white_on_roll, bool(self.rules.last_roll), k.kinds[side],
                       k.weights[side], k.args.tables, k.args.coefs, k.choice, value_scratch(),
                       np.empty_like(board), out)
        return dict(zip(RESULT_KEYS, out.tolist()))

    def decision(self, pos: Position, board: np.ndarray, side: int):
        """`cube_decision` of the side on roll at the score, by colour `side`'s evaluator."""
        from ..match.cube_decision import cube_decision
        probs = self.probabilities(board, pos.turn == WHITE, side)
        return cube_decision(pos, self.cube, self.rules, self.state, probabilities=probs)

    def __call__(self, pos: Position, board: np.ndarray) -> tuple[str, ...]:
        """The cube actions before this roll as records name them (`double`, `take`, `drop`)."""
        roller = 0 if pos.turn == WHITE else 1
        if (self.crawford or self.behaviours[roller] != "model"
            or self.cube.relative(pos.turn) == "opponent"):
            return ()
        if self.cube.value * self.rules.points.oin >= self.state.needs[roller]:
            # a dead cube: a win at this cube already takes the roller home
            return ()
        mine = self.decision(pos, board, roller)
        if mine.decision not in ("double, take", "double, pass"):
            return ()
        taker = 1 - roller
        if self.behaviours[taker] == "model":
            if not self.kernel.args.same_evaluator:
                mine = self.decision(pos, board, taker)
            if mine.double_take > mine.double_pass:
                return ("double", "drop")
        self.cube = CubeState(2 * self.cube.value, "black" if roller == 0 else "white")
        return ("double", "take")


def cube_game_points(record: GameRecord, draw_points: float) -> tuple[float, float]:
    """(White's, Black's) points of a match game with the cube: a drop's, else the result's times
    the cube."""
    dropped = drop_points(record, record.rules.points.oin)
    if dropped is not None:
        return (dropped[1], 0.0) if dropped[0] == WHITE else (0.0, dropped[1])
    pw, pb = game_points(result_code(record.result), record.rules, draw_points)
    factor = cube_factor(record)
    return pw * factor, pb * factor


class CubeMatchGames:
    """The game runner of one match with the cube (`match_play.play_match`): it keeps the Crawford
    rule and every game's record."""

    def __init__(self, a: Policy, cube: MatchCube, settings: MatchSettings,
                 date: str = "?") -> None:
        self.a, self.cube, self.settings, self.date = a, cube, settings, date
        self.crawford_played = False
        self.records: list[GameRecord] = []

    def crawford_next(self, state: MatchState) -> bool:
        """True for the Crawford game: the first after a player came to need 1 point
        (`match_records.Scorer`'s rule)."""
        return (state.length > 1 and not self.crawford_played and max(state.score) >= state.length
                - 1)

    def __call__(self, white: Policy, black: Policy, state: MatchState, game: int
                 ) -> tuple[int, tuple[float, float]]:
        from .selfplay import play_game
        crawford = self.crawford_next(state)
        self.crawford_played |= crawford
        behaviours = (self.cube.a, self.cube.b) if white is self.a else (self.cube.b, self.cube.a)
        rules = self.settings.rules
        judge = MatchCubeJudge(white, black, behaviours, rules, state, crawford)
        record = play_game(white, black, rules=rules, seed=self.settings.seed, game=game,
                           date=self.date, valuation=match_valuation(state, rules),
                           cube=CubePlay(CubeState(), *behaviours), judge=judge, crawford=crawford)
        self.records.append(record)
        code = result_code(record.result)
        # the doubler wins; the result codes count it as an oin
        if record.dropped is not None:
            code = WIN_BASE if record.dropped.side != WHITE else LOSE_BASE
        return code, cube_game_points(record, self.settings.draw_points)


def distinct(a: Policy, b: Policy) -> tuple[Policy, Policy]:
    """A and B as two objects (the runner tells A from B by identity)."""
    import copy
    return (a, copy.copy(b)) if a is b else (a, b)


def play_cube_match(a: Policy, b: Policy, settings: MatchSettings, cube: MatchCube, index: int = 0,
                    a_first: bool = True, date: str = "?") -> tuple[MatchPlayed, list[GameRecord]]:
    """Match `index` with the cube (A first player when `a_first`): the match and its game
    records."""
    a, b = distinct(a, b)
    check_cube_pair(a, b, cube)
    games = CubeMatchGames(a, cube, settings, date)
    return play_match(a, b, settings, index, a_first, games), games.records


def cube_matches_chunk(a: Policy, b: Policy, settings: MatchSettings, cube: MatchCube, lo: int,
                       hi: int) -> _Matches:
    """Matches lo..hi-1 with the cube, each played twice (A first, then B first) on the same
    dice."""
    out = _Matches()
    for m in range(lo, hi):
        for a_first in (True, False):
            out.played[(m, a_first)] = play_cube_match(a, b, settings, cube, m, a_first)[0]
    return out


def cube_match_duel(a: str | Policy, b: str | Policy, matches: int, settings: MatchSettings,
                    cube: MatchCube, **run) -> MatchDuelResult:
    """`match_play.match_duel` with the cube: duplicate pairs of matches, A's share of match wins
    (`run`: its workers, executor, scheduler, progress)."""
    pa, pb = policy_pair((a, b))
    check_cube_pair(pa, pb, cube)
    return match_duel(pa, pb, matches, settings, chunk=cube_matches_chunk, chunk_args=(cube,),
                      extra_params={"cube": cube.to_dict()}, **run)


def cube_match_record(a: Policy, b: Policy, settings: MatchSettings, cube: MatchCube,
                      index: int = 0, date: str = "?"):
    """Match `index` with the cube as a `match_records.MatchRecord` (names as
    `match_play.match_record`'s)."""
    from .match_play import named_match_record
    played, records = play_cube_match(a, b, settings, cube, index, True, date)
    return named_match_record(a, b, settings, played, records)
