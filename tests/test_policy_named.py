"""The first answer is a good one (issue 41, item 1): `rollout` plays `neural` unless told
otherwise, as `analyze`, `openings`, `batch` and `review` do, and every table, CSV, report and JSON
object names the policies its games were played by."""

from __future__ import annotations

import csv
import io
import json

import pytest
from click.testing import CliRunner

from nardy_cli.commands.cli import cli

POS = "W:1x14,12 B:1x15 b"
FAST = ["--games", "36", "--workers", "1", "-q"]


def run(*args):
    out = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert out.exit_code == 0, out.output
    return out.output


def test_rollout_plays_neural_by_default():
    """Catches `nardy rollout POSITION` (the README's first example) rolling out with the random
    policy, whose figures mean nothing for play."""
    assert "neural (White) vs neural (Black)" in run("rollout", POS, *FAST).splitlines()[1]
    data = json.loads(run("rollout", POS, *FAST, "--format", "json"))
    assert data["params"]["policies"] == {"white": "neural", "black": "neural"}
    from nardy_cli.analysis.rollout import rollout
    assert rollout.__defaults__[0] == "neural"


def test_random_stays_one_option_away():
    """Catches `--policy random` refused or not named once neural is the default."""
    assert "random (White) vs random (Black)" in run("rollout", POS, *FAST, "--policy",
                                                     "random").splitlines()[1]


@pytest.mark.parametrize("args", [
    ["rollout", POS],
    ["batch", "positions/study.txt"],
    ["analyze", "W:1x13,7,12 B:1x14,7 w", "--dice", "4-2"],                 # staged
    ["analyze", "W:1x13,7,12 B:1x14,7 w", "--dice", "4-2", "--no-staged"],
    ["openings", "--rolls", "65"],
])
def test_every_csv_names_the_policies(args):
    """Catches a CSV of rollouts (rollout, batch, analyze, openings) that does not say which
    policies played its games: a figure without the bot behind it."""
    rows = list(csv.DictReader(io.StringIO(run(*args, *FAST, "--policy", "heuristic",
                                               "--format", "csv"))))
    assert rows and all(r["white_policy"] == r["black_policy"] == "heuristic" for r in rows)


def test_the_openings_table_names_its_policy():
    """Catches the openings table printing figures with no policy on stdout (it was only in a
    timing line on stderr)."""
    first = run("openings", "--rolls", "65", *FAST, "--policy", "heuristic").splitlines()[0]
    assert first.startswith("White's equity and chances by heuristic rollouts, seed 20261129, "
                            "federation rules")


@pytest.mark.parametrize("args", [["rollout", POS],
                                  ["analyze", "W:1x13,7,12 B:1x14,7 w", "--dice", "4-2"],
                                  ["openings", "--rolls", "65"]])
def test_report_csv_names_the_policies(args, tmp_path):
    """Catches a report folder whose results.csv leaves out the policies (report.md names them)."""
    run(*args, *FAST, "--policy", "racer", "--output", str(tmp_path / "r"))
    rows = list(csv.DictReader(open(tmp_path / "r" / "results.csv", encoding="utf-8")))
    assert rows and all(r["white_policy"] == r["black_policy"] == "racer" for r in rows)
    assert "racer" in (tmp_path / "r" / "report.md").read_text()
