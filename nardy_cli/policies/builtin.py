"""The built-in evaluators and the policies made of them.

`heuristic` is one evaluator with two parts: the hand-set weights below rank a
roll's results (what the policy plays, and the replies its lookahead expects),
and the logistic estimate over the same features (`analysis.EstimateEvaluator`)
values them wherever an equity is needed: truncation, variance reduction, the
cube model, staged rankings, review.
"""

from __future__ import annotations

from dataclasses import replace

from ..core.errors import PolicyError
from ..kernels import evaluate as ev
from .analysis import HEURISTIC_ESTIMATE, NEURAL_EVALUATOR, NeuralEvaluator
from .base import CompiledPolicy, Policy
from .evaluator import Evaluator, NetworkForm, Weights


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


def weights_policy(name: str, description: str, weights=(0.0,) * ev.N_WEIGHTS) -> CompiledPolicy:
    """A heuristic with other weights (tuning): its kind, valued by the same estimate."""
    kernel = Weights(ev.HEURISTIC, tuple(float(w) for w in weights))
    evaluator = Evaluator("heuristic", description, kernel, HEURISTIC_ESTIMATE, outcomes=True)
    return CompiledPolicy(name, description, evaluator)


def network_policy(name: str, network, description: str = "a neural network") -> CompiledPolicy:
    """The neural kind playing `network` (a `Network`): training's candidates, a second network."""
    evaluator = Evaluator(name, description, NetworkForm(network), NeuralEvaluator(name, network),
                          outcomes=True)
    return CompiledPolicy(name, description, evaluator)


def _zero_ply(evaluator: Evaluator) -> CompiledPolicy:
    return CompiledPolicy(evaluator.name, evaluator.description, evaluator)


RANDOM = _zero_ply(Evaluator("random", "uniform over the distinct legal results",
                             Weights(ev.RANDOM)))
RACER = _zero_ply(Evaluator("racer", "greedy: fewest pips left and most checkers off, then fewest "
                                     "blocked faces", Weights(ev.RACER)))
HEURISTIC = weights_policy("heuristic", "hand-built evaluator: pips, blocks, head tempo, mobility "
                                        "and deficits, race", heuristic_weights())
NEURAL = _zero_ply(Evaluator("neural", "neural network trained by TD(lambda) self-play: best "
                                       "equity under the active points", NetworkForm(),
                             NEURAL_EVALUATOR, outcomes=True))

NEURAL_DOUBLE = replace(NEURAL, name="neural-double",
                        evaluator=replace(NEURAL.evaluator, kernel=NetworkForm(single=False)),
                        description="neural with the turn's results and the lookahead's first "
                                    "candidates scored in double precision (slower; the same "
                                    "choices but between results within about 1e-6)")
"""Not a built-in name: `neural` before its choices went to single precision, measured against it
(README's Speed section)."""

BUILTINS: dict[str, CompiledPolicy] = {p.name: p for p in (RANDOM, RACER, HEURISTIC, NEURAL)}
"""The registry's built-in entries: a new evaluator adds its policy here (docs/architecture.md)."""


def lookahead_of(base: Policy, name: str) -> CompiledPolicy:
    """`lookahead:NAME`: NAME's evaluator searched one ply deeper."""
    if base.evaluator_name is None or base.lookahead:
        raise PolicyError(f"policy {name!r}: lookahead needs a built-in evaluator such as 'neural' "
                          "or 'heuristic'")
    return replace(base, name=name, lookahead=True,
                   description=f"one-ply expectimax with {base.name}'s evaluator")
