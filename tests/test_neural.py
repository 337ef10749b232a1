"""The neural evaluator: inputs, forward pass, rule masks, training and weights files."""

from __future__ import annotations

import numpy as np
import pytest

from nardy_cli.core.errors import NetworkError
from nardy_cli.kernels import neural as kn
from nardy_cli.kernels.features import N_FEATURES, N_OPP, features, opponent_terms
from nardy_cli.policies.network import (Network, default_network, load_network, new_network,
    result_probabilities, save_network)
from nardy_cli.core.position import Position, mover_board, other_side
from nardy_cli.core.rules import PRESETS
from tests.randomgames import random_game_positions

FED = PRESETS["federation"]


def just_moved(pos: Position) -> np.ndarray:
    """The board seen by the side that just moved (the one not to move in `pos`)."""
    return mover_board(pos.checkers(other_side(pos.turn)), pos.checkers(pos.turn))


def reference_inputs(board: np.ndarray, mover_white: bool) -> np.ndarray:
    """The dense input vector, written from the encoding's description (not from `encode`)."""
    x = np.zeros(kn.N_INPUTS)
    mine = [int(c) if c > 0 else 0 for c in board]
    theirs = [0] * 24
    for p, c in enumerate(board):
        if c < 0:
            theirs[(p + 12) % 24] = int(-c)          # the opponent's own numbering
    for side, counts in enumerate((mine, theirs)):
        for q, c in enumerate(counts):
            base = (side * 24 + q) * 4
            x[base:base + 3] = [c >= 1, c >= 2, c >= 3]
            x[base + 3] = (c - 3) / 2 if c > 3 else 0.0
    pips = sum(c * (24 - q) for q, c in enumerate(mine))
    opp_pips = sum(c * (24 - q) for q, c in enumerate(theirs))
    on, opp_on = sum(mine), sum(theirs)
    out, opp_out = sum(mine[:18]), sum(theirs[:18])
    back, opp_back = any(mine[:12]), any(theirs[:12])
    g = kn.POINT_INPUTS
    x[g:g + kn.N_GLOBALS] = [(15 - on) / 15, (15 - opp_on) / 15, pips / 100, opp_pips / 100,
                             out / 15, opp_out / 15, back, opp_back,
                             (back or opp_back) and on > 0 and opp_on > 0, mover_white, out == 0,
                             opp_out == 0, (opp_pips - pips) / 50]
    if on > 0:
        feats = np.zeros(N_FEATURES)
        opp = np.zeros(N_OPP, dtype=np.int64)
        opponent_terms(board, opp)
        features(board, feats, opp)
        x[g + kn.N_GLOBALS:] = feats / 4.0
    return x


def reference_probs(net: Network, board: np.ndarray, mover_white: bool,
                    last_roll: bool = True) -> np.ndarray:
    """Numpy forward pass: ReLU hidden layer, softmax over the classes the rules leave possible."""
    h = np.maximum(reference_inputs(board, mover_white) @ net.w1 + net.b1, 0.0)
    z = net.w2 @ h + net.b2
    mask = np.ones(kn.N_CLASSES, dtype=bool)
    kn.class_mask(board, last_roll, mask)
    z = np.where(mask, z, -np.inf)
    e = np.exp(z - z[mask].max())
    return e / e.sum()


@pytest.fixture(scope="module")
def boards():
    """Mover-relative result boards (the side that just moved) from random games, with that side's
    colour."""
    out = []
    for pos, _ in random_game_positions(600, seed=11, every=3, greedy=0.3):
        board = just_moved(pos)
        if (board > 0).any() and (board < 0).any():
            out.append((board, pos.turn != "w"))
    return out


def test_compiled_forward_equals_numpy_reference(boards):
    """Bug caught: an input unit, a global or a layer wired differently in the kernel than
    documented."""
    net = new_network(24, seed=5)
    b = np.array([x for x, _ in boards], dtype=np.int8)
    w = np.array([white for _, white in boards])
    got = result_probabilities(b, w, FED, net)
    for i, (board, white) in enumerate(boards):
        np.testing.assert_allclose(got[i], reference_probs(net, board, white), atol=1e-9, rtol=0)


