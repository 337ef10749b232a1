"""The doubling cube in compiled code: Janowski's money cube decision and games played with the
cube.

The one copy of the money model: `cube.py`'s Python functions call
`janowski_equity`, `money_win_loss`, `decide_code`, `take_point` and
`money_cube` here, and the cube game loop calls them before every roll.  Owners
are relative to the side on roll (`CENTRE`, `ROLLER`, `OPPONENT`); equities are
per unit of the current cube, double/pass = +1.

`play_cube_game` is the game loop of `game.play_one_game` (its turn step,
`game.take_turn`) with cube actions before each random roll and without the
rollout scoring options (a game is played to its end: its value is its class's
points times the cube, or the cube before the double when the double is passed).
Each colour has a cube behaviour: `MODEL` (its policy's evaluator gives the
cubeless chances of the position before the roll, Janowski's model decides) or
`NODOUBLE` (never doubles, always takes).
A game whose cube is never turned plays exactly the plays and dice of the plain
loop with database bear-offs off, so its result is the same.

At a match score (`CubeArgs.match`) the same loop plays one game of the match:
`match_cube_turn` decides by the cubeful match model of `match_cube.py` over the
game's value tables (one per colour on roll), keeps the Crawford rule and the dead
cube, and has no beavers; `play_cube_chunk` (INTO_EACH) gives each game's result code
and final cube level, from which the match's bookkeeping (in Python) scores it.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .bearoff import RaceTables, both_home
from .codes import CENTRE, OPPONENT, ROLLER
from .board import (DRAW, IN_PLAY, LOSE_BASE, N_POINTS, UNFINISHED, WIN_BASE, final_result, flip,
                    game_status, on_board, opp_on_board)
from .evaluate import ROLL_HIGH, ROLL_LOW, ROLL_WEIGHT, EvalArgs
from .game import (duel_sides, game_dice, roll_replies, score_workspace, take_turn,
                   workspace)
from .jit import entry, kernel
from .match_cube import equity_at, match_equities, model_scratch
from .rng import policy_state
from .value import position_probs, swap_view, value_probs

# decision codes, in `cube.DECISIONS` order
NO_DOUBLE, DOUBLE_TAKE, DOUBLE_PASS, TOO_GOOD = 0, 1, 2, 3
MODEL, NODOUBLE = 0, 1                                    # cube behaviours
# the absolute owner of a centred cube (else 0 White, 1 Black)
NOBODY = -1

# columns of the per-stratum cube sums: integers, exact in any order (points times CUBE_SCALE,
# rounded)
C_POINTS, C_POINTS2, C_DOUBLED, C_PASSED, C_REDUCED, C_REDUCED2 = range(6)
N_CUBE_SUMS = 6
CUBE_SCALE = float(1 << 20)


class CubeArgs(NamedTuple):
    """The cube of a batch of games: its start, the cube rules, each colour's behaviour and the
    model's inputs."""

    behaviour: np.ndarray   # int64[2]: MODEL or NODOUBLE, index 0 White
    owner: int              # at the start: NOBODY, 0 White, 1 Black
    jacoby: bool            # money: no mars or koks counts before the first double
    # a doubled side that likes the take redoubles at once and keeps the cube
    beavers: bool
    contact: float          # the cube efficiency with contact (races: `race_efficiency`)
    points: np.ndarray      # float64[4]: the classes' points (oin, home mars, mars, koks)
    tables: RaceTables      # the bear-off databases' arrays (value_probs is exact in races)
    coefs: np.ndarray       # the heuristic's logistic outcome model
    # both colours judge by the same evaluator: the taker reuses the doubler's chances
    same_evaluator: bool
    # the side on roll at the start does not double before its first roll (a cube
    # decision's no-double branch)
    hold_first: bool
    # a match (`match_cube`'s model at the score): the fields below; money games ignore them
    match: bool
    crawford: bool          # the Crawford game: no double
    kind: int               # the game's kind (`match_cube.PRE`, `CRAWFORD`, `POST`)
    needs: np.ndarray       # int64[2]: White's and Black's needs in half points
    max_need: int           # the larger need
    tabs: np.ndarray        # float64[2, L, 11]: `match_cube`'s value table, White on roll, Black
    start_level: int        # the cube at the start is 2**start_level
    oin_units: int          # an oin's points in half points
    # variance reduction: each random roll's cubeful luck (`roll_luck`) summed per game
    vr: bool
    screen: np.ndarray      # the heuristic's weights: the luck's screened reply search


