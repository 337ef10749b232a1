"""`nardy review` of cube actions: every turn's cube decision against what was done, with its loss,
in the table, the JSON, the totals, the report folder and the review page (issue 23).

The money positions are short races both sides all home, where the cube decision is exact (the
cubeful bear-off database), so the figures do not depend on the network:

- `W:21,22x2 B:19,20,22 w`: double, take (no double +0.452, double/take +0.548, double/pass +1 a
  cube);
- `W:23,24 B:19,20,21 w`: double, pass (White bears off both with any roll).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from nardy_cli.commands.cli import cli
from nardy_cli.match.cube import Cube
from nardy_cli.match.cube_decision import cube_decision
from nardy_cli.match.stakes import Stakes
from nardy_cli.match.state import state_before
from nardy_cli.records.match_record import parse_match
from nardy_cli.review.match_review import review_match
from nardy_cli.records.mat_read import parse_mat
from nardy_cli.core.position import parse_position
from nardy_cli.records.game_record import parse_game, read_game
from nardy_cli.review.game_review import COLUMNS, normaliser, review_game
from nardy_cli.reports.review_page import game_data

ROOT = Path(__file__).resolve().parent.parent
TAKE = "W:21,22x2 B:19,20,22 w"     # double, take
PASS = "W:23,24 B:19,20,21 w"       # double, pass


def _game(position: str, moves: str, tags: str = "") -> str:
    return f'[White "Anna"]\n[Black "Boris"]\n[Position "{position}"]\n{tags}\n{moves}\n'


def _exact(position: str) -> tuple[float, float, float]:
    d = cube_decision(parse_position(position), Stakes(cube=Cube()))
    assert d.exact
    return d.no_double, d.double_take, d.double_pass


def test_a_missed_double_is_rated_with_its_loss():
    """Catches: a turn without a double never rated (a missed double lost nothing), or its loss
    taken from the wrong equities."""
    nd, dt, dp = _exact(TAKE)
    review = review_game(parse_game(_game(TAKE, "1. 2-1: 21/23 22/23", '[Cube "on"]')), "heuristic")
    row = review.cube.iloc[0]
    assert (row["turn"], row["action"], row["best"], row["error"]) == ("1.", "no double",
                                                                       "double, take",
                                                                       "missed double")
    assert (row["double_lost"] == pytest.approx(dt - nd)
            and row["double_lost"] == pytest.approx(0.0968, abs=1e-4))


def test_a_wrong_take_and_a_wrong_pass_are_the_takers_loss():
    """Catches: the taker's answer not rated, rated against the wrong alternative, or charged to the
    doubler."""
    nd, dt, dp = _exact(PASS)
    take = review_game(parse_game(_game(PASS, "1. Doubles => 2 Takes 2-1: 23/off 24/off")),
                       "heuristic")
    row = take.cube.iloc[0]
    assert (row["action"], row["best"], row["error"], row["double_lost"]) == ("double, take",
                                                                              "double, pass",
                                                                              "wrong take", 0.0)
    assert row["take_lost"] == pytest.approx(dt - dp) and row["take_lost"] > 0.8
    _, dt, dp = _exact(TAKE)
    drop = review_game(parse_game(_game(TAKE, "1. Doubles => 2 Drops")), "heuristic")
    row = drop.cube.iloc[0]
    assert (row["action"], row["error"], row["taker"]) == ("double, pass", "wrong pass", "Boris")
    assert row["take_lost"] == pytest.approx(dp - dt)
    summary = drop.summary().set_index("side")
    assert (summary.loc["black", "cube_errors"] == 1
            and summary.loc["black", "cube_lost"] == pytest.approx(dp - dt))
    assert summary.loc["white", "cube_errors"] == 0 and summary.loc["white", "cube_lost"] == 0.0


def test_the_right_double_and_the_right_take_lose_nothing():
    """Catches: a correct cube action reported with a loss (e.g. judged against the wrong
    answer)."""
    review = review_game(parse_game(_game(TAKE, "1. Doubles => 2 Takes 2-1: 21/23 22/23")),
                         "heuristic")
    row = review.cube.iloc[0]
    assert (row["action"], row["best"], row["error"], row["double_lost"], row["take_lost"]) == (
        "double, take", "double, take", "", 0.0, 0.0)
    assert review.summary()["cube_errors"].tolist() == [0, 0]


def test_money_losses_are_per_cube_unit_times_the_cube():
    """Catches: a loss at a turned cube left in units of the cube (a redouble's error counted
    half)."""
    review = review_game(parse_game(
        '[White "Anna"]\n[Black "Boris"]\n\n1. 6-5: 1/12  4-2: 1/7\n2. Doubles => 2 Takes 6-5: '
        '1/12  3-3: 1/10 7/10\n'
        "3. 6-6: 1/7 12/24 12/18\n3... Doubles => 4 Drops\n"), "neural")
    last = review.cube.iloc[-1]
    assert (last["turn"], last["cube"], last["action"]) == ("3...", "2 Black", "double, pass")
    answer = min(last["double_take"], last["double_pass"])
    assert last["double_lost"] == pytest.approx(2 * max(0.0,
                                                        max(last["no_double"], answer) - answer))
    assert last["take_lost"] == pytest.approx(2 * (last["double_pass"] - answer))


def test_a_cubeless_review_is_unchanged_and_cube_asks_for_the_cube():
    """Catches: cube columns, keys or totals added to the review of a game without cube actions (its
    output must stay as before), or stakes with a cube ignored."""
    record = read_game(ROOT / "games" / "bearoff-blunder.txt")
    plain = review_game(record, "heuristic")
    assert plain.cube is None and list(plain.to_dict()) == ["params", "summary", "plies"]
    assert "cube" not in plain.params and "cube_lost" not in plain.summary().columns
    assert list(plain.frame.columns) == COLUMNS
    cubed = review_game(record, "heuristic", stakes=Stakes(cube=Cube()))
    assert list(cubed.to_dict()) == ["params", "summary", "plies", "cube"] and len(cubed.cube) > 0
    assert cubed.frame.equals(plain.frame)
    assert (cubed.summary()["total_lost"] == cubed.summary()["equity_lost"]
            + cubed.summary()["cube_lost"]).all()


def test_cli_review_of_a_cube_game_prints_every_cube_decision(tmp_path, monkeypatch):
    """Catches: the cube table missing from the command's output or the JSON, or a wrong figure in
    it, or the column `judged` missing (a money bear-off: exact)."""
    monkeypatch.chdir(tmp_path)
    Path("cube.txt").write_text(_game(TAKE, "1. 2-1: 21/23 22/23", '[Cube "on"]'))
    out = CliRunner().invoke(cli, ["review", "cube.txt", "--evaluator", "heuristic"])
    assert out.exit_code == 0, out.output
    assert ("cube decisions before each roll (equity per cube unit; losses in points (per unit "
            "times the cube)):\n"
            "turn player  cube      action     best          no_double double_take double_pass "
            "double_lost taker  take_lost error          judged\n"
            "  1. Anna    1 centre  no double  double, take     +0.452      +0.548      "
            "+1.000       0.097 Boris            missed double  exact\n") in out.output
    data = json.loads(CliRunner().invoke(cli, ["review", "cube.txt", "--evaluator", "heuristic",
                                               "--format", "json"]).output)
    assert data["cube"][0]["error"] == "missed double" and data["summary"][0]["cube_errors"] == 1


def test_cli_review_of_an_illegal_cube_record_is_one_line_exit_2(tmp_path, monkeypatch):
    """Catches: a review that scores a record whose cube actions are illegal, or fails with a
    traceback."""
    monkeypatch.chdir(tmp_path)
    Path("bad.txt").write_text(_game(TAKE, "1. Takes 2-1: 21/23 22/23"))
    out = CliRunner().invoke(cli, ["review", "bad.txt"])
    assert (out.exit_code,
            out.output) == (2, "Error: bad.txt: turn 1 (White): Black takes, but nobody has "
                               "doubled: 'Takes' (line 5)\n")


def test_a_match_review_judges_the_cube_in_match_chances_and_skips_the_crawford_game():
    """Catches: cube losses at a score left in match chances (not normalised like the plays'), or
    cube decisions rated in the Crawford game, where nobody may double."""
    match = parse_mat((ROOT / "games" / "cube-match.mat").read_text())
    review = review_match(match, "heuristic")
    game2 = review.games[1]
    drop = game2.cube.iloc[-1]
    assert (drop["action"], drop["taker"]) == ("double, pass", "neural")
    state = state_before(5, *match.scores()[1])
    # the taker is Black
    _, scale = normaliser(Stakes(state).valuation(match.games[1].rules), False)
    assert drop["take_lost"] == pytest.approx(2 * drop["mwc_take_lost"] * scale)
    totals = review.summary().set_index("player")
    assert totals.loc["neural", "cube_lost"] == pytest.approx(sum(
        g.summary().set_index("player").loc["neural", "cube_lost"] for g in review.games))
    text = ('[Match "2"]\n\n[Game "1"]\n[White "Anna"]\n[Black "Boris"]\n[Score "0-0"]\n\n1. '
            'Doubles => 2 Drops\n\n'
            '[Game "2"]\n[White "Boris"]\n[Black "Anna"]\n[Score "0-1"]\n[Resigned "Black '
            '1"]\n\n1. 6-5: 1/12\n\n'
            '[Game "3"]\n[White "Boris"]\n[Black "Anna"]\n[Score "1-1"]\n\n1. 6-5: '
            '1/12 Doubles => 2 Takes 4-2: 1/7\n')
    crawford = review_match(parse_match(text), "heuristic")
    assert [len(g.cube) for g in crawford.games] == [1, 0, 2]


def test_report_folder_and_page_show_the_cube_decisions(tmp_path):
    """Catches: the report or the review page of a cube game without its cube decisions, or the page
    showing a cube decision on the wrong ply."""
    from nardy_cli.reports.review_report import write_review
    review = review_game(parse_game(_game(TAKE, "1. 2-1: 21/23 22/23", '[Cube "on"]')), "heuristic")
    folder = write_review(review, tmp_path / "r", top=0)
    assert (folder / "cube.csv").read_text().splitlines()[1].startswith("1.,1,white,Anna,1 "
                                                                        "centre,no double,")
    md = (folder / "report.md").read_text()
    assert "## Cube decisions" in md and "| 1. | Anna | 1 centre | no double | double, take |" in md
    data = game_data(review)
    assert data["plies"][0]["cube"]["error"] == "missed double" and data["end_cube"] is None
    assert "cube" not in game_data(review_game(read_game(ROOT / "games" / "bearoff-blunder.txt"),
                                               "heuristic"))[
        "plies"][0]


def test_the_page_shows_the_cube_action_and_its_error_on_the_turn(tmp_path):
    """Catches: the page's cube line missing, left over from another ply, or naming the wrong
    error."""
    from tests.webdriver import Browser, browser_paths
    from nardy_cli.reports.review_page import page_data, write_page
    paths = browser_paths()
    if paths is None:
        pytest.skip("headless Chromium is not installed")
    review = review_game(parse_game(_game(TAKE, "1. Doubles => 2 Drops", "")), "heuristic")
    plain = review_game(parse_game(_game(TAKE, "1. 2-1: 21/23 22/23", '[Cube "on"]')), "heuristic")
    url = write_page(page_data([game_data(plain), game_data(review)]), tmp_path / "p.html").as_uri()
    with Browser(*paths) as b:
        b.get(url + "#g1-p1")
        cube = b.find("#cube")
        assert b.text(cube).startswith("cube 1 centre: no double (right: double, take) "
                                       "\u2014 missed double; equity lost: Anna 0.097")
        assert b.attribute(cube, "data-error") == "missed double"
        b.execute("location.hash = '#g1-p0'")
        assert b.text(b.find("#cube")) == ""
        b.execute("location.hash = '#g2-p0'")
        assert b.text(b.find("#cube")) == ("after the last ply: cube 1 centre: double, "
                                           "pass (right: double, take) "
                                           "\u2014 wrong pass; equity lost: "
                                           "Anna 0.000, Boris 0.452")


def test_a_game_ended_by_a_drop_before_any_play_is_reviewed_and_reported(tmp_path):
    """Catches: a game with cube actions but no ply refused as empty, or breaking the totals, the
    match totals or the report folder (an empty plies table)."""
    from nardy_cli.reports.match_report import write_match_review
    from nardy_cli.reports.review_report import write_review
    review = review_game(parse_game(_game(TAKE, "1. Doubles => 2 Drops")), "heuristic")
    assert len(review.frame) == 0 and review.summary()["cube_errors"].tolist() == [0, 1]
    assert (write_review(review, tmp_path / "game") / "cube.csv").exists()
    text = ('[Match "5"]\n\n[Game "1"]\n[White "Anna"]\n[Black "Boris"]\n[Score '
            '"0-0"]\n\n1. 6-5: 1/12\n'
            '1... Doubles => 2 Drops\n\n[Game "2"]\n[White "Boris"]\n[Black '
            '"Anna"]\n[Score "1-0"]\n\n1. Doubles => 2 Drops\n')
    match = review_match(parse_match(text), "heuristic")
    assert match.summary()["cube_decisions"].tolist() == [3, 2]
    assert (write_match_review(match, tmp_path / "match") / "cube.csv").read_text().count("\n") == 4


def test_with_beavers_a_take_of_a_bad_double_loses_the_beaver():
    """Catches: a beaver left out of the taker's answers (a take of a losing double rated right), or
    a beaver rated as a plain take."""
    position = "W:19,20 B:22,23 w"      # White on roll loses with any roll: a double is beavered
    d = cube_decision(parse_position(position), Stakes(cube=Cube(beavers=True)))
    assert d.exact and d.beaver and d.decision == "no double"
    beaver_value = d.double_take                  # the taker's best answer: twice the take's
    tags = '[Beavers "on"]'
    took = review_game(parse_game(_game(position, "1. Doubles => 2 Takes 2-1: 19/21 20/21", tags)),
                       "heuristic")
    row = took.cube.iloc[0]
    assert (row["action"], row["error"]) == ("double, take", "wrong double, wrong take")
    assert row["take_lost"] == pytest.approx(beaver_value / 2 - beaver_value)
    assert row["double_lost"] == pytest.approx(d.no_double - beaver_value)
    beavered = review_game(parse_game(_game(position,
                                            "1. Doubles => 2 Beavers => 4 2-1: 19/21 20/21", tags)),
                           "heuristic")
    row = beavered.cube.iloc[0]
    assert (row["action"], row["error"], row["take_lost"]) == ("double, beaver", "wrong double",
                                                               0.0)
