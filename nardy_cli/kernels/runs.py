"""The compiled loop over a chunk of games (`play_chunk`): counts, duplicate pairs, or each
game's values.

It plays `game.play_one_game` for games game_lo..game_hi-1 and adds into integer
arrays (outcome per stratum, deficit per side, fixed-point sums of the scored
games), so sums over chunks are exact and order-free, or writes each game's row;
`games/compiled_loop.py` calls it for every `Tally` mode.
"""

from __future__ import annotations

import numpy as np

from .board import N_RESULTS
from .game import N_KEYS, SCORED, duel_sides, play_one_game, score_workspace, workspace
from .jit import entry, kernel

# columns of the fixed-point sums `frac[stratum, :]` (values times FIX_SCALE, rounded)
X_P = 0              # 0..9: sum of result-code probabilities
X_ADJ = N_RESULTS    # 10..19: the same minus the luck (variance reduction)
X_EQ, X_EQ2, X_EQ_ADJ, X_EQ_ADJ2 = 20, 21, 22, 23
X_KEY2 = 24          # 24..34: sum of squares of each reported probability (outcomes.PROB_KEYS)
X_KEY_ADJ2 = 35      # 35..45: the same, adjusted
# the valuation's values (match equity), as X_EQ..
X_VAL, X_VAL2, X_VAL_ADJ, X_VAL_ADJ2 = 46, 47, 48, 49
N_FRAC = 50
FIX_SCALE = float(1 << 28)


@kernel
def add_fixed(frac, stratum, col, x):
    """Add x (rounded to 1 / FIX_SCALE) into frac[stratum, col]: integer sums, exact in any
    order."""
    frac[stratum, col] += np.int64(np.floor(x * FIX_SCALE + 0.5))


@kernel
def add_scored(frac, stratum, p, luck, values, indicators):
    """Add one game's probabilities p (root side) and p - luck into the fixed-point sums."""
    eq = 0.0
    eq_adj = 0.0
    val = 0.0
    val_adj = 0.0
    for k in range(N_RESULTS):
        add_fixed(frac, stratum, X_P + k, p[k])
        add_fixed(frac, stratum, X_ADJ + k, p[k] - luck[k])
        eq += values[0, k] * p[k]
        eq_adj += values[0, k] * (p[k] - luck[k])
        val += values[1, k] * p[k]
        val_adj += values[1, k] * (p[k] - luck[k])
    add_fixed(frac, stratum, X_EQ, eq)
    add_fixed(frac, stratum, X_EQ2, eq * eq)
    add_fixed(frac, stratum, X_EQ_ADJ, eq_adj)
    add_fixed(frac, stratum, X_EQ_ADJ2, eq_adj * eq_adj)
    add_fixed(frac, stratum, X_VAL, val)
    add_fixed(frac, stratum, X_VAL2, val * val)
    add_fixed(frac, stratum, X_VAL_ADJ, val_adj)
    add_fixed(frac, stratum, X_VAL_ADJ2, val_adj * val_adj)
    for j in range(N_KEYS):
        a = 0.0
        b = 0.0
        for k in range(N_RESULTS):
            a += indicators[j, k] * p[k]
            b += indicators[j, k] * (p[k] - luck[k])
        add_fixed(frac, stratum, X_KEY2 + j, a * a)
        add_fixed(frac, stratum, X_KEY_ADJ2 + j, b * b)


# what `play_chunk` adds a chunk's games into (`compiled_loop.play_compiled`, by the tally's mode)
INTO_COUNTS, INTO_PAIRS, INTO_ROWS = 0, 1, 2


@entry
def play_chunk(setup, game_lo, game_hi, policies, evaluators, pickers, args, into, counts, deficit,
               plies, frac, scored, probs, probs_adj):
    """Play games game_lo..game_hi-1 and add them `into` the counts, duplicate pairs or each
    game's rows; deficits and plies in every case.

    - INTO_COUNTS: counts[stratum, result]. With any option of `args` (`game.ScoringArgs`, see
      `play_one_game`), every game's probabilities (one-hot for a finished game) and their
      luck-adjusted copy also go into the fixed-point sums `frac[stratum]` (equity by
      `args.values`, reported probabilities by `args.indicators`), and games stopped early are
      counted in `scored[stratum]` instead of `counts`.
    - INTO_PAIRS: duplicate games, each dice sequence with side 0's policy (A) as White, then as
      Black; `counts[r1, r2]` counts pairs by the root side's results, r1 with A on the root
      side, r2 with B there. `policies` and `evaluators` hold A at index 0 and B at 1, and
      `policies.picker_of` names A's and B's pickers; a duel's `args` hold no option.
    - INTO_ROWS: each game's result-code probabilities for the root side (one-hot for a finished
      game) into probs[game - game_lo], and the same minus the game's luck into probs_adj.

    One entry for the three, the loops in its own body: a game loop's types (its pickers and
    options) compile once, whatever a command adds its games into (a rollout, then an analysis
    or a duel of the same policies); a kernel per mode would link and optimize `play_one_game`
    once more each.
    """
    ws = workspace()
    sws = score_workspace()
    gvec, luck = sws.game, sws.luck
    exact, truncate, vr = args.exact, args.truncate, args.vr
    if into == INTO_PAIRS:
        a_first, a_evals, b_first, b_evals = duel_sides(setup.white, policies, evaluators)
        for game in range(game_lo, game_hi):
            # A plays White when the root side is White
            r1, t1, _ = play_one_game(setup, game, a_first, a_evals, pickers, deficit, ws, sws,
                                      exact, truncate, vr)
            r2, t2, _ = play_one_game(setup, game, b_first, b_evals, pickers, deficit, ws, sws,
                                      exact, truncate, vr)
            counts[r1, r2] += 1
            plies[0] += t1 + t2
    elif into == INTO_ROWS:
        for game in range(game_lo, game_hi):
            result, turns, _ = play_one_game(setup, game, policies, evaluators, pickers, deficit,
                                             ws, sws, exact, truncate, vr)
            plies[0] += turns
            if result != SCORED:
                for k in range(N_RESULTS):
                    gvec[k] = 1.0 if k == result else 0.0
            for k in range(N_RESULTS):
                probs[game - game_lo, k] = gvec[k]
                probs_adj[game - game_lo, k] = gvec[k] - luck[k]
    else:
        values, indicators = args.values, args.indicators
        fractional = args.fractional
        for game in range(game_lo, game_hi):
            result, turns, stratum = play_one_game(setup, game, policies, evaluators, pickers,
                                                   deficit, ws, sws, exact, truncate, vr)
            plies[0] += turns
            if result == SCORED:
                scored[stratum] += 1
            else:
                counts[stratum, result] += 1
                for k in range(N_RESULTS):
                    gvec[k] = 1.0 if k == result else 0.0
            if fractional:
                add_scored(frac, stratum, gvec, luck, values, indicators)
