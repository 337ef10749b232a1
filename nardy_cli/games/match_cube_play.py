"""Whole matches with the doubling cube and the Crawford rule, between two policies
(`duel`/`play --match N --cube`).

Every game starts with the cube centred at 1.  Before each roll the side on roll
may double (the cube centred or its own; never in the Crawford game, the game
after a player first needs 1 point; doubles again after it): its evaluator's
chances of the position before the roll go through `cube_decision.cube_decision`
at the current score (the cubeful match model), and the taker answers by the same
decision from its own evaluator.  A `nodouble` side never doubles and always
takes.  A drop gives the doubler the cube's value before the double (in oins), a
game played out its class's points times the cube (`records.points.game_points`).  The games
run in the Python turn loop (`selfplay.play_game` with a cube judge) on the dice
of the cubeless matches (`match_play`), so with neither side doubling the matches
are the cubeless ones.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..core.outcomes import RESULT_KEYS
from ..core.position import WHITE, Position
from ..core.rules import Rules
from ..kernels.board import LOSE_BASE, WIN_BASE
from ..match.cube import Cube, CubeBots
from ..match.stakes import Stakes
from ..match.state import MatchState
from ..policies import Policy
from ..records.game_record import GameRecord
from ..records.points import game_points
from . import policy_pair
from .match_play import (MatchDuelResult, MatchPlayed, MatchSettings, _Matches, match_duel,
                         play_match, result_code)


def match_cube_params(bots: CubeBots) -> dict:
    """A match duel's `params["cube"]`: A's and B's cube behaviours (`bots.white`, `bots.black`),
    the cube each game starts with and the Crawford rule."""
    return {"a": bots.white, "b": bots.black, "start": Stakes(cube=Cube()).cube_dict(),
            "crawford_rule": True}


def check_cube_pair(a: Policy, b: Policy, bots: CubeBots) -> None:
    """Raise `PolicyError` before any game unless A and B can play with the cube as `bots` says (its
    `white` is A's behaviour, `black` B's)."""
    from .cube_loop import check_cube_policies
    check_cube_policies(a, b, bots)


class MatchCubeJudge:
    """The cube actions before a roll in one game of a match (`stakes`: the match at the game's
    score, the Crawford game or not, the cube centred), each side judging by its own evaluator."""

    def __init__(self, white: Policy, black: Policy, bots: CubeBots, rules: Rules,
                 stakes: Stakes) -> None:
        from .cube_loop import CubeJudge
        self.kernel = CubeJudge(stakes.cube, bots, white, black, rules, stakes.valuation(rules))
        self.behaviours = (bots.white, bots.black)
        self.rules, self.stakes = rules, stakes

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
        # the cube model, also in bear-offs: exact tables per score would cost each score seconds
        return cube_decision(pos, self.stakes, self.rules, probabilities=probs, exact=False)

    def __call__(self, pos: Position, board: np.ndarray) -> tuple[str, ...]:
        """The cube actions before this roll as records name them (`double`, `take`, `drop`)."""
        roller = 0 if pos.turn == WHITE else 1
        cube = self.stakes.cube
        if (self.stakes.crawford or self.behaviours[roller] != "model"
                or cube.relative(pos.turn) == "opponent"):
            return ()
        if cube.value * self.rules.points.oin >= self.stakes.match.needs[roller]:
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
        self.stakes = self.stakes.with_cube(cube.taken(2 * cube.value,
                                                       "b" if roller == 0 else "w"))
        return ("double", "take")


class CubeMatchGames:
    """The game runner of one match with the cube (`match_play.play_match`): it keeps the Crawford
    rule and every game's record."""

    def __init__(self, a: Policy, bots: CubeBots, settings: MatchSettings,
                 date: str = "?") -> None:
        self.a, self.bots, self.settings, self.date = a, bots, settings, date
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
        bots = self.bots if white is self.a else self.bots.swapped()
        rules = self.settings.rules
        stakes = Stakes(replace(state, crawford=crawford), Cube())
        judge = MatchCubeJudge(white, black, bots, rules, stakes)
        record = play_game(white, black, rules=rules, seed=self.settings.seed, game=game,
                           date=self.date, stakes=stakes, cube_bots=bots, judge=judge)
        self.records.append(record)
        code = result_code(record.result)
        # the doubler wins; the result codes count it as an oin
        if record.dropped is not None:
            code = WIN_BASE if record.dropped.side != WHITE else LOSE_BASE
        return code, game_points(record, self.settings.draw_points)


def distinct(a: Policy, b: Policy) -> tuple[Policy, Policy]:
    """A and B as two objects (the runner tells A from B by identity)."""
    import copy
    return (a, copy.copy(b)) if a is b else (a, b)


def play_cube_match(a: Policy, b: Policy, settings: MatchSettings, bots: CubeBots,
                    index: int = 0, a_first: bool = True,
                    date: str = "?") -> tuple[MatchPlayed, list[GameRecord]]:
    """Match `index` with the cube (A first player when `a_first`; `bots.white` is A's cube
    behaviour, `bots.black` B's): the match and its game records."""
    a, b = distinct(a, b)
    check_cube_pair(a, b, bots)
    games = CubeMatchGames(a, bots, settings, date)
    return play_match(a, b, settings, index, a_first, games), games.records


def cube_matches_chunk(a: Policy, b: Policy, settings: MatchSettings, bots: CubeBots, lo: int,
                       hi: int) -> _Matches:
    """Matches lo..hi-1 with the cube, each played twice (A first, then B first) on the same
    dice."""
    out = _Matches()
    for m in range(lo, hi):
        for a_first in (True, False):
            out.played[(m, a_first)] = play_cube_match(a, b, settings, bots, m, a_first)[0]
    return out


def cube_match_duel(a: str | Policy, b: str | Policy, matches: int, settings: MatchSettings,
                    bots: CubeBots = CubeBots(), **run) -> MatchDuelResult:
    """`match_play.match_duel` with the cube: duplicate pairs of matches, A's share of match wins
    (`bots.white` is A's cube behaviour, `bots.black` B's; `run`: its workers, executor,
    scheduler, progress)."""
    pa, pb = policy_pair((a, b))
    check_cube_pair(pa, pb, bots)
    return match_duel(pa, pb, matches, settings, chunk=cube_matches_chunk, chunk_args=(bots,),
                      extra_params={"cube": match_cube_params(bots)}, **run)


def cube_match_record(a: Policy, b: Policy, settings: MatchSettings, bots: CubeBots = CubeBots(),
                      index: int = 0, date: str = "?"):
    """Match `index` with the cube as a `match_records.MatchRecord` (names as
    `match_play.match_record`'s)."""
    from .match_play import named_match_record
    played, records = play_cube_match(a, b, settings, bots, index, True, date)
    return named_match_record(a, b, settings, played, records)
