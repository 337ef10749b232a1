"""Game review: blunders found with the right best play, forced plays not scored, luck, evaluators,
CLI."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from nardy_cli.commands.cli import cli
from nardy_cli.core.dice import ALL_ROLLS
from nardy_cli.core.engine import legal_plays
from nardy_cli.core.errors import NardyError
from nardy_cli.policies.judges import (HEURISTIC_ESTIMATE, exact_value, get_evaluator, result_board,
    result_values)
from nardy_cli.games import RunConfig
from nardy_cli.core.position import START, parse_position
from nardy_cli.records.game_record import parse_game, record_from_plays
from nardy_cli.review.game_review import Thresholds, parse_thresholds, review_game
from nardy_cli.core.rules import PRESETS
from nardy_cli.games.selfplay import play_game

FEDERATION = PRESETS["federation"]

# White (13 off) has W22 and W24; Black (13 off) has two on B24 and bears them off with any roll.
#
#   W: 24 23 22 ...           White to play 3-1:
#       w  .  w               22/off 24/off: all off; Black's last roll (R8) can only draw -> 0
#   B: 12 11 10 ...           22/23 23/off:  W24 stays; Black bears off both and wins   -> -1
#   B24 = W12: b b
BLUNDER = """[White "Student"]
[Black "Coach"]
[Position "W:22,24 B:24x2 w"]
[Result "Black wins by oin"]
1. 3-1: 22/23 23/off   4-2: 24/off 24/off
"""


@pytest.mark.parametrize("evaluator", ["heuristic", "lookahead:heuristic"])
def test_bearoff_blunder_is_flagged_with_the_right_best_play(evaluator):
    """Catches: a review that misses a game-losing bear-off (no exact value for a sure finish or the
    last roll), the wrong sign for the side that moved, or a wrong best play."""
    review = review_game(parse_game(BLUNDER), evaluator)
    white = review.frame.iloc[0]
    assert white["mark"] == "blunder" and white["best"] == "22/off 24/off"
    assert (white["equity_best"] == pytest.approx(0.0)
            and white["equity_played"] == pytest.approx(-1.0))
    assert white["lost"] == pytest.approx(1.0)
    summary = review.summary().set_index("side")
    assert (summary.loc["white", "blunders"] == 1
            and summary.loc["white", "error_rate"] == pytest.approx(1.0))


def test_forced_plays_are_listed_not_scored():
    """Black's 4-2 bears off both checkers, the only play: listed as forced, no loss, not a
    decision. Catches: forced plays counted in the error rate or decisions."""
    review = review_game(parse_game(BLUNDER))
    black = review.frame.iloc[1]
    assert bool(black["forced"]) and black["mark"] == "forced" and np.isnan(black["lost"])
    summary = review.summary().set_index("side")
    assert summary.loc["black", "decisions"] == 0 and summary.loc["black", "forced"] == 1
    assert summary.loc["black", "equity_lost"] == 0.0
    assert len(review.decisions()) == 1


def test_player_with_the_reviews_evaluator_loses_nothing_at_0_ply():
    """A game played by the estimate's 0-ply argmax, reviewed by the same estimate: zero equity
    lost. Catches: review and player disagreeing on whose view a result board is scored from."""
    record = play_game("nardy_cli.policies.judges:estimate_player", "racer", seed=4)
    review = review_game(record, "heuristic", sides=("w",))
    assert set(review.frame["side"]) == {"white"}
    assert review.decisions()["lost"].max() == pytest.approx(0.0, abs=1e-12)
    assert (review.decisions()["mark"] == "").all()
    assert review.summary().iloc[0]["decisions"] > 20


def test_compiled_neural_player_reviewed_by_the_neural_evaluator_loses_nothing():
    """`nardy play neural ...` then `nardy review --evaluator neural`: the shipped network's 0-ply
    choice in the game kernel and the review's equities agree, so the player loses nothing.
    Catches: the evaluator scoring boards from the other side's view, or another points table."""
    record = play_game("neural", "racer", seed=8)
    review = review_game(record, "neural", sides=("w",))
    assert review.decisions()["lost"].max() == pytest.approx(0.0, abs=1e-9)
    assert review.summary().iloc[0]["decisions"] > 20


def test_luck_averages_to_zero_over_the_21_rolls():
    """Luck = best value for the roll minus the mean over the 21 rolls, so its mean over rolls is 0.
    Catches: unweighted averages (doubles counted like non-doubles) or the wrong roll's value."""
    total = 0.0
    for dice in ALL_ROLLS:
        play = legal_plays(START, dice)[0]
        review = review_game(record_from_plays([(dice, play)]))
        total += float(dice.probability) * review.frame.iloc[0]["luck"]
    assert total == pytest.approx(0.0, abs=1e-9)


