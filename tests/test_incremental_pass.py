"""The turn pass (first layer once per turn, then only the inputs each play changes) against the
full pass."""

from __future__ import annotations

import numpy as np
import pytest

from nardy_cli.kernels import board as kb
from nardy_cli.kernels import neural as kn
from nardy_cli.kernels.evaluate import NEURAL, EvalArgs, choice_scratch, choose_play, neural_score
from nardy_cli.kernels.features import opponent_terms
from nardy_cli.kernels.movegen import Workspace, enumerate_plays
from nardy_cli.kernels.turnpass import N_DENSE, result_probs, turn_scores, turn_sums
from nardy_cli.policies.network import default_network
from nardy_cli.core.outcomes import money_valuation
from nardy_cli.core.position import mover_board
from nardy_cli.core.rules import PRESETS
from tests.randomgames import random_game_positions

FED = PRESETS["federation"]
MONEY = money_valuation(FED).kernel_values()
RULES = kb.kernel_rules(FED)


@pytest.fixture(scope="module")
def turns():
    """(results of one roll, mover is White) of 3,000 turns from random games: contact, races,
    bear-offs, ends."""
    ws = Workspace()
    out = []
    for pos, dice in random_game_positions(3000, seed=25, greedy=0.3):
        board = mover_board(pos.checkers(pos.turn), pos.checkers("b" if pos.turn == "w" else "w"))
        n, _ = enumerate_plays(board, 15 - int(-board[board < 0].sum()), dice.high, dice.low, 0, 0,
                               *ws.arrays())
        out.append((ws.boards[:n].copy(), pos.turn == "w"))
    return out


def full_scores(params, boards, white, s):
    """Each result's value by the full forward pass (`neural.board_probs`), as the chooser used to
    score it."""
    opponent_terms(boards[0], s.opp)
    return np.array([neural_score(b, params, MONEY, white, s.opp, s.feats, s.idx, s.val, s.mask,
                                  s.hidden, s.probs)
                     for b in boards])


def test_turn_pass_equals_the_full_pass_in_double_precision(turns):
    """Bug caught: a result's incremental first layer drifting from the full pass: an input the play
    changed left out (a point unit emptied or filled, the pips, the checkers off, contact, a
    feature), an R8 last-roll or finished game scored by the network, or a rule mask taken from the
    reference instead of the result."""
    params = default_network().kernel_params(FED)
    net = kn.layers(params)
    s = choice_scratch()
    sums, dense = np.zeros(net[1].size), np.zeros(N_DENSE)
    hidden, part, full = np.zeros(net[1].size), np.zeros(kn.N_CLASSES), np.zeros(kn.N_CLASSES)
    checked = finished = 0
    for boards, white in turns:
        opponent_terms(boards[0], s.opp)
        turn_sums(net, boards[0], white, s.opp, s.feats, s.idx, s.val, sums, dense)
        for b in boards:
            result_probs(net, True, sums, dense, boards[0], b, white, s.opp, s.feats, s.idx, s.val,
                         s.mask, hidden, part)
            kn.board_probs(params, b, white, s.opp, s.feats, s.idx, s.val, s.mask, s.hidden, full)
            np.testing.assert_allclose(part, full, atol=1e-12, rtol=0)
            checked += 1
            finished += kb.status_after(b, white, True) != kb.IN_PLAY
    assert checked > 30000 and finished > 0


def test_chooser_picks_what_the_full_pass_picks(turns):
    """Bug caught: `choose_play`'s neural scores (the turn pass) choosing another play than the full
    pass's best (the same seed would then play other games than before), e.g. scores written to the
    wrong result."""
    params = default_network().kernel_params(FED)
    s, ws = choice_scratch(), Workspace()
    rstate = np.zeros(1, np.uint64)
    chose = 0
    for boards, white in turns:
        if len(boards) < 2:
            continue
        full = full_scores(params, boards, white, s)
        judge = EvalArgs(NEURAL, params, MONEY)
        pick = choose_play(boards.copy(), len(boards), judge, False, rstate, white, RULES,
                           ws.arrays(), s)
        assert pick == int(np.argmax(full))
        np.testing.assert_allclose(s.scores[:len(boards)], full, atol=1e-12, rtol=0)
        chose += 1
    assert chose > 2000