@kernel
def janowski_equity(p, w, lo, owner, x):
    """Janowski's cubeful money equity per cube unit: (1-x) x dead (cubeless) + x x live cube, for a
    side with winning chance p whose wins average w points and losses lo, the cube `CENTRE`,
    `ROLLER`'s or `OPPONENT`'s."""
    dead = p * (w + lo) - lo
    tp = min(1.0, max(0.0, (lo - 0.5) / (w + lo + 0.5)))    # the live cube's take and cash points
    cp = min(1.0, max(0.0, (lo + 1.0) / (w + lo + 0.5)))
    if owner == ROLLER:
        live = 1.0 if p >= cp else -lo + (1.0 + lo) * p / cp
    elif owner == CENTRE:
        live = -1.0 if p <= tp else (1.0 if p >= cp else -1.0 + 2.0 * (p - tp) / (cp - tp))
    else:
        live = -1.0 if p <= tp else -1.0 + (w + 1.0) * (p - tp) / (1.0 - tp)
    return (1.0 - x) * dead + x * live


@kernel
def janowski_array(p, w, lo, owner, x, out):
    """`janowski_equity` of each position of flat arrays p, w, lo into out."""
    for i in range(p.shape[0]):
        out[i] = janowski_equity(p[i], w[i], lo[i], owner, x)


@kernel
def money_win_loss(probs, points, jacoby_centred):
    """(p, W, L): the winning chance (a draw half) and the average points of a win and of a loss,
    from the nine result probabilities of the side on roll and the four classes' points (Jacoby,
    cube centred: all oins)."""
    pw = probs[0] + probs[1] + probs[2] + probs[3]
    pl = probs[4] + probs[5] + probs[6] + probs[7]
    pd = probs[8]
    p = pw + pd / 2.0
    q = pl + pd / 2.0
    sw = 0.0
    sl = 0.0
    for k in range(4):
        pts = points[0] if jacoby_centred else points[k]
        sw += probs[WIN_BASE + k] * pts
        sl += probs[LOSE_BASE + k] * pts
    w = sw / p if p > 0 else points[0]
    lo = sl / q if q > 0 else points[0]
    return p, w, lo


@entry
def decide_code(nd, dt, dp):
    """The decision from the three equities: double when the opponent's best answer beats not
    doubling."""
    answer = min(dt, dp)
    if nd >= answer:
        return TOO_GOOD if dt > dp and nd > dp else NO_DOUBLE
    return DOUBLE_TAKE if dt <= dp else DOUBLE_PASS


@kernel
def take_point(w, lo, x):
    """Janowski's take point of a side whose wins average w and losses lo, at cube efficiency x (0
    when nothing is at stake: a sure draw before the last roll)."""
    den = w + lo + 0.5 * x
    return min(1.0, max(0.0, (lo - 0.5) / den)) if den > 0 else 0.0


@kernel
def money_cube(probs, points, owner, jacoby, beavers, x):
    """(decision code, beaver, no double, double/take, opponent's take point) of the side on roll;
    with the opponent owning the cube only the no-double value (the rest NaN).  Double/pass is
    +1."""
    p, w, lo = money_win_loss(probs, points, jacoby and owner == CENTRE)
    nd = janowski_equity(p, w, lo, owner, x)
    if owner == OPPONENT:
        return NO_DOUBLE, False, nd, np.nan, np.nan
    pf, wf, lf = money_win_loss(probs, points, False)
    dt = 2.0 * janowski_equity(pf, wf, lf, OPPONENT, x)
    beaver = beavers and dt < 0
    if beaver:
        dt *= 2.0
    return decide_code(nd, dt, 1.0), beaver, nd, dt, take_point(lf, wf, x)


@kernel
def race_efficiency(pips, contact):
    """The cube efficiency of a race by the roller's pips (`cube.race_efficiency`), at most
    `contact`."""
    return min(contact, max(0.05, 0.006 * pips))


@kernel
def efficiency(board, contact):
    """The cube efficiency of a mover-relative board: 0 (a dead cube) before Black's last roll (R8:
    no cube action follows it), a race's by the roller's pips once both sides are all home, else
    `contact`."""
    if not both_home(board):
        return contact
    if opp_on_board(board) == 0:
        return 0.0
    pips = 0
    for p in range(N_POINTS):
        if board[p] > 0:
            pips += board[p] * (24 - p)
    return race_efficiency(pips, contact)