def test_lookahead_differs_from_0_ply_and_searches_the_played_play():
    """Catches: a lookahead wrapper that returns the base values, or drops the played result."""
    record = play_game("racer", "heuristic", seed=2, max_plies=12)
    flat = review_game(record, "heuristic")
    deep = review_game(record, "lookahead:heuristic", width=2)
    assert (deep.frame["level"][~deep.frame["forced"]] == "lookahead:heuristic").all()
    assert not np.allclose(flat.frame["equity_played"], deep.frame["equity_played"])
    assert (deep.decisions()["lost"] >= 0).all()


def test_exact_values_last_roll_and_decided_games():
    """R8: White bears off its last checker; Black all home with two on B24 draws with any roll (0).
    Black on its head cannot: White wins by koks (2).  Catches: a wrong class or a missed last
    roll."""
    #  W:24 -> 24/off; Black B24x2 (all home) gets its last roll and bears both off: draw
    for black, value in (("24x2", 0.0), ("1x15", 2.0)):
        pos = parse_position(f"W:24 B:{black} w")
        play = legal_plays(pos, "6-5")[0]
        assert exact_value(result_board(play.result, "w"), True, FEDERATION) == pytest.approx(value)
    boards = np.stack([result_board(p.result, "w") for p in legal_plays(START, "6-5")])
    assert np.isfinite(result_values(HEURISTIC_ESTIMATE, boards, True, FEDERATION)).all()


class PipEvaluator:
    """A user's evaluator: pip lead of the side that just moved, in points (a stand-in for the
    network)."""

    name = "pips"

    def equities(self, boards, white, rules):
        mine = (np.maximum(boards, 0) * (24 - np.arange(24))).sum(axis=1)
        theirs_points = np.r_[12:24, 0:12]   # opponent's own point index of each board cell
        theirs = (-np.minimum(boards, 0) * (24 - theirs_points)).sum(axis=1)
        return np.tanh((theirs - mine) / 50.0)


def test_any_object_with_equities_plugs_in():
    """The review needs only `equities(boards, white, rules)`: a user's evaluator scores a game
    (its lookahead needs a kernel form, which a Python object has not).  Catches: review code that
    reaches into the built-in estimate."""
    record = play_game("racer", "heuristic", seed=6, max_plies=10)
    flat = review_game(record, PipEvaluator())
    assert flat.params["evaluator"] == "pips" and (flat.decisions()["lost"] >= 0).all()
    row = flat.decisions().iloc[0]
    board = result_board(parse_position(row["played_result"]), row["side"][0])
    assert row["equity_played"] == pytest.approx(PipEvaluator().equities(board[None], True,
                                                                         FEDERATION)[0])
    with pytest.raises(NardyError, match="equities"):
        get_evaluator(object())


def test_thresholds_and_evaluator_names():
    """Catches: marks at the wrong boundaries, unchecked threshold text, unknown evaluator names
    accepted."""
    t = Thresholds(0.05, 0.1, 0.2)
    assert [t.mark(x) for x in (0.0, 0.05, 0.1, 0.19, 0.2)] == ["", "doubtful", "error", "error",
                                                                "blunder"]
    assert parse_thresholds("0.03, 0.06,0.12") == Thresholds(0.03, 0.06, 0.12)
    for bad in ("0.1,0.05,0.2", "a,b,c", "0.1,0.2"):
        with pytest.raises(NardyError):
            parse_thresholds(bad)
    with pytest.raises(NardyError, match="'neuralx'"):
        get_evaluator("neuralx")
    assert get_evaluator("lookahead:heuristic").name == "lookahead:heuristic"


def test_rollout_rescores_flagged_decisions():
    """Catches: --rollout ignoring flagged rows, or rows keeping 0-ply values after the rollout."""
    record = play_game("racer", "random", seed=9, max_plies=8)
    review = review_game(record, "heuristic", rollout=RunConfig(games=36), rollout_policy="racer",
                         sides=("b",),
                         thresholds=Thresholds(0.0, 0.0, 0.0))
    flagged = review.frame[review.frame["level"] == "rollout 36"]
    assert len(flagged) == len(review.decisions()) > 0
    assert (flagged["equity_se"] > 0).all()


def run(*args, **kw):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False, **kw)


