"""How each side of a game loop picks its play, decided when the loop compiles.

A side's picker is a small named tuple whose class says how that side picks
(`RandomPick`, `ScorePick` for the heuristic and the racer, `NeuralPick` and
`DoubleNeuralPick` by the precision of the network's pass, `SearchPick` for a
lookahead side, `UserPick` for a user's function), and whose
`db` field holds the bear-off databases when the side bears off by them
(`bearoff.RaceTables`), else None.  `pick_play` is resolved by numba from those
types (and compiled into `game.take_turn`: as a call, passing the loop's scratch
whole, it made the random policy's games 18% slower), so a game
loop compiles the code of the pickers it is given and nothing else: a random
rollout compiles no evaluator, a 0-ply network no search, and no loop compiles
the databases' pick unless a side bears off by them.  The
choice itself is the one `evaluate.choose_play` makes (it calls the same
scoring kernels), so a picker changes what compiles, never a play.
"""

from __future__ import annotations

import warnings
from typing import NamedTuple

import numpy as np

from numba.core.errors import NumbaIRAssumptionWarning
from numba.extending import overload

from .bearoff import board_race_probabilities, both_home
from .board import flip, on_board, opp_on_board
from .evaluate import HEURISTIC, EvalArgs, choice_scratch, choose_play
from .features import opponent_terms
from .jit import kernel
from .movegen import play_space
from .neural import layers, single_layers
from .rng import below, next_random
from .static_scores import first_best, heuristic_scores, racer_scores
from .turnpass import turn_scores
from .user import best_by


# numba's "internal pedantic check" after inlining a picker that inlines kernels of its own (a
# variable of the inlined code "not in scope"): benign, and it would print numba's request for a bug
# report on a user's first compile; only that message is silenced
warnings.filterwarnings("ignore", message=r"variable '.*' is not in scope",
                        category=NumbaIRAssumptionWarning)


class RandomPick(NamedTuple):
    """A uniform pick from the side's own random stream (`rng.policy_state`)."""

    db: object = None       # always None: the random policy never bears off by the databases


class ScorePick(NamedTuple):
    """The best result by the heuristic's or the racer's 0-ply score (the side's kind)."""

    db: object = None


class NeuralPick(NamedTuple):
    """The best result by the network's 0-ply value, the turn scored in single precision (the
    weights' `neural.with_single` copy: `neural`'s default)."""

    db: object = None


class DoubleNeuralPick(NamedTuple):
    """`NeuralPick` with the turn scored in double precision (weights without the float32 copy)."""

    db: object = None


class SearchPick(NamedTuple):
    """`evaluate.choose_play`: the side's kind, one ply deeper when its `lookahead` is set."""

    db: object = None


class UserPick(NamedTuple):
    """The best result by a user's function (`user.best_by`)."""

    db: object = None       # always None: a user's function bears off by itself


def pick_play(picker, boards, n, side, board, mover_white, rules, policies, evaluators, ws, sws):
    """(index of the side's chosen result among boards[:n], j of its searched replies in
    `ws.choice.replies` or -1); `board` is the position before the roll, `side` 0 White."""
    raise NotImplementedError("compiled code only")


@kernel
def bearoff_pick(boards, n, mover_white, last_roll, tables, vscratch, pbuf):
    """The result the bear-off databases prefer: the highest equity (points 1 each class) for the
    mover."""
    flipped, counts = vscratch.flipped, vscratch.counts
    best = 0
    best_eq = -1e300
    for i in range(n):
        if on_board(boards[i]) == 0:
            return i
        flip(boards[i], flipped)
        board_race_probabilities(flipped, not mover_white, last_roll, tables.comp, tables.all_dist,
                                 tables.first_dist, tables.win2, tables.draw2, counts, pbuf)
        eq = 0.0
        for k in range(4):
            # the opponent's losses are the mover's wins
            eq += (pbuf[4 + k] - pbuf[k]) * (1.0 if k == 0 else 2.0)
        if eq > best_eq:
            best_eq = eq
            best = i
    return best


@kernel
def db_pick(db, boards, n, board, mover_white, last_roll, sws):
    """The databases' pick (`bearoff_pick`) when `db` holds them and both sides are all home with
    checkers left, else -1 (numba drops the branch for a `db` of None)."""
    if db is None:
        return -1
    if both_home(board) and opp_on_board(board) > 0:
        return bearoff_pick(boards, n, mover_white, last_roll, db, sws.value, sws.probs)
    return -1


