"""The neural evaluator: inputs of a board, the network's forward pass, class probabilities.

The network scores a mover-relative board right after the mover's play (the
opponent rolls next) and returns the probabilities of the nine outcome classes
for the side that just moved, in the order of the game kernel's result codes:
win by oin, home-mars, mars, koks (0-3), loss by the same (4-7), draw (8).

All parameters live in one float64 vector (see `HEADER`): a header with the
sizes and the last-roll option, then W1 (inputs x hidden, one contiguous
row per input so a sparse input adds one row), b1, W2 (classes x hidden), b2,
and optionally (`with_single`) the same layers as float32, packed two to a
cell, for the single-precision pass.
The header's input count says which inputs the network reads: input version 1
(`N_INPUTS`: point units, globals, the heuristic's features) or version 2
(`N_INPUTS_BLOCKS`: the same, then `blocks.block_terms`' blocks and timing).
Every pass dispatches on it, so a version-1 network is evaluated as before.
Classes the position makes impossible (R9) are masked before the softmax, so
they get probability 0 exactly and the rest still sums to 1.
"""

from __future__ import annotations

import numpy as np

from .jit import entry, kernel, leaf
from .last_roll import last_roll_probs
from .board import HOME_START, IN_PLAY, N_POINTS, on_board, result_of, status_after
from .codes import N_CLASSES
from .bits import trailing_zeros
from .blocks import N_BLOCK, block_terms
from .features import N_FEATURES, N_OPP, features, opponent_terms

DRAW_CLASS = 8
UNITS_PER_POINT = 4                       # c >= 1, c >= 2, c >= 3, (c - 3) / 2
POINT_INPUTS = 2 * N_POINTS * UNITS_PER_POINT
N_GLOBALS = 13
N_INPUTS = POINT_INPUTS + N_GLOBALS + N_FEATURES        # input version 1
N_INPUTS_BLOCKS = N_INPUTS + N_BLOCK                      # input version 2: blocks and timing
BLOCK_INPUTS = N_GLOBALS + N_FEATURES     # the first block input, counted after the point units
MAX_ACTIVE = N_INPUTS_BLOCKS

# header cells of the parameter vector
H_MAGIC, H_INPUTS, H_HIDDEN, H_LAST_ROLL = 0, 1, 2, 3
# where the float32 copy of the layers starts (`with_single`), 0: none; the 0-ply pass uses it
H_SINGLE = 4
# cells 5-15 are zero (the weights' digest, `Network.record`, covers the whole vector)
HEADER = 16
MAGIC = 1729.0
INPUT_VERSION = 1         # of a new network unless another is asked for
INPUTS_OF_VERSION = {1: N_INPUTS, 2: N_INPUTS_BLOCKS}

# global inputs, after the point units
G_OFF, G_OPP_OFF, G_PIPS, G_OPP_PIPS, G_OUT, G_OPP_OUT, G_BACK, G_OPP_BACK, G_CONTACT, G_WHITE, \
    G_HOME, G_OPP_HOME, G_PIP_DIFF = range(N_GLOBALS)


def param_count(n_hidden: int, n_inputs: int = N_INPUTS) -> int:
    """Length of the parameter vector of a network with `n_hidden` hidden units."""
    return HEADER + n_inputs * n_hidden + n_hidden + N_CLASSES * n_hidden + N_CLASSES


@kernel
def layers(params):
    """Views (W1, b1, W2, b2) into a parameter vector."""
    n_in = np.int64(params[H_INPUTS])
    h = np.int64(params[H_HIDDEN])
    return _split_layers(params[HEADER:], n_in, h)


@kernel(inline="always")
def _split_layers(flat, n_in, h):
    """Views (W1, b1, W2, b2) into `flat`, which holds the four layers one after another."""
    o = 0
    w1 = flat[o:o + n_in * h].reshape((n_in, h))
    o += n_in * h
    b1 = flat[o:o + h]
    o += h
    w2 = flat[o:o + N_CLASSES * h].reshape((N_CLASSES, h))
    o += N_CLASSES * h
    b2 = flat[o:o + N_CLASSES]
    return w1, b1, w2, b2