def test_cli_play_then_review(tmp_path):
    """`nardy play` writes records and a summary; `nardy review` reads them, writes the report
    folder. Catches: records the reviewer cannot read, a report missing its chart or boards."""
    out = run("play", "heuristic", "racer", "--games", "2", "--seed", "5", "--output",
              str(tmp_path / "g"))
    assert out.exit_code == 0, out.output
    assert sorted(p.name for p in (tmp_path / "g").iterdir()) == ["game-001.txt", "game-002.txt",
                                                                  "summary.csv", "summary.json"]
    assert json.loads((tmp_path / "g" / "summary.json").read_text())["games"] == 2
    out = run("review", str(tmp_path / "g" / "game-001.txt"), "--top", "2", "--output",
              str(tmp_path / "r"), "--html")
    assert out.exit_code == 0, out.output
    files = {p.name for p in (tmp_path / "r").iterdir()}
    assert {"report.md", "report.html", "equity.png", "decision-1.png", "decision-2.png",
            "review.csv", "review.json", "game.txt"} <= files
    assert "## Summary" in (tmp_path / "r" / "report.md").read_text()
    out = run("review", str(tmp_path / "g" / "game-002.txt"), "--format", "json", "--side", "black")
    data = json.loads(out.output)
    assert ({p["side"] for p in data["plies"]} == {"black"}
            and data["params"]["evaluator"] == "neural")
    text = run("play", "heuristic", "racer", "--seed", "5").output
    assert run("review", "-", "--format", "csv", input=text).exit_code == 0


@pytest.mark.parametrize("args,words", [
    (["review", "{path}"], ["turn 1 (Black)", "4-2", "'1/8'"]),
    (["review", "missing.txt"], ["missing.txt"]),
    (["review", "{good}", "--evaluator", "nope"], ["--evaluator", "'nope'"]),
    (["review", "{good}", "--thresholds", "1,2"], ["--thresholds"]),
    (["play", "heuristic", "nope"], ["'nope'"]),
])
def test_cli_errors_are_one_line_exit_2(tmp_path, args, words):
    """Catches: tracebacks or exit code 1 on a bad record, file, evaluator, thresholds or policy."""
    bad = tmp_path / "bad.txt"
    bad.write_text("1. 6-5: 1/12  4-2: 1/8\n")
    good = tmp_path / "good.txt"
    good.write_text("1. 6-5: 1/12\n")
    out = CliRunner().invoke(cli, [a.format(path=bad, good=good) for a in args])
    assert out.exit_code == 2, out.output
    lines = out.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ")
    for word in words:
        assert word in lines[0]


def test_play_and_review_can_write_into_their_own_folders_again(tmp_path):
    """Catches: a second `nardy play --output DIR` or `nardy review --output DIR` refused because
    the folder "holds files that are not a nardy report" (only rollout and deficit folders were
    recognised), which made a second `make demo` fail; a folder of someone else's files is still
    refused."""
    for _ in range(2):
        out = run("play", "heuristic", "racer", "--games", "1", "--seed", "5", "--output",
                  str(tmp_path / "g"))
        assert out.exit_code == 0, out.output
    for _ in range(2):
        out = run("review", str(tmp_path / "g" / "game-001.txt"), "--top", "1", "--output",
                  str(tmp_path / "r"))
        assert out.exit_code == 0, out.output
    assert sorted(p.name for p in (tmp_path / "g").iterdir()) == ["game-001.txt", "summary.csv",
                                                                  "summary.json"]
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("keep")
    out = CliRunner().invoke(cli, ["play", "heuristic", "racer", "--games", "1", "--output",
                                   str(tmp_path / "mine")])
    assert out.exit_code == 2 and "not a nardy report" in out.output
    assert (tmp_path / "mine" / "notes.txt").read_text() == "keep"


def test_last_roll_blunder_and_its_drawn_best_result_are_drawn(tmp_path):
    """R8: White bears off its last checker; Black (B19, B24, all home) rolls 6-5 and could bear off
    both for a draw, but plays 19/24 24/off and loses.  Catches: a missed last-roll blunder, and a
    report that cannot draw the best result `W:- B:- w` (a finished game that position input
    refuses)."""
    #   W: (all off after 24/off)      B19 = W7: b     B24 = W12: b
    record = parse_game('[Position "W:24 B:19,24 w"]\n1. 6-5: 24/off   6-5: 19/24 24/off\n')
    review = review_game(record)
    black = review.frame.iloc[1]
    assert (black["mark"] == "blunder" and black["best"] == "19/off 24/off"
            and black["best_result"] == "W:- B:- w")
    assert black["lost"] == pytest.approx(1.0)
    from nardy_cli.reports.review_report import write_review
    write_review(review, tmp_path / "r", top=1)
    assert (tmp_path / "r" / "decision-1.png").stat().st_size > 10_000


