"""`nardy eval --cube-owner ...`: the cube decision, its three equities and take point; bad cube
input."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from nardy_cli.commands.cli import cli

# White bears off at once; Black draws (R8) with any double: 6/36
DRAWN_RACE = "W:24x2 B:23,24x2 w"


def run(*args):
    return CliRunner().invoke(cli, list(args))


def test_exact_bearoff_cube_decision_table():
    """Catches a wrong exact value or layout: White wins 5/6 (draws 1/6), so playing on is worth
    5/6, a taken double 5/3 and the pass +1: double, pass, from the cubeful bear-off database."""
    out = run("eval", DRAWN_RACE, "--cube-owner", "centre")
    assert out.exit_code == 0, out.output
    assert out.output.splitlines()[-4:] == [
        "cube 1, centred: White to decide",
        "  double, pass   equity per cube: no double +0.833, double/take +1.667, "
        "double/pass +1.000",
        "  Black's take point: 43.8% winning chance (Janowski's race model)",
        "  exact: the cubeful bear-off database",
    ]


def test_cube_json_key():
    """Catches the JSON `cube` object missing a key or the exact flag: decision and three
    equities."""
    out = run("eval", DRAWN_RACE, "--cube-owner", "centre", "--format", "json")
    cube = json.loads(out.output)["cube"]
    assert cube["decision"] == "double, pass" and cube["exact"] is True and cube["unit"] == "points"
    assert (cube["no_double"], cube["double_take"], cube["double_pass"]) == (
        pytest.approx(5 / 6), pytest.approx(5 / 3), 1.0)
    assert cube["state"] == {"value": 1, "owner": "centre", "jacoby": False, "beavers": False,
                             "crawford": False}


def test_the_opponents_cube_gives_no_double():
    """Catches the roller allowed to double a cube White owns: Black to roll, only the no-double
    value."""
    out = run("eval", "W:24x2 B:23,24x2 b", "--cube-owner", "white", "--cube", "4", "--format",
              "json")
    cube = json.loads(out.output)["cube"]
    assert (cube["decision"], cube["double_take"], cube["reason"]) == ("no double", None,
                                                                       "the opponent owns the cube")


def test_crawford_game_has_no_double():
    """Bug caught: a double offered in the Crawford game (Black needs 1 point at 5-6 to 7): White,
    sure to win or draw, gets only its no-double chance, valued over the post-Crawford table, and
    exactly (a bear-off of at most 5 checkers a side, issue 42)."""
    out = run("eval", DRAWN_RACE, "--cube-owner", "centre", "--match", "7", "--score", "5-6",
              "--crawford")
    assert out.exit_code == 0, out.output
    assert out.output.splitlines()[-3:] == [
        "cube 1, centred, Crawford game: White cannot double",
        # the shipped table
        "  no double (the Crawford game: no double)   cubeful match winning chances: 53.1%",
        "  exact: the bear-off played out at the score (no cube in the Crawford game)",
    ]


def test_a_match_cube_decision_in_match_winning_chances():
    """Bug caught: match cube equities in money units or the cash valued by the cubeless table: at
    3-4 to 7 White's sure race is a double and a pass, the pass worth the cubeful 3-away/3-away
    chance, and exact (the bear-off at the score, issue 42)."""
    out = run("eval", DRAWN_RACE, "--cube-owner", "centre", "--match", "7", "--score", "3-4",
              "--format", "json")
    cube = json.loads(out.output)["cube"]
    assert (cube["decision"], cube["unit"], cube["exact"]) == ("double, pass", "mwc", True)
    # the shipped distribution's table
    assert cube["double_pass"] == pytest.approx(0.5284117418626335)


@pytest.mark.parametrize("args, message", [
    (["--cube-owner", "white", "--cube", "1"],
     "a cube owned by White has been doubled: its value is 2 or more, "
     "got 1"),
    (["--cube-owner", "centre", "--cube", "2"],
     "a cube of value 2 has been doubled, so White or Black owns it, "
     "not the centre"),
    (["--cube-owner", "white", "--match", "7", "--score", "6-2", "--crawford", "--cube", "2"],
     "no double in the Crawford game: the cube stays at 1, got --cube 2"),
    (["--cube-owner", "centre", "--match", "7", "--score", "2-3", "--crawford"],
     "the Crawford game is the game after a player first needs 1 point, but both need "
     "more (White 5, Black 4)"),
    (["--cube-owner", "centre", "--crawford"],
     "--crawford needs --match N (the Crawford game is a match rule)"),
    (["--cube-owner", "centre", "--match", "7", "--jacoby"],
     "--jacoby is a money-game rule, not for a match to 7"),
    (["--cube-owner", "centre", "--match", "7", "--beavers"],
     "--beavers is a money-game rule, not for a match to 7"),
    (["--jacoby"], "--jacoby needs --cube-owner centre|white|black"),
])
def test_bad_cube_input_is_one_line_exit_2(args, message):
    """Catches a traceback or a silent acceptance of an impossible cube (an owned cube at 1, a
    double in the Crawford game, Crawford without a match or where nobody needs 1 point)."""
    out = run("eval", DRAWN_RACE, *args)
    assert (out.exit_code, out.output) == (2, f"Error: {message}\n")


RACE_2_1 = "W:21,22x2 B:19,20,22 w"     # all home: the cubeful bear-off database is exact


def test_analyze_shows_the_cube_decision_before_the_plays():
    """Catches `analyze --cube-owner` leaving the cube out, putting it after the plays, or deciding
    differently from `eval` (the decision comes before the roll, so the dice do not change it)."""
    cube_lines = run("eval", RACE_2_1, "--cube-owner", "white", "--cube",
                     "2").output.splitlines()[-4:]
    out = run("analyze", f"{RACE_2_1} 2-1", "--cube-owner", "white", "--cube", "2", "--no-staged",
              "--games", "64", "--quiet")
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    assert lines[0] == cube_lines[0].replace("White's:", "White's before the 2-1:")
    assert lines[1:4] == cube_lines[1:] and lines[4] == ""
    assert lines[5].startswith(f"{RACE_2_1}   to play 2-1   (neural rollouts")


def test_analyze_json_carries_the_cube_key():
    """Catches the analyze JSON without `cube`, or with another decision than eval's JSON."""
    want = json.loads(run("eval", RACE_2_1, "--cube-owner", "centre", "--format",
                          "json").output)["cube"]
    got = json.loads(run("analyze", f"{RACE_2_1} 2-1", "--cube-owner", "centre", "--no-staged",
                         "--games", "64", "--quiet", "--format", "json").output)
    assert got["cube"] == want and got["plays"]


