"""A policy's error rate against the benchmark database: equity lost per decision, and agreement.

Every decision of the database is put to the policy as a `Turn` (`policy.pick`),
as a game would put it.  A chosen play that was rolled out loses the rolled-out
best's equity minus its own (both from the same common-dice rollout).  A chosen
play that was not rolled out (outside the build's 1-ply filter) has no rollout
figure; its equity is estimated as its 1-ply equity shifted by the position's
offset, the mean of (rollout - 1-ply) over the rolled-out plays, and its loss is
the best's equity minus that, never below 0 (docs/strength.md, "How a loss is
counted").  The error rate is the mean loss in millipoints (1000 x equity), with
its standard error over decisions.

The rolled-out best is the largest of noisy estimates, so it overstates the true
best, and every loss measured against it is biased high.  `selection_bias`
estimates how much by a parametric bootstrap: each rolled-out play's equity
redrawn with its SE of difference to the best, the mean excess of the redrawn
maximum over the measured best.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..core.engine import enumerate_board, plays_from_kernel
from ..core.errors import ArgumentError, BenchmarkFileError
from ..core.i18n import N_, _, translate
from ..core.outcomes import money_valuation
from ..core.phases import PHASES
from ..core.position_id import format_position_id
from ..core.rules import rules_from_dict
from ..kernels.rng import policy_state
from ..policies import Policy, as_policy
from ..policies.base import Turn
from ..policies.network import provenance
from .db import Benchmark, BenchPosition

PHASE_WORDS = (N_("contact"), N_("blocked"), N_("race"), N_("bearoff"), N_("opening"), N_("all"))
"""The phases as a table shows them (`translate` gives them in the language in use)."""

MILLI = 1000.0
BOOTSTRAP = 400


@dataclass(frozen=True)
class Decision:
    """One measured decision: the position's index and phase, the play chosen, its loss, and how it
    was valued."""

    index: int
    phase: str
    chosen: str
    loss: float
    agreed: bool          # chose the rolled-out best, or a rolled-out play exactly as good
    rolled: bool
    bias: float


def loss_of(bench: BenchPosition, result: str) -> tuple[float, bool]:
    """(equity lost by the play leading to `result` against the rolled-out best, whether it was
    rolled out)."""
    best = bench.best.equity
    for c in bench.candidates:
        if c.result == result:
            if c.rolled:
                return max(best - c.equity, 0.0), True
            offset = float(np.mean([r.equity - r.one_ply for r in bench.rolled]))
            return max(best - (c.one_ply + offset), 0.0), False
    raise BenchmarkFileError(f"benchmark position {bench.index + 1} ({bench.position} "
                             f"{bench.dice}) has no play "
                             f"leading to {result!r}: the database was built under other rules")


def selection_bias(bench: BenchPosition, rng: np.random.Generator, draws: int = BOOTSTRAP) -> float:
    """How much the rolled-out best overstates the best play, estimated by redrawing each rolled-out
    play's equity with its SE of difference to the best (module doc)."""
    rolled = bench.rolled
    if len(rolled) < 2:
        return 0.0
    mu = np.array([c.equity for c in rolled])
    sd = np.array([c.diff_se for c in rolled])
    return float(np.mean((mu + rng.standard_normal((draws, len(mu))) * sd).max(axis=1)) - mu.max())


def turn_of(bench: BenchPosition, rules, valuation, seed: int) -> Turn:
    """The decision as a game puts it to a policy (the policy's random streams seeded by (seed,
    index))."""
    position = bench.position.with_dice(bench.dice)
    board, _, opp_off = position.board()
    boards, step_from, step_die, n, nsteps = enumerate_board(board, opp_off, bench.dice, rules)
    plays = plays_from_kernel(position, bench.dice, boards, step_from, step_die, n, nsteps)
    rstate = np.array([policy_state(np.uint64(seed), bench.index)], dtype=np.uint64)
    return Turn(position, plays, boards, rules, valuation, rstate,
                np.random.default_rng([seed, bench.index]))


