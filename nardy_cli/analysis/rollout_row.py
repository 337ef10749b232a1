"""The one flat row of a rollout result: its columns, in order, for CSV output and report tables.

A row is built from a result's JSON object (`RolloutResult.to_dict()`, or the same
object read back from a report's results.json), one group of columns after the
other. `RolloutResult.summary_row` (`nardy rollout --format csv`, batch tables)
writes every group; a report's results.csv writes the groups marked `in_report`,
leaving out the standard error of each outcome and the match and cube figures.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ..core.outcomes import PROB_KEYS

CUBE_FIELDS = ("equity", "equity_se", "doubled_share", "passed_share")


def _head(r: dict) -> dict:
    return {"name": r.get("name") or "", "position": r["position"], "games": r["games"],
            "equity": r["equity"], "equity_se": r["equity_se"]}


def policy_columns(params: dict) -> dict:
    """`white_policy` and `black_policy`: the policies a result's games were played by, from its
    `params.policies` (a pair, or one name for both sides)."""
    policies = params.get("policies")
    if isinstance(policies, dict):
        return {"white_policy": policies.get("white"), "black_policy": policies.get("black")}
    return {"white_policy": policies, "black_policy": policies}


def _policies(r: dict) -> dict:
    return policy_columns(r["params"])


def _match(r: dict) -> dict:
    return {"mwc": r["mwc"], "mwc_se": r["mwc_se"]} if "mwc" in r else {}


def _probabilities(r: dict) -> dict:
    return {k: r["probabilities"][k] for k in PROB_KEYS}


def _standard_errors(r: dict) -> dict:
    return {f"se_{k}": r["se"][k] for k in PROB_KEYS}


def _cube(r: dict) -> dict:
    return {f"cube_{k}": r["cube"][k] for k in CUBE_FIELDS} if "cube" in r else {}


def _tail(r: dict) -> dict:
    row = {"mean_plies": r["mean_plies"]}
    for side in ("white", "black"):
        row[f"{side}_lost_pips_per_game"] = r["deficit"][side]["lost_pips_per_game"]
        row[f"{side}_pass_share"] = r["deficit"][side]["pass_share"]
    return row | {"interrupted": r["interrupted"]}


@dataclass(frozen=True)
class ColumnGroup:
    """Columns of a row drawn from one part of the result (none when the result lacks that part)."""

    name: str
    columns: Callable[[dict], dict]
    in_report: bool


ROLLOUT_ROW = (ColumnGroup("head", _head, True), ColumnGroup("policies", _policies, True),
               ColumnGroup("match", _match, False),
               ColumnGroup("probabilities", _probabilities, True),
               ColumnGroup("standard errors", _standard_errors, False),
               ColumnGroup("cube", _cube, False), ColumnGroup("plies, deficit", _tail, True))


def rollout_row(result: dict, *, report: bool = False) -> dict:
    """One flat row of a rollout's JSON object: every column, or with `report` the report's."""
    row: dict = {}
    for group in ROLLOUT_ROW:
        if group.in_report or not report:
            row |= group.columns(result)
    return row
