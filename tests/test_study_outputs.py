"""What the README promises beyond results.json: --until-se on the command line, report folders
(batch, --svg, replies.csv, replace only when complete), rank_many, and the shipped positions
files."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from nardy_cli.commands.cli import cli
from nardy_cli.core.dice import ALL_ROLLS
from nardy_cli.core.engine import legal_plays, outcome
from nardy_cli.core.position import START, parse_position
from nardy_cli.core.positions_file import read_positions
from nardy_cli.reports.render import to_json
from nardy_cli.reports.folder import write_report
from nardy_cli.reports.report import folder_renderer
from nardy_cli.analysis.rollout import rollout
from nardy_cli.analysis.analyze import rank_many, rank_plays
from tests.cases import ROOT

MIDGAME = parse_position("W:1x13,7,12 B:1x14,7 w")


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def test_until_se_on_the_command_line_is_the_librarys_stop():
    """Catches --until-se not reaching the rollout, or the CLI stopping elsewhere than the library.

    The library's own stop rule (first chunk whose SE is small enough) is tested in test_rollout.py.
    """
    out = run("rollout", "start", "--until-se", "0.015", "--games", "50000", "--seed", "4",
              "--workers", "1", "--format", "json", "--policy", "random")
    assert out.exit_code == 0, out.output
    cli_result = json.loads(out.output)
    lib = rollout(START, "random", games=50000, seed=4, until_se=0.015)
    assert cli_result["games"] < 50000 and cli_result["params"]["until_se"] == 0.015
    assert out.output.strip() == to_json(lib.to_dict())


@pytest.fixture
def two_positions(tmp_path):
    f = tmp_path / "p.txt"
    f.write_text("late: W:24x2 B:23,24x2 w\nrace: W:20,21 B:19,24 b\n")
    return f


def test_batch_output_folder(tmp_path, two_positions):
    """Catches a batch report missing a position, its table rows, or its charts."""
    out = tmp_path / "rep"
    res = run("batch", two_positions, "--games", "72", "--policy", "random", "--workers", "1",
              "--output", out, "-q")
    assert res.exit_code == 0, res.output
    data = json.loads((out / "results.json").read_text())
    assert [r["name"] for r in data["results"]] == ["late", "race"]
    rows = (out / "results.csv").read_text().splitlines()
    assert [r.split(",")[0] for r in rows[1:]] == ["late", "race"]
    md = (out / "report.md").read_text()
    assert "late" in md and "race" in md
    images = [p for p in out.rglob("*.png")]
    assert images and all(p.stat().st_size > 1000 for p in images)
    for link in re.findall(r"!\[[^\]]*\]\(([^)]+)\)", md):
        assert (out / link).exists(), link


def test_svg_reports_draw_vector_images_only(tmp_path, two_positions):
    """Catches --svg still writing PNG charts, or SVG files that are not SVG."""
    out = tmp_path / "rep"
    res = run("batch", two_positions, "--games", "72", "--policy", "random", "--workers", "1",
              "--output", out, "--svg", "-q")
    assert res.exit_code == 0, res.output
    svgs = list(out.rglob("*.svg"))
    assert svgs and not list(out.rglob("*.png"))
    assert all(p.read_text().lstrip().startswith("<?xml") for p in svgs)


def test_openings_replies_csv(tmp_path):
    """Catches `openings --replies` without its replies table: one best reply per opening and Black
    roll."""
    out = tmp_path / "op"
    res = run("openings", "--rolls", "65", "--replies", "--games", "36", "--reply-games", "36",
              "--top", "2", "--policy", "racer", "--workers", "1", "--output", out, "-q")
    assert res.exit_code == 0, res.output
    lines = (out / "replies.csv").read_text().splitlines()
    assert len(lines) == 1 + 21, lines[:3]
    replies = json.loads((out / "results.json").read_text())["results"][0]["replies"]
    assert len(replies) == 21


def test_a_failed_report_leaves_the_old_one_and_no_debris(tmp_path):
    """Catches a report folder replaced (or half-written) by a run whose report fails to render."""
    out = tmp_path / "rep"
    res = run("rollout", "W:24x2 B:23,24x2 w", "--games", "72", "--workers", "1", "--output", out,
              "-q")
    assert res.exit_code == 0, res.output
    before = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    bad = json.loads((out / "results.json").read_text())
    bad["results"][0]["probabilities"] = "not a table"      # rendering must fail on this
    with pytest.raises(Exception):
        write_report(bad, out, folder_renderer(bad))
    after = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert after == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rep"], "no temporary folder left behind"
    # a complete report does replace it
    res = run("rollout", "W:24x2 B:23,24x2 w", "--games", "36", "--workers", "1", "--output", out,
              "-q")
    assert (res.exit_code == 0
            and json.loads((out / "results.json").read_text())["results"][0]["games"] == 36)


def test_rank_many_equals_ranking_each_problem_alone():
    """Catches problems ranked side by side mixing their games or seeds."""
    problems = [(MIDGAME, "4-2"), (START, "6-5"), (parse_position("W:1x14,12 B:1x15 b"), "3-1")]
    together = rank_many(problems, "racer", games=72, seed=3, workers=1)
    alone = [rank_plays(pos, dice, "racer", games=72, seed=3) for pos, dice in problems]
    assert [to_json(r.to_dict()) for r in together] == [to_json(r.to_dict()) for r in alone]


def test_shipped_openings_file_is_every_position_after_a_white_opening():
    """Catches positions/openings.txt drifting from the engine (a missing, extra or wrong
    opening)."""
    shipped = read_positions(ROOT / "positions" / "openings.txt")
    # one entry per (roll, play), its comment "6-5: 1/7 7/12"; different rolls may reach the same
    # position
    entries = sorted((np_.comment, np_.position) for np_ in shipped)
    expected = sorted((f"{d}: {p}", p.result) for d in ALL_ROLLS for p in legal_plays(START, d))
    assert entries == expected


def test_shipped_study_file_and_the_names_readme_uses():
    """Catches a README example naming a position the shipped file lacks, or an invalid/finished
    position."""
    study = read_positions(ROOT / "positions" / "study.txt")
    names = {np.name for np in study}
    assert len(names) == len(study) >= 10
    for np_ in study:
        assert outcome(np_.position) is None, np_.name
    readme = (ROOT / "README.md").read_text()
    used = set(re.findall(r"positions/study\.txt:([a-z0-9_-]+)", readme))
    assert used and used <= names, used - names
    for name in used:
        res = run("show", f"{ROOT / 'positions' / 'study.txt'}:{name}")
        assert res.exit_code == 0, res.output
