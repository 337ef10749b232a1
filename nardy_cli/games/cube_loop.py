"""Games with the doubling cube, in the compiled cube loop (`kernels/cube.py`): rollouts and
duplicate duels of money games, the kernel's cube arguments (at a match score: its match mode's
fields, `match_fields`) and the decision asked from Python before a recorded roll (`CubeJudge`).

A `GameSpec` whose stakes have a cube (`stakes.Stakes.cube`: the starting cube and
its money rules) is played here: both policies compiled, each side's cube behaviour
(`cube.CubeBots`) `model` (its evaluator's cubeless chances before the roll through
Janowski's model) or `nodouble`.  Games are played to
their end (no rollout scoring options); the tally's `cube` sums hold each
game's points in units of the starting cube.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..core.errors import PolicyError
from ..kernels import cube as kc
from ..kernels.board import N_RESULTS
from ..kernels.evaluate import choice_scratch
from ..kernels.game import N_DEFICIT, SidePolicies, score_workspace
from ..core.errors import CubeError
from ..kernels import match_cube as kmc
from ..match.cube import Cube, CubeBots, points_array
from ..match.cube_table import cubeful_table, game_kind, value_table
from ..match.stakes import Stakes
from ..match.state import MatchState, match_table
from ..match.table import half_points
from .compiled_loop import call_kernel, game_setup, kernel_pickers, kernel_policies
from .tally import OUTCOMES, PAIRS, Tally

OWNER_CODE = {"centre": kc.NOBODY, "white": 0, "black": 1}
BEHAVIOUR_CODE = {"model": kc.MODEL, "nodouble": kc.NODOUBLE}


def check_cube_policies(white, black, bots: CubeBots) -> None:
    """Raise `PolicyError` unless both policies run in the compiled loop and each cube-using side's
    policy has an evaluator of outcome chances (what the cube model reads)."""
    for policy, behaviour in ((white, bots.white), (black, bots.black)):
        if not policy.in_kernel:
            raise PolicyError(f"policy {policy.name!r} is a Python bot: "
                              "games with the cube need compiled policies")
        if behaviour == "model" and not policy.has_evaluator:
            raise PolicyError(f"policy {policy.name!r} has no evaluator of outcome chances "
                              "(heuristic or neural), "
                              "so it cannot use the cube: give that side the 'nodouble' "
                              "cube behaviour")


def money_cube(stakes: Stakes) -> Cube:
    """The starting cube of money games with the cube; raises `CubeError` for stakes without a cube
    or at a match score (a `GameSpec`'s rollouts and duels with the cube are money games)."""
    if stakes.cube is None:
        raise CubeError("games with the cube need stakes with a cube")
    if stakes.match is not None:
        # at a match score: analysis/match_cube_rollout.py (the cube loop's match mode)
        raise CubeError("rollouts and duels of games with the cube are money games: at a match "
                        "score roll out with analysis.match_cube_rollout")
    return stakes.cube


def cube_args(cube: Cube, bots: CubeBots, sides: SidePolicies, rules,
              match: MatchState | None = None, vr: bool = False) -> kc.CubeArgs:
    """The kernel's `CubeArgs` of games from `cube` with `bots` for these kernel policies (index 0
    White), at the `match` score (None: money); `vr`: each game's cubeful luck is measured."""
    from ..policies.bearoff import tables
    from .scoring import logistic_coefficients, screen_weights
    same = bool(sides.kinds[0] == sides.kinds[1]
                and np.array_equal(sides.params[0], sides.params[1]))
    return kc.CubeArgs(np.array([BEHAVIOUR_CODE[bots.white], BEHAVIOUR_CODE[bots.black]],
                                dtype=np.int64),
                       OWNER_CODE[cube.owner], bool(cube.jacoby), bool(cube.beavers),
                       float(bots.contact_efficiency), points_array(rules.points),
                       tables(rules).arrays(), logistic_coefficients(), same,
                       bool(bots.hold_first), *match_fields(match, rules),
                       cube.value.bit_length() - 1, half_points(rules.points.oin, "an oin"),
                       bool(vr), screen_weights(rules))


@lru_cache(maxsize=64)
def match_fields(match: MatchState | None, rules) -> tuple:
    """`CubeArgs`' match fields of a game at this score (match, crawford, kind, needs, the larger
    need, the value tables with White and with Black on roll); money: placeholders."""
    if match is None:
        return False, False, 0, np.zeros(2, dtype=np.int64), 0, np.zeros((2, 1, kmc.N_COLUMNS))
    nw, nb = (half_points(n, "a need") for n in match.needs)
    kind = game_kind(nw, nb, match.crawford)
    met = cubeful_table(match_table(match, rules))
    levels = kmc.levels_for(max(nw, nb))
    tabs = np.stack([value_table(met, nw, nb, True, kind, levels),
                     value_table(met, nb, nw, False, kind, levels)])
    return (True, bool(match.crawford), kmc.KIND_CODE[kind], np.array([nw, nb], dtype=np.int64),
            max(nw, nb), tabs)


def play_cube(spec, lo: int, hi: int, max_plies: int, tally: Tally) -> None:
    """Play games lo..hi-1 of `spec` (whose stakes have a cube) with the cube, adding into `tally`
    (by its mode)."""
    cube = money_cube(spec.stakes)
    check_cube_policies(spec.white, spec.black, spec.cube_bots)
    if tally.mode not in (OUTCOMES, PAIRS):
        raise PolicyError("games with the cube are played as rollouts or duels, "
                          f"not in {tally.mode!r} mode")
    setup = game_setup(spec, max_plies)
    sides, evaluators = kernel_policies(spec.white, spec.black, spec.rules, spec.values)
    if tally.mode == OUTCOMES:
        into = kc.INTO_COUNTS
        a_cube = b_cube = cube_args(cube, spec.cube_bots, sides, spec.rules, vr=spec.scoring.vr)
    else:
        # spec.white is A, spec.black is B (as `duel` builds it); the root side is A, then B: each
        # game's cube behaviours by colour
        into = kc.INTO_PAIRS
        a_bots, b_bots = spec.cube_bots, spec.cube_bots.swapped()
        if not setup.white:
            a_bots, b_bots = b_bots, a_bots
        a_cube, b_cube = (cube_args(cube, bots, sides, spec.rules) for bots in (a_bots, b_bots))
    call_kernel(kc.play_cube_chunk, setup, lo, hi, sides, evaluators,
                kernel_pickers(spec.white, spec.black, sides), a_cube, b_cube, into, tally.counts,
                tally.deficit, tally.plies, tally.cube, *_no_rows(0))


def play_cube_each(spec, lo: int, hi: int, max_plies: int, vr: bool = False
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each of games lo..hi-1 of `spec` (its stakes a cube, at their match score or money) in the
    compiled cube loop: (result codes, a pass the doubler's oin; final cube levels, 2**level, a
    pass's before the double; each game's luck when `vr`, else zeros)."""
    setup = game_setup(spec, max_plies)
    sides, evaluators = kernel_policies(spec.white, spec.black, spec.rules, spec.values)
    cube = cube_args(spec.stakes.cube, spec.cube_bots, sides, spec.rules, spec.stakes.match, vr)
    codes, levels, lucks = _no_rows(hi - lo)
    call_kernel(kc.play_cube_chunk, setup, lo, hi, sides, evaluators,
                kernel_pickers(spec.white, spec.black, sides), cube, cube, kc.INTO_EACH,
                np.zeros((1, N_RESULTS), dtype=np.int64), np.zeros((2, N_DEFICIT), dtype=np.int64),
                np.zeros(1, dtype=np.int64), np.zeros((1, kc.N_CUBE_SUMS), dtype=np.int64), codes,
                levels, lucks)
    return codes, levels, lucks


def _no_rows(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """`play_cube_chunk`'s per-game outputs for n games (none when it counts)."""
    return np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64), np.zeros(n)


class CubeJudge:
    """The cube loop's action before a roll asked from Python (`selfplay` with the cube): the same
    compiled `cube_turn`, with the cube's owner and value kept here (at `match`'s score: the match
    mode's decisions)."""

    def __init__(self, cube: Cube, bots: CubeBots, white, black, rules, valuation,
                 match: MatchState | None = None) -> None:
        check_cube_policies(white, black, bots)
        sides, _ = kernel_policies(white, black, rules, valuation)
        self.kinds, self.weights = sides.kinds, sides.params
        self.args = cube_args(cube, bots, sides, rules, match)
        self.owner, self.value = OWNER_CODE[cube.owner], cube.value
        self.last_roll = bool(rules.last_roll)
        self.choice, self.sws = choice_scratch(), score_workspace()

    def actions(self, board: np.ndarray, white_on_roll: bool) -> tuple[str, ...]:
        """The cube actions before this roll as records name them (`double`, `take`, `drop`,
        `beaver`)."""
        action = kc.cube_turn(board, white_on_roll, self.last_roll, self.owner,
                              self.value.bit_length() - 1, self.kinds, self.weights, self.args,
                              self.choice, self.sws)
        if action == 0:
            return ()
        if action == 2:
            return ("double", "drop")
        self.owner = 1 if white_on_roll else 0
        self.value *= 2 if action == 1 else 4
        return ("double", "take") if action == 1 else ("double", "beaver")


def cube_figures(sums: np.ndarray, counts: np.ndarray, vr: bool = False) -> dict:
    """Cubeful points per game and its SE (stratified as the rollout's counts), and the shares of
    games doubled and passed, from a rollout tally's per-stratum cube sums and result counts; with
    `vr` the equity is the luck-reduced one and `plain_equity` the games' own points."""
    from .scoring import moments_mean_se
    n_s = counts[:, :N_RESULTS].sum(axis=1)
    x = sums / kc.CUBE_SCALE
    mean, se = moments_mean_se(n_s, x[:, kc.C_POINTS], x[:, kc.C_POINTS2])
    games = int(n_s.sum())
    out = {"equity": mean, "equity_se": se,
           "doubled_share": float(sums[:, kc.C_DOUBLED].sum() / games),
           "passed_share": float(sums[:, kc.C_PASSED].sum() / games)}
    if vr:
        reduced, reduced_se = moments_mean_se(n_s, x[:, kc.C_REDUCED], x[:, kc.C_REDUCED2])
        out = {"equity": reduced, "equity_se": reduced_se, "plain_equity": mean,
               "plain_equity_se": se, **{k: v for k, v in out.items() if "equity" not in k}}
    return out
