"""Study-guide reports and charts (issue 11): what a coach publishes must say what it measured.

The results data in tests/data/reports/ are saved outputs of small real runs
(`nardy rollout/analyze/openings/batch --output`), so these tests render
reports without playing any game.
"""

from __future__ import annotations

import copy
import json
import os
import re
import stat
from pathlib import Path

import matplotlib
import pytest

from nardy_cli.reports.folder import interrupted_path, write_report
from nardy_cli.reports import charts
from nardy_cli.reports import parts as report_parts
from nardy_cli.reports.board_figure import draw_board
from nardy_cli.reports.report import (build_report, chart_kinds, folder_renderer, regenerate,
    render_folder)

DATA = Path(__file__).parent / "data" / "reports"


def load(kind: str) -> dict:
    return json.loads((DATA / f"{kind}.json").read_text(encoding="utf-8"))


def texts(fig) -> str:
    """Every piece of text drawn on a figure (titles, labels, tick labels, annotations)."""
    found = [t.get_text() for t in fig.findobj(matplotlib.text.Text)]
    return "\n".join(found)


@pytest.fixture
def no_drawing(monkeypatch):
    """Skip rendering images to disk: structure tests need the files' names, not their pixels."""
    monkeypatch.setattr(report_parts, "save_figure", lambda fig, path: Path(path).write_bytes(b""))


@pytest.fixture
def no_figures(monkeypatch, no_drawing):
    """Skip building figures too, for tests of the report's structure over many positions."""
    import types

    import nardy_cli.reports.board_figure as board_figure
    stub = types.SimpleNamespace(**{name: (lambda *a, **k: None) for name in dir(charts)
                                    if not name.startswith("_")})
    monkeypatch.setattr(report_parts, "charts", lambda: stub)
    monkeypatch.setattr(board_figure, "draw_board", lambda *a, **k: None)
    monkeypatch.setattr(board_figure, "draw_play", lambda *a, **k: None)


# --- charts -----------------------------------------------------------------

@pytest.mark.parametrize("kind", ["rollout", "analyze", "openings", "batch"])
def test_every_chart_names_side_policy_games_and_rules(kind):
    """Bug: a chart said 'outcome for the side to move' with no side, bot, game count or rules."""
    data = load(kind)
    for name, draw in chart_kinds(data).items():
        words = texts(draw(data, 0))
        assert "White" in words or "Black" in words, name
        if name not in ("static-deficit", "static-face-deficit"):
            assert ("heuristic" in words and "games" in words
                    and "federation rules" in words), (name, words)


def test_points_override_appears_in_chart_titles():
    """Bug: `--points koks=3` was not reflected in the header of what was printed or drawn."""
    data = load("rollout")
    data["results"][0]["params"]["rules"]["points"]["koks"] = 3
    assert "federation rules (koks=3)" in texts(charts.outcome_chart(data["results"][0]))


def test_chart_functions_take_result_objects():
    """Bug: `outcome_chart(result)` as in the README raised TypeError for a RolloutResult (needed
    .to_dict())."""

    class Result:  # the shape of RolloutResult / Ranking / OpeningTable: anything with to_dict()
        def __init__(self, data):
            self.data = data

        def to_dict(self):
            return self.data

    assert "Outcomes for Black" in texts(
        charts.outcome_chart(Result(load("rollout")["results"][0])))
    assert "to play 4-2" in texts(charts.ranking_chart(Result(load("analyze")["results"][0])))
    assert "Black's best reply" in texts(
        charts.replies_heatmap(Result(load("openings")["results"][0])))


def test_ranking_chart_shows_differences_on_a_fitted_axis():
    """Bug: the ranking chart drew equities from 0, hiding 0.82 vs 0.81; it must plot the difference
    to the best play with the axis spanning the differences, not [0, 1]."""
    ranking = load("analyze")["results"][0]
    ax = charts.ranking_chart(ranking).axes[0]
    low, high = ax.get_xlim()
    worst = min(p["diff"] - 1.96 * p["diff_se"] for p in ranking["plays"])
    assert low <= worst and low > worst * 1.5 and 0 < high < -worst
    assert "minus the best" in ax.get_xlabel()


def test_face_deficit_chart_says_why_it_is_empty():
    """Bug: with zero deficit the per-face chart was an empty -0.04..0.04 plot."""
    fig = charts.face_deficit_chart({"White": [0.0] * 6}, "title")
    assert "No step was lost" in texts(fig) and not fig.axes[0].axison


def test_legend_sits_outside_the_bars():
    """Bug: the deficit chart's legend covered a bar; it must be placed outside the axes."""
    fig = charts.rollout_deficit_chart(load("rollout")["results"][0])
    fig.canvas.draw() if hasattr(fig.canvas, "draw") else None
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    FigureCanvasAgg(fig).draw()
    ax = fig.axes[0]
    legend_box = ax.get_legend().get_window_extent()
    assert legend_box.x0 >= ax.get_window_extent().x1