def _random(picker, boards, n, side, board, mover_white, rules, policies, evaluators, ws, sws):
    return below(next_random(ws.rstate), n), -1


def _user(picker, boards, n, side, board, mover_white, rules, policies, evaluators, ws, sws):
    return best_by(boards, n, evaluators.white if side == 0 else evaluators.black), -1


def _score(picker, boards, n, side, board, mover_white, rules, policies, evaluators, ws, sws):
    i = db_pick(picker.db, boards, n, board, mover_white, rules.last_roll, sws)
    if i >= 0:
        return i, -1
    choice = ws.choice
    opponent_terms(boards[0], choice.opp)
    if policies.kinds[side] == HEURISTIC:
        heuristic_scores(boards, n, policies.params[side], choice.scores, choice.feats, choice.opp)
    else:
        racer_scores(boards, n, choice.scores)
    return first_best(choice.scores, n), -1


@kernel(inline="always")
def _single(params, choice):
    """The network's float32 layers and the hidden scratch of their precision."""
    return single_layers(params), choice.hidden32


@kernel(inline="always")
def _double(params, choice):
    """The network's float64 layers and the hidden scratch of their precision."""
    return layers(params), choice.hidden


def _by_network(net_of):
    """The picker of a network side whose layers and hidden scratch are `net_of(params, choice)`:
    the databases' pick, or the best result by the network in one turn pass.  (Its own body, not
    a call of a shared kernel: numba compiles an inlined picker whole before inlining it, so a
    kernel it called would be compiled into two libraries.)"""
    def pick(picker, boards, n, side, board, mover_white, rules, policies, evaluators, ws, sws):
        i = db_pick(picker.db, boards, n, board, mover_white, rules.last_roll, sws)
        if i >= 0:
            return i, -1
        c = ws.choice
        net, hidden = net_of(policies.params[side], c)
        opponent_terms(boards[0], c.opp)
        turn_scores(net, rules.last_roll, policies.values, boards, n, mover_white, c.opp, c.feats,
                    c.idx, c.val, c.mask, hidden, c.probs, c.scores)
        return first_best(c.scores, n), -1
    return pick


def _turn_pass(net_of):
    """The network picker's turn pass alone, never run: its calls are `_by_network`'s, on the
    scratch the game loop makes (`choice_scratch`, `play_space`), so compiling it in a second
    process (`games/compile_ahead.py`) compiles and caches the very `turn_scores` the loop then
    loads.  `params` and `values` are `SidePolicies`' fields, `rules` `GameSetup.rules`."""
    def turn_pass(params, values, rules, mover_white):
        c = choice_scratch()
        boards = play_space().boards
        net, hidden = net_of(params[0], c)
        opponent_terms(boards[0], c.opp)
        turn_scores(net, rules.last_roll, values, boards, np.int64(0), mover_white, c.opp, c.feats,
                    c.idx, c.val, c.mask, hidden, c.probs, c.scores)
    return kernel(turn_pass)


def _search(picker, boards, n, side, board, mover_white, rules, policies, evaluators, ws, sws):
    i = db_pick(picker.db, boards, n, board, mover_white, rules.last_roll, sws)
    if i >= 0:
        return i, -1
    judge = EvalArgs(policies.kinds[side], policies.params[side], policies.values)
    pick = choose_play(boards, n, judge, policies.lookahead[side], ws.rstate, mover_white, rules,
                       ws.search, ws.choice)
    return pick, ws.choice.searched[0]


_IMPLS = {RandomPick: _random, ScorePick: _score, NeuralPick: _by_network(_single),
          DoubleNeuralPick: _by_network(_double),
          SearchPick: _search, UserPick: _user}

# the turn pass of each network picker, for a compile ahead of the game loop
TURN_PASSES = {NeuralPick: _turn_pass(_single), DoubleNeuralPick: _turn_pass(_double)}


@overload(pick_play, inline="always")
def _pick_play(picker, boards, n, side, board, mover_white, rules, policies, evaluators, ws, sws):
    return _IMPLS.get(getattr(picker, "instance_class", None))
