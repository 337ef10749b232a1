"""Bear-off databases against brute-force expectations written here, independent of the database
code.

Plays come from `tests/bruteforce.py`; the expectation over the 21 rolls and the
choice of the best play are written out below.  The databases are reached only
through the public `bearoff_value` and the stored turn distributions.
"""

from __future__ import annotations

import itertools
from functools import lru_cache

import numpy as np
import pytest

from nardy_cli.policies import bearoff
from nardy_cli.kernels import bearoff as kb
from nardy_cli.core.position import Position
from nardy_cli.core.rules import make_rules
from tests.bruteforce import brute_force_results
from tests.oracle import Board, read

ROLLS = [(h, l) for h in range(6, 0, -1) for l in range(h, 0, -1)]
EMPTY = (0,) * 6


def homes(max_checkers: int) -> list[tuple[int, ...]]:
    """Every non-empty home board (counts on points 19..24) with at most `max_checkers` checkers."""
    return [c for c in itertools.product(range(max_checkers + 1), repeat=6)
            if 0 < sum(c) <= max_checkers]


def notation(home: tuple[int, ...]) -> str:
    items = [f"{19 + i}x{n}" if n > 1 else f"{19 + i}" for i, n in enumerate(home) if n]
    return ",".join(items) or "-"


@lru_cache(maxsize=None)
def next_homes(home: tuple[int, ...], roll: tuple[int, int]) -> tuple[tuple[int, ...], ...]:
    """The distinct home boards White reaches from `home` with `roll` (brute-force plays; Black far
    away)."""
    board = Board(tuple([0] * 18) + home, tuple([0] * 18) + (0, 0, 0, 0, 0, 1), "w")
    out = {tuple(read(r).white[18:])
           for r in brute_force_results(board, roll, "federation", "step")}
    return tuple(sorted(out))


def weight(roll):
    return (1 if roll[0] == roll[1] else 2) / 36


@lru_cache(maxsize=None)
def turns_dist(home: tuple[int, ...]) -> tuple[float, ...]:
    """P(exactly t turns to bear off all), playing to minimise the expected turns (brute force)."""
    if home == EMPTY:
        return (1.0,) + (0.0,) * (kb.T_MAX - 1)
    acc = [0.0] * kb.T_MAX
    for roll in ROLLS:
        best = min(next_homes(home, roll),
                   key=lambda h: sum(t * p for t, p in enumerate(turns_dist(h))))
        for t, p in enumerate(turns_dist(best)[:-1]):
            acc[t + 1] += weight(roll) * p
    return tuple(acc)


def brute_two_sided(last_roll: bool):
    """(win, draw) for the side to move (colour 'w'/'b'), both sides playing for the best equity
    (win - loss)."""

    @lru_cache(maxsize=None)
    def value(turn: str, mine: tuple[int, ...], theirs: tuple[int, ...]) -> tuple[float, float]:
        win = draw = 0.0
        for roll in ROLLS:
            options = []
            for after in next_homes(mine, roll):
                if after == EMPTY:
                    # R8: White finished; Black, all home, draws if it bears off all in its last
                    # roll
                    last = turns_dist(theirs)[1] if (turn == "w" and last_roll) else 0.0
                    w, d = 1.0 - last, last
                else:
                    ow, od = value("b" if turn == "w" else "w", theirs, after)
                    w, d = 1.0 - ow - od, od
                options.append((w - (1.0 - w - d), w, d))
            _, w, d = max(options)
            win += weight(roll) * w
            draw += weight(roll) * d
        return win, draw

    return value


@pytest.mark.parametrize("last_roll", [True, False])
def test_two_sided_database_equals_brute_force_up_to_3_checkers(last_roll):
    """Would catch: a wrong R8 last roll or draw, a missed play, a wrong rank, a sign flip between
    sides."""
    rules = make_rules() if last_roll else make_rules(last_roll=False)
    value = brute_two_sided(last_roll)
    small = homes(3)
    worst = 0.0
    for mine, theirs, turn in itertools.product(small, small, "wb"):
        w_home, b_home = (mine, theirs) if turn == "w" else (theirs, mine)
        pos = Position.parse(f"W:{notation(w_home)} B:{notation(b_home)} {turn}")
        got = bearoff.bearoff_value(pos, rules)
        assert got.exact
        win, draw = value(turn, mine, theirs)
        worst = max(worst, abs(got.probabilities["win"] - win),
                    abs(got.probabilities["draw"] - draw), abs(got.equity - (2 * win + draw - 1)))
    assert worst < 1e-12


