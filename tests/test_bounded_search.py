"""The lookahead's second candidate, searched only until it is proven to lose
(`evaluate.bounded_replies`), against searching every candidate in full."""

from __future__ import annotations

import numpy as np
import pytest

from nardy_cli.kernels import board as kb
from nardy_cli.kernels import neural as kn
from nardy_cli.kernels.evaluate import (NEURAL, NO_SCREEN, PROVEN, ROLL_HIGH, ROLL_LOW, EvalArgs,
    best_replies, bounded_replies, choice_scratch, choose_play, search_candidates)
from nardy_cli.kernels.features import opponent_terms
from nardy_cli.kernels.movegen import (BLOCK_TURN_END, STEP_RECORD, Workspace, enumerate_plays,
    play_space, record_steps, replay_steps)
from nardy_cli.kernels.turnpass import turn_scores
from nardy_cli.policies.network import default_network
from nardy_cli.core.outcomes import money_valuation
from nardy_cli.core.position import mover_board
from nardy_cli.core.rules import PRESETS
from tests.randomgames import random_game_positions

FED = PRESETS["federation"]
MONEY = money_valuation(FED).kernel_values()
RULES = kb.kernel_rules(FED)


@pytest.fixture(scope="module")
def params():
    return default_network().kernel_params(FED)


@pytest.fixture(scope="module")
def turns():
    """(results of one roll, mover is White) of 400 turns with a choice from random games."""
    ws = Workspace()
    out = []
    for pos, dice in random_game_positions(600, seed=31, greedy=0.3):
        board = mover_board(pos.checkers(pos.turn), pos.checkers("b" if pos.turn == "w" else "w"))
        n, _ = enumerate_plays(board, 15 - int(-board[board < 0].sum()), dice.high, dice.low, 0, 0,
                               *ws.arrays())
        if n > 1:
            out.append((ws.boards[:n].copy(), pos.turn == "w"))
    return out[:400]


def full_search_pick(params, boards, white):
    """The lookahead's pick with every candidate searched in full (the brute force): the first
    candidate with the highest 1-ply value."""
    s, space = choice_scratch(), play_space()
    net = kn.single_precision(params)
    scores = np.zeros(len(boards))
    opponent_terms(boards[0], s.opp)
    turn_scores(kn.layers(params), FED.last_roll, MONEY, boards, len(boards), white, s.opp, s.feats,
                s.idx, s.val, s.mask, s.hidden, s.probs, scores)
    best = int(np.argmax(scores))
    order = search_candidates(scores, len(boards), NEURAL)
    if len(order) == 1:
        return best, 0
    values = []
    for i in order:
        if kb.status_after(boards[i], white, FED.last_roll) != kb.IN_PLAY:
            values.append(scores[i])
            continue
        flipped = np.empty(24, np.int8)
        kb.flip(boards[i], flipped)
        values.append(-best_replies(flipped, not white, EvalArgs(NEURAL, params, MONEY), RULES, net,
                                    NO_SCREEN, s, space, s.replies[0]))
    return int(order[int(np.argmax(values))]), len(order)


def test_the_bounded_second_search_picks_what_full_searches_pick(params, turns):
    """Bug caught: the second candidate's search stopped on a bound that is not one (a searched
    roll's bound left in the sum beside its best score, a probe valued from another roll's
    results) or against the wrong cutoff (its sign turned), so the lookahead plays another result
    than searching both candidates in full would."""
    s, space = choice_scratch(), play_space()
    judge = EvalArgs(NEURAL, params, MONEY)
    rstate = np.zeros(1, np.uint64)
    searched_two = 0
    for boards, white in turns:
        want, width = full_search_pick(params, boards, white)
        got = choose_play(boards, len(boards), judge, True, rstate, white, RULES, space, s)
        assert got == want
        searched_two += width == 2
    assert searched_two > 150


