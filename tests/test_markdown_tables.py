"""Every Markdown table nardy writes is well-formed (issue 50): each row holds as many cells as its
header.  The study guide's second-turn grids held an unescaped `|` in every cell (`1/7 7/12
|134`): rows of 40-43 cells under a 23-cell header, the columns shifted and half of each row lost
when rendered."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from nardy_cli.commands.cli import cli
from nardy_cli.reports.tables import to_markdown
from tests.cases import ROOT

CELL_SPLIT = re.compile(r"(?<!\\)\|")


def tables(text: str) -> list[list[str]]:
    """The Markdown tables of `text`, each as its lines (a table: consecutive lines starting with
    `|`)."""
    out, current = [], []
    for line in text.splitlines():
        if line.startswith("|"):
            current.append(line)
        elif current:
            out.append(current)
            current = []
    if current:
        out.append(current)
    return out


def cells(line: str) -> list[str]:
    """A table line's cells: split on the `|` not escaped, without the outer two."""
    parts = CELL_SPLIT.split(line.strip())
    assert parts[0] == "" and parts[-1] == "", f"a table line not closed by |: {line!r}"
    return parts[1:-1]


def check_tables(path: Path) -> int:
    """Assert every table of the Markdown file at `path` is well-formed; return how many it
    holds."""
    found = tables(path.read_text(encoding="utf-8"))
    for table in found:
        width = len(cells(table[0]))
        assert len(table) >= 2 and re.fullmatch(r"\|(\s*:?-+:?\s*\|)+", table[1].strip()), \
            f"{path}: no separator line under {table[0][:80]!r}"
        for line in table:
            assert len(cells(line)) == width, (f"{path}: {len(cells(line))} cells under a "
                                               f"{width}-cell header: {line[:120]!r}")
    return len(found)


def test_a_bar_in_a_cell_is_escaped():
    """Catches `to_markdown` writing a cell's `|` as is: the row splits into more cells."""
    frame = pd.DataFrame({"play|x": ["1/7 7/12 |134", "a\nb"], "n": [1, 2]})
    text = to_markdown(frame)
    assert "1/7 7/12 \\|134" in text and "play\\|x" in text
    assert [len(cells(line)) for line in text.splitlines()] == [2, 2, 2, 2]


def test_the_shipped_guide_is_well_formed():
    """Catches docs/openings.md regenerated with broken tables (its 20 grids were)."""
    assert check_tables(ROOT / "docs" / "openings.md") >= 20


def test_the_guide_as_written_is_well_formed(tmp_path):
    """Catches `nardy book guide` writing a table whose rows and header disagree."""
    out = CliRunner().invoke(cli, ["book", "guide", "--output", str(tmp_path)])
    assert out.exit_code == 0, out.output
    assert check_tables(tmp_path / "openings.md") >= 20


@pytest.mark.parametrize("args", [
    ["rollout", "start", "--games", "72", "--policy", "random", "-q", "--workers", "1"],
    ["analyze", "W:1x13,8,12 B:1x13,6,11 w 4-2", "--no-staged", "--games", "36", "--policy",
     "random", "-q", "--workers", "1"],
    ["review", "games/bot-game.txt"],
    ["review", "games/bot-match.txt"],
])
def test_every_report_is_well_formed(args, tmp_path, monkeypatch):
    """Catches a report (rollout, analysis, game or match review) writing a broken table."""
    monkeypatch.chdir(ROOT)
    out = CliRunner().invoke(cli, [*args, "--output", str(tmp_path / "r")])
    assert out.exit_code == 0, out.output
    files = sorted((tmp_path / "r").rglob("*.md"))
    assert files and sum(check_tables(f) for f in files) >= 1


def test_an_interrupted_guide_leaves_the_old_one_whole(tmp_path, monkeypatch):
    """Catches issue 50's `book guide` stopped by Ctrl-C: a bare `Aborted.` and a half-written
    folder (new images beside the old page).  The guide is written aside and moved in whole."""
    import nardy_cli.reports.book_guide as guide

    (tmp_path / "openings.md").write_text("the old guide\n")

    def interrupted(parts):
        raise KeyboardInterrupt

    monkeypatch.setattr(guide, "guide_html", interrupted)
    out = CliRunner().invoke(cli, ["book", "guide", "--output", str(tmp_path)])
    assert (out.exit_code, out.output) == (
        130, "Interrupted before the command finished: nothing more to report.\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["openings.md"]
    assert (tmp_path / "openings.md").read_text() == "the old guide\n"
