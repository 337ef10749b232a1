"""Neural-network weights: creation, files, and the parameter vector the compiled evaluator reads.

A `Network` holds the trained layers and their metadata.  `kernel_params`
lays them out with a header carrying the sizes and the active rules' last-roll
option; what the outcomes are worth (points, match equity) is not the network's:
the kernels get it as a separate values array (`outcomes.Valuation`), so one
trained network serves every points table and match score.
Files are `.npz` archives with the four layers and a JSON metadata string.
"""

from __future__ import annotations

import json
import re
import zipfile
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

import numpy as np

from ..core.errors import NetworkError
from ..core.outcomes import Valuation, money_valuation
from ..core.rules import Rules
from ..kernels import neural as kn

DEFAULT_FILE = "neural.npz"


@dataclass(frozen=True, eq=False)
class Network:
    """The layers of a trained evaluator and what made them (input version, sizes, training
    record)."""

    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: np.ndarray
    meta: dict = field(default_factory=dict)

    @property
    def hidden(self) -> int:
        """Hidden units."""
        return int(self.b1.shape[0])

    @property
    def input_version(self) -> int:
        """Which inputs the network reads (`kernels.neural.INPUTS_OF_VERSION`): 1, or 2 with the
        blocks and timing of `kernels/blocks.py`."""
        return version_of_inputs(int(self.w1.shape[0]))

    def flat(self) -> np.ndarray:
        """The layers as one parameter vector with an empty header (training works on this in
        place); the header's input count tells the kernels the input version."""
        n_in = int(self.w1.shape[0])
        v = np.zeros(kn.param_count(self.hidden, n_in), dtype=np.float64)
        v[kn.H_MAGIC] = kn.MAGIC
        v[kn.H_INPUTS] = n_in
        v[kn.H_HIDDEN] = self.hidden
        o = kn.HEADER
        for part in (self.w1, self.b1, self.w2, self.b2):
            v[o:o + part.size] = part.ravel()
            o += part.size
        return v

    def record(self) -> dict:
        """What identifies the network in results: its size, training games and a digest of its
        weights."""
        import hashlib
        return {"hidden": self.hidden, "games_trained_in_all": games_in_all(self.meta),
                "sha256": hashlib.sha256(self.flat().tobytes()).hexdigest()[:16]}

    def kernel_params(self, rules: Rules, single: bool = False) -> np.ndarray:
        """The parameter vector for the compiled evaluator under `rules` (its last-roll option);
        with `single`, carrying the float32 copy the choosers then score turns with
        (`kernels.neural.with_single`)."""
        v = self.flat()
        v[kn.H_LAST_ROLL] = 1.0 if rules.last_roll else 0.0
        return kn.with_single(v) if single else v

    @classmethod
    def from_flat(cls, v: np.ndarray, meta: dict | None = None) -> "Network":
        """Layers copied out of a parameter vector."""
        n_in, h = int(v[kn.H_INPUTS]), int(v[kn.H_HIDDEN])
        o = kn.HEADER
        parts = []
        for shape in ((n_in, h), (h,), (kn.N_CLASSES, h), (kn.N_CLASSES,)):
            size = int(np.prod(shape))
            parts.append(v[o:o + size].reshape(shape).copy())
            o += size
        return cls(*parts, meta=dict(meta or {}))

    def __repr__(self) -> str:
        return f"Network(hidden={self.hidden}, games={self.meta.get('games_trained', 0)})"


def version_of_inputs(n_inputs: int) -> int:
    """The input version of a first layer with `n_inputs` rows; a `NetworkError` when none has
    that many."""
    for version, n in kn.INPUTS_OF_VERSION.items():
        if n == n_inputs:
            return version
    raise NetworkError(f"no input version has {n_inputs} inputs "
                       f"(known: {kn.INPUTS_OF_VERSION})")