def test_replies_heatmap_has_one_cell_per_opening_and_roll():
    """Bug: `openings --replies` had no heatmap of the replies."""
    table = load("openings")["results"][0]
    image = charts.replies_heatmap(table).axes[0].get_images()[0].get_array()
    openings = {r["white_roll"] for r in table["replies"]}
    assert image.shape == (len(openings), 21)


def test_board_figure_has_name_trays_arrows_and_dice():
    """Bug: the board had no name, no tray for borne-off checkers, no direction and dice drawn as
    text."""
    from nardy_cli import parse_position
    from matplotlib.patches import Circle, FancyArrowPatch, FancyBboxPatch
    fig = draw_board(parse_position("W:23,24x5 B:20x3,22x2,24x3 w 6-5"), name="bear-off")
    words = texts(fig)
    assert ("bear-off" in fig._suptitle.get_text() and "White off: 9" in words
            and "Black off: 7" in words)
    ax = fig.axes[0]
    assert len([p for p in ax.patches if isinstance(p, FancyArrowPatch)]) == 2
    assert len([p for p in ax.patches if isinstance(p, FancyBboxPatch)]) == 2  # two dice
    pips = [p for p in ax.patches if isinstance(p, Circle) and p.get_zorder() == 6]
    assert len(pips) == 6 + 5
    assert "dice 6-5" not in words  # the dice are drawn, not written in the title


def test_library_leaves_matplotlib_global_state_alone(tmp_path):
    """Bug: importing the chart modules called matplotlib.use('Agg') and report.py set rcParams
    globally."""
    backend, salt = matplotlib.get_backend(), matplotlib.rcParams["svg.hashsalt"]
    from nardy_cli.reports.figures import save_figure
    save_figure(charts.outcome_chart(load("rollout")["results"][0]), tmp_path / "x.svg")
    assert matplotlib.get_backend() == backend and matplotlib.rcParams["svg.hashsalt"] == salt


# --- reports ----------------------------------------------------------------

def test_batch_report_has_one_section_per_position_with_comment_and_board(tmp_path, no_figures):
    """Bugs: batch reports put all boards first then 14 charts all called 'outcomes', drew only 12
    of 14 boards (a silent limit), and dropped the positions file's comments."""
    data = load("batch")
    report = build_report(tmp_path, data)
    assert len(report["sections"]) == len(data["results"]) == 14
    for section, result, comment in zip(report["sections"], data["results"], data["comments"]):
        assert section["title"] == result["name"] and section["comment"] == comment and comment
        assert section["board"]["file"].startswith("board")
        captions = [f["caption"] for f in section["figures"]]
        assert len(set(captions)) == len(captions) and all(len(c) > 30 for c in captions)
    files = [s["board"]["file"] for s in report["sections"]]
    assert len(set(files)) == 14 and all((tmp_path / f).exists() for f in files)


def test_report_md_reads_as_a_study_page(tmp_path, no_drawing):
    """Bugs: titles were raw notation, outcome labels snake_case, no deficit table, no ± 95%, no
    captions, and the policy was only in the parameters dump."""
    render_folder(tmp_path, load("rollout"))
    md = (tmp_path / "report.md").read_text()
    assert md.startswith("# Rollout of race\n")
    assert "Run: heuristic (both sides) · 2,592 games · federation rules" in md
    assert "| lose by koks" in md and "lose_koks |" not in md.split("## Run parameters")[0]
    assert "29.4% ± 1.7%" in md and "**Move deficit of each side in these games**" in md
    assert "Static deficit of Black now" in md
    images = re.findall(r"^!\[(.+)\]\((.+)\)$", md, re.M)
    assert len(images) == 6  # the board and five charts
    for alt, file in images:
        assert file == "board.png" or f"\n*{alt}*\n" in md  # every chart has its caption under it
    assert "docs/rules.md" in md


def test_random_policy_gets_a_visible_warning(tmp_path, no_drawing):
    """Bug: `nardy rollout` defaults to random play and a study page showed random-play odds
    unmarked."""
    data = load("rollout")
    data["results"][0]["params"]["policies"] = {"white": "random", "black": "random"}
    render_folder(tmp_path, data, html=True)
    assert "> **Warning.** These numbers come from **random play**" in (
        tmp_path / "report.md").read_text()
    assert '<div class="warning">' in (tmp_path / "report.html").read_text()


def test_md_and_html_come_from_the_same_sections(tmp_path, no_drawing):
    """Bug: report.html was a hand conversion of the Markdown; both must show the same tables and
    captions."""
    render_folder(tmp_path, load("analyze"), html=True)
    md, html = (tmp_path / "report.md").read_text(), (tmp_path / "report.html").read_text()
    assert html.startswith("<!DOCTYPE html>") and "four-two" in html
    for needle in ("+0.820 ± 0.081", "-0.011 ± 0.105", "The plays of 4-2, best first", "1/5 7/9"):
        assert needle in md and needle in html
    assert "<strong>1/5 7/9</strong>" in html and "**" not in html


