"""Supervised training on a rolled-out set (`training/supervised.py`)."""

from __future__ import annotations

import numpy as np
import pytest

from nardy_cli.core.position import Position, parse_position
from nardy_cli.core.rules import PRESETS
from nardy_cli.kernels.codes import DRAW, LOSE_BASE, WIN_BASE
from nardy_cli.policies.network import default_network, new_network, result_probabilities
from nardy_cli.training.supervised import (SupervisedConfig, _gradients, encode_records, forward,
                                           is_validation, mover_target, train_supervised)

POSITIONS = ["W:1x7,4,5x2,7,8,15,16,19 B:1x8,5,6x2,10,12,15,18 w",
             "W:1x12,2,10,11 B:1x13,7x2 b",
             "W:6,7x2,11,21,22x3,23x3,24x4 B:1x4,2x2,3,4,5x2,6,13,20,21,24 w",
             "W:19x3,20x3,21x3,22x2,23x2,24x2 B:13x2,14x3,17x5,18x5 b"]


def _record(i, text, p_win_oin=0.6):
    keys = ("oin", "home_mars", "mars", "koks")
    probs = {f"win_{k}": 0.0 for k in keys} | {f"lose_{k}": 0.0 for k in keys}
    probs |= {"win_oin": p_win_oin, "lose_oin": 1 - p_win_oin, "draw": 0.0}
    return {"i": i, "position": text, "phase": "contact", "probabilities": probs}


def test_the_numpy_pass_values_a_record_as_the_kernels_value_its_board():
    """Catches an encoding from the wrong side's view (the side to move instead of the side that has
    just moved), a missing input group, or a numpy forward pass that differs from the kernels'."""
    net = default_network()
    records = [_record(i, t) for i, t in enumerate(POSITIONS)]
    data = encode_records(records, net.input_version)
    _, p = forward((net.w1, net.b1, net.w2, net.b2), data.x, data.mask)
    # the side that has just moved: the one not to move, written out here
    movers = ["b", "w", "b", "w"]
    boards = [Position.unchecked(parse_position(t).white, parse_position(t).black, m).board()[0]
              for t, m in zip(POSITIONS, movers)]
    q = result_probabilities(np.stack(boards), np.array([m == "w" for m in movers]),
                             PRESETS["federation"], net)
    np.testing.assert_allclose(p, q, atol=1e-12)


def test_a_target_is_the_side_to_moves_chances_seen_by_the_side_that_just_moved():
    """Catches targets left in the side to move's view (a network trained on them would learn
    every position backwards) and a negative VR estimate kept."""
    mask = np.ones(9, dtype=bool)
    t = mover_target(_record(0, POSITIONS[0], 0.7)["probabilities"] | {"draw": -0.01}, mask)
    assert t[LOSE_BASE] == pytest.approx(0.7) and t[WIN_BASE] == pytest.approx(0.3)
    assert t[DRAW] == 0.0
    mask[LOSE_BASE] = False
    assert mover_target(_record(0, POSITIONS[0], 0.7)["probabilities"], mask)[WIN_BASE] == 1.0


def test_the_gradients_are_the_cross_entropys():
    """Catches a wrong backward pass (the ReLU's gate, the mask, a transposed layer) by finite
    differences on a small network."""
    net = new_network(6, seed=3)
    records = [_record(i, t, 0.2 + 0.15 * i) for i, t in enumerate(POSITIONS)]
    data = encode_records(records, net.input_version)
    params = [a.copy() for a in (net.w1, net.b1, net.w2, net.b2)]

    def loss():
        _, p = forward(params, data.x, data.mask)
        logp = np.log(np.maximum(p, 1e-300))
        return -np.mean(np.sum(np.where(data.target > 0, data.target * logp, 0.0), axis=1))

    grads = _gradients(params, data.x, data.mask, data.target)
    rng = np.random.default_rng(0)
    for k in range(4):
        for _ in range(5):
            flat = np.flatnonzero(grads[k]) if k == 0 else np.arange(params[k].size)
            j = np.unravel_index(rng.choice(flat), params[k].shape)
            old = params[k][j]
            params[k][j] = old + 1e-6
            up = loss()
            params[k][j] = old - 1e-6
            down = loss()
            params[k][j] = old
            assert grads[k][j] == pytest.approx((up - down) / 2e-6, rel=1e-4, abs=1e-9)


def test_training_fits_the_set_and_keeps_the_best_validation_epoch():
    """Catches a step that does not descend (the training loss must fall), a result that is the
    last epoch's weights rather than the best validation epoch's (here the held-back records
    contradict the trained ones, so the best is epoch 0: the starting weights), or a run that
    depends on anything but its seed."""
    records = [_record(i, POSITIONS[i % 4], 0.05 if is_validation(i, 0.3) else 0.95)
               for i in range(40)]
    start = default_network()
    config = SupervisedConfig(epochs=3, batch=8, lr=1e-3, valid_share=0.3, seed=5)
    a = train_supervised(start, records, config)
    b = train_supervised(start, records, config)
    assert a.rows[-1].train_loss < a.rows[0].train_loss
    assert a.best_epoch == 0 and a.rows[0].valid_loss == min(r.valid_loss for r in a.rows)
    np.testing.assert_array_equal(a.network.w1, start.w1)
    np.testing.assert_array_equal(b.network.w2, a.network.w2)
    assert b.frame().equals(a.frame())
    assert a.train_size + a.valid_size == 40 and a.valid_size > 0
