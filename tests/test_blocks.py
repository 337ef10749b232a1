"""The block and timing inputs (input version 2) and the version-1 network they must leave alone.

Boards are drawn in White's numbering, as in test_rules_scenarios.py: `w3` is
three White checkers, `b2` two Black ones; Black's point k is White's k+12
(k <= 12) or k-12.  Each position has Black to move, so White has just moved:
the network's mover, the side `block_terms` reads first.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from nardy_cli.analysis.rollout import rollout
from nardy_cli.core.errors import NetworkError
from nardy_cli.core.outcomes import money_valuation
from nardy_cli.core.position import START, mover_board, other_side, parse_position
from nardy_cli.core.rules import PRESETS
from nardy_cli.kernels import neural as kn
from nardy_cli.kernels.blocks import N_BLOCK, block_terms
from nardy_cli.kernels.features import N_FEATURES, N_OPP, opponent_terms
from nardy_cli.kernels.turnpass import turn_scores
from nardy_cli.policies.builtin import network_policy
from nardy_cli.policies.network import (Network, default_network, load_network, network_hash,
    network_summary, result_probabilities, save_network, with_block_inputs)
from tests.randomgames import random_game_positions

FED = PRESETS["federation"]
GOLDEN = Path(__file__).parent / "data" / "neural-v1-golden.json"


def just_moved(text: str) -> tuple[np.ndarray, bool]:
    """The board seen by the side that just moved in position `text`, and whether it is White."""
    pos = parse_position(text)
    mover = other_side(pos.turn)
    return mover_board(pos.checkers(mover), pos.checkers(pos.turn)), mover == "w"


def board_terms(board: np.ndarray) -> tuple[float, ...]:
    """`block_terms` of a mover-relative board (the mover's pips and checkers counted here)."""
    pips = sum(int(c) * (24 - p) for p, c in enumerate(board) if c > 0)
    on = sum(int(c) for c in board if c > 0)
    opp = np.zeros(N_OPP, dtype=np.int64)
    opponent_terms(board, opp)
    return block_terms(board, pips, on, opp)


def terms(text: str) -> tuple[float, ...]:
    """`block_terms` of the board of the side that just moved in `text`."""
    return board_terms(just_moved(text)[0])


# W:  1  ...  13  14  15  16  17  18  19  ...  22
#    w9       b12 b1      w1  w1  w1  w1       w2     and b2 on W8 (Black's B20)
# White's W16-W19 is Black's B4-B7: a 4-point block with 13 Black checkers behind it
# (B1, B2), needing 12 x 7 + 1 x 6 = 90 pips to pass it.  Black's B1-B2 (W13-W14)
# holds White's 9 head checkers, 14 pips each to W15: 126.
# White's timing: 8 spare head checkers, each 11 points before W13 (88), and W22's two, 2 each
# (4): 92.  Black's: 11 spare checkers on B1, 2 points each before B4 (22), B20's two, 4 each
# (8): 30.  Pips 252 against 321.
FOUR_POINT_BLOCK = "W:1x9,16,17,18,19,22x2 B:1x12,2,20x2 b"
FOUR_POINT_BLOCK_TERMS = (4 / 6, 13 / 15, 0.90, 0.92, 2 / 6, 9 / 15, 1.26, 0.30, 5 * 69 / 573, 1.0)


def test_a_four_point_block_with_the_opponent_behind_it():
    """Catches a block measured in the wrong side's numbering, checkers or pips behind it counted
    off by one, spare checkers held back, or the wrong side said to crack first."""
    assert terms(FOUR_POINT_BLOCK) == pytest.approx(FOUR_POINT_BLOCK_TERMS, abs=1e-12)


def test_the_same_board_read_by_the_other_side_swaps_the_sides():
    """Catches the mover's terms and the opponent's exchanged (or the lead's and crack's sign)."""
    other = FOUR_POINT_BLOCK[:-1] + "w"           # Black has just moved
    a = FOUR_POINT_BLOCK_TERMS
    assert terms(other) == pytest.approx(a[4:8] + a[:4] + (-a[8], -a[9]), abs=1e-12)


# W:  1   ...  10  ...  13  ...  17  ...  22  23  24
#    w10       w2       b14      b1       w1  w1  w1
# White's W22-W24 and its head W1 are Black's B10-B13: a 4-point block across White's
# point 24 and point 1, all 15 Black checkers behind it: 14 x 13 + 1 x 9 = 191 pips.
# White's timing: 9 spare head checkers x 23 (its head keeps one, which is also the block's)
# and W10's two x 14: 235.  Black (no block) keeps one head checker: 13 x 8 + 1 x 4 = 108.
WRAPPED_BLOCK = "W:1x10,10x2,22,23,24 B:1x14,5 b"


def test_a_block_across_the_blockers_point_24_and_its_head():
    """Catches runs cut at the end of the blocking side's numbering (its 24 and 1 are neighbours
    on the other side's way) and the head kept twice when it is a block point."""
    assert terms(WRAPPED_BLOCK) == pytest.approx(
        (4 / 6, 1.0, 1.91, 2.35, 0.0, 0.0, 0.0, 1.08, 5 * 80 / 632, 1.0), abs=1e-12)


# W:  1  ...  13  14  15  ...  17  18  19
#    w11      b13 w1  w1       b2  w1  w1
# Two 2-point blocks, Black's B2-B3 and B6-B7: the one further along holds all 15 (B1's 13 and
# B5's 2), 13 x 7 + 2 x 3 = 97 pips.  White's W14 and W15 are spares then (10 + 9 pips), its
# head 10 x 23: 249.  Black: 12 spare head checkers 4 points each before B6; B5's two none: 48.
TWO_BLOCKS = "W:1x11,14,15,18,19 B:1x13,5x2 b"


def test_of_two_blocks_as_long_the_one_further_along_counts():
    """Catches the tie between blocks broken towards the rear one, which holds fewer."""
    assert terms(TWO_BLOCKS) == pytest.approx(
        (2 / 6, 1.0, 0.97, 2.49, 0.0, 0.0, 0.0, 0.48, 5 * 54 / 650, 1.0), abs=1e-12)


def test_a_race_has_only_the_lead():
    """Catches blocks or timings reported where nobody is behind anybody.

    W: 19 20 21 (w5 each); Black: its 19, 20 (b5 each), 22 (b5).  Pips 75 against 70."""
    assert terms("W:19x5,20x5,21x5 B:19x5,20x5,22x5 b") == pytest.approx(
        (0.0,) * 8 + (5 * -5 / 145, 0.0), abs=1e-12)


@pytest.fixture(scope="module")
def boards():
    """Result boards of the side that just moved, from random games, with that side's colour."""
    out = []
    for pos, _ in random_game_positions(400, seed=7, every=2, greedy=0.4):
        board, white = just_moved(str(pos))
        if (board > 0).any() and (board < 0).any():
            out.append((board, white))
    return out


def block_net(seed: int = 3) -> Network:
    """The shipped network as version 2, its block rows drawn at random (large enough to matter)."""
    net = with_block_inputs(default_network())
    w1 = net.w1.copy()
    w1[kn.N_INPUTS:] = np.random.default_rng(seed).normal(0.0, 0.3, size=(N_BLOCK, net.hidden))
    return Network(w1, net.b1, net.w2, net.b2, net.meta)


def test_version_two_full_pass_adds_the_block_rows(boards):
    """Catches block inputs encoded at the wrong rows or scale, or left out of the full pass."""
    net = block_net()
    rows = net.w1
    for board, white in boards[:60]:
        opp = np.zeros(N_OPP, dtype=np.int64)
        opponent_terms(board, opp)
        idx = np.zeros(kn.MAX_ACTIVE, dtype=np.int64)
        val = np.zeros(kn.MAX_ACTIVE)
        m = kn.encode(board, white, opp, np.zeros(N_FEATURES), idx, val, True)
        x = np.zeros(kn.N_INPUTS_BLOCKS)
        x[idx[:m]] = val[:m]
        assert np.array_equal(x[kn.N_INPUTS:], np.array(board_terms(board)))
        m1 = kn.encode(board, white, opp, np.zeros(N_FEATURES), idx, val, False)
        x1 = np.zeros(kn.N_INPUTS_BLOCKS)
        x1[idx[:m1]] = val[:m1]
        assert (x1[:kn.N_INPUTS] == x[:kn.N_INPUTS]).all() and not x1[kn.N_INPUTS:].any()
        h = np.maximum(x @ rows + net.b1, 0.0)
        z = net.w2 @ h + net.b2
        mask = np.ones(kn.N_CLASSES, dtype=bool)
        kn.class_mask(board, True, mask)
        e = np.exp(np.where(mask, z, -np.inf) - z[mask].max())
        got = result_probabilities(board[None], np.array([white]), FED, net)[0]
        assert got == pytest.approx(e / e.sum(), abs=1e-12)


def test_version_two_turn_pass_equals_its_full_pass(boards):
    """Catches the incremental pass (the choosers' and the searches') missing a block input that a
    play changed, or reading the reference board's instead of the result's."""
    from nardy_cli.core.engine import legal_plays
    net = block_net()
    params = net.kernel_params(FED)
    values = money_valuation(FED).kernel_values()
    checked = 0
    for pos, dice in random_game_positions(300, seed=21, every=3, greedy=0.4):
        results = [p.result for p in legal_plays(pos, dice, FED)]
        if len(results) < 3:
            continue
        mover = pos.turn
        rb = np.array([mover_board(r.checkers(mover), r.checkers(other_side(mover)))
                       for r in results], dtype=np.int8)
        opp = np.zeros(N_OPP, dtype=np.int64)
        opponent_terms(rb[0], opp)
        scores = np.zeros(len(rb))
        hidden = np.zeros(net.hidden)
        turn_scores(kn.layers(params), True, values, rb, len(rb), mover == "w", opp,
                    np.zeros(N_FEATURES), np.zeros(kn.MAX_ACTIVE, dtype=np.int64),
                    np.zeros(kn.MAX_ACTIVE), np.ones(kn.N_CLASSES, dtype=np.bool_), hidden,
                    np.zeros(kn.N_CLASSES), scores)
        white = np.full(len(rb), mover == "w")
        full = result_probabilities(rb, white, FED, net) @ values[0 if mover == "w" else 1]
        assert scores == pytest.approx(full, abs=1e-12)
        checked += 1
    assert checked > 50


def test_zero_block_rows_evaluate_as_the_version_one_network(boards):
    """Catches a version-2 pass that differs from version 1 beyond its new rows (a shifted
    feature, a dropped global): with the rows zero, every probability and every choice is the
    same."""
    v1 = default_network()
    v2 = with_block_inputs(v1)
    assert v2.input_version == 2 and v2.w1.shape == (kn.N_INPUTS_BLOCKS, v1.hidden)
    b = np.array([x[0] for x in boards])
    w = np.array([x[1] for x in boards])
    assert np.array_equal(result_probabilities(b, w, FED, v2), result_probabilities(b, w, FED, v1))
    one = rollout(START, network_policy("v1", v1), games=200, seed=5, workers=1, rules=FED)
    two = rollout(START, network_policy("v2", v2), games=200, seed=5, workers=1, rules=FED)
    assert (two.equity, two.probabilities) == (one.equity, one.probabilities)


def test_the_shipped_network_evaluates_as_before_version_two():
    """Catches any change to a version-1 network's values or choices (inputs, order of the sums,
    precision): the shipped network must give exactly what main's code gave before input
    version 2 existed (tests/data/neural-v1-golden.json, experiments/neural_golden.py)."""
    golden = json.loads(GOLDEN.read_text())
    assert golden["network"] == network_hash()
    boards, white = zip(*(just_moved(e["position"]) for e in golden["boards"]))
    probs = result_probabilities(np.array(boards), np.array(white), FED)
    expected = np.array([[float.fromhex(x) for x in e["probs"]] for e in golden["boards"]])
    # to 1e-12: the last bits of the network's fastmath sums depend on the CPU (FMA or not)
    np.testing.assert_allclose(probs, expected, rtol=1e-12, atol=1e-15)
    g = golden["rollout"]
    r = rollout(START, "neural", games=g["games"], seed=g["seed"], workers=1, rules=FED)
    assert (r.equity, r.equity_se) == (float.fromhex(g["equity"]), float.fromhex(g["equity_se"]))


def test_the_shipped_network_is_version_one_and_says_so():
    """Catches the input version read from the wrong place (it is the first layer's rows, 221 for
    version 1), as `nardy policies` prints it."""
    assert default_network().input_version == 1
    assert network_summary()["input_version"] == 1


def test_a_version_two_file_round_trips_and_a_mismatch_is_refused(tmp_path):
    """Catches a version-2 file read as version 1 (or refused), and layers that do not match the
    version the file names accepted."""
    net = block_net()
    save_network(net, tmp_path / "v2.npz")
    back = load_network(tmp_path / "v2.npz")
    assert back.input_version == 2 and np.array_equal(back.w1, net.w1)
    wrong = Network(net.w1, net.b1, net.w2, net.b2, dict(net.meta, input_version=1))
    save_network(wrong, tmp_path / "wrong.npz")
    with pytest.raises(NetworkError, match="does not match"):
        load_network(tmp_path / "wrong.npz")


def test_training_version_two_from_a_version_one_file_starts_from_its_values(tmp_path):
    """Catches `--input-version 2` ignored, or the new rows not starting at zero, and a run that
    never trains them."""
    from nardy_cli.training.trainer import TrainConfig, _first_network, train
    save_network(default_network(), tmp_path / "init.npz")
    config = TrainConfig(init=str(tmp_path / "init.npz"), input_version=2, chunk=20,
                         checkpoint_every=20, bench_every=1000, lr=0.001, seed=4)
    first = _first_network(config)
    assert first.input_version == 2 and not first.w1[kn.N_INPUTS:].any()
    assert np.array_equal(first.w1[:kn.N_INPUTS], default_network().w1)
    net = train(tmp_path / "run", 40, config)
    assert net.input_version == 2 and net.meta["input_version"] == 2
    assert net.w1[kn.N_INPUTS:].any()
    with pytest.raises(Exception, match="cannot be lower"):
        _first_network(TrainConfig(init=str(tmp_path / "run" / "checkpoint.npz"),
                                   input_version=1))
