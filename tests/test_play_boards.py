"""Boards a coach asked for (issue 27): the best plays of an analysis and of each opening drawn with
their moves as arrows, and `nardy show FILE --output DIR` drawing every position of a positions
file."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from matplotlib.colors import to_rgba
from matplotlib.patches import FancyArrowPatch

from nardy_cli.commands.cli import cli
from nardy_cli.core.engine import legal_plays
from nardy_cli.core.position import Position
from nardy_cli.reports import parts as report_parts
from nardy_cli.reports.board_figure import ARROW, _point_xy, _tray_xy, draw_play
from nardy_cli.reports.report import render_folder

DATA = Path(__file__).parent / "data" / "reports"
ROOT = Path(__file__).resolve().parent.parent


def arrows(fig) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """(start, end) of every move arrow drawn on a board."""
    colour = to_rgba(ARROW)
    return [tuple(tuple(map(float, p)) for p in patch._posA_posB)
            for patch in fig.findobj(FancyArrowPatch)
            if tuple(patch.get_edgecolor()) == colour]


def play_of(notation: str, text: str):
    position = Position.parse(notation)
    return position, next(p for p in legal_plays(position) if str(p) == text)


def test_a_black_play_is_drawn_from_and_to_its_points_in_white_numbering():
    """Catches an arrow drawn at the mover's own point number on the viewer's board: Black's 7/12
    12/18 is White's 19 -> 24 -> 6, so the arrows run from the top row's W19 to W24, then down to
    W6."""
    position, play = play_of("W:1x14,12 B:1x14,7 b 6-5", "7/12 12/18")
    drawn = arrows(draw_play(position, play))
    # the checker goes on from where the first arrow left it; after the play B7 and B12 are empty
    assert drawn == [(_point_xy("w", "b", 7, 0), _point_xy("w", "b", 12, 0)),
                     (_point_xy("w", "b", 12, 0), _point_xy("w", "b", 18, 0))]
    assert _point_xy("w", "b", 7, 0) == _point_xy("w", "w", 19, 0)
    assert _point_xy("w", "b", 18, 0) == _point_xy("w", "w", 6, 0)


def test_a_checker_borne_off_is_drawn_into_its_tray():
    """Catches a bear-off step drawn to point 25 (off the board) instead of the mover's tray."""
    position, play = play_of("W:20x3,22x4,24x5 B:1x3,5x2,13x10 w 6-3", "20/off 22/off")
    drawn = arrows(draw_play(position, play))
    assert [end for _, end in drawn] == [_tray_xy("w", "w")] * 2 and len(drawn) == len(play.steps)


def test_analyze_and_opening_reports_draw_the_best_plays(tmp_path, monkeypatch):
    """Catches reports without the boards of the top candidate plays and of each opening's best
    play."""
    drawn = []
    monkeypatch.setattr(report_parts, "save_figure",
                        lambda fig, path: (drawn.append(fig), Path(path).touch()))
    for kind in ("analyze", "openings"):
        folder = tmp_path / kind
        folder.mkdir()
        render_folder(folder, json.loads((DATA / f"{kind}.json").read_text(encoding="utf-8")))
        md = (folder / "report.md").read_text(encoding="utf-8")
        if kind == "analyze":
            boards = ["play-1.png", "play-2.png", "play-3.png"]
            assert "Rank 1: White plays 1/5 7/9, the checkers that moved drawn as arrows" in md
        else:
            boards = ["opening-6-5.png", "opening-3-3.png", "opening-2-1.png"]
            assert "## The best play of each roll" in md
        assert all(f"]({b})" in md and (folder / b).exists() for b in boards), md
    titles = [fig._suptitle.get_text() for fig in drawn if fig._suptitle is not None]
    assert ("rank 2: White plays 12/16 1/3" in titles
            and "3-3: White plays 1/4 1/4 4/7 7/10" in titles)


def test_show_output_draws_every_position_of_a_file_with_an_index(tmp_path):
    """Catches `nardy show FILE --output DIR` missing a position, an index that does not list each
    board, or a folder written half when drawing fails."""
    positions = tmp_path / "p.txt"
    positions.write_text("# a late race\nrace: W:20,21 B:19,24 b\n")
    out = tmp_path / "boards"
    res = CliRunner().invoke(cli, ["show", str(positions), "W:24x2 B:23,24x2 w 2-1", "--output",
                                   str(out)])
    assert res.exit_code == 0, res.output
    assert sorted(p.name for p in out.iterdir()) == ["001-race.png", "002.png", "boards.json",
                                                     "index.md"]
    assert (out / "001-race.png").read_bytes()[:4] == b"\x89PNG"
    index = (out / "index.md").read_text()
    assert index.splitlines()[:3] == ["# Positions", "",
                                      "2 positions, drawn with White's numbering along the bottom."]
    assert ("## 1. race\n\nPosition: `W:20,21 B:19,24 b`\n\n*a late race*\n\n"
            "![race](001-race.png)") in index
    assert "## 2. W:24x2 B:23,24x2 w 2-1\n" in index and "(002.png)" in index
    again = CliRunner().invoke(cli, ["show", str(positions), "W:24x2 B:23,24x2 w 2-1", "--output",
                                     str(out), "--svg"])
    assert (again.exit_code == 0 and (out / "001-race.svg").exists()
            and not (out / "001-race.png").exists())
    bad = CliRunner().invoke(cli, ["show", str(positions), "--output", str(out), "-o", "x.png"])
    assert bad.exit_code == 2 and "leave out -o and --format" in bad.output
