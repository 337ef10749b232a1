"""The 95% interval of every win share nardy prints (issue 41, item 7): Wilson's score interval,
right at the edges, where p ± 1.96 SE collapses to a point."""

from __future__ import annotations

import math

import pytest
from click.testing import CliRunner

from nardy_cli.commands.cli import cli
from nardy_cli.games.stats import share_ci95, wilson_interval


def test_wilson_interval_matches_the_formula_at_the_edges_and_inside():
    """Catches a normal-approximation interval (40 wins of 40: [1, 1]) or a Wilson formula with a
    wrong term: all wins must give [n / (n + z²), 1], none [0, z² / (n + z²)], and 50 of 100 the
    textbook [0.4038, 0.5962]."""
    z2 = 1.96 ** 2
    assert wilson_interval(1.0, 40) == pytest.approx((40 / (40 + z2), 1.0))
    assert wilson_interval(0.0, 40) == pytest.approx((0.0, z2 / (40 + z2)))
    assert wilson_interval(0.5, 100) == pytest.approx((0.4038, 0.5962), abs=1e-4)
    assert wilson_interval(0.0, 0) == (0.0, 1.0)


def test_share_interval_keeps_a_paired_se_inside_and_the_count_at_the_edges():
    """Catches the effective number of trials misused: inside (0, 1) the interval must be close
    to p ± 1.96 SE (the paired dice's gain kept), at an edge (SE 0) Wilson's over the count."""
    lo, hi = share_ci95(0.6, 0.02, 100)
    assert lo == pytest.approx(0.6 - 1.96 * 0.02, abs=3e-3)
    assert hi == pytest.approx(0.6 + 1.96 * 0.02, abs=3e-3)
    assert share_ci95(1.0, 0.0, 40) == wilson_interval(1.0, 40)
    assert share_ci95(0.0, math.nan, 2) == wilson_interval(0.0, 2)


def test_a_match_duel_won_every_time_has_an_interval_below_100_percent():
    """Catches `nardy duel --match` reporting a 95% interval [100%, 100%] with SE 0 when one side
    won every match."""
    out = CliRunner().invoke(cli, ["duel", "neural", "random", "--match", "3", "--matches", "5",
                                   "--workers", "1", "-q", "--format", "json"])
    assert out.exit_code == 0, out.output
    import json
    result = json.loads(out.output)
    assert result["match_win_share"] == 1.0 and result["se"] == 0.0
    assert result["ci95"] == pytest.approx([10 / (10 + 1.96 ** 2), 1.0])
    table = CliRunner().invoke(cli, ["duel", "neural", "random", "--match", "3", "--matches", "5",
                                     "--workers", "1", "-q"]).output
    assert "match wins for neural: 100.00%  95% CI [72.25%, 100.00%]  SE 0.00%" in table


def test_a_duel_prints_the_win_share_with_its_interval():
    """Catches a duel's game win share printed without an interval, or with one that is not
    Wilson's (outside [0, 1], or empty when every game was won)."""
    args = ["duel", "heuristic", "random", "--games", "40", "--workers", "1", "-q"]
    import json
    result = json.loads(CliRunner().invoke(cli, args + ["--format", "json"]).output)
    lo, hi = result["win_ci95"]
    assert 0.0 <= lo < result["win_share"] <= hi <= 1.0
    line = CliRunner().invoke(cli, args).output.splitlines()[2]
    assert line.startswith(f"wins {result['win_share']:.2%}  95% CI [{lo:.2%}, {hi:.2%}]")
