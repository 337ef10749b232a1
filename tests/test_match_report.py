"""A whole match's review (issue 41, items 9-12): one printable, self-contained page with every
game, its marked decisions and their boards, the running score, the cube actions and the
players' totals; an unfinished match said to be unfinished; forced plays read `forced`; every
match winning chance labelled cubeless or cubeful.

`games/cube-match.mat` is a match to 5 that stops at 2-1: a drawn game with a taken double,
then a game a wrong pass ended.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from nardy_cli.commands.cli import cli

ROOT = Path(__file__).resolve().parent.parent
CUBE_MATCH = str(ROOT / "games" / "cube-match.mat")
BOT_MATCH = str(ROOT / "games" / "bot-match.mat")


def run(*args):
    return CliRunner().invoke(cli, list(args))


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    """The review folder of the cube match (with --html) and the command's output."""
    folder = tmp_path_factory.mktemp("match") / "review"
    out = run("review", CUBE_MATCH, "--output", str(folder), "--html")
    assert out.exit_code == 0, out.output
    return folder, out.output


def test_a_match_review_writes_one_printable_self_contained_page(written):
    """Bug caught (issue 41): `nardy review MATCH.mat --output DIR --html` wrote no report.html,
    no chart and no boards, so a coach had no page to read or print for a whole match."""
    folder, _ = written
    page = (folder / "report.html").read_text()
    md = (folder / "report.md").read_text()
    assert "<title>Match review</title>" in page and "@media print" in page
    # self-contained: every image inlined, nothing fetched
    assert not re.search(r'src="(?!data:)', page) and "<link" not in page
    for heading in ("Game 1 at 0-0 (White-Black): heuristic (White) vs neural (Black), draw",
                    "Game 2 at 1-1 (White-Black): heuristic (White) vs neural (Black), "
                    "Black dropped the double to 2"):
        assert f'<h2 class="page">{heading}</h2>' in page
    # the players' totals, the running score, the cube actions
    assert "## Totals" in md and "## Running score" in md and "## Cube actions" in md
    assert "| 1 | heuristic | neural | 0-0 | draw | 1-1 | 1-1 |" in md
    assert "| 2 | heuristic | neural | 1-1 | Black dropped the double to 2 | 1-0 | 2-1 |" in md
    assert "double, take" in md and "wrong double, wrong pass" in md
    # every decision a mark flagged has its board, each game its equity chart
    marked = pd.read_csv(folder / "review.csv")
    marked = marked[marked["mark"].isin(["doubtful", "error", "blunder"])]
    assert len(marked) > 0
    boards = sorted(p.name for p in folder.glob("game-*-decision-*.png"))
    assert len(boards) == len(marked)
    assert page.count('<img alt="decision"') == len(marked)
    assert page.count('<img alt="equity chart"') == 2
    for row in marked.itertuples():
        assert f"#### {row.turn} {row.player} ({row.side}) {row.dice}: {row.mark}" in md


def test_an_unfinished_match_is_said_to_be_unfinished(written):
    """Bug caught (issue 41): a match whose file ends at 2-1 before either side reaches 5 reported
    as "final score 2-1"."""
    folder, output = written
    first = output.splitlines()[0]
    assert first == "match to 5: heuristic vs neural, 2 games, unfinished at 2-1; evaluator neural"
    assert "2 games, unfinished at 2-1;" in (folder / "report.md").read_text()
    assert json.loads((folder / "review.json").read_text())["finished"] is False
    out = run("review", CUBE_MATCH, "--format", "json")
    assert json.loads(out.output)["finished"] is False


def test_forced_plays_read_forced_not_nan(written):
    """Bug caught (issue 41): a forced play's match winning chance lost shown as `NaN` in the
    review table of a match's game (and anywhere on the match's page)."""
    folder, _ = written
    out = run("review", CUBE_MATCH, "--game", "1")
    assert out.exit_code == 0, out.output
    assert "NaN" not in out.output and "nan" not in out.output
    forced = [line for line in out.output.splitlines()
              if "forced" in line and re.match(r"\s*\d+\.", line)]
    assert forced and all(line.count("forced") == 2 for line in forced)
    for name in ("report.md", "report.html"):
        text = (folder / name).read_text()
        assert not re.search(r"\bnan\b", text, re.IGNORECASE), name
        assert "| forced |" in text or "<td>forced</td>" in text


def test_match_winning_chances_say_cubeless_or_cubeful():
    """Bug caught (issue 41): the cube line's match winning chances (cubeful) and the position's
    own (cubeless) printed side by side without saying which is which."""
    out = run("eval", "W:1x14,12 B:1x15 b", "--match", "7", "--score", "4-5", "--cube-owner",
              "centre")
    assert out.exit_code == 0, out.output
    assert "cubeless match winning chance for Black: " in out.output
    assert "   cubeful match winning chances: no double " in out.output
    out = run("review", CUBE_MATCH, "--game", "2")
    assert "mwc_lost is the cubeless match winning chance lost" in out.output
    assert "cube decisions before each roll (cubeful match winning chances;" in out.output