def test_a_bounded_search_returns_the_exact_value_or_a_bound_past_its_cutoff(params, turns):
    """Bug caught: `bounded_replies` returning a value above the exact expectation (an invalid
    bound), stopping short of its cutoff, or, when it does not stop, an expectation or best replies
    other than `best_replies`' (another reference board, another order of the sum, a probe's
    value kept for another result of its roll)."""
    s, space = choice_scratch(), play_space()
    judge = EvalArgs(NEURAL, params, MONEY)
    net = kn.single_precision(params)
    probes, out, full = (np.zeros((21, 24), np.int8) for _ in range(3))
    stopped = exact = 0
    for k, (boards, white) in enumerate(turns[:150]):
        flipped = np.empty(24, np.int8)
        kb.flip(boards[0], flipped)
        if kb.status_after(boards[0], white, FED.last_roll) != kb.IN_PLAY:
            continue
        want = best_replies(flipped, not white, judge, RULES, net, NO_SCREEN, s, space, full)
        # probes: the best replies to another result of the turn, or to the same one
        other = np.empty(24, np.int8)
        kb.flip(boards[-1], other)
        best_replies(other if k % 2 else flipped, not white, judge, RULES, net, NO_SCREEN, s, space,
                     probes)
        for cutoff in (want - 0.05, want, want + 0.05, np.inf):
            got = bounded_replies(flipped, not white, judge, RULES, net, s, space, probes,
                                  s.reply_steps, out, cutoff)
            if got == want and np.array_equal(out, full):
                exact += 1
                continue
            assert cutoff + PROVEN <= got <= want + 1e-12
            stopped += 1
    assert stopped > 50 and exact > 150


def test_a_bounded_search_without_room_for_its_rolls_searches_in_full(params, turns):
    """Bug caught: the rolls enumerated for their bounds overrunning a search space too small for
    them all (results of one roll written over another's) instead of falling back to the full
    search.  No probe replays here (empty steps), so every roll is enumerated for its bound."""
    s = choice_scratch()
    judge = EvalArgs(NEURAL, params, MONEY)
    net = kn.single_precision(params)
    out, full = np.zeros((21, 24), np.int8), np.zeros((21, 24), np.int8)
    boards, white = turns[0]
    flipped = np.empty(24, np.int8)
    kb.flip(boards[0], flipped)
    ws = Workspace()
    counts = [enumerate_plays(flipped, 15 - kb.opp_on_board(flipped), ROLL_HIGH[r], ROLL_LOW[r],
                              0, 0, *ws.arrays())[0] for r in range(21)]
    small = Workspace(max_results=max(counts)).arrays()    # room for any one roll, not for all
    assert sum(counts) > max(counts)
    want = best_replies(flipped, not white, judge, RULES, net, NO_SCREEN, s, small, full)
    no_steps = np.zeros_like(s.reply_steps)
    got = bounded_replies(flipped, not white, judge, RULES, net, s, small, full.copy(), no_steps,
                          out, -np.inf)
    assert got == want and np.array_equal(out, full)


def test_a_searched_roll_without_room_after_the_bound_phase_searches_in_full(params, turns):
    """Bug caught: a roll enumerated when the search reaches it (its replay was legal) written
    past the end of the space, behind the rolls the bound phase enumerated (their replays were
    not legal), instead of falling back to the full search.  The probes are the board's own best
    replies, so a roll is enumerated upfront only when its best reply leaves a die unused; the
    space holds the largest roll, and the turns taken are those whose upfront rolls fit in it but
    leave too little room for a later one.  No cutoff stops the search."""
    s = choice_scratch()
    judge = EvalArgs(NEURAL, params, MONEY)
    net = kn.single_precision(params)
    out, full = np.zeros((21, 24), np.int8), np.zeros((21, 24), np.int8)
    ws = Workspace()
    tried = 0
    for boards, white in turns:
        flipped = np.empty(24, np.int8)
        kb.flip(boards[0], flipped)
        if kb.status_after(boards[0], white, FED.last_roll) != kb.IN_PLAY:
            continue
        opp_off = 15 - kb.opp_on_board(flipped)
        counts = [enumerate_plays(flipped, opp_off, ROLL_HIGH[r], ROLL_LOW[r], 0, 0,
                                  *ws.arrays())[0] for r in range(21)]
        room = max(counts)
        small = Workspace(max_results=room).arrays()
        want = best_replies(flipped, not white, judge, RULES, net, NO_SCREEN, s, small, full)
        steps = s.reply_steps.copy()
        replays = [replay_steps(flipped, ROLL_HIGH[r], ROLL_LOW[r], steps[r], opp_off, 0, 0,
                                np.zeros(24, np.int8)) for r in range(21)]
        upfront = sum(c for c, replayed in zip(counts, replays) if not replayed)
        if not 0 < upfront <= room or all(c <= room - upfront
                                          for c, replayed in zip(counts, replays) if replayed):
            continue
        got = bounded_replies(flipped, not white, judge, RULES, net, s, small, full.copy(), steps,
                              out, np.inf)
        assert got == want and np.array_equal(out, full)
        tried += 1
    assert tried >= 10