def test_one_sided_turn_distributions_equal_brute_force_up_to_3_checkers():
    """Would catch: a wrong bear-off step rule (R7), a turn shifted by one, a distribution not
    normalised."""
    tabs = bearoff.tables(make_rules())
    for home in homes(3):
        rank = kb.rank(np.array(home, dtype=np.int8), kb.MAX_CHECKERS, kb.COMP)
        assert np.abs(tabs.all_dist[rank] - np.array(turns_dist(home))).max() < 1e-12


def test_one_sided_distributions_sum_to_one_and_match_simulation():
    """Would catch: probability lost past T_MAX, or first-off turns that disagree with play."""
    tabs = bearoff.tables(make_rules())
    assert np.abs(tabs.all_dist.sum(axis=1) - 1).max() < 1e-12
    assert np.abs(tabs.first_dist.sum(axis=1) - 1).max() < 1e-12
    # simulate 15 checkers on points 19-21 with the database's own choices; compare mean turns
    home = (5, 5, 5, 0, 0, 0)
    mean = lambda h: float(np.arange(kb.T_MAX) @ tabs.all_dist[kb.rank(np.array(h, dtype=np.int8),
                                                                       15, kb.COMP)])
    rng = np.random.default_rng(3)
    samples = []
    for _ in range(400):
        h, t = home, 0
        while sum(h):
            a, b = rng.integers(1, 7, size=2)
            h = min(next_homes(h, (max(a, b), min(a, b))), key=mean)
            t += 1
        samples.append(t)
    se = np.std(samples) / np.sqrt(len(samples))
    assert abs(np.mean(samples) - mean(home)) < 4 * se


def test_one_sided_convolution_is_close_to_the_two_sided_values():
    """Would catch: a convolution that mixes up whose turn comes first or drops R8's draw."""
    tabs = bearoff.tables(make_rules())
    out = np.zeros(kb.N_CLASSES)
    exact = np.zeros(kb.N_CLASSES)
    worst = 0.0
    for mine, theirs in itertools.product(homes(4)[::7], homes(4)[::5]):
        m = np.array(mine, dtype=np.int8)
        o = np.array(theirs, dtype=np.int8)
        args = (kb.rank(m, 15, kb.COMP), kb.rank(o, 15, kb.COMP))
        small = (kb.rank(m, kb.N_TWO, kb.COMP), kb.rank(o, kb.N_TWO, kb.COMP))
        for white in (True, False):
            kb.race_probabilities(*args, -1, -1, white, True, tabs.all_dist, tabs.first_dist,
                                  tabs.win2, tabs.draw2, out)
            kb.race_probabilities(*args, *small, white, True, tabs.all_dist, tabs.first_dist,
                                  tabs.win2, tabs.draw2, exact)
            assert abs(out.sum() - 1) < 1e-9
            worst = max(worst, abs((out[0] - out[4]) - (exact[0] - exact[4])))
    assert worst < 0.05


def test_home_mars_needs_fifteen_checkers_and_a_fast_winner():
    """Would catch: home-mars scored for a side that has a checker off."""
    # W: one checker left on W24; B: 15 checkers on B19-B21, none off
    pos = Position.parse("W:24 B:19x5,20x5,21x5 w")
    got = bearoff.bearoff_value(pos, make_rules())
    assert not got.exact
    # White bears off at once; in Black's last roll only 2-1 takes no checker off
    # (every other roll brings one to exactly 25: a 4, 5 or 6, 3-1, 4-1, 3-2, 5-1, 4-2, or a double)
    assert got.probabilities["win_home_mars"] == pytest.approx(2 / 36, abs=1e-12)
    assert got.probabilities["win_oin"] == pytest.approx(34 / 36, abs=1e-12)
    assert got.probabilities["lose"] == 0.0


def test_corrupt_or_stale_cache_is_rebuilt(tmp_path, monkeypatch):
    """Would catch: a truncated file or one of another format version being trusted."""
    monkeypatch.setenv("NARDY_CACHE_DIR", str(tmp_path))
    builds = []

    def build():
        builds.append(1)
        return {"x": np.arange(5.0)}

    meta = {"format": 1, "kind": "test"}
    assert bearoff._cached("t.npz", meta, build)["x"].sum() == 10
    assert bearoff._cached("t.npz", meta, build)["x"].sum() == 10 and len(builds) == 1
    path = tmp_path / "t.npz"
    path.write_bytes(path.read_bytes()[:-40])          # truncated
    bearoff._cached("t.npz", meta, build)
    assert len(builds) == 2
    bearoff._cached("t.npz", {"format": 2, "kind": "test"}, build)   # another version
    assert len(builds) == 3
    data = dict(np.load(path))                          # same layout, changed numbers, old checksum
    data["x"] = data["x"] + 1
    np.savez(path, **data)
    assert bearoff._cached("t.npz", {"format": 2, "kind": "test"}, build)["x"].sum() == 10
    assert len(builds) == 4
