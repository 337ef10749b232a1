"""A staged analysis confirms the best few side by side (issue 41, item 3): at least the best two
plays (and every play tied with the second) go through every stage and are rolled out to the
end, and the output says which plays were dropped at which stage and why."""

from __future__ import annotations

import json

import numpy as np
from click.testing import CliRunner

from nardy_cli.analysis.staged import LEAST_KEPT, StageFilter, staged_rank
from nardy_cli.commands.cli import cli
from nardy_cli.core.position import Position

EIGHT = "W:1x13,7,12 B:1x14,7 w 4-2"        # 8 distinct plays


def test_a_filter_keeps_at_least_the_best_two_with_ties():
    """Catches a stage filter that sends a single play on (a margin of 0.05 around a clear best),
    or that splits plays tied with the second."""
    scores = np.array([0.1, 0.5, 0.2, 0.2, -0.3])
    assert StageFilter.parse("0.05").keep(scores).tolist() == [1]
    assert StageFilter.parse("0.05").keep(scores, LEAST_KEPT).tolist() == [1, 2, 3]
    assert StageFilter.parse("top1").keep(scores, LEAST_KEPT).tolist() == [1, 2, 3]
    assert StageFilter.parse("0.45").keep(scores, LEAST_KEPT).tolist() == [1, 2, 3, 0]
    assert StageFilter.parse("0.05").keep(np.array([0.3]), LEAST_KEPT).tolist() == [0]


def test_the_best_two_reach_the_end_of_the_rollouts():
    """Catches a staged analysis that rolls out one play to the end (the filters, or the rollouts'
    early stop, leaving the best play with nothing beside it)."""
    ranking = staged_rank(Position.parse(EIGHT), None, "neural", games=2592, until_se=None,
                          filters=("0.0", "0.0"), workers=1)
    assert [s.name for s in ranking.stages] == ["0-ply", "1-ply"]
    for stage in ranking.stages:
        assert len(stage.kept) >= 2 and set(stage.floor) <= set(stage.kept)
        assert len(stage.floor) == len(stage.kept) - 1      # a margin of 0 keeps only the best
    finished = [p for p in ranking.plays if p.dropped_after is None]
    assert len(finished) >= 2 and all(p.games == 2592 for p in finished)


def test_the_rollouts_never_drop_the_runner_up():
    """Catches the rollouts' early stop (3 paired SE behind the best) taking the second-best play
    out, so a coach sees one play confirmed."""
    # head-tempo 6-3: without the floor the runner-up, 2/8 1/4, stops after 3,888 of 5,184 games
    head_tempo = Position.parse("W:1x13,2,16 B:1x12,5,6,15 w")
    ranking = staged_rank(head_tempo, "6-3", "heuristic", games=5184, until_se=None,
                          filters=("top8", "top8"), workers=1)
    finished = [p for p in ranking.plays if p.dropped_after is None]
    assert len(finished) >= 2
    assert any(p.dropped_after is not None for p in ranking.plays), "nothing to drop: no test"
    assert ranking.plays[1].dropped_after is None and ranking.plays[1].games == 5184


def test_the_output_says_what_was_dropped_where_and_why():
    """Catches a staged table that drops plays without saying at which stage and for what
    reason, or that keeps a play by the two-play floor without saying so."""
    def lines(*args):
        out = CliRunner().invoke(cli, ["analyze", EIGHT, "--workers", "1", "-q", *args])
        assert out.exit_code == 0, out.output
        return out.output.splitlines()
    floor = lines("--games", "36", "--policy", "neural", "--filter", "0.02,top8")
    assert floor[2].startswith("  dropped (more than 0.02 behind the best), each with its "
                               "difference to the best: ")
    assert floor[3] == ("  kept though the filter drops them (the best two always go on): "
                        "12/16 1/3 -0.032")
    rolled = lines("--games", "2592", "--policy", "heuristic", "--filter", "top8,top8")
    drops = [line for line in rolled if line.startswith("rollouts: dropped when more than 3 paired "
                                                        "standard errors behind the play then "
                                                        "leading, on the same games: ")]
    assert drops == ["rollouts: dropped when more than 3 paired standard errors behind the play "
                     "then leading, on the same games: 12/16 7/9 after 1,296 games, "
                     "12/16 16/18 after 1,296 games, 1/5 5/7 after 1,296 games"]
    data = json.loads(CliRunner().invoke(cli, ["analyze", EIGHT, "--games", "36", "--workers", "1",
                                               "-q", "--policy", "neural", "--filter",
                                               "0.02,top8", "--format", "json"]).output)
    assert data["stages"][0]["floor"] == ["12/16 1/3"]


def test_the_ranking_chart_shows_a_runner_up_bar_that_reaches_past_zero():
    """Catches the ranking chart cutting off the right end of a close runner-up's error bar (its
    95% interval reaching past 0), which the best two rolled out side by side often have."""
    from nardy_cli.reports import charts
    plays = [{"play": "a", "games": 1296, "diff": 0.0, "diff_se": 0.0, "equity": -0.43,
              "dropped_after": None},
             {"play": "b", "games": 1296, "diff": -0.02, "diff_se": 0.04, "equity": -0.45,
              "dropped_after": None}]
    fig = charts.ranking_chart({"position": "W:1x15 B:1x15 w", "dice": "6-3", "plays": plays,
                                "params": {"policies": {"white": "neural", "black": "neural"}}})
    low, high = fig.axes[0].get_xlim()
    assert low < -0.02 - 1.96 * 0.04 and high > -0.02 + 1.96 * 0.04
