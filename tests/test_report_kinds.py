"""Reports by kind (issue 26, item 5): each kind of results has its own report, found by the kind
its results.json names; a folder is written all or nothing whatever renders it; a rollout has one
row schema."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from nardy_cli.core.errors import ReportKindError, ResultsError
from nardy_cli.core.outcomes import PROB_KEYS
from nardy_cli.core.position import START
from nardy_cli.reports.folder import write_folder
from nardy_cli.analysis.rollout_row import rollout_row
from nardy_cli.analysis.rollout import RolloutResult
from nardy_cli.reports import parts as report_parts
from nardy_cli.reports.report import REPORT_KINDS, build_report, render_folder, report_for

DATA = Path(__file__).parent / "data" / "reports"


def load(kind: str) -> dict:
    return json.loads((DATA / f"{kind}.json").read_text(encoding="utf-8"))


@pytest.fixture
def no_drawing(monkeypatch):
    """Skip rendering images to disk: these tests need the report's text, not its pixels."""
    monkeypatch.setattr(report_parts, "save_figure", lambda fig, path: Path(path).write_bytes(b""))


@pytest.mark.parametrize("kind, title, figures", [
    ("rollout", "Rollout of race", ["outcomes", "deficit", "convergence", "static-deficit",
                                    "static-face-deficit"]),
    ("batch", "Rollouts of 14 positions", ["outcomes-1", "static-deficit-1"]),
    ("analyze", "Plays of 4-2 in four-two", ["ranking", "outcomes", "play-1", "play-2", "play-3"]),
    ("openings", "Opening table", ["opening-heatmap", "opening-bars"]),
])
def test_each_kind_is_rendered_by_its_own_report(kind, title, figures, tmp_path, no_drawing):
    """Catches a kind found under another kind's report (a batch drawn as a rollout draws every
    position's deficit and convergence charts; two reports claiming one kind leave one out)."""
    assert sorted(REPORT_KINDS) == ["analyze", "batch", "openings", "rollout"]
    report = report_for(kind)
    assert report.kind == kind and report is REPORT_KINDS[kind]
    built = build_report(tmp_path, load(kind))
    assert built["title"] == title
    assert [f["file"].removesuffix(".png") for f in built["sections"][0]["figures"]] == figures


@pytest.mark.parametrize("kind", ["deficit", "boards", "", None])
def test_an_unknown_kind_is_a_specific_error_and_writes_nothing(kind, tmp_path):
    """Catches results of a kind no report knows rendered as some default report (a deficit.json
    drawn as a rollout), or failing with a bare KeyError instead of an error naming the kind and
    the known ones."""
    with pytest.raises(ReportKindError) as caught:
        render_folder(tmp_path, {"kind": kind, "results": [{}]})
    assert str(caught.value) == (f"no report renders {kind!r} results "
                                 "(known kinds: analyze, batch, openings, rollout)")
    assert isinstance(caught.value, ResultsError) and list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("old_report", [False, True])
def test_a_failing_renderer_leaves_no_partial_folder(tmp_path, old_report):
    """Catches a folder half-written by a renderer that fails: its temporary folder left beside
    the output, or the older report at the output replaced or touched."""
    out = tmp_path / "rep"
    if old_report:
        write_folder(out, lambda folder: (folder / "results.json").write_text("old\n"))

    def render(folder: Path) -> None:
        (folder / "results.json").write_text("new\n")
        (folder / "report.md").write_text("half")
        raise OSError(28, "No space left on device")
    with pytest.raises(OSError):
        write_folder(out, render)
    assert sorted(p.name for p in tmp_path.iterdir()) == (["rep"] if old_report else [])
    if old_report:
        assert [p.name for p in out.iterdir()] == ["results.json"]
        assert (out / "results.json").read_text() == "old\n"


def rollout_result(**extra) -> RolloutResult:
    """A rollout result with distinct figures in every field (no games played)."""
    probs = {k: (i + 1) / 100 for i, k in enumerate(PROB_KEYS)}
    ses = {k: (i + 1) / 1000 for i, k in enumerate(PROB_KEYS)}
    deficit = {side: {"face_deficit": [0.0] * 6, "lost_pips_per_game": lost,
                      "partial_turn_share": 0.25, "pass_share": share}
               for side, lost, share in (("white", 1.5, 0.01), ("black", 2.5, 0.02))}
    return RolloutResult(START, {}, 1296, False, probs, ses, 0.125, 0.01, 80.5, deficit,
                         name="start", **extra)


REPORT_COLUMNS = ["name", "position", "games", "equity", "equity_se", "white_policy",
                  "black_policy", *PROB_KEYS, "mean_plies",
                  "white_lost_pips_per_game", "white_pass_share", "black_lost_pips_per_game",
                  "black_pass_share", "interrupted"]


def test_the_summary_row_and_the_report_table_are_one_schema():
    """Catches the CSV of `nardy rollout --format csv` and a report's results.csv drifting apart: a
    column renamed or moved in one of them, the report gaining the SE of every outcome, or a
    match's `mwc` and a cube rollout's `cube_*` columns lost from the summary row or misplaced."""
    cube = {"equity": 0.2, "equity_se": 0.03, "doubled_share": 0.4, "passed_share": 0.1,
            "doubles": 7}
    result = rollout_result(mwc=0.6, mwc_se=0.02, cube=cube)
    row = result.summary_row()
    assert list(row) == (REPORT_COLUMNS[:7] + ["mwc", "mwc_se", *PROB_KEYS]
                         + [f"se_{k}" for k in PROB_KEYS]
                         + ["cube_equity", "cube_equity_se", "cube_doubled_share",
                            "cube_passed_share"]
                         + REPORT_COLUMNS[-6:])
    report = rollout_row(json.loads(json.dumps(result.to_dict())), report=True)
    assert list(report) == REPORT_COLUMNS
    assert report == {k: row[k] for k in REPORT_COLUMNS}
    plain = rollout_result().summary_row()
    assert [c for c in plain if c.startswith(("mwc", "cube"))] == [] and plain["name"] == "start"