def new_network(hidden: int, seed: int, input_version: int = kn.INPUT_VERSION) -> Network:
    """A freshly initialised network (small random weights from `seed`) reading the inputs of
    `input_version`."""
    rng = np.random.default_rng(seed)
    w1 = rng.normal(0.0, 1.0 / np.sqrt(40.0), size=(kn.INPUTS_OF_VERSION[input_version], hidden))
    b1 = np.full(hidden, 0.05)
    w2 = rng.normal(0.0, 0.1 / np.sqrt(hidden), size=(kn.N_CLASSES, hidden))
    b2 = np.zeros(kn.N_CLASSES)
    return Network(w1, b1, w2, b2, untrained_meta(hidden, seed, input_version))


def with_block_inputs(net: Network) -> Network:
    """A version-1 network as one of input version 2: the block and timing inputs' first-layer
    rows are zero, so it values every position exactly as `net` does until training moves them
    (a version-2 network is returned as it is)."""
    if net.input_version == 2:
        return net
    extra = np.zeros((kn.N_INPUTS_BLOCKS - kn.N_INPUTS, net.hidden))
    meta = dict(net.meta, input_version=2, inputs=kn.N_INPUTS_BLOCKS)
    return Network(np.vstack([net.w1, extra]), net.b1, net.w2, net.b2, meta)


def widened(net: Network, hidden: int, seed: int) -> Network:
    """`net` with `hidden` units: the new ones start as `new_network`'s but with zero output
    weights, so the values are unchanged and training can put the new units to use (with `hidden` =
    its own size, the same layers)."""
    extra = hidden - net.hidden
    if extra <= 0:
        return Network(net.w1, net.b1, net.w2, net.b2, net.meta)
    fresh = new_network(extra, seed)
    return Network(np.hstack([net.w1, fresh.w1]), np.concatenate([net.b1, fresh.b1]),
                   np.hstack([net.w2, np.zeros_like(fresh.w2)]), net.b2, net.meta)


def untrained_meta(hidden: int, seed: int, input_version: int = kn.INPUT_VERSION) -> dict:
    """The record of a network no training has touched yet: its shape, inputs and seed."""
    return {"input_version": input_version, "inputs": kn.INPUTS_OF_VERSION[input_version],
            "hidden": hidden,
            "classes": kn.N_CLASSES, "activation": "relu",
            "output": "masked softmax over 9 classes", "seed": seed, "games_trained": 0}


def games_in_all(meta: dict) -> int:
    """The self-play games behind a network: its own run's and those of every run it was continued
    from."""
    return int(meta.get("games_trained_in_all", meta.get("games_trained", 0)))


def save_network(net: Network, path: str | Path) -> None:
    """Write the network to an `.npz` file (atomically: a temporary file renamed into place)."""
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as fh:
        np.savez(fh, w1=net.w1, b1=net.b1, w2=net.w2, b2=net.b2,
                 meta=np.array(json.dumps(net.meta, sort_keys=True)))
    tmp.replace(path)


def load_network(path: str | Path) -> Network:
    """Read a network file; a missing or damaged file is a `NetworkError` naming it."""
    path = Path(path)
    try:
        with open(path, "rb") as fh:
            magic = fh.read(4)
    except FileNotFoundError:
        raise NetworkError(f"network file {str(path)!r} not found") from None
    except OSError as exc:
        raise NetworkError(f"cannot read network file {str(path)!r}: {exc.strerror}") from None
    if magic != b"PK\x03\x04":  # every .npz file is a zip archive
        raise NetworkError(f"{str(path)!r} is not a nardy network (an .npz file that `nardy "
                           "train` writes)")
    try:
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
            w1, b1, w2, b2 = (np.array(data[k], dtype=np.float64) for k in ("w1", "b1", "w2", "b2"))
    except FileNotFoundError:
        raise NetworkError(f"network file {str(path)!r} not found") from None
    except KeyError as exc:
        raise NetworkError(f"{str(path)!r} is not a nardy network (it has no "
                           f"array {exc})") from None
    except (OSError, ValueError, zipfile.BadZipFile, json.JSONDecodeError) as exc:
        raise NetworkError(f"network file {str(path)!r} is damaged "
                           f"({type(exc).__name__}: {exc})") from None
    h = b1.shape[0] if b1.ndim == 1 else -1
    n_in = kn.INPUTS_OF_VERSION.get(meta.get("input_version"), -1)
    if (w1.shape != (n_in, h) or b2.shape != (kn.N_CLASSES,)
            or w2.shape != (kn.N_CLASSES, h)):
        raise NetworkError(f"network file {str(path)!r} does not match this version's inputs "
                           f"(input version {meta.get('input_version')!r}, "
                           f"layers {w1.shape}, {w2.shape})")
    if not all(np.isfinite(a).all() for a in (w1, b1, w2, b2)):
        raise NetworkError(f"network file {str(path)!r} is damaged (non-finite weights)")
    return Network(w1, b1, w2, b2, meta)


