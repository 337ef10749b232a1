"""The compiled game: one whole game from a position (`play_one_game`), turn by turn (`take_turn`),
with the scored options (exact bear-offs, truncation, the luck for variance reduction).

`runs.py` holds the loops over a chunk of games that add the games into counts.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .jit import kernel, leaf
from .bearoff import RaceTables, board_race_probabilities, both_home
from .board import (IN_PLAY, N_POINTS, N_RESULTS, UNFINISHED, KernelRules, bears_off_last,
                    final_result, flip, game_status, on_board, opp_on_board, roll_steps)
from .evaluate import (NEURAL, RANDOM, ROLL_HIGH, ROLL_LOW, ROLL_WEIGHT, ChoiceScratch, EvalArgs,
                       best_replies, choice_scratch)
from .neural import float32_layers
from .movegen import PlaySpace, enumerate_plays, play_space
from .pickers import pick_play
from .rng import policy_state, roll_index
from .user import USER, Evaluators
from .value import ValueScratch, position_probs, swap_view, value_probs, value_scratch

class GameSetup(NamedTuple):
    """What every game of a chunk starts from and plays by (`games.compiled_loop.game_setup` makes
    it)."""

    board: np.ndarray     # int8[24]: the root position, mover-relative
    white: bool           # the side to move at the root is White
    d1: int               # the root position's own dice (high, low), or 0, 0
    d2: int
    seed: np.uint64
    stratify: bool        # stratify the first two rolls (see `game_dice`)
    rules: KernelRules    # the rules' codes (`board.kernel_rules`)
    max_plies: int        # a game still going after this many plies is UNFINISHED


class SidePolicies(NamedTuple):
    """Each side's compiled policy (index 0 White, 1 Black); users' functions travel in
    `user.Evaluators`."""

    kinds: np.ndarray       # int64[2]: evaluator kind codes (user.USER for a user's evaluator)
    params: np.ndarray      # float64[2, L], L >= N_WEIGHTS: each side's parameters, zero-padded
    lookahead: np.ndarray   # bool[2]
    # float64[2, 9]: each colour's values of the result codes (`Valuation.kernel_values`)
    values: np.ndarray
    # int64[2]: which of the loop's two pickers plays each colour (`compiled_loop.kernel_pickers`
    # puts them in one order whichever colour each plays, so a duel's two colour orders, a
    # match's games and A against B or B against A are one compiled loop)
    picker_of: np.ndarray


class ScoringArgs(NamedTuple):
    """The scored loop's inputs (`scoring.kernel_arguments`): the options, each None when off (so
    a loop compiles only the options it is given), and what the counts are valued by."""

    exact: object           # `bearoff.RaceTables`: stop once both sides are all home; or None
    truncate: object        # `Truncation`: stop after so many plies; or None
    vr: object              # `LuckArgs`: subtract each random roll's luck; or None
    fractional: bool        # any of the three: each game's probabilities go into the sums
    # float64[2, N_RESULTS]: the root side's money points and valuation values per result code
    values: np.ndarray
    indicators: np.ndarray  # [key, result code]: the reported probabilities (outcomes.PROB_KEYS)


class Truncation(NamedTuple):
    """A game stopped after `plies` plies and scored by the side to move's evaluator."""

    plies: int
    tables: RaceTables      # the bear-off databases' arrays (exact in races; may be empty)
    coefs: np.ndarray       # the logistic outcome model (evaluators without their own classes)


class LuckArgs(NamedTuple):
    """Variance reduction's inputs: how each roll's luck is valued (`luck_of_roll`)."""

    tables: RaceTables      # the bear-off databases' arrays
    coefs: np.ndarray       # the logistic outcome model
    screen: np.ndarray      # the heuristic's weights: the screened reply search (`luck_of_roll`)
    # a network that values the luck instead of the policy's evaluator (length 0: none)
    luck_net: np.ndarray


class Workspace(NamedTuple):
    """Scratch of one game loop (`workspace`); `movegen.Workspace` is one `PlaySpace` held from
    Python."""

    plays: PlaySpace        # the roll's legal results
    search: PlaySpace       # the lookahead's reply search
    board: np.ndarray       # int8[24]: the game's position, mover-relative
    rstate: np.ndarray      # uint64[1]: the random policy's stream (`rng.policy_state`)
    choice: ChoiceScratch   # the choosers' scratch (`evaluate.choice_scratch`)


