"""Games from a position at a match score with the cube (`rollout --match N --cube-owner ...`):
each game's cubeful match winning chance for the side on roll at the start.

Both sides play the cube as in the bots' matches (the compiled cube loop's match mode,
`kernels/cube.py`: each side's evaluator's chances before the roll through the cubeful match model
at the score, no double in the Crawford game, never a dead cube), all of a chunk's games in one
kernel call.  A game's end is valued by the cubeful match table after it
(`cube_table.CubefulMatchTable.after`): a win by its class's points times the cube, a draw the
draw points times the cube each, a pass the doubler's oin at the cube before the double.  Game
i's dice depend only on (seed, i), whatever the cube does, so games of the same seed and index
from the same position share their dice (common random numbers): a cube decision's no double and
double/take are rolled out on the same dice.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..core.position import WHITE, Position
from ..core.rules import Rules
from ..kernels.codes import DRAW, LOSE_BASE, UNFINISHED, WIN_BASE
from ..match.cube import Cube, CubeBots
from ..match.cube_table import cubeful_table, game_kind
from ..match.stakes import Stakes, game_points
from ..match.state import match_table
from ..match.table import half_points
from ..policies import Policy
from .spec import GameSpec

MAX_PLIES = 2000


def game_value(stakes: Stakes, rules: Rules, root: str, code: int, cube: int) -> float:
    """The root side's (`w`/`b`) cubeful match winning chance after a game that ended with result
    code `code` for it (a pass: the doubler's oin) with the cube at `cube` (before the double, for
    a pass); an unfinished game keeps the score (valued before a new game)."""
    match = stakes.match
    met = cubeful_table(match_table(match, rules))
    needs = [half_points(n, "a need") for n in match.needs]
    if root != WHITE:
        needs.reverse()
    kind = game_kind(needs[0], needs[1], match.crawford)
    if code == UNFINISHED:
        return met.chance(needs[0], needs[1], None, kind)
    winner = None if code == DRAW else ("a" if code < LOSE_BASE else "b")
    klass = 0 if code == DRAW else code - (WIN_BASE if code < LOSE_BASE else LOSE_BASE)
    from ..core.outcomes import CLASS_NAMES
    pa, pb = game_points(rules, None if winner is None else ("w" if winner == "a" else "b"),
                         CLASS_NAMES[klass], cube, False, match.draw_points)
    return met.after(needs[0] - half_points(pa, "points"), needs[1] - half_points(pb, "points"),
                     winner, root == WHITE, kind)


def match_cube_values(position: Position, white: Policy, black: Policy, rules: Rules,
                      stakes: Stakes, bots: CubeBots, seed: int, lo: int, hi: int,
                      hold_first: bool = False, stratify: bool = False,
                      max_plies: int = MAX_PLIES) -> np.ndarray:
    """The side on roll's cubeful match winning chance after each of games lo..hi-1 from
    `position` at `stakes` (a match with a cube), in one call of the compiled cube loop;
    `hold_first`: the side on roll does not double before its first roll (the no-double branch of
    a cube decision)."""
    return match_cube_games(position, white, black, rules, stakes, bots, seed, lo, hi, hold_first,
                            stratify, max_plies)[0]


def match_cube_games(position: Position, white: Policy, black: Policy, rules: Rules,
                     stakes: Stakes, bots: CubeBots, seed: int, lo: int, hi: int,
                     hold_first: bool = False, stratify: bool = False,
                     max_plies: int = MAX_PLIES, vr: bool = False
                     ) -> tuple[np.ndarray, np.ndarray]:
    """`match_cube_values` and each game's luck in match winning chance (the side on roll's view;
    zeros unless `vr`: `kernels.cube.roll_luck` at the score), so value - luck is the reduced
    value."""
    from .cube_loop import play_cube_each
    from .match_cube_play import check_cube_pair
    check_cube_pair(white, black, bots)
    bots = replace(bots, hold_first=hold_first)
    spec = GameSpec(position, rules, white, black, seed, stratify, stakes=stakes, cube_bots=bots)
    codes, levels, lucks = play_cube_each(spec, lo, hi, max_plies, vr)
    values: dict[tuple[int, int], float] = {}
    for key in set(zip(codes.tolist(), levels.tolist())):
        values[key] = game_value(stakes, rules, position.turn, key[0], 1 << key[1])
    return np.array([values[key] for key in zip(codes.tolist(), levels.tolist())]), lucks


def taken_stakes(stakes: Stakes, roller: str) -> Stakes:
    """The stakes after the roller's double is taken: the cube doubled, the opponent's."""
    cube = stakes.cube or Cube()
    return replace(stakes, cube=cube.taken(2 * cube.value, "b" if roller == WHITE else "w"))