def test_analyze_cube_options_are_checked():
    """Catches analyze accepting a cube option without --cube-owner (silently no cube analysis)."""
    out = run("analyze", f"{RACE_2_1} 2-1", "--jacoby", "--games", "64")
    assert out.exit_code == 2
    assert out.output.splitlines()[-1] == "Error: --jacoby needs --cube-owner centre|white|black"


def test_met_cubeful_prints_the_cubeful_table_and_the_post_crawford_row():
    """Catches `met --cubeful` printing the cubeless table (1-away vs 7-away would be 97%, not the
    cubeful 90.5%), or losing the post-Crawford row."""
    from nardy_cli.match.met import cubeful_equity_table
    t = cubeful_equity_table(7)
    out = run("met", "--length", "7", "--cubeful")
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    assert lines[0].startswith("Match equity table (cubeful, cube efficiency x = 0.68), "
                               "federation rules")
    assert lines[4] == "    1 " + "".join(f"{v * 100:>6.1f}" for v in t.table[0])
    assert lines[4].endswith("90.5")
    assert lines[12] == "      " + "".join(f"{v * 100:>6.1f}" for v in t.post_crawford)


def test_met_cubeful_json_and_bad_combinations():
    """Catches the cubeful JSON without its flag or post-Crawford row, and `--cubeful --se` silently
    showing cubeless errors next to cubeful chances."""
    d = json.loads(run("met", "--length", "3", "--cubeful", "--format", "json").output)
    assert d["cubeful"] is True and len(d["table"]) == 3 and len(d["post_crawford"]) == 3
    assert d["table"][0][0] == pytest.approx(0.5) and d["post_crawford"][0] == pytest.approx(0.5)
    out = run("met", "--cubeful", "--se")
    assert out.exit_code == 2 and out.output.splitlines()[-1] == ("Error: --se is for the cubeless "
                                                                  "table: drop "
                                                                   "--cubeful or --se")