@kernel(inline="always")
def _put(idx, val, m, g, x):
    """Append global input `g` with value `x` when it is not zero; return the new count."""
    if x != 0.0:
        idx[m] = POINT_INPUTS + g
        val[m] = x
        return m + 1
    return m


@leaf
def encode(board, mover_white, opp, feats, idx, val, blocks):
    """Write the network's active inputs of `board` into idx/val; return how many.

    `opp` holds the opponent's terms (`opponent_terms`) and `feats` is scratch for
    the heuristic features, which are inputs too; with `blocks` (input version 2)
    the block and timing inputs follow them.
    """
    m = np.int64(0)   # not a literal 0: numba would compile encode_globals for it too
    for p in range(N_POINTS):
        c = board[p]
        if c == 0:
            continue
        base = point_base(p, c)
        if c < 0:
            c = -c
        idx[m] = base
        val[m] = 1.0
        m += 1
        if c >= 2:
            idx[m] = base + 1
            val[m] = 1.0
            m += 1
        if c >= 3:
            idx[m] = base + 2
            val[m] = 1.0
            m += 1
        if c > 3:
            idx[m] = base + 3
            val[m] = (c - 3) / 2.0
            m += 1
    return encode_globals(board, mover_white, opp, feats, idx, val, m, blocks)


@kernel(inline="always")
def mover_terms(board):
    """The mover's (pips, checkers on board, checkers outside home, 1 when one stands on its points
    1-12 else 0) on a mover-relative board."""
    pips = np.int64(0)   # int64 from the start (a literal 0 compiles block_terms twice)
    on = np.int64(0)
    out = 0
    back = 0
    for p in range(N_POINTS):
        c = board[p]
        if c > 0:
            pips += c * (24 - p)
            on += c
            if p < HOME_START:
                out += c
                if p < 12:
                    back = 1
    return pips, on, out, back


@leaf
def encode_globals(board, mover_white, opp, feats, idx, val, m, blocks):
    """Append the global inputs and the heuristic features of `board` from idx/val[m], and with
    `blocks` its block and timing inputs; return the new count.  The opponent's pips, checkers on
    board and outside home and whether one is on its points 1-12 are `opp`'s
    (`features.opponent_terms` of this board)."""
    pips, on, out, back = mover_terms(board)
    opp_pips, opp_on, opp_out, opp_back = opp[0], opp[1], opp[2], opp[3]
    m = _put(idx, val, m, G_OFF, (15 - on) / 15.0)
    m = _put(idx, val, m, G_OPP_OFF, (15 - opp_on) / 15.0)
    m = _put(idx, val, m, G_PIPS, pips / 100.0)
    m = _put(idx, val, m, G_OPP_PIPS, opp_pips / 100.0)
    m = _put(idx, val, m, G_OUT, out / 15.0)
    m = _put(idx, val, m, G_OPP_OUT, opp_out / 15.0)
    m = _put(idx, val, m, G_BACK, back)
    m = _put(idx, val, m, G_OPP_BACK, opp_back)
    m = _put(idx, val, m, G_CONTACT, 1.0 if (back or opp_back) and on > 0 and opp_on > 0 else 0.0)
    m = _put(idx, val, m, G_WHITE, 1.0 if mover_white else 0.0)
    m = _put(idx, val, m, G_HOME, 1.0 if out == 0 else 0.0)
    m = _put(idx, val, m, G_OPP_HOME, 1.0 if opp_out == 0 else 0.0)
    m = _put(idx, val, m, G_PIP_DIFF, (opp_pips - pips) / 50.0)
    if on > 0:
        features(board, feats, opp)
        for j in range(N_FEATURES):
            if feats[j] != 0.0:
                idx[m] = POINT_INPUTS + N_GLOBALS + j
                val[m] = feats[j] / 4.0
                m += 1
    if blocks:
        terms = block_terms(board, pips, on, opp)
        for k in range(N_BLOCK):
            m = _put(idx, val, m, BLOCK_INPUTS + k, terms[k])
    return m