def test_review_of_a_game_the_evaluator_played_says_its_zero_is_by_construction(tmp_path):
    """Catches a review by `neural` of a game `neural` played reporting "0.000 lost" for it with no
    word that this holds by construction (its plays are the evaluator's own choices), in the output
    and report.md."""
    record = play_game("neural", "racer", seed=8)
    review = review_game(record, "neural")
    assert review.params["self_reviewed"] == ["white"]
    assert review.notes() == ["White (neural) was played by the reviewing evaluator neural itself: "
                              "its plays are "
                              "that evaluator's own choices, so they lose 0.000 by construction; "
                              "another evaluator or rollouts give an independent view."]
    # racer is not the evaluator either
    assert review_game(record, "heuristic").notes() == []
    from nardy_cli.records.game_record import format_game
    game = tmp_path / "game.txt"
    game.write_text(format_game(record))
    out = run("review", str(game), "--output", str(tmp_path / "r"))
    assert out.output.splitlines()[1] == f"Note: {review.notes()[0]}"
    assert f"> **Note.** {review.notes()[0]}" in (tmp_path / "r" / "report.md").read_text()


def test_review_table_keeps_played_and_best_apart_and_marks_forced_plays():
    """Catches the review table running the played and best plays together (one space:
    `6/14 8/9 1/9`) and forced plays showing `NaN` as their equity lost."""
    out = run("review", "-", input=BLUNDER)
    lines = out.output.splitlines()
    header, white, black = lines[2], lines[3], lines[4]
    assert header.split()[:6] == ["turn", "player", "dice", "played", "best", "play"]
    col = header.index("best play")
    # 22/23 23/off
    assert white[col:].startswith("22/off 24/off") and white[:col].split()[-1] == "22/off"
    assert white[col - 2:col] == "  "
    assert "NaN" not in out.output and black.split()[-2:] == ["forced", "+0.000"]


def test_review_report_opens_with_a_plain_summary_and_ends_with_parameters_and_the_glossary(
        tmp_path):
    """Catches a review report without the plain-language first line, the readable parameters table
    or the glossary that every other report has (one glossary for all: `study/glossary.py`)."""
    from nardy_cli.reports.review_report import write_review
    from nardy_cli.reports.glossary import GLOSSARY
    write_review(review_game(parse_game(BLUNDER), "heuristic"), tmp_path / "r", html=True)
    md = (tmp_path / "r" / "report.md").read_text()
    assert md.splitlines()[2] == ("**Student (White) lost 1.000 points in 1 decision (1 blunder, "
                                  "luck +0.056); "
                                  "Coach (Black) lost 0.000 points in 0 decisions (0 blunders, "
                                  "luck +0.000).**")
    assert "| report | game review |" in md and "| evaluator | heuristic |" in md
    for term, _ in GLOSSARY:
        assert f"- **{term}**: " in md.split("## Glossary")[1], term
    assert "<h2>Glossary</h2>" in (tmp_path / "r" / "report.html").read_text()


def test_a_decision_figure_places_its_three_boards_pixel_for_pixel_under_its_title(tmp_path):
    """Bugs: the decision figure's boards resampled (blurred, as when they were shown with `imshow`
    in a layout), saved at another dpi than the figure's own (`figimage` places pixels: the boards
    would shift off the image), or the boards put in another order than before, played, best."""
    from nardy_cli.reports.board_figure import draw_board
    from nardy_cli.reports.review_report import BOARD_DPI, TITLE_PX, _pixels, _save, decision_figure
    from PIL import Image
    review = review_game(parse_game(BLUNDER), "heuristic")
    row = review.frame.iloc[0]
    _save(decision_figure(row), tmp_path / "decision.png")
    image = np.asarray(Image.open(tmp_path / "decision.png").convert("RGBA"))
    boards = [_pixels(draw_board(parse_position(row[column]), numbering="w", title=title),
                      BOARD_DPI)
              for column, title in (("position", None), ("played_result", None),
                                    ("best_result", None))]
    height, width = boards[0].shape[:2]
    assert image.shape[:2] == (height + TITLE_PX, 3 * width)
    # each board's middle rows (titles differ) are the board drawn alone, pixel for pixel
    rows = slice(TITLE_PX + height // 4, TITLE_PX + 3 * height // 4)
    for k, board in enumerate(boards):
        assert (image[rows, k * width:(k + 1) * width] == board[height // 4:3 * height // 4]).all()
