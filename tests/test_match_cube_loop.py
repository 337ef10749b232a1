"""The compiled match cube model (`kernels/match_cube.py`) and the cube loop's match mode (issue 42,
item 3): the port equals the Python model it replaced, the loop's decisions are `cube_decision`'s,
and a compiled match with the cube is the recorded one."""

from __future__ import annotations

import numpy as np
import pytest

from nardy_cli.core.outcomes import RESULT_KEYS
from nardy_cli.core.position import WHITE, Position
from nardy_cli.core.rules import PRESETS
from nardy_cli.games.cube_loop import CubeJudge
from nardy_cli.games.match_cube_play import play_cube_match
from nardy_cli.games.match_play import MatchSettings
from nardy_cli.kernels import cube as kc
from nardy_cli.match.cube import Cube, CubeBots, decide, win_loss
from nardy_cli.match.cube_decision import cube_decision
from nardy_cli.match.cube_table import cubeful_table, game_kind, match_decision
from nardy_cli.match.stakes import Stakes
from nardy_cli.match.state import match_state, match_table
from nardy_cli.policies import as_policy

FED = PRESETS["federation"]
A, B = as_policy("neural"), as_policy("heuristic")


class ReferenceGame:
    """The Python model before the port (`cube_table.GameCube` as it was), kept as the test's
    reference: A on roll, cube values c, owners `centre`/`roller`/`opponent`."""

    def __init__(self, met, need_a, need_b, a_white, kind, probs, x):
        self.met, self.na, self.nb, self.aw, self.kind = met, need_a, need_b, a_white, kind
        self.probs, self.x = probs, x

    def values(self, c):
        units, draw = self.met.table.units()
        wins = np.array([self.met.after(self.na - c * u, self.nb, "a", self.aw, self.kind)
                         for u in units])
        losses = np.array([self.met.after(self.na, self.nb - c * u, "b", self.aw, self.kind)
                           for u in units])
        d = (self.met.after(self.na - c * draw, self.nb - c * draw, None, self.aw, self.kind)
             if self.probs[8] > 0 else 0.0)
        return wins, losses, d

    def wl(self, side, c):
        p, w, lo = win_loss(self.probs, *self.values(c))
        return (p, w, lo) if side == 0 else (1.0 - p, 1.0 - lo, 1.0 - w)

    def cash(self, side, c):
        if side == 0:
            return self.met.after(self.na - 2 * c, self.nb, "a", self.aw, self.kind)
        return 1.0 - self.met.after(self.na, self.nb - 2 * c, "b", self.aw, self.kind)

    def dead(self, c):
        p, w, lo = self.wl(0, c)
        return p * w + (1.0 - p) * lo

    def cash_point(self, side, c):
        if 2 * c >= max(self.na, self.nb):
            return 1.0
        return 1.0 - self.take_point(1 - side, 2 * c)

    def point_value(self, side, c):
        return self.cash(side, c) if self.cash_point(side, c) < 1.0 else self.wl(side, c)[1]

    def take_point(self, side, c):
        _, _, lo = self.wl(side, c)
        cp, v = self.cash_point(side, c), self.point_value(side, c)
        passed = 1.0 - self.cash(1 - side, c // 2)
        if v <= lo:
            return 0.0
        return min(1.0, max(0.0, cp * (passed - lo) / (v - lo)))

    def live(self, c, owner):
        p, w, lo = self.wl(0, c)
        ca, va = self.cash_point(0, c), self.point_value(0, c)
        low, low_value = 1.0 - self.cash_point(1, c), 1.0 - self.point_value(1, c)
        if owner == "roller":
            return va if p >= ca else lo + (va - lo) * p / ca
        if p <= low:
            return low_value
        if owner == "opponent":
            return low_value + (w - low_value) * (p - low) / (1.0 - low) if low < 1.0 else w
        if p >= ca:
            return va
        return low_value + (va - low_value) * (p - low) / (ca - low)

    def equity(self, c, owner):
        if self.kind == "crawford":
            return self.dead(c)
        return (1.0 - self.x) * self.dead(c) + self.x * self.live(c, owner)


SCORES = ((7, "0-0", False), (7, "3-4", False), (7, "6-3", True), (7, "6-2", False),
          (5, "4-1", False), (11, "2-9", False), (7, "5.5-2", False))


@pytest.mark.parametrize("length,score,crawford", SCORES)
def test_the_compiled_match_model_equals_the_python_model(length, score, crawford):
    """Would catch: a port error in `kernels/match_cube.py` (a cash point taken from the wrong
    level, B's W and L not swapped, the draw term or the dead-cube top level wrong): on random
    result probabilities at pre-Crawford, Crawford and post-Crawford scores, both rollers, owners
    and cubes 1-4, `match_decision`'s three chances equal the Python model's to 1e-12."""
    state = match_state(length, score, FED, crawford=crawford)
    met = cubeful_table(match_table(state, FED))
    nw, nb = (int(round(2 * n)) for n in state.needs)
    rng = np.random.default_rng(length * 100 + nw + nb)
    checked = 0
    for turn in (WHITE, "b"):
        needs = (nw, nb) if turn == WHITE else (nb, nw)
        kind = game_kind(needs[0], needs[1], crawford)
        cubes = (Cube(),) if crawford else (Cube(), Cube(2, "white"), Cube(2, "black"),
                                            Cube(4, "white"), Cube(4, "black"))
        for cube in cubes:
            for x in (0.0, 0.35, 0.68, 1.0):
                for _ in range(5):
                    probs = rng.dirichlet(np.full(9, 0.7))
                    if rng.random() < 0.3:
                        probs[8] = 0.0
                        probs /= probs.sum()
                    got = match_decision(probs, met, needs, turn == WHITE, cube, turn, crawford,
                                         x)
                    ref = ReferenceGame(met, needs[0], needs[1], turn == WHITE, kind, probs, x)
                    owner, c = cube.relative(turn), cube.value
                    assert got.no_double == pytest.approx(ref.equity(c, owner), abs=1e-12)
                    if got.double_take is None:
                        assert crawford or owner == "opponent"
                        continue
                    dt, dp = ref.equity(2 * c, "opponent"), ref.cash(0, c)
                    assert (got.double_take, got.double_pass) == (pytest.approx(dt, abs=1e-12),
                                                                  pytest.approx(dp, abs=1e-12))
                    # the decision by the kernel's own three chances: where no double and
                    # double/take tie to 1e-12 the reference's last bits could decide otherwise
                    assert got.decision == decide(got.no_double, got.double_take,
                                                  got.double_pass)
                    checked += 1
    assert checked >= (0 if crawford else 40)


def _positions(seed: int) -> list[tuple[Position, np.ndarray]]:
    """Positions before a roll (and their boards) from a recorded game of the bots."""
    from nardy_cli.games.selfplay import play_game
    record = play_game(A, B, seed=seed, game=0)
    return [(pos.with_dice(None), pos.board()[0]) for pos in record.positions()[:-1:3]]


def test_the_loops_match_decisions_are_cube_decisions():
    """Would catch: the compiled loop's match mode deciding by other numbers than `cube_decision`
    (the value tables of `cube_loop.match_fields` built for the wrong roller or needs, the
    efficiency or the dead cube differing; under the `alternate` colour rule, a table built for
    the wrong colour): before every third roll of a game, at several scores and cubes, the
    kernel's three chances equal `cube_decision(exact=False)`'s for the same evaluator chances."""
    from nardy_cli.kernels.value import position_probs, value_scratch
    checked = 0
    for length, score, crawford, rule in (*((*s, "winner") for s in SCORES[:6]),
                                          (7, "3-1", False, "alternate")):
        state = match_state(length, score, FED, crawford=crawford, next_white=rule)
        for cube in ((Cube(),) if crawford else (Cube(), Cube(2, "black"))):
            stakes = Stakes(state, cube)
            judge = CubeJudge(cube, CubeBots(), A, B, FED, stakes.valuation(FED), state)
            for pos, board in _positions(seed=length):
                white = pos.turn == WHITE
                side = 0 if white else 1
                out = np.zeros(9)
                position_probs(board, white, True, judge.kinds[side], judge.weights[side],
                               judge.args.tables, judge.args.coefs, judge.choice, value_scratch(),
                               np.empty_like(board), out)
                owner = cube.relative(pos.turn)
                rel = kc.CENTRE if owner == "centre" else (kc.ROLLER if owner == "roller"
                                                           else kc.OPPONENT)
                nd, dt, dp = kc.match_judge(board, white, True, rel, cube.value.bit_length() - 1,
                                            judge.kinds[side], judge.weights[side], judge.args,
                                            judge.choice, judge.sws,
                                            kc.efficiency(board, judge.args.contact))
                want = cube_decision(pos, stakes, FED, probabilities=dict(zip(RESULT_KEYS, out)),
                                     exact=False)
                assert nd == pytest.approx(want.no_double, abs=1e-12), (pos, stakes)
                if want.double_take is not None:
                    assert (dt, dp) == (pytest.approx(want.double_take, abs=1e-12),
                                        pytest.approx(want.double_pass, abs=1e-12))
                    checked += 1
    assert checked >= 20


@pytest.mark.parametrize("length,seed,bots", [(7, 1, CubeBots()),
                                              (5, 3, CubeBots("model", "nodouble")),
                                              (3, 2, CubeBots("nodouble", "model"))])
def test_compiled_matches_with_the_cube_are_the_recorded_matches(length, seed, bots):
    """Would catch: the duel's compiled matches with the cube differing from the recorded ones
    (`play --match N --cube`) on the same seeds: a cube level not tracked, a drop scored at the
    doubled cube, the Crawford game or the taker's answer differing between the two paths."""
    settings = MatchSettings(length, seed=seed)
    doubled = 0
    for index in range(3):
        for a_first in (True, False):
            compiled, none = play_cube_match(A, B, settings, bots, index, a_first, record=False)
            recorded, records = play_cube_match(A, B, settings, bots, index, a_first)
            assert none == [] and compiled == recorded, (index, a_first)
            doubled += sum(1 for r in records for p in r.plies for a in p.actions
                           if a.kind == "double") + sum(r.dropped is not None for r in records)
    assert doubled > 0
