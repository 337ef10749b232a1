"""The reply search's table of scored results (`kernels/seen.py`): a result met again under
another roll takes its score from the table, and the search's value and best replies are the
ones scoring every result would give, to the last bit."""

from __future__ import annotations

import numpy as np
import pytest

from nardy_cli.kernels import board as kb
from nardy_cli.kernels import neural as kn
from nardy_cli.kernels.evaluate import (NEURAL, NO_SCREEN, ROLL_HIGH, ROLL_LOW, ROLL_WEIGHT,
    EvalArgs, best_replies, choice_scratch, reply_score, reply_sums)
from nardy_cli.kernels.features import opponent_terms
from nardy_cli.kernels.movegen import Workspace, enumerate_plays, play_space
from nardy_cli.kernels.seen import SLOTS, find, keep, new_search, roll_sharing, seen_table
from nardy_cli.policies.network import default_network
from nardy_cli.core.outcomes import money_valuation
from nardy_cli.core.rules import PRESETS
from tests.randomgames import random_game_positions

FED = PRESETS["federation"]
MONEY = money_valuation(FED).kernel_values()
RULES = kb.kernel_rules(FED)


@pytest.fixture(scope="module")
def params():
    return default_network().kernel_params(FED)


def every_reply_scored(params, board, white):
    """(expected best score over the 21 rolls, each roll's best result) with `reply_score` run on
    every result of every roll against `board`: the search without its table."""
    net = kn.single_precision(params)
    s, ws = choice_scratch(), Workspace()
    opponent_terms(board, s.opp)
    sums = s.sums32[:net[1].shape[0]]
    reply_sums(net, board, white, s, sums)
    total, best = 0.0, np.zeros((21, 24), np.int8)
    for r in range(21):
        n, _ = enumerate_plays(board, 15 - kb.opp_on_board(board), ROLL_HIGH[r], ROLL_LOW[r], 0,
                               0, *ws.arrays())
        scores = [reply_score(net, FED.last_roll, MONEY, sums, board, ws.boards[i], white, s)
                  for i in range(n)]
        i = int(np.argmax(scores))            # the first of equal bests, as the search keeps
        best[r] = ws.boards[i]
        total += ROLL_WEIGHT[r] * scores[i]
    return total, best


def test_a_search_with_its_table_gives_the_value_of_scoring_every_result(params):
    """Bug caught: the table taking a score for another board (a key compared on its first
    eight points only) or a score from the last search (each search here follows one of the same
    board for the other colour, whose replies are the same boards with other scores), so the
    1-ply value or a best reply differs from scoring every result."""
    s, space = choice_scratch(), play_space()
    judge = EvalArgs(NEURAL, params, MONEY)
    net = kn.single_precision(params)
    out = np.zeros((21, 24), np.int8)
    positions = list(random_game_positions(80, seed=44, every=3, greedy=0.3))
    for pos, _ in positions:
        board, white = pos.board()[0], pos.turn == "w"
        best_replies(board, not white, judge, RULES, net, NO_SCREEN, s, space, out)
        got = best_replies(board, white, judge, RULES, net, NO_SCREEN, s, space, out)
        want, want_best = every_reply_scored(params, board, white)
        assert got == want
        assert np.array_equal(out, want_best)
    assert len(positions) >= 60


def test_the_table_finds_what_it_kept_in_this_search_only():
    """Bug caught: a new search that does not move the stamp on (the last search's boards still
    found), or `find` missing a board it kept."""
    keys, values = seen_table()
    new_search(keys)
    a = np.zeros(24, np.int8)
    a[0], a[12] = 15, -15
    b = a.copy()
    b[23], b[0] = 1, 14                       # differs in every word
    c = a.copy()
    c[22], c[12] = -1, -14                    # differs in the third word only
    keep(keys, values, a, 1.5)
    keep(keys, values, b, -0.25)
    assert values[find(keys, a)] == 1.5
    assert values[find(keys, b)] == -0.25
    assert find(keys, c) == -1
    new_search(keys)
    assert find(keys, a) == -1 and find(keys, b) == -1


def test_a_full_table_drops_inserts_but_never_answers_wrong():
    """Bug caught: probing past the table's last slot (the slot not wrapped round) into the row
    that holds the stamp, so the search forgets what it kept, or a score entered away from its
    key; filled three times over, every board found is answered with its own score."""
    keys, values = seen_table()
    new_search(keys)
    rng = np.random.default_rng(5)
    boards = rng.integers(-3, 4, size=(3 * SLOTS, 24)).astype(np.int8)
    boards = np.unique(boards, axis=0)
    for i, b in enumerate(boards):
        keep(keys, values, b, float(i))
    found = 0
    for i, b in enumerate(boards):
        slot = find(keys, b)
        if slot >= 0:
            assert values[slot] == float(i)
            found += 1
    assert SLOTS // 2 < found <= SLOTS


def test_rolls_that_move_the_same_total_share_the_table():
    """Bug caught: a roll looking up results no earlier roll of its total kept (doubles counted at
    twice their pips instead of four times), or a roll keeping results no later roll reads."""
    looks, keeps = roll_sharing(ROLL_HIGH, ROLL_LOW)
    flags = {(int(h), int(lo)): (bool(a), bool(b))
             for h, lo, a, b in zip(ROLL_HIGH, ROLL_LOW, looks, keeps)}
    assert flags[(6, 1)] == (False, True)     # 7: then 5-2 and 4-3
    assert flags[(4, 3)] == (True, False)
    assert flags[(6, 2)] == (False, True)     # 8: then 5-3 and 2-2
    assert flags[(2, 2)] == (True, False)
    assert flags[(1, 1)] == (True, False)     # 4: after 3-1
    assert flags[(6, 6)] == (False, False)    # 24 pips: no other roll
    assert flags[(3, 3)] == (False, False)    # 12
    assert flags[(2, 1)] == (False, False)    # 3
