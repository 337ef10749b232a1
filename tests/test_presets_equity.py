"""Rules presets (RULES.md §7), points tables, and equity = Σ P(win by c) x points(c) − Σ P(loss by
c) x points(c)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from nardy_cli.commands.cli import cli
from nardy_cli.core.position import parse_position
from nardy_cli.analysis.rollout import rollout
from nardy_cli.core.rules import Points, make_rules

CLASSES = ("oin", "home_mars", "mars", "koks")

# Where every class occurs (see tests/test_endgame_oracle.py for the drawings):
WINS_EVERY_CLASS = "W:21,22 B:12,24x14 w"    # White (to move) wins by oin, home-mars, mars or koks
LOSES_EVERY_CLASS = "W:6,24x14 B:20,23 w"    # White (to move) loses by each class
DRAWS = "W:24x2 B:23,24x2 w"                  # a draw on the last roll in 6 of 36 rolls


def _equity_from_probabilities(probabilities: dict, points: Points) -> float:
    pts = dict(zip(CLASSES, points.as_tuple()))
    return (sum(probabilities[f"win_{c}"] * pts[c] for c in CLASSES)
            - sum(probabilities[f"lose_{c}"] * pts[c] for c in CLASSES))


def test_presets_are_the_table_of_rules_md():
    """Catches a preset with a wrong option or points value (§7 table)."""
    expected = {
        "federation": ("federation", "step", True, (1, 2, 2, 2)),
        "classic": ("doubles-643", "turn-end", False, (1, 2, 2, 2)),
        "extended": ("doubles-643", "turn-end", False, (1, 3, 2, 4)),   # oin, home-mars, mars, koks
    }
    for name, (head, block, last, points) in expected.items():
        r = make_rules(name)
        assert (r.head_rule, r.block_check, r.last_roll, r.points.as_tuple()) == (head, block, last,
                                                                                  points), name


@pytest.mark.parametrize("preset, points",
                         [("federation", None), ("classic", None), ("extended", None),
                          ("federation", "oin=1,home-mars=5,mars=3,koks=7"),
                          ("extended", "koks=10")])
@pytest.mark.parametrize("text", [WINS_EVERY_CLASS, LOSES_EVERY_CLASS, DRAWS])
def test_equity_is_the_points_weighted_sum_of_the_class_probabilities(preset, points, text):
    """Catches equity computed with the wrong points table, a class scored for the wrong side, or a
    draw scored."""
    rules = make_rules(preset, points=points)
    r = rollout(parse_position(text), "random", games=1296, seed=8, rules=rules)
    expected = _equity_from_probabilities(r.probabilities, rules.points)
    assert r.equity == pytest.approx(expected, abs=1e-8)   # fixed-point sums round at about 1e-10
    assert r.params["rules"]["points"] == dict(zip(("oin", "home-mars", "mars", "koks"),
                                                   rules.points.as_tuple()))


def test_points_change_equity_and_nothing_else():
    """Catches a points override that changes play or probabilities, or that is ignored.

    classic and extended share every rule but the points, so the same seed plays the same games.
    """
    pos = parse_position(LOSES_EVERY_CLASS)
    classic = rollout(pos, "random", games=2592, seed=4, rules=make_rules("classic"))
    extended = rollout(pos, "random", games=2592, seed=4, rules=make_rules("extended"))
    assert classic.probabilities == extended.probabilities
    p = classic.probabilities
    assert min(p["lose_home_mars"],
               p["lose_koks"]) > 0.05, "the position must exercise the differing classes"
    # extended scores home-mars 3 (not 2) and koks 4 (not 2)
    assert (extended.equity
            - classic.equity == pytest.approx(-(p["lose_home_mars"] * 1 + p["lose_koks"] * 2)))


def test_points_override_on_the_command_line():
    """Catches --points dropped between the command line and the rollout, or applied to the wrong
    class."""
    base = ["rollout", WINS_EVERY_CLASS, "--games", "1296", "--workers", "1", "--seed", "2",
            "--format", "json"]
    plain = json.loads(CliRunner().invoke(cli, base).output)
    out = CliRunner().invoke(cli, base + ["--rules", "extended", "--points", "koks=9,oin=0.5"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["params"]["rules"]["preset"] == "extended"
    assert data["params"]["rules"]["points"] == {"oin": 0.5, "home-mars": 3, "mars": 2, "koks": 9}
    p = data["probabilities"]
    assert data["equity"] == pytest.approx(0.5 * p["win_oin"] + 3 * p["win_home_mars"]
                                           + 2 * p["win_mars"]
                                           + 9 * p["win_koks"], abs=1e-8)
    assert p["win_koks"] > 0.3 and data["equity"] > plain["equity"] + 1.0