@kernel(inline="always")
def reads_blocks(n_inputs):
    """Whether a network of `n_inputs` inputs (header cell H_INPUTS, or W1's rows) reads the block
    and timing inputs (input version 2)."""
    return n_inputs > N_INPUTS


@leaf
def class_mask(board, last_roll, mask):
    """Set mask[k] to False for each class R9 rules out from this board (mover = side that just
    moved)."""
    on = 0
    opp_on = 0
    back = False
    opp_back = False
    for p in range(N_POINTS):
        c = board[p]
        if c > 0:
            on += c
            if p < 12:
                back = True
        elif c < 0:
            opp_on -= c
            q = p - 12 if p >= 12 else p + 12
            if q < 12:
                opp_back = True
    allowed_classes(on, back, opp_on, opp_back, last_roll, mask)


@kernel(inline="always")
def allowed_classes(on, back, opp_on, opp_back, last_roll, mask):
    """Set mask[k] to False for each class R9 rules out, from the checkers each side has on board
    and whether each has one on its points 1-12 (mover = side that just moved)."""
    for k in range(N_CLASSES):
        mask[k] = True
    if opp_on < 15:            # the opponent has borne off: it can only lose by oin
        mask[1] = mask[2] = mask[3] = False
    if not opp_back:           # no opponent checker on its points 1-12: never koks again
        mask[3] = False
    if on < 15:
        mask[5] = mask[6] = mask[7] = False
    if not back:
        mask[7] = False
    if not last_roll:
        mask[DRAW_CLASS] = False


@kernel(fastmath=True)
def forward(params, idx, val, m, mask, hidden, probs):
    """Class probabilities (into `probs`) from active inputs; `hidden` receives the hidden
    activations."""
    w1, b1, w2, b2 = layers(params)
    for j in range(b1.shape[0]):
        hidden[j] = b1[j]
    accumulate(w1, idx, val, m, hidden)
    relu(hidden)
    output(w2, b2, mask, hidden, probs)


@leaf
def relu(hidden):
    """The hidden layer's activations in place: max(0, sum)."""
    for j in range(hidden.shape[0]):
        if hidden[j] < 0.0:
            hidden[j] = 0.0


@leaf(fastmath=True)
def accumulate(w1, idx, val, m, hidden, first=0):
    """Add the first layer's rows of the active inputs first..m-1 (times their values) into
    `hidden`."""
    # rows are indexed in place: a row view would cost an atomic reference count each
    nh = w1.shape[1]
    for k in range(first, m):
        r = idx[k]
        v = hidden.dtype.type(val[k])     # float32 sums stay float32
        for j in range(nh):
            hidden[j] += v * w1[r, j]


@leaf(fastmath=True)
def accumulate_from(w1, idx, val, m, sums, hidden):
    """hidden = `sums` plus the first layer's rows of the m active inputs (times their values): the
    copy and `accumulate`'s first row in one pass, the same sums."""
    nh = w1.shape[1]
    if m == 0:
        for j in range(nh):
            hidden[j] = sums[j]
        return
    r = idx[0]
    v = hidden.dtype.type(val[0])
    for j in range(nh):
        hidden[j] = sums[j] + v * w1[r, j]
    accumulate(w1, idx, val, m, hidden, 1)