def test_outputs_are_probabilities_and_impossible_classes_are_zero(boards):
    """Bug caught: a koks or mars chance for a side that can no longer suffer it (R9), or outputs
    off the simplex."""
    b = np.array([x for x, _ in boards], dtype=np.int8)
    w = np.array([white for _, white in boards])
    probs = result_probabilities(b, w, FED, new_network(16, seed=2))
    assert (probs >= 0).all()
    np.testing.assert_allclose(probs.sum(axis=1), 1.0, atol=1e-12)
    checked = 0
    for board, p in zip(b, probs):
        mine_back = (board[:12] > 0).any()
        # opponent in its own numbering
        theirs = np.where(board < 0, -board, 0)[np.r_[12:24, 0:12]]
        if not mine_back:
            assert p[7] == 0.0, "loss by koks with no checker on own points 1-12"
            checked += 1
        if not theirs[:12].any():
            assert p[3] == 0.0, "win by koks with no opponent checker on its points 1-12"
        if board[board > 0].sum() < 15:
            assert p[5] == p[6] == p[7] == 0.0, "loss by mars after bearing off"
        if theirs.sum() < 15:
            assert p[1] == p[2] == p[3] == 0.0, "win by mars after the opponent bore off"
    assert checked > 10


def test_finished_games_are_scored_exactly():
    """Bug caught: the network's guess used for a game that is already decided (or R8's draw
    missed)."""
    rules = FED
    net = new_network(8, seed=1)
    # White (mover) has just borne off its last checker; Black has 15 on its points 13-18: mars.
    black_mars = Position.parse("W:- B:13x15 b")
    board = just_moved(black_mars)
    p = result_probabilities(board[None], np.array([True]), PRESETS["classic"], net)[0]
    assert p[2] == 1.0
    # Black has just borne off its last one after White finished (R8): a draw.
    both_off = np.zeros(24, dtype=np.int8)
    p = result_probabilities(both_off[None], np.array([False]), rules, net)[0]
    assert p[8] == 1.0
    # White finished but Black is all home: only Black's last roll is left, scored exactly, not
    # guessed (issue 41). 15 checkers five pips out, the others behind the one that moves, take
    # one off with a 5 or a 6 (20 rolls) or 4-1, 3-2 (4): an oin; else a home-mars; no draw
    pending = Position.parse("W:- B:20x15 b")
    board = just_moved(pending)
    p = result_probabilities(board[None], np.array([True]), rules, net)[0]
    np.testing.assert_allclose(p, [24 / 36, 12 / 36, 0, 0, 0, 0, 0, 0, 0], atol=1e-12)


def _train(tmp_path, games, name):
    from nardy_cli.training.trainer import TrainConfig, train
    cfg = TrainConfig(hidden=16, seed=3, chunk=50, checkpoint_every=50, bench_every=10 ** 9)
    return train(tmp_path / name, games, cfg)


def test_training_is_deterministic_resumable_and_learns(tmp_path):
    """Bugs caught: unseeded self-play, a resume that restarts the game numbers or the schedule, a
    no-op update."""
    a = _train(tmp_path, 150, "a")
    b = _train(tmp_path, 100, "b")
    b = _train(tmp_path, 150, "b")          # resumed from the checkpoint at 100
    assert a.meta["games_trained"] == b.meta["games_trained"] == 150
    for x, y in zip((a.w1, a.b1, a.w2, a.b2), (b.w1, b.b1, b.w2, b.b2)):
        np.testing.assert_array_equal(x, y)
    init = new_network(16, seed=3)
    assert np.abs(a.w1 - init.w1).max() > 1e-4 and np.abs(a.w2 - init.w2).max() > 1e-4



