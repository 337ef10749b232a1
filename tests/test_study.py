"""Study tools: rankings, opening tables, batch runs, reports, charts and board diagrams."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from nardy_cli import ALL_ROLLS, START, legal_plays, parse_position
from nardy_cli.commands.cli import cli
from nardy_cli.reports.folder import json_data, rollout_data
from nardy_cli.analysis.rollout import rollout
from nardy_cli.analysis.analyze import rank_plays
from nardy_cli.reports.board_figure import draw_board
from nardy_cli.analysis.openings import opening_table
from nardy_cli.reports.report import chart_kinds, regenerate

MIDGAME = parse_position("W:1x13,7,12 B:1x14,7 w")


def run(*args):
    return CliRunner().invoke(cli, list(args))


def test_ranking_is_reproducible_and_sorted(pool_submits):
    """Catches a ranking that depends on the worker count, is unsorted, or misses a legal play."""
    a = rank_plays(MIDGAME, "4-2", "heuristic", games=300, seed=5)
    b = rank_plays(MIDGAME, "4-2", "heuristic", games=300, seed=5, workers=2)
    assert len(pool_submits) >= 2, "every play is its own job: the pool must have run several"
    assert [str(p.play) for p in a.plays] == [str(p.play) for p in b.plays]
    assert a.to_dict() == b.to_dict()
    eq = [p.equity for p in a.plays]
    assert eq == sorted(eq, reverse=True) and a.plays[0].diff == 0.0
    assert {str(p.play) for p in a.plays} == {str(p) for p in legal_plays(MIDGAME, "4-2")}


def test_top_and_until_se():
    """Catches --top keeping the wrong number, and an --until-se that never stops early or stops too
    soon.

    With until_se, each play still in the race stops together once all their SEs are at most the
    target (or at the maximum); a play dropped as clearly worse keeps the games it had then.
    """
    r = rank_plays(MIDGAME, "4-2", "heuristic", games=300, seed=5, top=3)
    assert len(r.plays) == 3 and len(r.prefiltered) == len(legal_plays(MIDGAME, "4-2")) - 3
    s = rank_plays(MIDGAME, "4-2", "racer", games=6480, seed=5, until_se=0.018, top=2)
    kept = [p for p in s.plays if p.dropped_after is None]
    dropped = [p for p in s.plays if p.dropped_after is not None]
    assert kept and len({p.games
                         for p in kept}) == 1, "the plays still in the race play the same games"
    games = kept[0].games
    assert 2592 <= games < 6480, ("the target must need two or more rounds and stop "
                                  "before the maximum")
    figures = [(p.games, p.equity_se, p.dropped_after) for p in s.plays]
    assert all(p.equity_se <= 0.018 for p in kept), figures
    assert all(p.games == p.dropped_after <= games for p in dropped), figures
    shorter = rank_plays(MIDGAME, "4-2", "racer", games=games - 1296, seed=5, until_se=0.018, top=2)
    assert any(p.equity_se > 0.018 for p in shorter.plays if p.dropped_after is None), \
        "one round fewer must leave some SE above the target: the stop was the first possible"


def test_opening_table_lists_every_legal_opening_play_once():
    table = opening_table(None, "racer", games=72, seed=2)
    pairs = [(r["roll"], r["play"]) for r in table.rows]
    expected = [(str(d), str(p)) for d in ALL_ROLLS for p in legal_plays(START, d)]
    assert sorted(pairs) == sorted(expected) and len(pairs) == len(set(pairs))


@pytest.fixture(scope="module")
def sample_data():
    """Results data of each kind (built once, when the first chart test runs; never at import)."""
    ro = rollout(START, "random", games=2592, seed=1)
    rk = rank_plays(MIDGAME, "4-2", "racer", games=100, seed=1)
    op = opening_table(None, "racer", games=36, seed=1)
    return {"rollout": rollout_data([ro]), "analyze": json_data("analyze", rk),
            "openings": json_data("openings", op), "batch": rollout_data([ro], "batch")}


@pytest.mark.parametrize("kind", ["rollout", "analyze", "openings", "batch"])
def test_every_chart_kind_renders_with_titles_and_labels(kind, sample_data, tmp_path):
    """Catches a chart kind that fails to draw or lacks a title or axis labels."""
    data = sample_data[kind]
    for name, draw in chart_kinds(data).items():
        fig = draw(data, 0)
        for ax in fig.axes:
            if ax.get_label() == "<colorbar>":
                continue
            assert ax.get_title(), name
            assert ax.get_xlabel() and ax.get_ylabel(), name
        path = tmp_path / f"{name}.png"
        fig.savefig(path)
        assert path.stat().st_size > 2000, name


def test_board_diagram_renders():
    fig = draw_board(parse_position("W:1x9,3,7x2,15,20x2 B:1x10,5,9x2,14,22 w 6-5"))
    assert fig._suptitle.get_text() == "White to move"  # the dice are drawn as dice (issue 11)


def test_report_regenerates_identically_from_json(tmp_path):
    out = tmp_path / "rep"
    res = run("analyze", "W:1x13,7,12 B:1x14,7 w", "--dice", "4-2", "--games", "200", "--workers",
              "1", "--no-staged", "--output", str(out), "--html", "-q")
    assert res.exit_code == 0, res.output
    files = sorted(p.name for p in out.iterdir())
    assert {"results.json", "results.csv", "report.md", "report.html", "board.png",
            "ranking.png"} <= set(files)
    before = {name: (out / name).read_bytes() for name in files}
    regenerate(out)
    after = {p.name: p.read_bytes() for p in out.iterdir()}
    assert before == after
    md = (out / "report.md").read_text()
    assert "![" in md and re.search(r"\| +rank \| play +\|", md) and "Run parameters" in md
    html = (out / "report.html").read_text()
    assert "data:image/png;base64," in html and "<table" in html


def test_chart_command_redraws_from_saved_results(tmp_path):
    out = tmp_path / "rep"
    assert run("rollout", "start", "--games", "2592", "--workers", "1", "--output", str(out),
               "-q").exit_code == 0
    listed = run("chart", str(out / "results.json"), "--list")
    assert {"outcomes", "convergence", "deficit", "static-deficit"} <= set(listed.output.split())
    svg = tmp_path / "conv.svg"
    res = run("chart", str(out / "results.json"), "--kind", "convergence", "-o", str(svg))
    assert res.exit_code == 0 and svg.read_text().startswith("<?xml")
    bad = run("chart", str(out / "results.json"), "--kind", "opening-heatmap", "-o", str(svg))
    assert bad.exit_code == 2 and "unknown chart kind" in bad.output


def test_batch_command(tmp_path):
    f = tmp_path / "p.txt"
    f.write_text("late: W:24x2 B:23,24x2 w\nrace: W:20,21 B:19,24 b\n")
    res = run("batch", str(f), "--games", "72", "--workers", "1", "--format", "csv", "-q")
    assert res.exit_code == 0
    lines = res.output.splitlines()
    assert lines[0].startswith("name,position,to_move,games,equity") and [l.split(",")[0]
                                                                          for l in lines[1:]] == [
        "late", "race"]


def test_batch_output_says_whose_equity_it_is(tmp_path):
    """Catches a batch table, CSV or JSON that gives an equity without saying for which side (issue
    27: the side to move of each position, which differs from row to row)."""
    f = tmp_path / "p.txt"
    f.write_text("late: W:24x2 B:23,24x2 w\nrace: W:20,21 B:19,24 b\n")
    table = run("batch", str(f), "--games", "36", "--workers", "1", "--policy", "random",
                "-q").output.splitlines()
    assert table[1] == "equity and chances are the side to move's (to_move) in each position"
    assert table[2].split()[:3] == ["name", "to_move", "games"]
    assert [line.split()[:2] for line in table[3:5]] == [["late", "White"], ["race", "Black"]]
    import csv
    import io
    rows = list(csv.DictReader(io.StringIO(run("batch", str(f), "--games", "36", "--workers", "1",
                                               "--policy", "random", "--format", "csv",
                                               "-q").output)))
    assert [r["to_move"] for r in rows] == ["White", "Black"]
    records = [json.loads(line)
               for line in run("batch", str(f), "--games", "36", "--workers", "1", "--policy",
                                 "random", "--format", "json",
                               "-q").output.splitlines()]
    assert [r["to_move"]
            for r in records] == ["White", "Black"] and list(records[0])[:3] == ["name", "position",
                                                                               "to_move"]


def test_empty_positions_file_is_an_error(tmp_path):
    f = tmp_path / "empty.txt"
    f.write_text("# nothing here\n")
    res = run("batch", str(f))
    assert res.exit_code == 2 and "holds no position" in res.output


def test_unwritable_output_leaves_nothing(tmp_path):
    blocker = tmp_path / "file.txt"
    blocker.write_text("x")
    res = run("analyze", "W:1x13,7,12 B:1x14,7 w", "--dice", "4-2", "--games", "50", "--workers",
              "1", "--output", str(blocker / "rep"), "-q")
    assert res.exit_code == 2 and res.output.startswith("Error: cannot write to output directory")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file.txt"]


def test_openings_command_with_report(tmp_path):
    out = tmp_path / "op"
    res = run("openings", "--rolls", "65,33", "--games", "72", "--policy", "racer", "--workers",
              "1", "--output", str(out), "-q")
    assert res.exit_code == 0, res.output
    data = json.loads((out / "results.json").read_text())
    assert [r["roll"] for r in data["results"][0]["rows"]] == ["6-5", "3-3", "3-3"]
    assert (out / "opening-heatmap.png").exists() and (out / "opening-bars.png").exists()


def test_the_openings_table_shows_draws_and_the_mars_and_koks_classes(tmp_path):
    """Catches an openings table (terminal and report) that leaves out the draws (about 9% of games)
    and the mars/koks classes, so win + lose does not add up to 1."""
    res = run("openings", "--rolls", "65", "--games", "72", "--policy", "random", "--workers", "1",
              "-q", "--output", str(tmp_path / "op"))
    lines = res.output.splitlines()
    assert lines[0] == ("White's equity and chances by random rollouts, seed 20261129, federation "
                        "rules (mars: home-mars or mars)")
    assert lines[1].split()[-7:] == ["win", "draw", "lose", "mars_for", "koks_for", "mars_against",
                                     "koks_against"]
    win, draw, lose = (float(v) for v in lines[2].split()[-7:-4])
    assert draw > 0 and win + draw + lose == pytest.approx(1.0, abs=2e-4)
    md = (tmp_path / "op" / "report.md").read_text()
    header = next(line for line in md.splitlines() if line.startswith("| roll"))
    assert [c.strip() for c in header.split("|")[7:-1]] == ["win", "draw", "lose",
                                                            "mars or home-mars for", "koks for",
                                                            "mars or home-mars against",
                                                            "koks against"]