@leaf(fastmath=True)
def output(w2, b2, mask, hidden, probs):
    """The masked softmax of the output layer into `probs`, from the ReLU of the accumulated sums
    in `hidden` (taken as it is read: `hidden` is not written)."""
    nh = w2.shape[1]
    zero = hidden.dtype.type(0.0)
    top = -1e300
    for c in range(N_CLASSES):
        if not mask[c]:
            continue
        s = b2[c]
        for j in range(nh):
            s += w2[c, j] * max(hidden[j], zero)
        probs[c] = s
        if s > top:
            top = s
    total = 0.0
    for c in range(N_CLASSES):
        if mask[c]:
            probs[c] = np.exp(probs[c] - top)
            total += probs[c]
        else:
            probs[c] = 0.0
    for c in range(N_CLASSES):
        probs[c] /= total


@kernel(inline="always")
def unit_value(c, u):
    """Value of unit `u` (0-3) of `c` >= 0 checkers on one point: c >= 1, c >= 2, c >= 3, (c - 3) /
    2."""
    if u < 3:
        return 1.0 if c > u else 0.0
    return (c - 3) / 2.0 if c > 3 else 0.0


UNIT_VALUES = np.array([[1.0 if c > u else 0.0 for u in range(3)]
                        + [(c - 3) / 2.0 if c > 3 else 0.0] for c in range(16)])
"""UNIT_VALUES[c, u] = `unit_value(c, u)` for 0 <= c <= 15."""


@kernel(inline="always")
def point_base(p, c):
    """First input index of the units of point `p` (mover-relative) holding signed count `c`."""
    if c > 0:
        return p * UNITS_PER_POINT
    q = p - 12 if p >= 12 else p + 12     # the opponent's own numbering
    return (N_POINTS + q) * UNITS_PER_POINT


@kernel
def single_precision(params):
    """(W1, b1, W2, b2) as float32 copies: the lookahead's reply search evaluates in single
    precision (`evaluate.reply_score`)."""
    w1, b1, w2, b2 = layers(params)
    return (w1.astype(np.float32), b1.astype(np.float32), w2.astype(np.float32),
            b2.astype(np.float32))


@kernel
def float32_layers(kind_is_neural, params):
    """The float32 layers the reply search evaluates with: the vector's own copy (`with_single`),
    else `single_precision`'s (an empty header's when the evaluator is not a network)."""
    if not kind_is_neural:
        return single_precision(np.zeros(HEADER))
    if params[H_SINGLE] != 0.0:
        return single_layers(params)
    return single_precision(params)