class ScoreScratch(NamedTuple):
    """Scratch and per-game outputs of the scored game loop (`score_workspace`), also the cube's."""

    plays: PlaySpace        # a third enumeration space: each of the 21 rolls' results (the luck)
    value: ValueScratch     # `value.value_probs`' scratch
    probs: np.ndarray       # float64[N_RESULTS]: one evaluation's probabilities (its side's view)
    root: np.ndarray        # float64[N_RESULTS]: the same in the root side's view
    flipped: np.ndarray     # int8[24]: `value.position_probs`' flipped board
    replies: np.ndarray     # int8[21, 24]: the mover's play of each of the 21 rolls (the luck)
    game: np.ndarray        # float64[N_RESULTS]: a game stopped early: the root side's chances
    luck: np.ndarray        # float64[N_RESULTS]: the game's luck, the root side's view (VR)


# deficit array columns, per side
F_ROLLED = 0      # 0..5: steps of face f+1 rolled
F_LOST = 6        # 6..11: steps of face f+1 not played
LOST_PIPS = 12
TURNS = 13
PARTIAL = 14
PASSES = 15
N_DEFICIT = 16

# plies array: total plies over games, total turns
N_STRATA = 36

N_KEYS = 11         # the reported probabilities (outcomes.PROB_KEYS), for `ScoringArgs.indicators`

SCORED = -1          # result of a game stopped early and scored by the databases or the evaluator



@leaf
def record_turn(deficit, side, d1, d2, nsteps, played_die, boards, n):
    """Add one turn's deficit figures (RULES.md §8) for `side` (0 White, 1 Black); `boards[:n]` are
    the roll's results: a roll that bears off the last checker loses no step (rules decision 18)."""
    deficit[side, TURNS] += 1
    full = roll_steps(d1, d2)
    if nsteps < full and bears_off_last(boards, n):
        nsteps = full
    if d1 == d2:
        deficit[side, F_ROLLED + d1 - 1] += 4
        lost = 4 - nsteps
        deficit[side, F_LOST + d1 - 1] += lost
        deficit[side, LOST_PIPS] += lost * d1
        if nsteps == 0:
            deficit[side, PASSES] += 1
        elif lost > 0:
            deficit[side, PARTIAL] += 1
        return
    deficit[side, F_ROLLED + d1 - 1] += 1
    deficit[side, F_ROLLED + d2 - 1] += 1
    if nsteps == 2:
        return
    if nsteps == 0:
        deficit[side, F_LOST + d1 - 1] += 1
        deficit[side, F_LOST + d2 - 1] += 1
        deficit[side, LOST_PIPS] += d1 + d2
        deficit[side, PASSES] += 1
        return
    lost_die = d2 if played_die == d1 else d1
    deficit[side, F_LOST + lost_die - 1] += 1
    deficit[side, LOST_PIPS] += lost_die
    deficit[side, PARTIAL] += 1