@kernel
def game_points(result, points, mult, jacoby_centred):
    """The root side's points of a finished game: its class's points (Jacoby before any double: 1) x
    cube."""
    if result == DRAW or result == UNFINISHED:
        return 0.0
    pts = points[0] if jacoby_centred else points[result % 4]
    return pts * mult if result < LOSE_BASE else -pts * mult


@kernel
def match_judge(board, mover_white, last_roll, rel, level, kind, weights, cube, choice, sws, x):
    """(no double, double/take, double/pass) of the side on roll at the match score by this
    evaluator's chances (`match_cube.match_equities`, the cube at 2**level, owner `rel`)."""
    side = 0 if mover_white else 1
    pbuf = sws.probs
    position_probs(board, mover_white, last_roll, kind, weights, cube.tables, cube.coefs, choice,
                   sws.value, sws.flipped, pbuf)
    return match_equities(pbuf, cube.tabs[side], cube.max_need, cube.kind, x, level, rel,
                          model_scratch(cube.tabs.shape[1]))


@kernel
def match_cube_turn(board, mover_white, last_roll, owner, level, kinds, weights, cube, choice,
                    sws):
    """`cube_turn` in a match: no double in the Crawford game, from the opponent's cube or with a
    dead cube (a win at this cube takes the roller home); the taker drops when its double/take
    is worse than double/pass."""
    side = 0 if mover_white else 1
    other = 1 - side
    if cube.crawford or cube.behaviour[side] != MODEL or not (owner == NOBODY or owner == side):
        return 0
    if (1 << level) * cube.oin_units >= cube.needs[side]:
        return 0
    x = efficiency(board, cube.contact)
    rel = CENTRE if owner == NOBODY else ROLLER
    nd, dt, dp = match_judge(board, mover_white, last_roll, rel, level, kinds[side],
                             weights[side], cube, choice, sws, x)
    code = decide_code(nd, dt, dp)
    if code != DOUBLE_TAKE and code != DOUBLE_PASS:
        return 0
    if cube.behaviour[other] == NODOUBLE:
        return 1
    if not cube.same_evaluator:
        _, dt, dp = match_judge(board, mover_white, last_roll, rel, level, kinds[other],
                                weights[other], cube, choice, sws, x)
    return 2 if dt > dp else 1


@kernel
def cube_turn(board, mover_white, last_roll, owner, level, kinds, weights, cube, choice, sws):
    """The cube action before the mover's roll (the cube at 2**level of the game's unit), each side
    judging by its own evaluator: 0 no double, 1 double and take, 2 double and pass, 3 double and
    beaver (the taker redoubles and keeps the cube)."""
    if cube.match:
        return match_cube_turn(board, mover_white, last_roll, owner, level, kinds, weights, cube,
                               choice, sws)
    side = 0 if mover_white else 1
    other = 1 - side
    if cube.behaviour[side] != MODEL or not (owner == NOBODY or owner == side):
        return 0
    scratch, pbuf, flipped2 = sws.value, sws.probs, sws.flipped
    x = efficiency(board, cube.contact)
    rel = CENTRE if owner == NOBODY else ROLLER
    position_probs(board, mover_white, last_roll, kinds[side], weights[side], cube.tables,
                   cube.coefs, choice, scratch, flipped2, pbuf)
    code, beaver, _, dt, _ = money_cube(pbuf, cube.points, rel, cube.jacoby, cube.beavers, x)
    if code != DOUBLE_TAKE and code != DOUBLE_PASS:
        return 0
    if cube.behaviour[other] == NODOUBLE:
        return 1
    if not cube.same_evaluator:
        position_probs(board, mover_white, last_roll, kinds[other], weights[other], cube.tables,
                       cube.coefs, choice, scratch, flipped2, pbuf)
        _, beaver, _, dt, _ = money_cube(pbuf, cube.points, rel, cube.jacoby, cube.beavers, x)
    if dt > 1.0:
        return 2
    return 3 if beaver else 1


@kernel
def equity_after(probs, played, next_board, cube, owner, mover_side, level, model):
    """The cubeful equity of the side that just played `played` (its view; `next_board` the next
    roller's), from its chances `probs` (overwritten), the cube at 2**level owned by `owner`
    (`NOBODY`, 0 White, 1 Black): money per cube unit by Janowski's model, a match winning chance
    by `match_cube`'s; a dead cube once the mover has borne off (the game over or Black's last
    roll)."""
    x = 0.0 if on_board(played) == 0 else efficiency(next_board, cube.contact)
    if cube.match:
        nxt = 1 - mover_side
        rel = CENTRE if owner == NOBODY else (ROLLER if owner == nxt else OPPONENT)
        swap_view(probs)
        return 1.0 - equity_at(probs, cube.tabs[nxt], cube.max_need, cube.kind, x, level, rel,
                               model)
    rel = CENTRE if owner == NOBODY else (ROLLER if owner == mover_side else OPPONENT)
    p, w, lo = money_win_loss(probs, cube.points, cube.jacoby and owner == NOBODY)
    return janowski_equity(p, w, lo, rel, x)