def test_single_precision_pass_makes_the_same_choices(turns):
    """Bug caught: the float32 copy of the layers (`with_single`) mis-laid or stale (wrong weights,
    a shifted offset, b1 read as W1), so the single-precision chooser plays other moves than the
    double-precision one."""
    params = default_network().kernel_params(FED)
    single = kn.with_single(params)
    net32 = kn.single_layers(single)
    for got, want in zip(net32, kn.single_precision(params)):
        assert got.dtype == np.float32 and np.array_equal(got, want)
    s = choice_scratch()
    hidden = np.zeros(net32[1].size, dtype=np.float32)
    scores = np.zeros(4096)
    chose = 0
    for boards, white in turns:
        if len(boards) < 2:
            continue
        full = full_scores(params, boards, white, s)
        opponent_terms(boards[0], s.opp)
        turn_scores(net32, True, MONEY, boards, len(boards), white, s.opp, s.feats, s.idx, s.val,
                    s.mask, hidden, s.probs, scores)
        np.testing.assert_allclose(scores[:len(boards)], full, atol=2e-5, rtol=0)
        assert int(np.argmax(scores[:len(boards)])) == int(np.argmax(full))
        chose += 1
    assert chose > 2000


def test_single_copy_is_an_addition_the_double_pass_ignores():
    """Bug caught: `with_single` changing the double-precision layers or header, or doubling the
    copy when applied twice (the first layer read from the copy's cells)."""
    params = default_network().kernel_params(FED)
    single = kn.with_single(params)
    assert single[kn.H_SINGLE] == params.size and params[kn.H_SINGLE] == 0.0
    assert np.array_equal(single[:params.size][np.arange(params.size) != kn.H_SINGLE],
                          params[np.arange(params.size) != kn.H_SINGLE])
    assert np.array_equal(kn.with_single(single), single)
    for a, b in zip(kn.layers(single), kn.layers(params)):
        assert np.array_equal(a, b)


def test_single_precision_reply_search_finds_the_full_pass_best_replies():
    """Bug caught: the lookahead's reply search in single precision (each roll's results by the turn
    pass) comparing a result with another board than the one its roll's sums came from, or taking
    the sums for the other colour, so its best reply to a roll or the expected value over the 21
    rolls is not the full pass's."""
    from nardy_cli.kernels.evaluate import NO_SCREEN, ROLL_WEIGHT, best_replies
    params = default_network().kernel_params(FED)
    single = kn.with_single(params)
    net32 = kn.single_layers(single)
    s, ws, search_ws = choice_scratch(), Workspace(), Workspace()
    out = np.zeros((21, 24), dtype=np.int8)
    searched = 0
    for pos, _ in random_game_positions(150, seed=26, every=2, greedy=0.3):
        board, white = pos.board()[0], pos.turn == "w"
        got = best_replies(board, white, EvalArgs(NEURAL, single, MONEY), RULES, net32, NO_SCREEN,
                           s, search_ws.arrays(), out)
        want = 0.0
        for r, (high, low) in enumerate(zip(*_rolls())):
            n, _ = enumerate_plays(board, 15 - int(-board[board < 0].sum()), high, low, 0, 0,
                                   *ws.arrays())
            full = full_scores(params, ws.boards[:n], white, s)
            assert np.array_equal(out[r], ws.boards[int(np.argmax(full))])
            want += ROLL_WEIGHT[r] * full.max()
            searched += 1
        assert abs(got - want) < 2e-5
    assert searched == 150 * 21


def _rolls():
    """The 21 rolls in the search's order."""
    from nardy_cli.kernels.evaluate import ROLL_HIGH, ROLL_LOW
    return ROLL_HIGH, ROLL_LOW