@kernel
def game_dice(seed, game, turn, stratify, root_d1, root_d2):
    """(high, low, stratum) of `turn`: given dice first, then stratified, then free rolls."""
    if root_d1 > 0:
        if turn == 0:
            return root_d1, root_d2, 0
        turn -= 1
    if stratify and turn == 0:
        r = game % 36
    elif stratify and turn == 1:
        r = (game // 36) % 36
    else:
        r = roll_index(seed, game, turn)
    a = r // 6 + 1
    b = r % 6 + 1
    return max(a, b), min(a, b), game % 36 if stratify else 0


@kernel
def duel_sides(root_white, policies, evaluators):
    """A duel's two games' sides, (policies, evaluators) of A's game and then of B's: `policies`
    and `evaluators` hold A at index 0, and A plays the root side (White when `root_white`) in
    its game, B in the other (the policies exchanged between the colours, the values staying by
    colour).  The pickers stay as they are (`SidePolicies.picker_of` goes with each policy), so
    both games are one loop."""
    swapped = SidePolicies(policies.kinds[::-1].copy(), policies.params[::-1].copy(),
                           policies.lookahead[::-1].copy(), policies.values,
                           policies.picker_of[::-1].copy())
    evals_swapped = Evaluators(evaluators.black, evaluators.white)
    if root_white:
        return policies, evaluators, swapped, evals_swapped
    return swapped, evals_swapped, policies, evaluators


@kernel
def workspace():
    """A game loop's `Workspace`: the play list and, for lookahead, a second one for replies."""
    return Workspace(play_space(), play_space(), np.empty(N_POINTS, dtype=np.int8),
                     np.zeros(1, dtype=np.uint64), choice_scratch())


@kernel
def score_workspace():
    """The scored game loop's `ScoreScratch`: a third enumeration space, value scratch, the chosen
    result of each of the 21 rolls (the luck), the game's probabilities and luck."""
    return ScoreScratch(play_space(), value_scratch(), np.zeros(N_RESULTS), np.zeros(N_RESULTS),
                        np.empty(N_POINTS, dtype=np.int8), np.zeros((21, N_POINTS), dtype=np.int8),
                        np.zeros(N_RESULTS), np.zeros(N_RESULTS))


@kernel
def to_root(p, mover_white, root_white, out):
    """Copy result-code probabilities of the mover (or of the side that just played) into the root
    side's view."""
    for k in range(N_RESULTS):
        out[k] = p[k] if k < 9 else 0.0
    if mover_white != root_white:
        swap_view(out)


@kernel
def luck_of_roll(board, mover_white, root_white, d1, d2, rules, judge, valuer, args, choice, sws):
    """Add to `sws.luck` (root side's view) the value of this roll minus its mean over the 21 rolls.

    The value of a roll is the probabilities (by `valuer`, an `EvalArgs`: the
    policy's own evaluator, or a luck network) after the play the mover's
    static score (`judge`) prefers (`roll_replies`); the same function for every
    roll, so the term has mean 0.
    """
    roll_replies(board, mover_white, rules, judge, args.screen, choice, sws)
    luck_of_replies(sws.replies, mover_white, root_white, d1, d2, rules, valuer, args, choice, sws)


@kernel
def roll_replies(board, mover_white, rules, judge, screen, choice, sws):
    """Fill `sws.replies[r]` with the mover's play of each of the 21 rolls by its static score
    `judge` (`best_replies`; the first of the results for the random policy and users'
    evaluators).  For the neural kind the network scores only the results the heuristic weights
    `screen` rank first: still one function for every roll, for about 60% of a full search's
    cost."""
    replies, space = sws.replies, sws.plays
    kind = judge.kind
    if kind == RANDOM or kind == USER:
        opp_off = 15 - opp_on_board(board)
        for r in range(21):
            enumerate_plays(board, opp_off, ROLL_HIGH[r], ROLL_LOW[r], rules.head_rule,
                            rules.block_check, space.boards, space.step_from, space.step_die,
                            space.memo, space.memo_stamp)
            replies[r] = space.boards[0]
    else:
        net = float32_layers(kind == NEURAL, judge.weights)
        best_replies(board, mover_white, judge, rules, net, screen, choice, space, replies)


@kernel
def luck_of_replies(replies, mover_white, root_white, d1, d2, rules, valuer, args, choice, sws):
    """`luck_of_roll` with each roll's play taken from the previous turn's lookahead
    (`replies[r]`), valued by `valuer`.

    The search that chose the previous play already found the mover's best reply
    to every roll by the same static score, so this costs 21 evaluations instead
    of 21 enumerations.  Whichever of the two is used, the choice is made before
    the roll, so the term still has mean 0.
    """
    for r in range(21):
        add_roll_luck(replies[r], r, mover_white, root_white, d1, d2, rules, valuer, args, choice,
                      sws)


@kernel
def add_roll_luck(played, r, mover_white, root_white, d1, d2, rules, valuer, args, choice, sws):
    """Add roll r's share of the luck: its value (probabilities after `played`) minus its weight
    times it."""
    pbuf, rbuf, luck = sws.probs, sws.root, sws.luck
    value_probs(played, mover_white, rules.last_roll, valuer.kind, valuer.weights, args.tables,
                args.coefs, choice, sws.value, pbuf)
    to_root(pbuf, mover_white, root_white, rbuf)
    w = ROLL_WEIGHT[r]
    actual = ROLL_HIGH[r] == d1 and ROLL_LOW[r] == d2
    for k in range(N_RESULTS):
        luck[k] -= w * rbuf[k]
        if actual:
            luck[k] += rbuf[k]


@kernel(stage=True)
def take_turn(board, mover_white, d1, d2, rules, policies, evaluators, pickers, deficit, ws, sws):
    """Play the mover's roll (d1, d2) on `board` and leave it in the opponent's view; return j of
    the chosen result's replies in `ws.choice.replies` (its lookahead searched them), or -1.

    The turn step of the game loops: the legal results (`ws.plays`), the turn's
    deficit figures into `deficit[side]`, and the pick of the side's picker
    (`pickers`: the loop's two, `policies.picker_of` says whose; `pickers.pick_play`) by its policy
    (`policies`, `evaluators`; the databases' pick with `sws`' value scratch).
    """
    plays = ws.plays
    side = 0 if mover_white else 1
    opp_off = 15 - opp_on_board(board)
    n, nsteps = enumerate_plays(board, opp_off, d1, d2, rules.head_rule, rules.block_check,
                                plays.boards, plays.step_from, plays.step_die, plays.memo,
                                plays.memo_stamp)
    record_turn(deficit, side, d1, d2, nsteps, plays.step_die[0, 0], plays.boards, n)
    searched = -1
    if n == 1:
        pick = 0
    elif policies.picker_of[side] == 0:
        pick, searched = pick_play(pickers[0], plays.boards, n, side, board, mover_white, rules,
                                   policies, evaluators, ws, sws)
    else:
        pick, searched = pick_play(pickers[1], plays.boards, n, side, board, mover_white, rules,
                                   policies, evaluators, ws, sws)
    flip(plays.boards[pick], board)
    return searched


@kernel(stage=True)
def play_one_game(setup, game, policies, evaluators, pickers, deficit, ws, sws, exact, truncate,
                  vr):
    """Play game number `game` of `setup` to its end; return (result code for the root side, plies,
    stratum).

    `policies` (`SidePolicies`), `evaluators` and `pickers` choose side s's
    plays (0 White, 1 Black); deficit figures are added into `deficit[side]`;
    `ws` is the loop's `Workspace` and `sws` its `ScoreScratch`.  The options
    (`ScoringArgs`' fields, each None when off, and then not compiled): with
    `exact` (the bear-off databases) the game stops once both sides are all home
    and is scored by them, with `truncate` (a `Truncation`) it stops after that
    many plies and is scored by the evaluator; both return SCORED with the root
    side's probabilities in `sws.game`.  With `vr` (a `LuckArgs`) each random
    roll's luck is added into `sws.luck` (valued by `vr.luck_net` when it is not
    empty).  The plays, and so the dice and policy draws, never depend on these
    options.
    """
    board, rstate, choice = ws.board, ws.rstate, ws.choice
    gvec, luck = sws.game, sws.luck
    rules = setup.rules
    last_roll = rules.last_roll
    root_white, root_d1, root_d2 = setup.white, setup.d1, setup.d2
    seed, stratify = setup.seed, setup.stratify
    policy_kind, policy_weights, values = policies.kinds, policies.params, policies.values
    for q in range(N_POINTS):   # not `board[:] = ...`, which compiles numba's error formatting
        board[q] = setup.board[q]
    mover_white = root_white
    rstate[0] = policy_state(seed, game)
    stratum = 0
    turn = np.int64(0)   # not a literal 0: numba would compile game_dice for it too
    searched = -1        # the previous turn's lookahead: the choice.replies of this turn's replies
    for k in range(N_RESULTS):
        luck[k] = 0.0
    while True:
        status = game_status(board, mover_white, last_roll)
        if status != IN_PLAY:
            return final_result(board, mover_white, root_white, status), turn, stratum
        if turn >= setup.max_plies:
            return UNFINISHED, turn, stratum
        given = root_d1 > 0 and turn == 0
        if (exact is not None and not given and both_home(board) and on_board(board) > 0
                and opp_on_board(board) > 0):
            board_race_probabilities(board, mover_white, last_roll, exact.comp, exact.all_dist,
                                     exact.first_dist, exact.win2, exact.draw2, sws.value.counts,
                                     sws.probs)
            to_root(sws.probs, mover_white, root_white, gvec)
            return SCORED, turn, stratum
        if truncate is not None and truncate.plies <= turn:
            side = 0 if mover_white else 1
            position_probs(board, mover_white, last_roll, policy_kind[side], policy_weights[side],
                           truncate.tables, truncate.coefs, choice, sws.value, sws.flipped,
                           sws.probs)
            to_root(sws.probs, mover_white, root_white, gvec)
            return SCORED, turn, stratum
        d1, d2, s = game_dice(seed, game, turn, stratify, root_d1, root_d2)
        if turn == 0 or (root_d1 > 0 and turn == 1):
            stratum = s
        if vr is not None and not given:
            side = 0 if mover_white else 1
            value_kind, value_weights = policy_kind[side], policy_weights[side]
            if vr.luck_net.shape[0] > 0:
                value_kind, value_weights = NEURAL, vr.luck_net
            valuer = EvalArgs(value_kind, value_weights, values)
            if searched >= 0:
                luck_of_replies(choice.replies[searched], mover_white, root_white, d1, d2, rules,
                                valuer, vr, choice, sws)
            else:
                judge = EvalArgs(policy_kind[side], policy_weights[side], values)
                luck_of_roll(board, mover_white, root_white, d1, d2, rules, judge, valuer, vr,
                             choice, sws)
        searched = take_turn(board, mover_white, d1, d2, rules, policies, evaluators, pickers,
                             deficit, ws, sws)
        mover_white = not mover_white
        turn += 1