@kernel
def roll_luck(replies, mover_white, d1, d2, last_roll, kind, weights, cube, owner, level, choice,
              sws, model):
    """The mover's cubeful luck of the roll (d1, d2): its equity after its play of that roll
    (`equity_after`, valued by its evaluator) minus the mean over the 21 rolls, each played as
    `replies[r]` (chosen before the roll, so the term has mean 0)."""
    side = 0 if mover_white else 1
    mean = 0.0
    actual = 0.0
    for r in range(21):
        value_probs(replies[r], mover_white, last_roll, kind, weights, cube.tables, cube.coefs,
                    choice, sws.value, sws.probs)
        flip(replies[r], sws.flipped)
        eq = equity_after(sws.probs, replies[r], sws.flipped, cube, owner, side, level, model)
        mean += ROLL_WEIGHT[r] * eq
        if ROLL_HIGH[r] == d1 and ROLL_LOW[r] == d2:
            actual = eq
    return actual - mean


@kernel(stage=True)
def play_cube_game(setup, game, policies, evaluators, pickers, cube, deficit, ws, sws):
    """Play game number `game` of `setup` with the cube to its end; return (result code for the root
    side, plies, stratum, the root side's points in units of the starting cube, doubles, passed,
    luck).

    The turn loop of `game.play_one_game` (no rollout scoring; the same turn step,
    `game.take_turn`) with `cube_turn` before each random roll.  A passed double ends the game:
    the doubler scores an oin's points times the cube before the double, and the game counts as
    the doubler's oin among the result codes (rules decision 29).  With `cube.vr` the luck sums
    every random roll's `roll_luck` in the root side's view: money in units of the starting cube
    (times the cube at the roll), a match in match winning chance; else it is 0.
    """
    board, rstate, choice = ws.board, ws.rstate, ws.choice
    rules = setup.rules
    last_roll = rules.last_roll
    root_white, root_d1, root_d2 = setup.white, setup.d1, setup.d2
    seed, stratify = setup.seed, setup.stratify
    kinds, weights = policies.kinds, policies.params
    for q in range(N_POINTS):   # not `board[:] = ...`, which compiles numba's error formatting
        board[q] = setup.board[q]
    mover_white = root_white
    rstate[0] = policy_state(seed, game)
    stratum = 0
    turn = np.int64(0)   # not a literal 0: numba would compile game_dice for it too
    owner = cube.owner
    mult = 1
    doubles = 0
    luck = 0.0
    searched = -1        # the previous turn's lookahead: the choice.replies of this turn's replies
    model = model_scratch(cube.tabs.shape[1])
    while True:
        status = game_status(board, mover_white, last_roll)
        if status != IN_PLAY:
            result = final_result(board, mover_white, root_white, status)
            points = game_points(result, cube.points, mult,
                                 cube.jacoby and doubles == 0 and cube.owner == NOBODY)
            return result, turn, stratum, points, doubles, False, luck
        if turn >= setup.max_plies:
            return UNFINISHED, turn, stratum, 0.0, doubles, False, luck
        given = root_d1 > 0 and turn == 0
        side = 0 if mover_white else 1
        if not given and not (cube.hold_first and turn == 0):
            action = cube_turn(board, mover_white, last_roll, owner, cube.start_level + doubles,
                               kinds, weights, cube, choice, sws)
            if action == 2:
                won = mover_white == root_white
                pts = cube.points[0] * mult
                return ((WIN_BASE if won else LOSE_BASE), turn, stratum, pts if won else -pts,
                        doubles + 1, True, luck)
            if action == 1:
                mult *= 2
                owner = 1 - side
                doubles += 1
            elif action == 3:
                mult *= 4
                owner = 1 - side
                doubles += 2
        d1, d2, s = game_dice(seed, game, turn, stratify, root_d1, root_d2)
        if turn == 0 or (root_d1 > 0 and turn == 1):
            stratum = s
        if cube.vr and not given:
            replies = sws.replies
            if searched >= 0:
                replies = choice.replies[searched]
            else:
                roll_replies(board, mover_white, rules,
                             EvalArgs(kinds[side], weights[side], policies.values), cube.screen,
                             choice, sws)
            lk = roll_luck(replies, mover_white, d1, d2, last_roll, kinds[side], weights[side],
                           cube, owner, cube.start_level + doubles, choice, sws, model)
            scale = 1.0 if cube.match else float(mult)
            luck += scale * lk if mover_white == root_white else -scale * lk
        searched = take_turn(board, mover_white, d1, d2, rules, policies, evaluators, pickers,
                             deficit, ws, sws)
        mover_white = not mover_white
        turn += 1


