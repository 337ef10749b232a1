"""Commands at a match score or with the cube, byte for byte as they printed before the stakes value
(issue 37, item 3): one `Stakes` in place of the match state, the cube state and the bots' cube
must not change what a user sees.

The files in tests/data/golden/stakes/ were written by these command lines at the commit before the
stakes value (f9a49dc).  A change meant to alter one of them rewrites it with
`NARDY_UPDATE_GOLDEN=1 pytest tests/test_stakes_outputs.py` and says why in its commit.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from nardy_cli.commands.cli import cli
from tests.test_golden_outputs import same_output

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = Path(__file__).resolve().parent / "data" / "golden" / "stakes"
GAMES = ROOT / "games"
POS = "W:1x14,12 B:1x15 b"
RACE = "W:20x2,23 B:21,24x2 w"
HEURISTIC = ["--policy", "heuristic", "--games", "300", "--seed", "3"]

CASES = {
    "eval-match.txt": ["eval", POS, "--match", "7", "--score", "4-6"],
    "eval-crawford.txt": ["eval", RACE, "--cube-owner", "centre", "--match", "7", "--score", "5-6",
                          "--crawford"],
    "eval-money-cube.json": ["eval", POS, "--cube-owner", "white", "--cube", "2", "--jacoby",
                             "--beavers", "--format", "json"],
    "eval-match-cube.txt": ["eval", POS, "--cube-owner", "black", "--cube", "2", "--match", "7",
                            "--score", "3-4"],
    "rollout-match.json": ["rollout", POS, *HEURISTIC, "--match", "5", "--score", "2-3",
                           "--format", "json"],
    "rollout-cube.txt": ["rollout", POS, *HEURISTIC, "--cube-owner", "centre", "--never-double",
                         "black"],
    "duel-cube.json": ["duel", "heuristic", "racer", "--games", "200", "--seed", "2", "--cube",
                       "--never-double", "b", "--beavers", "--format", "json"],
    "duel-match-cube.json": ["duel", "heuristic", "heuristic", "--match", "3", "--matches", "2",
                             "--seed", "5", "--cube", "--never-double", "a", "--format", "json"],
    "play-match-cube.mat": ["play", "heuristic", "heuristic", "--match", "5", "--cube", "--seed",
                            "7", "--date", "2024.01.01", "--format", "mat"],
    "play-cube.txt": ["play", "neural", "heuristic", "--cube", "--jacoby", "--seed", "4", "--date",
                      "2024.01.01"],
    "review-cube-game.txt": ["review", str(GAMES / "cube-match.mat"), "--game", "2", "--evaluator",
                             "heuristic"],
    "review-at-score.csv": ["review", str(GAMES / "bot-game.txt"), "--match", "7", "--score", "4-6",
                            "--evaluator", "heuristic", "--format", "csv"],
    "convert-cube.mat": ["convert", str(GAMES / "cube-match.mat"), "-", "--to", "mat"],
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_command_output_at_a_score_or_with_the_cube_is_unchanged(name):
    """Would catch: the stakes reaching a command otherwise than the match state and cube did (a
    lost Crawford flag, cube rules or score, a valuation at the wrong stakes, the bots' cube
    behaviours swapped), as any change in these outputs."""
    result = CliRunner().invoke(cli, CASES[name])
    assert result.exit_code == 0, result.output
    path = GOLDEN / name
    if os.environ.get("NARDY_UPDATE_GOLDEN"):
        path.write_text(result.stdout)
    assert same_output(result.stdout, path.read_text()), result.stdout
