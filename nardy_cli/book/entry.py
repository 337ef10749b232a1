"""One book entry: a decision judged by the staged ranking, or a position valued by a rollout.

An entry is plain data (it goes into the book file as one JSON line): the decision, its plays
best first with their figures and verdicts, and its provenance.  Each play says how it was judged:

- `rollout`: rolled out (common dice, variance reduction, truncation as the entry states): equity,
  SE, the difference to the best and its SE;
- `2-ply`, `1-ply`, `0-ply`: the deepest stage of the staged ranking it reached (the rollouts ran
  only when that stage could not separate the best from the rest): the stage's equity, and the
  difference to the stage's best;
- `forced`: the roll's only play (its equity is the network's 0-ply figure).

Verdicts: `best`; `close` (rolled out and within 1.96 paired SE of the best: "too close to
call"); `error` with `loss`, the equity it gives up.  Outcome chances are the rollout's for a
rolled play, the network's (0-ply) otherwise (`chances_by`); the deficit figures are the static
move deficits (docs/rules.md §8) of the position after the play, of the opponent who moves next
and of the player who made it.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

import numpy as np

from .. import __version__
from ..analysis.deficit import static_deficit
from ..analysis.staged import staged_rank
from ..core.engine import legal_plays
from ..core.outcomes import PROB_KEYS
from ..core.position import Position
from ..core.rules import Rules
from ..games.scoring import Scoring
from ..games.stats import INDICATORS
from .tree import Decision

# a rolled-out play this many paired SEs or fewer from the best is "too close to call"
CLOSE_Z = 1.96


@dataclass(frozen=True)
class BookSettings:
    """How a depth of the book is judged (its provenance, with the network's hash and the rules).

    The staged ranking's `filters` (0-ply to 1-ply, 1-ply to 2-ply, 2-ply to rollouts: a play
    more than the last margin behind the best at 2-ply is separated from it); rollouts of `games`
    games per play (at most; `until_se` may stop them sooner), truncated after `truncate` plies
    (None: played out), with variance reduction; `exchange_games` for each position after the first
    exchange; one `seed` for every entry (common dice within an entry)."""

    policy: str = "neural"
    filters: tuple[str, ...] = ("0.25", "0.08", "0.04")
    games: int = 648
    until_se: float | None = None
    truncate: int | None = 8
    vr: bool = True
    exchange_games: int = 1296
    seed: int = 20261205
    deficits: bool = True
    extra: dict = field(default_factory=dict)

    def scoring(self) -> Scoring:
        """The rollouts' scoring options."""
        return Scoring(truncate=self.truncate, vr=self.vr)

    def to_dict(self) -> dict:
        """Plain data for the book's provenance."""
        return {"policy": self.policy, "filters": list(self.filters), "games": self.games,
                "until_se": self.until_se, "truncate": self.truncate, "vr": self.vr,
                "exchange_games": self.exchange_games, "seed": self.seed}

    @classmethod
    def from_dict(cls, data: dict) -> "BookSettings":
        """The settings `to_dict` wrote."""
        return cls(**{**data, "filters": tuple(data["filters"])})


def network_hash(policy: str) -> str | None:
    """The 16-hex digest of the policy's network weights (`Network.record()`), None without one."""
    from ..kernels.evaluate import NEURAL
    from ..policies.network import default_network
    from ..policies.registry import resolve
    evaluator = getattr(resolve(policy), "evaluator", None)
    kernel = getattr(evaluator, "kernel", None)
    if getattr(kernel, "kind", None) != NEURAL:
        return None
    return (kernel.network or default_network()).record()["sha256"]


def provenance(settings: BookSettings, rules: Rules, net: str | None) -> dict:
    """What every entry carries to be re-run: settings, network hash, rules, version, date."""
    return {**settings.to_dict(), "network": net, "rules": rules.to_dict(),
            "version": __version__, "date": dt.date.today().isoformat()}


def _deficits(result: Position, rules: Rules) -> dict:
    """The static deficits after a play: of the opponent to move and of the player who made it."""
    opp = static_deficit(result, rules)
    mover = "b" if result.turn == "w" else "w"
    own = static_deficit(Position.unchecked(result.white, result.black, mover), rules)
    return {"opp_lost_pips": round(opp.expected_lost_pips, 4), "opp_p_pass": round(opp.p_pass, 4),
            "own_lost_pips": round(own.expected_lost_pips, 4), "own_p_pass": round(own.p_pass, 4)}


def _mover_boards(results: list[Position]) -> tuple[np.ndarray, bool]:
    """The results as boards of the player who made the plays (the side not to move), and whether
    that player is White."""
    mover = "b" if results[0].turn == "w" else "w"
    return (np.stack([Position.unchecked(p.white, p.black, mover).board()[0] for p in results]),
            mover == "w")