@kernel
def fixed(x):
    """x in the cube sums' fixed point (1 / CUBE_SCALE)."""
    return np.int64(np.floor(x * CUBE_SCALE + 0.5))


@kernel
def add_cube_sums(sums, row, points, doubles, passed, luck):
    """Add one game's cube figures into sums[row] (its points less its luck: the reduced value)."""
    sums[row, C_POINTS] += fixed(points)
    sums[row, C_POINTS2] += fixed(points * points)
    sums[row, C_REDUCED] += fixed(points - luck)
    sums[row, C_REDUCED2] += fixed((points - luck) * (points - luck))
    if doubles > 0:
        sums[row, C_DOUBLED] += 1
    if passed:
        sums[row, C_PASSED] += 1


# what `play_cube_chunk` adds a chunk's games into
INTO_COUNTS, INTO_PAIRS, INTO_EACH = 0, 1, 2


@entry
def play_cube_chunk(setup, game_lo, game_hi, policies, evaluators, pickers, cube, b_cube, into,
                    counts, deficit, plies, sums, results, levels, lucks):
    """Play games game_lo..game_hi-1 with the cube and add them `into` the counts, duplicate pairs
    or each game's figures; deficits and plies in every case.

    - INTO_COUNTS: counts[stratum, result] and the cube sums per stratum (points in units of the
      starting cube, their squares, games doubled, games passed).
    - INTO_PAIRS: duplicate games, each dice sequence with A on the root side, then B (as
      `runs.play_chunk`'s pairs: `policies` and `evaluators` hold A at index 0; A's games with
      `cube`, B's with `b_cube`, the behaviours by colour); `counts` is the joint table and
      sums[0] holds A's points per pair times 2 (A's points as root minus B's), their squares,
      and over both games the games doubled and passed.
    - INTO_EACH: each game's result code (a pass: the doubler's oin) and its final cube level
      (2**level; a pass: the cube before the double) into results[i] and levels[i], and its luck
      (`play_cube_game`) into lucks[i].

    One entry for the three, the loops in its own body, as `runs.play_chunk`.
    """
    ws = workspace()
    sws = score_workspace()
    if into == INTO_PAIRS:
        a_first, a_evals, b_first, b_evals = duel_sides(setup.white, policies, evaluators)
        for game in range(game_lo, game_hi):
            (r1, t1, _, v1, d1,
             p1, _) = play_cube_game(setup, game, a_first, a_evals, pickers, cube, deficit, ws,
                                     sws)
            (r2, t2, _, v2, d2,
             p2, _) = play_cube_game(setup, game, b_first, b_evals, pickers, b_cube, deficit, ws,
                                     sws)
            counts[r1, r2] += 1
            plies[0] += t1 + t2
            sums[0, C_POINTS] += fixed(v1 - v2)
            sums[0, C_POINTS2] += fixed((v1 - v2) * (v1 - v2))
            sums[0, C_DOUBLED] += (1 if d1 > 0 else 0) + (1 if d2 > 0 else 0)
            sums[0, C_PASSED] += (1 if p1 else 0) + (1 if p2 else 0)
    elif into == INTO_EACH:
        for game in range(game_lo, game_hi):
            (result, turns, _, _, doubles,
             passed, luck) = play_cube_game(setup, game, policies, evaluators, pickers, cube,
                                            deficit, ws, sws)
            results[game - game_lo] = result
            lucks[game - game_lo] = luck
            levels[game - game_lo] = cube.start_level + doubles - (1 if passed else 0)
            plies[0] += turns
    else:
        for game in range(game_lo, game_hi):
            (result, turns, stratum, points, doubles, passed,
             luck) = play_cube_game(setup, game, policies, evaluators, pickers, cube, deficit, ws,
                                    sws)
            plies[0] += turns
            counts[stratum, result] += 1
            add_cube_sums(sums, stratum, points, doubles, passed, luck)
