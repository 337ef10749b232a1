"""The built-in compiled policies."""

from __future__ import annotations

from dataclasses import replace

from ..errors import PolicyError
from ..kernels import evaluate as ev
from .base import CompiledPolicy, Policy

RANDOM = CompiledPolicy("random", ev.RANDOM, "uniform over the distinct legal results")
RACER = CompiledPolicy("racer", ev.RACER, "greedy: fewest pips left and most checkers off, then fewest blocked faces")


def heuristic_weights(**overrides: float) -> tuple[float, ...]:
    """The heuristic's weights by feature name (see kernels/evaluate.py), with overrides."""
    w = dict(HEURISTIC_WEIGHTS, **overrides)
    out = [0.0] * ev.N_WEIGHTS
    for key, value in w.items():
        out[getattr(ev, "F_" + key.upper())] = value
    return tuple(out)


# Tuned by self-play duels: see docs/tuning.md.
HEURISTIC_WEIGHTS = {
    "pips": -0.5, "off": 0.5, "block": 0.35, "zone": 0.75, "head": 0.2, "opp_blocked": 0.84,
    "opp_mobility": -0.585, "own_blocked": -0.6, "stack": -0.45, "home": 0.13, "spread": 0.15,
    "race_pips": 1.0, "race_off": 2.0, "contact": 0.0, "opp_head": 0.2, "own_mobility": 0.2,
}
HEURISTIC = CompiledPolicy("heuristic", ev.HEURISTIC,
                           "hand-built evaluator: pips, blocks, head tempo, mobility and deficits, race",
                           heuristic_weights())

NEURAL = CompiledPolicy("neural", ev.NEURAL,
                        "neural network trained by TD(lambda) self-play: best equity under the active points")

NEURAL_SINGLE = replace(NEURAL, name="neural-single", single=True,
                        description="neural with the turn's results scored in single precision (faster; choices "
                                    "between results within about 1e-6 can differ)")
"""Not a built-in name: the single-precision pass, for measuring it against `neural` (docs/architecture.md)."""

BUILTINS: dict[str, CompiledPolicy] = {p.name: p for p in (RANDOM, RACER, HEURISTIC, NEURAL)}


def lookahead_of(base: Policy, name: str) -> CompiledPolicy:
    """`lookahead:NAME`: NAME's evaluator searched one ply deeper."""
    if base.evaluator_name is None or base.lookahead:
        raise PolicyError(f"policy {name!r}: lookahead needs a built-in evaluator such as 'neural' or 'heuristic'")
    return replace(base, name=name, lookahead=True,
                   description=f"one-ply expectimax with {base.name}'s evaluator")
