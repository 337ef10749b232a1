"""The command line: exact output, exit codes, one-line errors, help with examples."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from nardy_cli import __version__
from nardy_cli.commands.cli import cli


def run(*args, **kw):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False, **kw)


def test_version():
    out = run("--version")
    assert out.exit_code == 0 and out.output == f"nardy, version {__version__}\n"


def test_every_command_has_help_with_an_example():
    for name in cli.list_commands(None):
        out = run(name, "--help")
        assert out.exit_code == 0, name
        assert ("Examples:" in out.output
                and f"nardy {name}" in out.output.split("Examples:")[1]), name


def test_show_start_exact():
    out = run("show", "start")
    assert out.exit_code == 0
    assert out.output == (
        "W:   24  23  22  21  20  19  |  18  17  16  15  14  13\n"
        "B:   12  11  10   9   8   7  |   6   5   4   3   2   1\n"
        "      .   .   .   .   .   .  |   .   .   .   .   . b15\n"
        "   ---------------------------------------------------\n"
        "    w15   .   .   .   .   .  |   .   .   .   .   .   .\n"
        "B:   13  14  15  16  17  18  |  19  20  21  22  23  24\n"
        "W:    1   2   3   4   5   6  |   7   8   9  10  11  12\n"
        "\n"
        "White  off  0   pips 360\n"
        "Black  off  0   pips 360\n"
        "White to move\n")


def test_show_black_numbering_and_image(tmp_path):
    out = run("show", "W:1x14,12 B:1x15 b 6-6", "--numbering", "black")
    assert (out.output.splitlines()[0].startswith("B:   24")
            and "Black to move, dice 6-6" in out.output)
    img = tmp_path / "b.png"
    out = run("show", "start", "--format", "png", "-o", str(img))
    assert out.exit_code == 0 and img.stat().st_size > 10000


def test_moves_exact_table():
    out = run("moves", "start", "--dice", "3-3")
    assert out.exit_code == 0
    assert out.output == ("3-3: 2 plays\n"
                          "    1  1/4 1/4 4/7 4/7   W:1x13,7x2 B:1x15 b\n"
                          "    2  1/4 1/4 4/7 7/10  W:1x13,4,10 B:1x15 b\n")


def test_moves_json_shape_exactly():
    out = run("moves", "W:1x14,21 B:1x15 b", "--dice", "4-4", "--format", "json")
    data = json.loads(out.output)
    assert list(data) == ["position", "rules", "rolls"]
    assert data["position"] == "W:1x14,21 B:1x15 b"
    assert data["rolls"] == [{"dice": "4-4",
                              "plays": [{"play": "1/5", "result": "W:1x14,21 B:1x14,5 w"}]}]


def test_moves_all_rolls_and_position_dice():
    data = json.loads(run("moves", "start", "--format", "json").output)
    assert len(data["rolls"]) == 21
    data = json.loads(run("moves", "W:1x15 B:1x15 w 6-6", "--format", "json").output)
    assert [r["dice"] for r in data["rolls"]] == ["6-6"]


def test_moves_positions_file_json_lines(tmp_path):
    f = tmp_path / "p.txt"
    f.write_text("a: start\nb: W:1x14,12 B:1x15 b\n")
    lines = run("moves", str(f), "--dice", "6-5", "--format", "json").output.splitlines()
    assert [json.loads(l)["name"] for l in lines] == ["a", "b"]
    one = run("moves", f"{f}:b", "--dice", "6-5", "--format", "csv").output.splitlines()
    assert one == ["name,position,dice,n,play,result",
                   'b,"W:1x14,12 B:1x15 b",6-5,1,1/7 7/12,"W:1x14,12 B:1x14,12 w"']


@pytest.mark.parametrize("args, token", [
    (["moves", "W:1x16 B:1x15 w"], "'1x16'"),
    (["moves", "W:1x14,13 B:1x15 w"], "W13 = B1"),
    (["moves", "W:0 B:1x15 w"], "'0'"),
    (["moves", "start", "--dice", "7-1"], "'7-1'"),
    (["moves", "start", "--rules", "olympic"], "'olympic'"),
    (["moves", "start", "--points", "oin=x"], "'x'"),
    (["moves", "W:1x5,18,20x2,21x2,22x2,23x2,24 B:1x11,2,3,4,5 w"], "forbidden block"),
    (["show", "nosuchfile.txt"], "'nosuchfile.txt'"),
    (["rollout", "start", "--policy", "nobody"], "'nobody'"),
    (["rollout", "start", "--games", "0"], "0"),
    (["rollout", "start", "--seed", "-1"], "-1"),
    (["rollout", "start", "--executor", "dask"], "--scheduler"),
    (["rollout", "start", "--executor", "dask", "--scheduler", "foo"], "'foo'"),
    (["duel", "random", "mystery"], "'mystery'"),
    (["openings", "--rolls", "77"], "'77'"),
    (["analyze", "start"], "no dice"),
    (["eval", "start", "--match", "7", "--score", "7-2"], "the match is over"),
    (["eval", "start", "--score", "3-2"], "--score needs --match"),
    (["rollout", "start", "--match", "7", "--score", "3.2-1"], "multiple of 1/2"),
    (["rollout", "start", "--match", "7", "--score", "x"], "'x'"),
    (["eval", "start", "--rules", "classic", "--match", "7", "--score", "2.5-1"], "half point"),
])
def test_bad_input_is_one_line_exit_2(args, token):
    out = CliRunner().invoke(cli, args)
    assert out.exit_code == 2, out.output
    lines = out.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and token in lines[0], out.output
    assert "Traceback" not in out.output


@pytest.mark.parametrize("command",
                         [["moves", "W:- B:12,24 b", "--dice", "6-5"], ["deficit", "W:- B:- w"],
                          ["eval", "W:12 B:- w"], ["rollout", "W:- B:- w"]])
def test_game_over_is_an_error(command):
    out = CliRunner().invoke(cli, command)
    assert out.exit_code == 2 and "game is" in out.output and "over" in out.output


def test_rollout_table_and_json(pool_submits):
    """Catches a wrong header, a wrong draw share, or CLI output that depends on --workers."""
    # W:24x2 B:23,24x2 w: White bears both off with any roll; Black, all home, gets the last roll
    # (R8) and bears off all three only with a double: draw = 6/36 = 0.1667.
    out = run("rollout", "W:24x2 B:23,24x2 w", "--games", "1296", "--workers", "1", "--seed", "3")
    assert out.exit_code == 0
    assert ("1,296 games, neural (White) vs neural (Black), seed 3, federation rules, stratified"
            in out.output)
    assert "draw                      0.1667" in out.output
    # 3,000 games are three chunks (1,296 + 1,296 + 408): with two workers a pool runs them
    j1 = run("rollout", "start", "--games", "3000", "--workers", "1", "--format", "json").output
    assert pool_submits == []
    j2 = run("rollout", "start", "--games", "3000", "--workers", "2", "--format", "json").output
    assert len(pool_submits) == 3
    assert j1 == j2 and json.loads(j1)["params"]["seed"] == 20261129


def test_rollout_csv_and_several_positions(tmp_path):
    f = tmp_path / "p.txt"
    f.write_text("x: W:24 B:24 w\ny: W:24 B:24 b\n")
    lines = run("rollout", str(f), "--games", "50", "--workers", "1", "--format",
                "json").output.splitlines()
    assert [json.loads(l)["name"] for l in lines] == ["x", "y"]
    # x: White bears off its last checker, Black (all home) has the last roll and draws (R8)
    assert [json.loads(l)["probabilities"]["draw"] for l in lines] == [1.0, 0.0]
    assert [json.loads(l)["probabilities"]["win"] for l in lines] == [0.0, 1.0]
    csv = run("rollout", str(f), "--games", "50", "--workers", "1", "--format",
              "csv").output.splitlines()
    assert csv[0].startswith("name,position,games,equity") and len(csv) == 3


def test_deficit_command():
    """Catches the deficit command printing other figures than the library (hand-worked in
    test_deficit.py)."""
    # Black passes with 3-3, 4-4, 5-5, 4-3, 5-3, 5-4: 3 + 2 x 3 = 9 of 36 rolls = 0.2500;
    # from the start the sixes lost are two of 6-6's four, out of 14 sixes rolled per 36 rolls:
    # 2/14.
    out = run("deficit", "W:22,23,24x13 B:7,22x7,23,24x6 b")
    assert out.exit_code == 0 and "pass 0.2500" in out.output
    data = json.loads(run("deficit", "start", "--format", "json").output)
    assert data["face_deficit"][5] == pytest.approx(2 / 14)


def test_policies_eval_duel():
    assert "heuristic" in run("policies").output
    out = run("eval", "W:1x14,12 B:1x15 b")
    assert (out.exit_code == 0
            and "network (0-ply), federation rules, chances for Black" in out.output)
    assert "chances for Black" in out.output
    data = json.loads(run("duel", "racer", "random", "--games", "200", "--workers", "1", "--format",
                          "json").output)
    assert data["a"] == "racer" and data["games"] == 200 and len(data["ci95"]) == 2


def test_python_policy_error_names_the_policy():
    out = CliRunner().invoke(cli, ["rollout", "start", "--white-policy", "tests.bots.simple:Broken",
                                   "--games", "5", "--workers", "1"])
    assert (out.exit_code == 2 and "tests.bots.simple:Broken" in out.output
            and "ZeroDivisionError" in out.output)