def test_a_training_step_moves_each_weight_against_its_cross_entropy_gradient(boards):
    """Bug caught: a training step that reads the hidden layer before its ReLU (the pass leaving
    the sums in `hidden`), or that moves a weight by another gradient than the masked softmax's
    cross-entropy's."""
    from nardy_cli.training.td import sgd_step
    net = new_network(16, seed=7)
    checked = 0
    for board, white in boards[::40]:
        params = net.kernel_params(FED)
        w1, b1, w2, b2 = (a.copy() for a in kn.layers(params))
        x = reference_inputs(board, white)
        idx = np.flatnonzero(x)
        mask = np.ones(kn.N_CLASSES, dtype=bool)
        kn.class_mask(board, FED.last_roll, mask)
        target = np.where(mask, 1.0, 0.0) / mask.sum()
        lr = 0.05
        hidden, probs, dh = np.zeros(16), np.zeros(kn.N_CLASSES), np.zeros(16)
        sgd_step(params, idx, x[idx], idx.size, mask.copy(), target, lr, hidden, probs, dh)
        # the same step in numpy, from the definitions
        pre = x @ w1 + b1
        h = np.maximum(pre, 0.0)
        z = np.where(mask, w2 @ h + b2, -np.inf)
        p = np.exp(z - z[mask].max())
        p /= p.sum()
        g = np.where(mask, p - target, 0.0)
        grad_h = np.where(pre > 0.0, w2.T @ g, 0.0)
        new = kn.layers(params)
        np.testing.assert_allclose(new[3], b2 - lr * g, atol=1e-12, rtol=0)
        np.testing.assert_allclose(new[2], w2 - lr * np.outer(g, h), atol=1e-12, rtol=0)
        np.testing.assert_allclose(new[1], b1 - lr * grad_h, atol=1e-12, rtol=0)
        np.testing.assert_allclose(new[0], w1 - lr * np.outer(x, grad_h), atol=1e-12, rtol=0)
        checked += 1
    assert checked >= 10


def test_training_games_start_from_the_starts_in_the_share_asked():
    """Bugs caught: `--starts` positions never used, or used for every game, or some never reached;
    the share of games from `start` not the one asked for."""
    from nardy_cli.training.td import root_of_game
    roots = [root_of_game(g, 4, 0.5) for g in range(6000)]
    assert abs(roots.count(0) / 6000 - 0.5) < 0.01
    assert {r: roots.count(r) for r in (1, 2, 3)} == pytest.approx({1: 1000, 2: 1000, 3: 1000},
                                                                   abs=60)
    assert {root_of_game(g, 1, 0.0) for g in range(100)} == {0}
    assert {root_of_game(g, 3, 1.0) for g in range(100)} == {0}
    assert 0 not in {root_of_game(g, 3, 0.0) for g in range(100)}


def test_training_from_starts_and_init_is_deterministic_and_resumable(tmp_path):
    """Bugs caught: a run with --starts/--init that forgets them on resume (the checkpoint's
    config), a Black-to-move start handed to the games as White's, a --init run that starts from
    random weights, a network continued from another that forgets the games behind its init
    (`games_trained_in_all`)."""
    from nardy_cli.training.trainer import training_roots
    from nardy_cli.training.trainer import TrainConfig, train
    init = tmp_path / "init.npz"
    earlier = new_network(16, seed=9)
    # itself continued from another run
    earlier.meta.update(games_trained=300, games_trained_in_all=1300)
    save_network(earlier, init)
    starts = ("W:1x9,2x2,3,12,14,20 B:1x10,7,10,18,22,23 b", "W:20,22,24 B:19,21,23 w")
    cfg = TrainConfig(seed=3, chunk=50, checkpoint_every=50, bench_every=10 ** 9, init=str(init),
                      starts=starts, start_share=0.5, lr=1e-9, lr_floor=1e-9)
    roots, white = training_roots(starts, PRESETS["federation"])
    assert white.tolist() == [True, False, True]
    assert (roots[1] == Position.parse(starts[0]).board()[0]).all()
    a = train(tmp_path / "a", 150, cfg)
    train(tmp_path / "b", 100, cfg)
    # resumed: the config comes from the checkpoint
    b = train(tmp_path / "b", 150)
    for x, y in zip((a.w1, a.b1, a.w2, a.b2), (b.w1, b.b1, b.w2, b.b2)):
        np.testing.assert_array_equal(x, y)
    assert (a.hidden == 16 and a.meta["init"]["file"] == str(init)
            and tuple(a.meta["config"]["starts"]) == starts)
    # every run behind it counts
    assert (a.meta["games_trained"], a.meta["games_trained_in_all"]) == (150, 1450)
    assert b.meta["games_trained_in_all"] == 1450
    # a tiny rate: still the init's
    np.testing.assert_allclose(a.w1, load_network(init).w1, atol=1e-6)
    # the small race (White to move, 3 checkers each) ends within a few plies; from `start` games
    # are long
    c = train(tmp_path / "c", 50, TrainConfig(hidden=8, seed=3, chunk=50, checkpoint_every=50,
                                              bench_every=10 ** 9, starts=starts[1:],
                                              start_share=0.0))
    from nardy_cli.training.trainer import read_log
    assert read_log(tmp_path / "c" / "log.csv")["mean_plies"].iloc[0] < 12
    assert c.meta["games_trained_in_all"] == 50


