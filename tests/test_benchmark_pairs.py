"""The benchmark's paired comparison (issue 25): two policies' losses on the same decisions."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from nardy_cli.benchmark.measure import compare, measure_policy
from nardy_cli.commands.cli import cli
from nardy_cli.core.errors import ArgumentError

from .test_benchmark import PlaysNumber, made_up_database


@pytest.fixture(scope="module")
def made_up(tmp_path_factory):
    return made_up_database(tmp_path_factory.mktemp("pairs") / "bench.jsonl.gz")


def test_a_policy_against_itself_differs_by_exactly_nothing(made_up):
    """Bug: the differences paired across different decisions (one list shifted or reversed),
    which gives a non-zero mean or SE for a policy compared with itself (neural's losses differ
    from decision to decision)."""
    f = compare(measure_policy(made_up, "neural"), measure_policy(made_up, "neural")).frame()
    assert (f["diff_mp"] == 0.0).all() and (f["diff_se_mp"].fillna(0.0) == 0.0).all()


def test_the_difference_is_the_first_policys_loss_minus_the_seconds(made_up):
    """Bug: the difference taken the other way round (second minus first): play 3 loses 0.11 and
    play 2 0.12 at every decision, so 3 against 2 is -10 mp with no spread."""
    third = measure_policy(made_up, PlaysNumber(3))
    f = compare(third, measure_policy(made_up, PlaysNumber(2))).frame()
    row = f.set_index("phase").loc["all"]
    assert (row["first_mp"], row["second_mp"]) == (pytest.approx(110.0), pytest.approx(120.0))
    assert row["diff_mp"] == pytest.approx(-10.0)
    assert row["diff_se_mp"] == pytest.approx(0.0, abs=1e-9)


def test_measurements_of_different_decisions_are_not_paired(made_up):
    """Bug: two measurements of different phases paired decision by decision, position i of one with
    position i of the other."""
    phase = made_up.positions[0].phase
    with pytest.raises(ArgumentError, match="measured on different decisions"):
        compare(measure_policy(made_up, PlaysNumber(1), phase=phase),
                measure_policy(made_up, PlaysNumber(1)))


PAIRED = """\
neural against neural on {path}: 6 decisions, each policy's loss on the same decision paired

  phase  decisions neural neural (2) difference (mp) 95% interval
contact          1  170.0      170.0            +0.0{gap}
blocked          2  220.0      220.0      +0.0 ± 0.0 [+0.0, +0.0]
   race          1  920.0      920.0            +0.0{gap}
bearoff          1  230.0      230.0            +0.0{gap}
opening          1  230.0      230.0            +0.0{gap}
    all          6  331.7      331.7      +0.0 ± 0.0 [+0.0, +0.0]

difference: the mean over decisions of the first policy's loss minus the second's, in \
millipoints, ± the SE of that mean (paired: both policies on the same positions); an interval \
without 0 separates the two.
"""


def test_benchmark_against_prints_the_paired_table(made_up):
    """Bugs: --against ignored (one policy's table printed), a policy against itself shown in one
    column (the two headers the same name), or the paired rows lost from the JSON."""
    out = CliRunner().invoke(cli, ["benchmark", "--db", made_up.path, "--policy", "neural",
                                   "--against", "neural", "-q"])
    assert out.exit_code == 0, out.output
    # gap: the empty interval cells of the phases with one decision
    assert out.output == PAIRED.format(path=made_up.path, gap=" " * 13)
    out = CliRunner().invoke(cli, ["benchmark", "--db", made_up.path, "--against", "heuristic",
                                   "--format", "json", "-q"])
    data = json.loads(out.output)
    assert (out.exit_code, data["policy"], data["against"]) == (0, "neural", "heuristic")
    assert data["phases"][-1]["phase"] == "all" and data["phases"][-1]["decisions"] == 6