def test_replayed_steps_are_a_legal_play_when_they_say_so(turns):
    """Bug caught: `replay_steps` calling a play legal that the enumerator does not find on the
    other board (a step onto the opponent, past the head limit, a forbidden block, a play that
    leaves a die unused), which would bound a roll by a result it cannot have."""
    ws, other_ws = Workspace(), Workspace()
    record, out = np.zeros(STEP_RECORD, np.int8), np.zeros(24, np.int8)
    replayed = checked = 0
    for k, (boards, white) in enumerate(turns[:120]):
        here, there = np.empty(24, np.int8), np.empty(24, np.int8)
        kb.flip(boards[0], here)           # the replier's own checkers are the same on both
        kb.flip(boards[-1], there)
        for block in (0, 1):
            rules = (0, block)
            for r in range(0, 21, 2 if block else 1):
                d1, d2 = ROLL_HIGH[r], ROLL_LOW[r]
                n, steps = enumerate_plays(here, 15 - kb.opp_on_board(here), d1, d2, *rules,
                                           *ws.arrays())
                m, _ = enumerate_plays(there, 15 - kb.opp_on_board(there), d1, d2, *rules,
                                       *other_ws.arrays())
                legal = {other_ws.boards[i].tobytes() for i in range(m)}
                for i in range(n):
                    record_steps(ws.step_from, ws.step_die, i, steps, record)
                    same = replay_steps(here, d1, d2, record, 15 - kb.opp_on_board(here), *rules,
                                        out)
                    assert same == (steps == (4 if d1 == d2 else 2))   # on its own board
                    if same:
                        assert np.array_equal(out, ws.boards[i])
                    if replay_steps(there, d1, d2, record, 15 - kb.opp_on_board(there), *rules,
                                    out):
                        assert out.tobytes() in legal
                        replayed += 1
                    checked += 1
    assert replayed > checked // 2


def test_a_replay_that_completes_a_forbidden_block_at_turn_end_is_not_a_play():
    """Bug caught: `replay_steps` skipping R6 when the rules check the block at turn end, so a
    reply the other board forbids (six in a row with no opponent checker ahead) bounds a roll.

    The replier (+, its own numbering 1-24) holds its head with 8, point 6, points 19-22 and two
    on 23; the opponent (-) has 14 on its head (the replier's 13) and one more checker:

        here:  -1 on the replier's 9  (opponent's 21, ahead of the replier's home)
        there: -1 on the replier's 16 (opponent's 4, behind it)

    Roll 2-1, steps 1->3 and 23->24: the replier then holds 19-24, the opponent's 7-12.
    Here a checker is ahead of that block (legal); there none is (R6 forbids it)."""
    def board(other):
        b = np.zeros(24, np.int8)
        b[0], b[5], b[18], b[19], b[20], b[21], b[22] = 8, 1, 1, 1, 1, 1, 2
        b[12], b[other] = -14, -1
        return b
    here, there = board(8), board(15)
    record = np.array([2, 0, 22, 0, 0, 2, 1, 0, 0], np.int8)
    out = np.zeros(24, np.int8)
    ws = Workspace()
    results = {}
    for name, b in (("here", here), ("there", there)):
        n, _ = enumerate_plays(b.copy(), 0, 2, 1, 0, BLOCK_TURN_END, *ws.arrays())
        results[name] = {ws.boards[i].tobytes() for i in range(n)}
    blocked = here.copy()
    blocked[[0, 2, 22, 23]] += np.array([-1, 1, -1, 1], np.int8)
    assert blocked.tobytes() in results["here"]
    assert replay_steps(here, 2, 1, record, 0, 0, BLOCK_TURN_END, out)
    assert np.array_equal(out, blocked)
    blocked_there = there.copy()
    blocked_there[[0, 2, 22, 23]] += np.array([-1, 1, -1, 1], np.int8)
    assert blocked_there.tobytes() not in results["there"]
    assert not replay_steps(there, 2, 1, record, 0, 0, BLOCK_TURN_END, out)