def test_train_command_rejects_a_bad_starts_file(tmp_path):
    """Bug caught: a typo in a --starts file surfacing as a traceback (or after hours) instead of
    exit 2."""
    from click.testing import CliRunner

    from nardy_cli.commands.cli import cli
    bad = tmp_path / "starts.txt"
    bad.write_text("one: W:1x15 B:1x15 w\ntwo: W:1x16 B:1x15 w\n")
    r = CliRunner().invoke(cli, ["train", "--games", "10", "--output", str(tmp_path / "t"),
                                 "--starts", str(bad)])
    assert r.exit_code == 2 and "starts.txt:2:" in r.output and "Traceback" not in r.output
    r = CliRunner().invoke(cli,
                           ["train", "--games", "10", "--output", str(tmp_path / "t"), "--init",
                            str(tmp_path / "none.npz")])
    assert r.exit_code == 2 and "none.npz" in r.output and "not found" in r.output
    assert not (tmp_path / "t").exists()


def test_damaged_or_missing_weights_are_one_clear_error(tmp_path):
    """Bug caught: a truncated weights file crashing deep inside numpy or numba instead of naming
    the file."""
    good = tmp_path / "net.npz"
    save_network(new_network(8, seed=1), good)
    bad = tmp_path / "bad.npz"
    bad.write_bytes(good.read_bytes()[:200])
    with pytest.raises(NetworkError, match="bad.npz.*damaged"):
        load_network(bad)
    with pytest.raises(NetworkError, match="missing.npz.*not found"):
        load_network(tmp_path / "missing.npz")
    assert load_network(good).hidden == 8


def test_shipped_network_loads_and_beats_random():
    """Bug caught: shipped weights that do not match the inputs, or a policy that plays as badly as
    chance."""
    from nardy_cli.games.duel import duel
    net = default_network()
    assert net.meta["games_trained"] > 0
    result = duel("neural", "random", games=200, seed=5)
    assert result.points_per_game > 1.0


@pytest.mark.parametrize("name, zero", [
    ("race", ("win_koks", "lose_koks")),
    ("bear-off", ("win_koks", "lose_koks", "win_mars", "lose_mars")),
])
def test_eval_gives_no_odds_to_impossible_outcomes(name, zero):
    """Bug caught (issue 11): `eval` gave Black 10.7% koks in a race and 6.9% koks after both sides
    bore off."""
    import json
    from pathlib import Path

    from click.testing import CliRunner

    from nardy_cli.commands.cli import cli
    study = Path(__file__).resolve().parent.parent / "positions" / "study.txt"
    out = CliRunner().invoke(cli, ["eval", f"{study}:{name}", "--format", "json"])
    assert out.exit_code == 0, out.output
    p = json.loads(out.output)["probabilities"]
    for key in zero:
        assert p[key] == 0.0, key
    assert sum(v for k, v in p.items() if k not in ("win", "lose")) == pytest.approx(1.0)


