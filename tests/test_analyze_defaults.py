"""`nardy analyze` defaults (issue 27): forced plays are named, not rolled out; many plays are
ranked in stages; every stage reports progress; the staged output and chart say what their numbers
are."""

from __future__ import annotations

import json

from click.testing import CliRunner

from nardy_cli.commands.cli import cli
from nardy_cli.core.engine import legal_plays
from nardy_cli.core.position import Position
from nardy_cli.reports import charts
from nardy_cli.analysis.staged import STAGED_FROM, staged_rank

FORCED = "W:24x2 B:23,24x2 w 2-1"          # White's only play: both checkers off
EIGHT = "W:1x13,7,12 B:1x14,7 w 4-2"        # 8 distinct plays
FEW = "W:1x13,7,12 B:1x14,7 w 6-1"          # 4 distinct plays: fewer than STAGED_FROM
FAST = ["--games", "36", "--workers", "1", "-q", "--policy", "heuristic"]


def run(*args):
    return CliRunner().invoke(cli, list(args))


def test_a_forced_play_is_named_and_not_rolled_out():
    """Catches a roll with one legal play rolled out for 85 s (and a report of one play's
    rollout)."""
    res = run("analyze", FORCED, *FAST)
    assert res.exit_code == 0, res.output
    assert res.output == ("W:24x2 B:23,24x2 w   to play 2-1: forced, the only legal play is 24/off "
                          "24/off; nothing to roll out (--rollout-forced rolls it out anyway)\n")
    data = json.loads(run("analyze", FORCED, *FAST, "--format", "json").output)
    assert data == {"position": "W:24x2 B:23,24x2 w", "dice": "2-1", "forced": True,
                    "play": "24/off 24/off", "result": "W:- B:23,24x2 b"}


def test_rollout_forced_rolls_a_forced_play_out(tmp_path):
    """Catches --rollout-forced ignored."""
    res = run("analyze", FORCED, *FAST, "--rollout-forced", "--format", "json")
    assert res.exit_code == 0, res.output
    assert [p["play"] for p in json.loads(res.output)["plays"]] == ["24/off 24/off"]


def test_many_plays_are_ranked_in_stages_by_default_and_no_staged_rolls_out_every_play():
    """Catches the staged ranking not being the default for a roll with many plays, --no-staged
    ignored, or a roll with few plays sent through the stages (where the evaluator could drop a play
    unseen)."""
    assert len(legal_plays(Position.parse(EIGHT))) >= STAGED_FROM > len(
        legal_plays(Position.parse(FEW))) > 1
    staged = run("analyze", EIGHT, *FAST)
    assert staged.exit_code == 0 and "(staged: heuristic rollouts" in staged.output.splitlines()[0]
    full = run("analyze", EIGHT, *FAST, "--no-staged", "--format", "json")
    assert full.exit_code == 0 and len(json.loads(full.output)["plays"]) == 8
    few = run("analyze", FEW, *FAST, "--format", "json")
    assert few.exit_code == 0 and "stages" not in json.loads(few.output)
    assert "--top and --staged do not combine" in run("analyze", EIGHT, *FAST, "--staged", "--top",
                                                      "2").output
    # --top: every play
    assert run("analyze", EIGHT, *FAST, "--top", "2", "--format", "json").exit_code == 0


def test_staged_output_says_which_figure_is_an_equity_and_which_a_difference():
    """Catches the best play's equity and the dropped plays' differences printed side by side
    unnamed."""
    lines = run("analyze", EIGHT, *FAST, "--filter", "0.05,top1").output.splitlines()
    assert lines[1].startswith("0-ply (filter 0.05): ") and ", has equity +" in lines[1]
    assert lines[1].endswith(" (by the evaluator)")
    assert lines[2].startswith("  dropped (more than 0.05 behind the best), each with its "
                               "difference to the best: ")
    assert any(line.startswith("rollouts (common dice): equity is each play's equity for the mover")
               and
               "diff its difference to the best play" in line for line in lines)


def test_every_stage_reports_progress():
    """Catches stages that run silently (the 0-ply and 1-ply stages, and a rollout round reported
    only at its end: `--staged --policy lookahead:heuristic` ran 29 minutes with no progress
    bar)."""
    calls = []
    staged_rank(Position.parse(EIGHT), None, "heuristic", games=72, until_se=None,
                filters=("0.3", "top2"), workers=1, progress=lambda stage, done,
                total: calls.append((stage, done, total)))
    stages = list(dict.fromkeys(c[0] for c in calls))
    assert stages == ["0-ply", "1-ply", "rollouts"]
    assert calls[[c[0] for c in calls].index("1-ply") - 1] == ("0-ply", 8, 8)
    rollouts = [c for c in calls if c[0] == "rollouts"]
    assert rollouts[0] == ("rollouts", 0, 72) and rollouts[-1] == ("rollouts", 72, 72)
    ones = [c for c in calls if c[0] == "1-ply"]
    assert len(ones) == ones[-1][2] > 1, "the 1-ply stage reports each play"


def test_ranking_chart_subtitle_does_not_claim_every_play_had_the_survivors_games():
    """Catches the subtitle '12,960 games per play' on a chart whose dropped plays had 1,296."""
    plays = [{"play": "a", "games": 2592, "diff": 0.0, "diff_se": 0.0, "equity": 0.2,
              "dropped_after": None},
             {"play": "b", "games": 1296, "diff": -0.3, "diff_se": 0.05, "equity": -0.1,
              "dropped_after": 1296}]
    fig = charts.ranking_chart({"position": "W:1x15 B:1x15 w", "dice": "6-5", "plays": plays,
                                "params": {"policies": {"white": "neural", "black": "neural"}}})
    subtitle = fig.axes[0].get_title()
    assert "2,592 games per play, 1,296 for the plays dropped first" in subtitle
    same = charts.ranking_chart({"position": "W:1x15 B:1x15 w", "dice": "6-5", "plays": plays[:1],
                                 "params": {}})
    assert same.axes[0].get_title() == "2,592 games per play"


class _Terminal:
    """A stand-in stderr that is a terminal and keeps what is written."""

    def __init__(self) -> None:
        self.text = ""

    def isatty(self) -> bool:
        return True

    def write(self, s: str) -> int:
        self.text += s
        return len(s)

    def flush(self) -> None:
        pass


def test_the_rollout_stage_bar_shows_before_its_first_job_ends(monkeypatch):
    """Catches a staged analysis that shows nothing until a slow policy's first job of 1,296 games
    ends (minutes with lookahead:heuristic), and stage bars that are not labelled by their stage."""
    from nardy_cli.commands import progress
    fake = _Terminal()
    monkeypatch.setattr(progress.sys, "stderr", fake)
    bars = progress.StageBars("analyze", True)
    bars("rollouts", 0, 2592)
    assert "analyze rollouts" in fake.text and "0/2592" in fake.text
    bars.close()