def _chances(results: list[Position], rules: Rules) -> list[dict]:
    """The network's 0-ply outcome chances of each result, for the player who made the play."""
    from ..policies.analysis import NEURAL_EVALUATOR
    boards, white = _mover_boards(results)
    probs = NEURAL_EVALUATOR.outcome_probabilities(boards, np.full(len(boards), white), rules)
    probs = np.pad(probs, ((0, 0), (0, len(INDICATORS["win"]) - probs.shape[1])))
    return [{k: float(row @ INDICATORS[k]) for k in PROB_KEYS} for row in probs]


def _round(d: dict) -> dict:
    return {k: (round(v, 5) if isinstance(v, float) else v) for k, v in d.items()}


def judge(decision: Decision, settings: BookSettings, rules: Rules, net: str | None) -> dict:
    """The book entry of one decision (plain data)."""
    base = {"key": decision.key, "depth": decision.depth, "position": str(decision.position),
            "dice": str(decision.dice) if decision.dice else None,
            "provenance": provenance(settings, rules, net)}
    if decision.dice is None:
        return base | _valued(decision.position, settings, rules)
    plays = legal_plays(decision.position, decision.dice, rules)
    if len(plays) == 1:
        chances = _chances([plays[0].result], rules)[0]
        from ..policies.analysis import NEURAL_EVALUATOR
        boards, white = _mover_boards([plays[0].result])
        eq = float(NEURAL_EVALUATOR.equities(boards, np.array([white]), rules)[0])
        row = {"play": str(plays[0]), "result": str(plays[0].result), "method": "forced",
               "equity": eq, "verdict": "best", "loss": 0.0, **chances, "chances_by": "0-ply"}
        if settings.deficits:
            row |= _deficits(plays[0].result, rules)
        return base | {"method": "forced", "plays": [_round(row)]}
    ranking = staged_rank(decision.position, decision.dice, settings.policy, rules=rules,
                          filters=settings.filters, scoring=settings.scoring(),
                          games=settings.games, until_se=settings.until_se, seed=settings.seed,
                          close_only=decision.depth != "white-1")
    rows = _rows(ranking)
    results = {str(p): p.result for p in plays}
    chances = _chances([results[r["play"]] for r in rows], rules)
    for row, ch in zip(rows, chances):
        if row["method"] != "rollout":
            row.update(ch)
            row["chances_by"] = "0-ply"
        if settings.deficits:
            row.update(_deficits(results[row["play"]], rules))
        row["result"] = str(results[row["play"]])
    rolled = [r for r in rows if r["method"] == "rollout"]
    method = (f"rollout ({rolled[0]['games']} games a play)" if rolled
              else rows[0]["method"])
    return base | {"method": method, "plays": [_round(r) for r in rows],
                   "interrupted": bool(ranking.params.get("interrupted"))}


def _rows(ranking) -> list[dict]:
    """Every play of a staged ranking, best first: the rolled-out ones by their rollout, the others
    by the deepest stage they reached."""
    rows, seen = [], set()
    for p in ranking.plays:
        row = {"play": p.play, "method": "rollout", "games": p.games, "equity": p.equity,
               "equity_se": p.equity_se, "diff": p.diff, "diff_se": p.diff_se,
               **p.probabilities, "chances_by": "rollout"}
        if p.diff == 0.0 and not rows:
            row |= {"verdict": "best", "loss": 0.0}
        elif p.dropped_after is None and -p.diff <= CLOSE_Z * p.diff_se:
            row |= {"verdict": "close", "loss": -p.diff}
        else:
            row |= {"verdict": "error", "loss": -p.diff}
        rows.append(row)
        seen.add(p.play)
    for stage in reversed(ranking.stages):
        best = stage.scores[0][1]
        for play, score in stage.scores:
            if play in seen:
                continue
            diff = score - best
            verdict = "best" if not rows else "error"
            rows.append({"play": play, "method": stage.name, "equity": score, "diff": diff,
                         "verdict": verdict, "loss": -diff if verdict == "error" else 0.0})
            seen.add(play)
    return rows


def _valued(position: Position, settings: BookSettings, rules: Rules) -> dict:
    """A position before its roll (the first exchange's positions), valued by a rollout."""
    from ..analysis.rollout import rollout
    r = rollout(position, settings.policy, rules=rules, scoring=settings.scoring(),
                games=settings.exchange_games, seed=settings.seed)
    row = {"method": "rollout", "games": r.games, "equity": r.equity, "equity_se": r.equity_se,
           **r.probabilities}
    return {"method": f"rollout ({r.games} games)", "value": _round(row),
            "interrupted": r.interrupted}