def default_network_path() -> Path:
    """The shipped network's file inside the package."""
    return Path(str(resources.files("nardy_cli") / "data" / DEFAULT_FILE))


_DEFAULT: list[Network] = []


def default_network() -> Network:
    """The shipped, trained network (loaded once per process)."""
    if not _DEFAULT:
        _DEFAULT.append(load_network(default_network_path()))
    return _DEFAULT[0]


def network_summary() -> dict:
    """The shipped network as results cite it: size, training games, input version, weights hash
    and file name."""
    net = default_network()
    return {**net.record(), "input_version": net.input_version, "file": default_network_path().name}


def network_hash(net: Network | None = None) -> str:
    """The 16-hex sha256 digest of a network's weights (the shipped one by default): the name every
    result made with it cites."""
    return (net or default_network()).record()["sha256"]


def uses_network(name: str) -> bool:
    """Whether the policy `name` plays or judges with the shipped network (`neural`,
    `neural-double`, `lookahead:neural`, ...)."""
    return any(part.startswith("neural") for part in re.split(r"[\s,:]+", name))


def network_of(*names: str | None) -> str | None:
    """The shipped network's hash when one of the policy `names` uses it, else None."""
    return network_hash() if any(n and uses_network(n) for n in names) else None


def provenance(*names: str | None) -> dict:
    """What a result records of what made it: the nardy version and, when one of the policy `names`
    uses it, the shipped network's hash."""
    from .. import __version__
    net = network_of(*names)
    return {"version": __version__, **({"network": net} if net else {})}


def result_probabilities(boards: np.ndarray, white: np.ndarray, rules: Rules,
                         net: Network | None = None) -> np.ndarray:
    """Probabilities (n x 9, result-code order) of mover-relative result boards for the side that
    just played each.

    `white[i]` says whether that side is White (R8's last roll depends on it).
    Finished games are exact; impossible classes (R9) are exactly 0.
    """
    net = net or default_network()
    boards = np.ascontiguousarray(boards, dtype=np.int8).reshape(-1, 24)
    out = np.zeros((boards.shape[0], kn.N_CLASSES))
    # a writable copy: numba compiles a second signature for a read-only (broadcast) array
    kn.batch_probs(net.kernel_params(rules), boards, np.array(white, dtype=np.bool_).reshape(-1),
                   out)
    return out


def result_equities(boards: np.ndarray, white: np.ndarray, rules: Rules, net: Network | None = None,
                    valuation: Valuation | None = None) -> np.ndarray:
    """Value of each result board for the side that just played it, by `valuation` (money under
    `rules` when None)."""
    valuation = valuation if valuation is not None else money_valuation(rules)
    probs = result_probabilities(boards, white, rules, net)
    white = np.broadcast_to(np.asarray(white, dtype=bool).reshape(-1), (probs.shape[0],))
    return np.where(white, probs @ valuation.for_side(True), probs @ valuation.for_side(False))