@dataclass(frozen=True)
class BenchmarkResult:
    """A policy's decisions on the benchmark database, and their summary per phase and overall."""

    policy: str
    decisions: tuple[Decision, ...]
    positions: int
    path: str
    settings: dict

    def frame(self) -> pd.DataFrame:
        """One row per phase present and one for all: decisions, error rate ± SE (millipoints),
        agreement, choices valued from 1-ply, and the selection bias (millipoints)."""
        rows = []
        phases = [p for p in PHASES if any(d.phase == p for d in self.decisions)]
        for phase in phases + ["all"]:
            ds = [d for d in self.decisions if phase in ("all", d.phase)]
            loss = np.array([d.loss for d in ds]) * MILLI
            se = float(loss.std(ddof=1) / math.sqrt(len(loss))) if len(loss) > 1 else float("nan")
            rows.append({"phase": phase, "decisions": len(ds), "error_mp": float(loss.mean()),
                         "error_se_mp": se, "agreement": float(np.mean([d.agreed for d in ds])),
                         "unrolled": sum(not d.rolled for d in ds),
                         "bias_mp": float(np.mean([d.bias for d in ds]) * MILLI)})
        return pd.DataFrame(rows,
                            columns=["phase", "decisions", "error_mp", "error_se_mp", "agreement",
                                     "unrolled", "bias_mp"])

    def table(self) -> pd.DataFrame:
        """The summary as printed text columns (headers and phases in the language in use)."""
        f = self.frame()
        return pd.DataFrame({_("phase"): [translate(p) for p in f["phase"]],
                             _("decisions"): f["decisions"],
                             _("error (mp)"): [f"{e:.1f} ± {s:.1f}" if s == s else f"{e:.1f}"
                                               for e, s in zip(f["error_mp"], f["error_se_mp"])],
                             _("agreement"): [f"{a:.1%}" for a in f["agreement"]],
                             _("valued at 1-ply"): f["unrolled"],
                             _("bias (mp)"): [f"+{abs(b):.1f}" for b in f["bias_mp"]]})

    def title(self) -> str:
        """The first line: policy, database and its size."""
        roll = self.settings.get("rollout", {})
        return _("{policy} against {path}: {positions} positions, {measured} measured "
                 "(rollouts: {rollout}, "
                 "{games} games a play, VR {vr}, truncated at {truncate} plies)").format(
            policy=self.policy, path=self.path, positions=self.positions,
            measured=len(self.decisions), rollout=roll.get("policy"),
            games=roll.get("games_per_play"), vr=_("on") if roll.get("vr") else _("off"),
            truncate=roll.get("truncate"))

    def notes(self) -> list[str]:
        """What the columns mean."""
        return [_("error: mean equity lost per decision against the rolled-out best, "
                  "in millipoints, ± its SE over "
                  "decisions; agreement: share of decisions where the policy chose the rolled-out "
                  "best (or a play as good)."),
                _("valued at 1-ply: choices outside the rolled-out plays, "
                  "valued by their 1-ply equity shifted by "
                  "the position's mean rollout-minus-1-ply offset."),
                _("bias: the rolled-out best is the best of noisy estimates, "
                  "so each error rate is biased high by "
                  "about this much (a bootstrap of the rollouts' SEs; docs/strength.md).")]

    def to_dict(self) -> dict:
        """Plain data for JSON: the summary rows, the database and its settings."""
        return {"policy": self.policy, "database": self.path, "positions": self.positions,
                "settings": self.settings, "phases": self.frame().to_dict(orient="records"),
                **provenance(self.policy)}


def measure_policy(bench: Benchmark, policy: str | Policy, *, phase: str | None = None,
                   seed: int = 2026, progress=None) -> BenchmarkResult:
    """`policy`'s choice in every decision of `bench` (those of `phase` only, when given) and its
    losses (module doc); `progress(done, total)` hears of each decision."""
    if phase is not None and phase not in PHASES:
        raise ArgumentError(f"{{phase}} must be one of {', '.join(PHASES)}, got {phase!r}")
    chooser = as_policy(policy)
    rules = rules_from_dict(bench.settings["rules"])
    valuation = money_valuation(rules)
    todo = [b for b in bench.positions if phase is None or b.phase == phase]
    if not todo:
        raise ArgumentError(f"the benchmark database {bench.path!r} has no "
                            f"{phase or ''} positions".replace("  ", " "))
    rng = np.random.default_rng([seed, 1])
    report = progress or (lambda done, total: None)
    decisions = []
    for n, b in enumerate(todo):
        turn = turn_of(b, rules, valuation, seed)
        chosen = format_position_id(turn.plays[chooser.pick(turn)].result)
        loss, rolled = loss_of(b, chosen)
        decisions.append(Decision(b.index, b.phase, chosen, loss, rolled and loss == 0.0, rolled,
                                  selection_bias(b, rng)))
        if n % 50 == 49 or n == len(todo) - 1:
            report(n + 1, len(todo))
    return BenchmarkResult(chooser.name, tuple(decisions), len(bench.positions), bench.path,
                           bench.settings)


