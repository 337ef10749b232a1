"""Supervised training of the network on a rolled-out training set (`rollout_set`), in numpy.

Each record's position is encoded as the network sees it: the board of the side that has
just moved (the side not to move), by the kernels' own `encode` and `class_mask`, into a
dense input matrix.  Its target is the rollout's outcome chances turned to that side's nine
classes (wins and losses swapped; negative VR estimates clipped to 0, classes R9 rules out
set to 0, renormalised).  The numpy forward pass is the kernels' (ReLU hidden layer, masked
softmax; `tests/test_supervised.py` holds them equal), and the loss is the cross-entropy,
reported as its excess over the targets' own entropy (the KL divergence, 0 for a perfect fit).

Training is Adam on minibatches, optionally pulled towards the starting weights (`anchor`,
an L2 penalty on the distance from them: with a few thousand positions the network should
keep what self-play taught it).  A share of the records (`valid_share`, by a hash of the
record's index, so it does not depend on the set's size) is held back; after every epoch
the validation loss and the equity error are measured, and the weights of the best
validation epoch are returned.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

import numpy as np

from ..core.errors import ArgumentError
from ..core.outcomes import money_valuation
from ..core.position import Position, parse_position
from ..core.rules import PRESETS
from ..kernels.codes import DRAW, LOSE_BASE, N_CLASSES, WIN_BASE
from ..kernels.features import N_FEATURES, N_OPP, opponent_terms
from ..kernels.neural import MAX_ACTIVE, class_mask, encode, reads_blocks
from ..policies.network import Network

CLASS_NAMES = ("oin", "home_mars", "mars", "koks")


@dataclass(frozen=True)
class Encoded:
    """A set as arrays: dense inputs, class masks, targets, and each record's index and phase."""

    x: np.ndarray          # (n, inputs) float64
    mask: np.ndarray       # (n, 9) bool
    target: np.ndarray     # (n, 9) float64
    white: np.ndarray      # (n,) bool: the side that has just moved is White
    index: np.ndarray      # (n,) the records' `i`
    phase: np.ndarray      # (n,) str


def mover_target(probabilities: dict, mask: np.ndarray) -> np.ndarray:
    """The nine classes, for the side that has just moved, of a rollout's chances for the side to
    move (`core.outcomes.PROB_KEYS`): clipped at 0, masked, renormalised."""
    t = np.zeros(N_CLASSES)
    for c, name in enumerate(CLASS_NAMES):
        t[WIN_BASE + c] = probabilities[f"lose_{name}"]
        t[LOSE_BASE + c] = probabilities[f"win_{name}"]
    t[DRAW] = probabilities["draw"]
    t = np.where(mask, np.clip(t, 0.0, None), 0.0)
    total = t.sum()
    if total <= 0:
        raise ArgumentError(f"a record's chances sum to {total}: {probabilities}")
    return t / total


def mover_board(position: Position) -> tuple[np.ndarray, bool]:
    """The board of the side that has just moved (not to move), mover-relative, and whether it is
    White."""
    mover = "b" if position.turn == "w" else "w"
    return Position.unchecked(position.white, position.black, mover).board()[0], mover == "w"


def encode_records(records: list[dict], input_version: int, last_roll: bool = True) -> Encoded:
    """The records as arrays (module doc) for a network of `input_version`."""
    from ..kernels.neural import INPUTS_OF_VERSION
    n_in = INPUTS_OF_VERSION[input_version]
    blocks = reads_blocks(n_in)
    n = len(records)
    x = np.zeros((n, n_in))
    mask = np.ones((n, N_CLASSES), dtype=np.bool_)
    target = np.zeros((n, N_CLASSES))
    white = np.zeros(n, dtype=np.bool_)
    opp = np.empty(N_OPP, dtype=np.int64)
    feats = np.empty(N_FEATURES)
    idx = np.empty(MAX_ACTIVE, dtype=np.int64)
    val = np.empty(MAX_ACTIVE)
    for k, r in enumerate(records):
        board, white[k] = mover_board(parse_position(r["position"]))
        board = np.ascontiguousarray(board, dtype=np.int8)
        opponent_terms(board, opp)
        m = encode(board, bool(white[k]), opp, feats, idx, val, blocks)
        x[k, idx[:m]] = val[:m]
        class_mask(board, last_roll, mask[k])
        target[k] = mover_target(r["probabilities"], mask[k])
    return Encoded(x, mask, target, white, np.array([r["i"] for r in records], dtype=np.int64),
                   np.array([r["phase"] for r in records]))


def forward(net_layers, x: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(hidden activations, class probabilities) of the rows of `x`, as the kernels compute them."""
    w1, b1, w2, b2 = net_layers
    h = np.maximum(x @ w1 + b1, 0.0)
    z = h @ w2.T + b2
    z = np.where(mask, z, -np.inf)
    z -= z.max(axis=1, keepdims=True)
    p = np.exp(z)
    p /= p.sum(axis=1, keepdims=True)
    return h, p


def excess_loss(p: np.ndarray, target: np.ndarray) -> float:
    """Mean cross-entropy of `p` against `target` minus the targets' own entropy (the KL
    divergence)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        kl = np.where(target > 0, target * (np.log(target) - np.log(np.maximum(p, 1e-300))), 0.0)
    return float(kl.sum(axis=1).mean())


