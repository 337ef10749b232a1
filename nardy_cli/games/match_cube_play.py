"""Whole matches with the doubling cube and the Crawford rule, between two policies
(`duel`/`play --match N --cube`).

Every game starts with the cube centred at 1.  Before each roll the side on roll
may double (the cube centred or its own; never in the Crawford game, the game
after a player first needs 1 point; doubles again after it; never a dead cube):
its evaluator's chances of the position before the roll go through the cubeful
match model at the current score (`kernels/match_cube.py`, the model of
`cube_decision`), and the taker answers by the same model from its own evaluator.
A `nodouble` side never doubles and always takes.  A drop gives the doubler the
cube's value before the double (in oins), a game played out its class's points
times the cube (`stakes.game_points`).  Each game runs in the compiled cube loop's
match mode (`kernels/cube.py`, one game a call; the match's bookkeeping here), on
the dice of the cubeless matches (`match_play`), so with neither side doubling the
matches are the cubeless ones.  A recorded match (`cube_match_record`) plays the
same games ply by ply in the Python turn loop with the same compiled decisions.
"""

from __future__ import annotations

from dataclasses import replace


from ..core.position import START, WHITE
from ..kernels.board import LOSE_BASE, WIN_BASE
from ..match.cube import Cube, CubeBots
from ..match.stakes import Stakes
from ..match.state import MatchState
from ..policies import Policy
from ..records.game_record import GameRecord
from ..records.points import game_points as record_points
from . import policy_pair
from .match_play import (MatchDuelResult, MatchPlayed, MatchSettings, _Matches, game_points,
                         match_duel, play_match, result_code)
from .spec import MAX_PLIES, GameSpec


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


def compiled_cube_game(white: Policy, black: Policy, bots: CubeBots, stakes: Stakes,
                       settings: MatchSettings, game: int) -> tuple[int, int]:
    """One game from the start at `stakes` (a match score, the cube centred) in the compiled cube
    loop: (White's result code, a pass the doubler's oin; the final cube, a pass's before the
    double)."""
    from .cube_loop import play_cube_each
    spec = GameSpec(START, settings.rules, white, black, settings.seed, False, stakes=stakes,
                    cube_bots=bots)
    results, levels, _ = play_cube_each(spec, game, game + 1, MAX_PLIES)
    return int(results[0]), 1 << int(levels[0])


class CubeMatchGames:
    """The game runner of one match with the cube (`match_play.play_match`): it keeps the Crawford
    rule and, when recording, every game's record."""

    def __init__(self, a: Policy, bots: CubeBots, settings: MatchSettings, date: str = "?",
                 record: bool = True) -> None:
        self.a, self.bots, self.settings, self.date = a, bots, settings, date
        self.record = record
        self.crawford_played = False
        self.records: list[GameRecord] = []

    def crawford_next(self, state: MatchState) -> bool:
        """True for the Crawford game: the first after a player came to need 1 point
        (`match_records.Scorer`'s rule)."""
        return (state.length > 1 and not self.crawford_played and max(state.score) >= state.length
                - 1)

    def __call__(self, white: Policy, black: Policy, state: MatchState, game: int
                 ) -> tuple[int, tuple[float, float]]:
        crawford = self.crawford_next(state)
        self.crawford_played |= crawford
        bots = self.bots if white is self.a else self.bots.swapped()
        stakes = Stakes(replace(state, crawford=crawford), Cube())
        if self.record:
            return self.recorded(white, black, bots, stakes, game)
        code, cube = compiled_cube_game(white, black, bots, stakes, self.settings, game)
        return code, game_points(code, self.settings.rules, self.settings.draw_points, cube)

    def recorded(self, white: Policy, black: Policy, bots: CubeBots, stakes: Stakes,
                 game: int) -> tuple[int, tuple[float, float]]:
        """The game played ply by ply and recorded (`selfplay.play_game`, the same decisions)."""
        from .selfplay import play_game
        record = play_game(white, black, rules=self.settings.rules, seed=self.settings.seed,
                           game=game, date=self.date, stakes=stakes, cube_bots=bots)
        self.records.append(record)
        code = result_code(record.result)
        # the doubler wins; the result codes count it as an oin
        if record.dropped is not None:
            code = WIN_BASE if record.dropped.side != WHITE else LOSE_BASE
        return code, record_points(record, self.settings.draw_points)


def distinct(a: Policy, b: Policy) -> tuple[Policy, Policy]:
    """A and B as two objects (the runner tells A from B by identity)."""
    import copy
    return (a, copy.copy(b)) if a is b else (a, b)


def play_cube_match(a: Policy, b: Policy, settings: MatchSettings, bots: CubeBots,
                    index: int = 0, a_first: bool = True, date: str = "?",
                    record: bool = True) -> tuple[MatchPlayed, list[GameRecord]]:
    """Match `index` with the cube (A first player when `a_first`; `bots.white` is A's cube
    behaviour, `bots.black` B's): the match and its game records (without `record`: the games in
    the compiled loop, no records)."""
    a, b = distinct(a, b)
    check_cube_pair(a, b, bots)
    games = CubeMatchGames(a, bots, settings, date, record)
    return play_match(a, b, settings, index, a_first, games), games.records


def cube_matches_chunk(a: Policy, b: Policy, settings: MatchSettings, bots: CubeBots, lo: int,
                       hi: int) -> _Matches:
    """Matches lo..hi-1 with the cube, each played twice (A first, then B first) on the same
    dice."""
    out = _Matches()
    for m in range(lo, hi):
        for a_first in (True, False):
            out.played[(m, a_first)] = play_cube_match(a, b, settings, bots, m, a_first,
                                                       record=False)[0]
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