@dataclass(frozen=True)
class Comparison:
    """Two policies measured on the same decisions: per phase, the mean of the per-decision
    difference in loss (first minus second) with its paired SE, which is smaller than either error
    rate's SE when their losses move together from position to position."""

    first: BenchmarkResult
    second: BenchmarkResult

    def frame(self) -> pd.DataFrame:
        """One row per phase present and one for all: decisions, both error rates, the difference
        ± its paired SE and its 95% interval (millipoints)."""
        rows = []
        phases = [p for p in PHASES if any(d.phase == p for d in self.first.decisions)]
        for phase in phases + ["all"]:
            pairs = [(a.loss, b.loss) for a, b in zip(self.first.decisions, self.second.decisions)
                     if phase in ("all", a.phase)]
            la, lb = (np.array(x) * MILLI for x in zip(*pairs))
            d = la - lb
            se = float(d.std(ddof=1) / math.sqrt(len(d))) if len(d) > 1 else float("nan")
            mean = float(d.mean())
            rows.append({"phase": phase, "decisions": len(d), "first_mp": float(la.mean()),
                         "second_mp": float(lb.mean()), "diff_mp": mean, "diff_se_mp": se,
                         "ci95_low_mp": mean - 1.96 * se, "ci95_high_mp": mean + 1.96 * se})
        return pd.DataFrame(rows)

    def table(self) -> pd.DataFrame:
        """The comparison as printed text columns (headers and phases in the language in use)."""
        f = self.frame()
        first, second = self.first.policy, self.second.policy
        if second == first:
            second += " (2)"      # a policy against itself: two columns all the same
        diffs = [f"{m:+.1f} ± {s:.1f}" if s == s else f"{m:+.1f}"
                 for m, s in zip(f["diff_mp"], f["diff_se_mp"])]
        intervals = [f"[{lo:+.1f}, {hi:+.1f}]" if lo == lo else ""
                     for lo, hi in zip(f["ci95_low_mp"], f["ci95_high_mp"])]
        return pd.DataFrame({_("phase"): [translate(p) for p in f["phase"]],
                             _("decisions"): f["decisions"],
                             first: [f"{v:.1f}" for v in f["first_mp"]],
                             second: [f"{v:.1f}" for v in f["second_mp"]],
                             _("difference (mp)"): diffs, _("95% interval"): intervals})

    def title(self) -> str:
        """The first line: both policies, the database and the decisions compared."""
        return _("{first} against {second} on {path}: {measured} decisions, each policy's loss on "
                 "the same decision paired").format(first=self.first.policy,
                                                    second=self.second.policy,
                                                    path=self.first.path,
                                                    measured=len(self.first.decisions))

    def notes(self) -> list[str]:
        """What the columns mean."""
        return [_("difference: the mean over decisions of the first policy's loss minus the "
                  "second's, in millipoints, ± the SE of that mean (paired: both policies on the "
                  "same positions); an interval without 0 separates the two.")]

    def to_dict(self) -> dict:
        """Plain data for JSON: both policies, the database and the rows."""
        return {"policy": self.first.policy, "against": self.second.policy,
                "database": self.first.path, "positions": self.first.positions,
                "phases": self.frame().to_dict(orient="records"),
                **provenance(self.first.policy, self.second.policy)}


def compare(first: BenchmarkResult, second: BenchmarkResult) -> Comparison:
    """The paired comparison of two measurements of the same decisions (`ArgumentError` when they
    differ)."""
    if [d.index for d in first.decisions] != [d.index for d in second.decisions]:
        raise ArgumentError(f"{first.policy!r} and {second.policy!r} were measured on different "
                            "decisions: measure both on the same database and phase")
    return Comparison(first, second)