def equities(p: np.ndarray, white: np.ndarray) -> np.ndarray:
    """Money equity (federation points) of class probabilities for the side that has just moved."""
    v = money_valuation(PRESETS["federation"])
    return np.where(white, p @ v.for_side(True)[:N_CLASSES], p @ v.for_side(False)[:N_CLASSES])


def is_validation(index: int, share: float) -> bool:
    """Whether record `index` is held back: a hash of the index below `share`."""
    h = hashlib.sha256(f"valid:{index}".encode()).digest()
    return int.from_bytes(h[:8], "little") / 2**64 < share


@dataclass(frozen=True)
class SupervisedConfig:
    """How a supervised run trains."""

    epochs: int = 30
    batch: int = 64
    lr: float = 1e-4
    anchor: float = 0.0        # L2 pull towards the starting weights (per weight, per batch)
    valid_share: float = 0.2
    seed: int = 1


@dataclass(frozen=True)
class EpochRow:
    """The figures after one epoch (epoch 0: the starting weights)."""

    epoch: int
    train_loss: float
    valid_loss: float
    valid_equity_rmse: float
    valid_blocked_loss: float


@dataclass
class SupervisedResult:
    """The trained network (the best validation epoch's weights) and the curve."""

    network: Network
    rows: list[EpochRow] = field(default_factory=list)
    best_epoch: int = 0
    train_size: int = 0
    valid_size: int = 0

    def frame(self):
        """The curve as a DataFrame."""
        import pandas as pd
        return pd.DataFrame([r.__dict__ for r in self.rows])


def _measure(layers, data: Encoded, rows: np.ndarray) -> tuple[float, float, float]:
    _, p = forward(layers, data.x[rows], data.mask[rows])
    t = data.target[rows]
    loss = excess_loss(p, t)
    err = equities(p, data.white[rows]) - equities(t, data.white[rows])
    blocked = data.phase[rows] == "blocked"
    bl = excess_loss(p[blocked], t[blocked]) if blocked.any() else float("nan")
    return loss, float(np.sqrt(np.mean(err ** 2))), bl


def train_supervised(start: Network, records: list[dict],
                     config: SupervisedConfig = SupervisedConfig(),
                     progress=None) -> SupervisedResult:
    """Train a copy of `start` on `records` (module doc); `progress(EpochRow)` hears each epoch."""
    if config.epochs < 0 or config.batch < 1 or not 0 < config.valid_share < 1:
        raise ArgumentError(f"{{epochs}}, {{batch}} or {{valid_share}} out of range: {config}")
    data = encode_records(records, start.input_version)
    valid = np.array([is_validation(int(i), config.valid_share) for i in data.index], dtype=bool)
    tr, va = np.flatnonzero(~valid), np.flatnonzero(valid)
    if len(tr) == 0 or len(va) == 0:
        raise ArgumentError(f"{len(records)} records leave no training or no validation part")
    params = [a.copy() for a in (start.w1, start.b1, start.w2, start.b2)]
    anchor = [a.copy() for a in params]
    moments = [(np.zeros_like(a), np.zeros_like(a)) for a in params]
    rng = np.random.default_rng(config.seed)
    b1_, b2_, eps = 0.9, 0.999, 1e-8
    step = 0

    def row(epoch: int) -> EpochRow:
        t_loss = _measure(params, data, tr)[0]
        v_loss, v_rmse, v_blocked = _measure(params, data, va)
        return EpochRow(epoch, t_loss, v_loss, v_rmse, v_blocked)

    rows = [row(0)]
    best = (rows[0].valid_loss, 0, [a.copy() for a in params])
    if progress:
        progress(rows[0])
    for epoch in range(1, config.epochs + 1):
        order = rng.permutation(tr)
        for lo in range(0, len(order), config.batch):
            b = order[lo:lo + config.batch]
            grads = _gradients(params, data.x[b], data.mask[b], data.target[b])
            step += 1
            for k, (a, g) in enumerate(zip(params, grads)):
                if config.anchor:
                    g = g + config.anchor * (a - anchor[k])
                m, v = moments[k]
                m *= b1_
                m += (1 - b1_) * g
                v *= b2_
                v += (1 - b2_) * g * g
                a -= config.lr * (m / (1 - b1_ ** step)) / (np.sqrt(v / (1 - b2_ ** step)) + eps)
        rows.append(row(epoch))
        if progress:
            progress(rows[-1])
        if rows[-1].valid_loss < best[0]:
            best = (rows[-1].valid_loss, epoch, [a.copy() for a in params])
    meta = dict(start.meta, supervised={"records": len(records), "train": int(len(tr)),
                                        "valid": int(len(va)), "best_epoch": best[1],
                                        **config.__dict__})
    net = Network(*best[2], meta=meta)
    return SupervisedResult(net, rows, best[1], int(len(tr)), int(len(va)))


def _gradients(params, x, mask, target):
    """The mean cross-entropy's gradients for w1, b1, w2, b2 on one batch."""
    w1, b1, w2, b2 = params
    h, p = forward(params, x, mask)
    dz = np.where(mask, p - target, 0.0) / x.shape[0]
    dw2 = dz.T @ h
    db2 = dz.sum(axis=0)
    dh = (dz @ w2) * (h > 0)
    dw1 = x.T @ dh
    db1 = dh.sum(axis=0)
    return dw1, db1, dw2, db2