def test_regenerate_is_byte_identical(tmp_path):
    """Bug: random ids (pandas Styler uuids) or timestamps would make the same data give different
    files."""
    folder = tmp_path / "r"
    folder.mkdir()
    data = load("analyze")
    render_folder(folder, data, html=True)
    first = {p.name: p.read_bytes() for p in folder.iterdir()}
    regenerate(folder)
    assert first == {p.name: p.read_bytes() for p in folder.iterdir()}


def test_interrupted_run_never_replaces_a_complete_report(tmp_path, no_drawing):
    """Bug: an interrupted re-run replaced an earlier complete report folder."""
    out = tmp_path / "study"
    write_report(load("rollout"), out, folder_renderer(load("rollout")))
    before = (out / "results.json").read_text()
    broken = copy.deepcopy(load("rollout"))
    broken["results"][0]["interrupted"] = True
    written = write_report(broken, out, folder_renderer(broken))
    assert written == interrupted_path(out) and (out / "results.json").read_text() == before
    assert "**interrupted**" in (written / "report.md").read_text()


def test_report_folders_get_normal_permissions(tmp_path, no_drawing):
    """Bug: report folders were created drwx------ (mkdtemp's mode) whatever the umask."""
    old = os.umask(0o022)
    try:
        out = write_report(load("rollout"), tmp_path / "rep", folder_renderer(load("rollout")))
    finally:
        os.umask(old)
    assert stat.S_IMODE(out.stat().st_mode) == 0o755
    assert stat.S_IMODE((out / "report.md").stat().st_mode) == 0o644


def test_a_folder_that_is_not_a_report_is_not_replaced(tmp_path, no_drawing):
    """Bug: --output pointed at a folder of other files would delete them."""
    from nardy_cli.core.errors import NardyError
    other = tmp_path / "src"
    other.mkdir()
    (other / "keep.py").write_text("x = 1\n")
    with pytest.raises(NardyError, match="not a nardy report"):
        write_report(load("rollout"), other, folder_renderer(load("rollout")))
    assert (other / "keep.py").exists()
    write_report(load("rollout"), other, folder_renderer(load("rollout")), force=True)
    assert not (other / "keep.py").exists()


def test_positions_file_comments_reach_the_report_data():
    """Bug: the positions file's comments were dropped, so a study page lost its explanations."""
    from nardy_cli.core.positions_file import parse_positions_text
    text = ("# File header.\n\n# Two lines\n# of comment.\na: W:1x14,12 B:1x15 b  # and an end "
            "note\nb: start\n")
    a, b = parse_positions_text(text)
    assert a.comment == "Two lines of comment. and an end note" and b.comment == ""


HEADLINES = {
    "rollout": "Black wins 29.4% (mars or koks 0.0%), loses 48.4% (mars or koks 0.0%), "
               "draws 22.2%; Black's equity -0.190 ± 0.032 (95%) in 2,592 games.",
    "analyze": "Best play for White with 4-2: 1/5 7/9, White's equity +0.820 ± 0.081 (95%); "
               "the next best, 12/16 1/3, is 0.011 behind (± 0.105 (95%), paired).",
    "openings": "Best opening roll for White: 3-3 played 1/4 1/4 4/7 7/10, "
                "equity +0.565 ± 0.085 (95%); worst: 2-1 played 1/3 3/4, -0.006 ± 0.091.",
    "batch": "14 positions; the side to move's equity runs from -1.883 (deficit-heavy, "
             "White to move) to +1.994 (breaking-the-block, Black to move).",
}


@pytest.mark.parametrize("kind", ["rollout", "analyze", "openings", "batch"])
def test_every_report_opens_with_a_plain_summary_and_ends_with_parameters_and_the_glossary(
        kind, tmp_path,
        no_figures):
    """Catches a report that opens with no plain-language line ("White wins 62% (mars 9%), ..."),
    shows its run parameters only as raw JSON, or has no glossary (equity, oin/mars/home-mars/koks,
    SE vs 95% interval, paired difference, luck, VR), in report.md and report.html alike."""
    from nardy_cli.reports.glossary import GLOSSARY
    render_folder(tmp_path, load(kind), html=True)
    md = (tmp_path / "report.md").read_text(encoding="utf-8")
    html = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert md.splitlines()[2] == f"**{HEADLINES[kind]}**"
    assert f'<p class="headline">{HEADLINES[kind]}</p>'.replace("'", "&#39;") in html
    params = md.split("## Run parameters\n\n")[1].split("\n\n")[0].splitlines()
    assert params[0].split("|")[1].strip() == "setting" and params[2].split("|")[2].strip() == kind
    assert "```json" not in md and "<pre>" not in html
    glossary = md.split("## Glossary\n\n")[1]
    for term, _ in GLOSSARY:
        assert f"- **{term}**: " in glossary and f"<dt>{term}</dt>" in html, term