def with_single(params: np.ndarray) -> np.ndarray:
    """`params` with the float32 copy of its layers appended and `H_SINGLE` pointing at it.

    The choosers then score a turn's results in single precision (`single_layers`):
    faster, equal to the double-precision pass to about 1e-6 (it can change a
    choice between results that close).
    """
    n = int(params.size) if params[H_SINGLE] == 0.0 else int(params[H_SINGLE])
    single = params[HEADER:n].astype(np.float32)
    out = np.zeros(n + (single.size + 1) // 2, dtype=np.float64)
    out[:n] = params[:n]
    out[n:].view(np.float32)[:single.size] = single
    out[H_SINGLE] = n
    return out


@kernel
def single_layers(params):
    """Views (W1, b1, W2, b2) of the float32 copy in a vector from `with_single` (as
    `single_precision` makes)."""
    n_in = np.int64(params[H_INPUTS])
    h = np.int64(params[H_HIDDEN])
    start = np.int64(params[H_SINGLE])
    count = n_in * h + h + N_CLASSES * h + N_CLASSES
    return _split_layers(params[start:start + (count + 1) // 2].view(np.float32), n_in, h)


@leaf
def point_changes(before, after, idx, val, m):
    """Append (input, value change) of every point unit that differs between two boards; return the
    count.

    The boards are compared eight points at a time (as int64 words), so only the
    points a play touched are visited, in ascending order as a scan would.
    """
    b_words = before.view(np.int64)
    a_words = after.view(np.int64)
    for w in range(N_POINTS // 8):
        x = b_words[w] ^ a_words[w]
        while x != 0:
            byte = trailing_zeros(x) >> 3
            x &= ~(np.int64(0xFF) << (8 * byte))
            p = w * 8 + byte
            a = before[p]
            b = after[p]
            if a >= 0 and b >= 0:
                # the mover's own point (a play moves only its own checkers): its units' changes
                # from the table, the same values `_unit_changes` computes
                # (written whether or not it counts, as `turnpass._change` does: no branch to
                # mispredict)
                for u in range(UNITS_PER_POINT):
                    d = UNIT_VALUES[b, u] - UNIT_VALUES[a, u]
                    idx[m] = p * UNITS_PER_POINT + u
                    val[m] = d
                    m += d != 0.0
            else:
                m = _unit_changes(p, a, b, idx, val, m)
    return m


@kernel(inline="always")
def _unit_changes(p, a, b, idx, val, m):
    """Append the changes of point `p`'s units from signed count `a` to `b` (a != b); return the
    count."""
    same_side = a != 0 and b != 0 and (a > 0) == (b > 0)
    for u in range(UNITS_PER_POINT):
        old = unit_value(abs(a), u) if a != 0 else 0.0
        new = unit_value(abs(b), u) if b != 0 else 0.0
        if same_side:
            if new != old:
                idx[m] = point_base(p, a) + u
                val[m] = new - old
                m += 1
            continue
        if old != 0.0:
            idx[m] = point_base(p, a) + u
            val[m] = -old
            m += 1
        if new != 0.0:
            idx[m] = point_base(p, b) + u
            val[m] = new
            m += 1
    return m


@leaf
def exact_probs(board, mover_white, last_roll, probs):
    """When the game is over after the mover's play (`board.status_after`), write its result code
    (one-hot) and return True; likewise when White has just borne off its 15th checker and only
    Black's last roll is left (R8: `last_roll.last_roll_probs`, exact)."""
    status = status_after(board, mover_white, last_roll)
    if status == IN_PLAY:
        if on_board(board) == 0:
            last_roll_probs(board, False, probs)
            return True
        return False
    for c in range(N_CLASSES):
        probs[c] = 0.0
    probs[result_of(board, mover_white, status)] = 1.0
    return True


@kernel
def board_probs(params, board, mover_white, opp, feats, idx, val, mask, hidden, probs):
    """Probabilities of the nine classes for the side that just played `board` (`opp`: its opponent
    terms).

    A finished game is scored exactly; otherwise the network's masked softmax.
    """
    last_roll = params[H_LAST_ROLL] != 0.0
    if exact_probs(board, mover_white, last_roll, probs):
        return
    m = encode(board, mover_white, opp, feats, idx, val, reads_blocks(params[H_INPUTS]))
    class_mask(board, last_roll, mask)
    forward(params, idx, val, m, mask, hidden, probs)


@leaf
def equity_of(values, mover_white, probs):
    """Value of class probabilities for the side that just moved (`values`:
    `Valuation.kernel_values()`)."""
    side = 0 if mover_white else 1
    e = 0.0
    for c in range(N_CLASSES):
        e += probs[c] * values[side, c]
    return e


@entry
def batch_probs(params, boards, white, out):
    """out[i] = the nine class probabilities of boards[i] for the side that just played it (White if
    white[i])."""
    opp = np.empty(N_OPP, dtype=np.int64)
    feats = np.empty(N_FEATURES, dtype=np.float64)
    idx = np.empty(MAX_ACTIVE, dtype=np.int64)
    val = np.empty(MAX_ACTIVE, dtype=np.float64)
    mask = np.ones(N_CLASSES, dtype=np.bool_)
    hidden = np.empty(np.int64(params[H_HIDDEN]), dtype=np.float64)
    for i in range(boards.shape[0]):
        opponent_terms(boards[i], opp)
        board_probs(params, boards[i], white[i], opp, feats, idx, val, mask, hidden, out[i])