def test_train_command_writes_checkpoint_best_log_and_chart(tmp_path):
    """Bugs caught: `nardy train` not writing what docs/training.md promises, or a bad interval as a
    traceback."""
    from click.testing import CliRunner

    from nardy_cli.commands.cli import cli
    out = tmp_path / "run"
    args = ["train", "--games", "20", "--output", str(out), "--hidden", "8", "--chunk", "10",
            "--checkpoint-every", "10", "--bench-every", "20", "--bench-pairs", "3", "--quiet"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert result.output.strip() == f"trained 20 games; weights in {out / 'checkpoint.npz'}"
    assert {p.name for p in out.iterdir()} == {"checkpoint.npz", "best.npz", "log.csv",
                                               "learning-curve.png"}
    log = (out / "log.csv").read_text().splitlines()
    assert len(log) == 3 and log[2].startswith("20,")
    bad = CliRunner().invoke(cli, ["train", "--games", "5", "--output", str(tmp_path / "x"),
                                   "--chunk", "3"])
    assert bad.exit_code == 2
    assert bad.output.strip() == ("Error: --checkpoint-every (10000) and --bench-every (50000) "
                                  "must be multiples of --chunk (3)")


def test_eval_of_a_bear_off_uses_the_databases():
    """Bug caught (issue 9): `eval` guessing with the network where the bear-off databases know the
    answer."""
    from nardy_cli.policies.bearoff import bearoff_value
    from nardy_cli.policies.estimate import neural_estimate
    pos = Position.parse("W:24x2 B:23,24x2 w")
    est = neural_estimate(pos, FED)
    exact = bearoff_value(pos, FED)
    assert est.method == "bear-off database (two-sided database, exact)"
    assert est.probabilities == exact.probabilities and est.equity == exact.equity


def test_reply_evaluation_from_partial_sums_equals_the_full_pass(boards):
    """Bug caught: the lookahead's incremental evaluation (first-layer sums of the position before
    the reply, plus only the inputs the reply changed: `evaluate.reply_sums`, `reply_score`)
    drifting from the full forward pass: a unit of a point emptied, filled or taken by the other
    side left out, a global or feature of the reference kept, or the single-precision copy
    mis-laid."""
    from nardy_cli.kernels.evaluate import (ROLL_HIGH, ROLL_LOW, choice_scratch, reply_score,
        reply_sums)
    from nardy_cli.kernels.movegen import Workspace, enumerate_plays
    from nardy_cli.core.outcomes import money_valuation
    values = money_valuation(FED).kernel_values()
    net = default_network()
    params = net.kernel_params(FED)
    s, full_s = choice_scratch(), choice_scratch()
    ws = Workspace()
    checked = 0
    for board, white in boards[::6]:
        # the opponent to play next, in its own view
        before = -np.roll(board, 12)
        reply_white = not white
        for net_copy, tol in ((kn.single_precision(params), 2e-5),
                              (kn.single_layers(kn.with_single(params)), 2e-5)):
            opponent_terms(before, s.opp)
            sums = np.zeros(int(params[kn.H_HIDDEN]), dtype=np.float32)
            reply_sums(net_copy, before, reply_white, s, sums)
            for r in (0, 7, 20):
                n, _ = enumerate_plays(before, 15 - int(-before[before < 0].sum()), ROLL_HIGH[r],
                                       ROLL_LOW[r], 0, 0, *ws.arrays())
                for after in ws.boards[:n].copy():
                    opponent_terms(before, full_s.opp)
                    full = np.zeros(kn.N_CLASSES)
                    kn.board_probs(params, after, reply_white, full_s.opp, full_s.feats,
                                   full_s.idx, full_s.val, full_s.mask, full_s.hidden, full)
                    got = reply_score(net_copy, FED.last_roll, values, sums, before, after,
                                      reply_white, s)
                    np.testing.assert_allclose(s.probs, full, atol=tol, rtol=0)
                    assert abs(got - kn.equity_of(values, reply_white, full)) < 10 * tol
                    checked += 1
    assert checked > 500


def test_a_widened_network_keeps_its_values_and_trains_on(tmp_path):
    """Bug caught: widening (`nardy train --init NET --hidden N`) that changes the network's values
    (new units wired to the outputs, or columns out of order), so a run would start from worse
    weights than its --init file; or a smaller --hidden silently ignored."""
    from click.testing import CliRunner

    from nardy_cli.commands.cli import cli
    from nardy_cli.policies.network import widened
    base = new_network(16, seed=4)
    wide = widened(base, 21, seed=9)
    assert wide.hidden == 21 and not np.any(wide.w2[:, 16:]) and np.any(wide.w1[:, 16:])
    positions = [pos for pos, _ in random_game_positions(40, seed=5, every=3)]
    boards = np.stack([mover_board(p.white, p.black) if p.turn == "w"
                       else mover_board(p.black, p.white)
                       for p in positions])
    white = np.array([p.turn == "w" for p in positions])
    rules = PRESETS["federation"]
    np.testing.assert_allclose(result_probabilities(boards, white, rules, wide),
                               result_probabilities(boards, white, rules, base), atol=1e-12, rtol=0)
    runner, tmp = CliRunner(), tmp_path
    save_network(base, tmp / "base.npz")
    args = ["train", "--games", "10", "--init", str(tmp / "base.npz"), "--chunk", "10",
            "--checkpoint-every", "10", "--bench-every", "1000000", "--quiet", "--output"]
    r = runner.invoke(cli, args + [str(tmp / "wide"), "--hidden", "21"])
    assert r.exit_code == 0, r.output
    trained = load_network(tmp / "wide" / "checkpoint.npz")
    assert trained.hidden == 21 and trained.meta["init"]["hidden"] == 16
    r = runner.invoke(cli, args + [str(tmp / "narrow"), "--hidden", "12"])
    assert r.exit_code == 2 and "cannot be smaller than the --init network's 16 units" in r.output


def test_a_starting_rate_below_the_floor_is_kept():
    """Bug caught: `nardy train --lr 0.00025` without `--lr-floor` training at the default floor,
    0.002, eight times the rate asked for."""
    from nardy_cli.training.trainer import TrainConfig
    low = TrainConfig(lr=0.00025)
    assert low.lr_at(0) == low.lr_at(10 ** 6) == 0.00025
    assert TrainConfig().lr_at(0) == 0.005 and TrainConfig().lr_at(10 ** 7) == 0.002

def test_train_command_passes_the_learning_rate_floor(tmp_path):
    """Bug caught: `--lr-floor` accepted but not used (the run keeps the default floor, 0.002)."""
    from click.testing import CliRunner

    from nardy_cli.commands.cli import cli
    from nardy_cli.training.trainer import read_log
    out = tmp_path / "t"
    r = CliRunner().invoke(cli, ["train", "--games", "20", "--output", str(out), "--hidden", "8",
                                 "--chunk", "10", "--checkpoint-every", "10", "--bench-every",
                                 "1000000", "--lr", "0.001", "--lr-floor", "0.0005", "--quiet"])
    assert r.exit_code == 0, r.output
    assert load_network(out / "checkpoint.npz").meta["config"]["lr_floor"] == 0.0005
    assert read_log(out / "log.csv")["lr"].tolist() == [0.001, 0.001 * 0.5 ** (10 / 400_000)]


def test_a_fixed_player_plays_every_game_whatever_the_learner(tmp_path):
    """Bugs caught: `nardy train --player NET` choosing the plays with the trained network (the
    games would then depend on the learner), or the option dropped on its way from the command line
    or on resume."""
    from click.testing import CliRunner

    from nardy_cli.commands.cli import cli
    from nardy_cli.training.trainer import read_log
    for name, seed in (("player", 5), ("a", 7), ("b", 8)):
        save_network(new_network(16, seed=seed), tmp_path / f"{name}.npz")
    common = ["--games", "100", "--chunk", "50", "--checkpoint-every", "50", "--bench-every",
              "1000000", "--quiet"]

    def plies(learner, *extra):
        out = tmp_path / f"run-{learner}-{len(extra)}"
        r = CliRunner().invoke(cli, ["train", *common, "--output", str(out), "--init",
                                     str(tmp_path / f"{learner}.npz"), *extra])
        assert r.exit_code == 0, r.output
        return (read_log(out / "log.csv")["mean_plies"].tolist(),
                load_network(out / "checkpoint.npz"))

    player = ["--player", str(tmp_path / "player.npz")]
    (with_a, net_a), (with_b, _) = plies("a", *player), plies("b", *player)
    assert with_a == with_b                                   # the same games: the player's
    assert net_a.meta["config"]["player"] == str(tmp_path / "player.npz")
    # and the learner learned from them
    assert np.abs(net_a.w2 - new_network(16, seed=7).w2).max() > 1e-4
    # self-play: each learner plays its own games
    assert plies("a")[0] != plies("b")[0]
