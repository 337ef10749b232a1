"""A handful of commands' outputs, byte for byte, as the package printed them before it was
reshaped into layer folders (issue 37): moving code must not change what a user sees.

The files in tests/data/golden/ were written by the commands below at the last commit of the flat
package.  A change that is meant to alter one of these outputs rewrites its file with
`NARDY_UPDATE_GOLDEN=1 pytest tests/test_golden_outputs.py` and says why in its commit.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from nardy_cli.commands.cli import cli

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = Path(__file__).resolve().parent / "data" / "golden"
GAMES = ROOT / "games"
POS = "W:1x14,12 B:1x15 b"

CASES = {
    "show.txt": ["show", "start"],
    "moves.txt": ["moves", "start", "--dice", "3-3"],
    "moves.json": ["moves", POS, "--dice", "6-6", "--format", "json"],
    "policies.txt": ["policies"],
    "met.txt": ["met", "--length", "3"],
    "eval.txt": ["eval", POS],
    "deficit.csv": ["deficit", "start", "--format", "csv"],
    "rollout.json": ["rollout", POS, "--games", "400", "--seed", "7", "--policy", "heuristic",
                     "--format", "json"],
    "rollout.txt": ["rollout", POS, "--games", "400", "--seed", "7", "--policy", "heuristic"],
    "rollout-vr.csv": ["rollout", POS, "--games", "300", "--seed", "3", "--policy", "neural",
                       "--vr", "--format", "csv"],
    "convert.txt": ["convert", str(GAMES / "bot-match.mat"), "-"],
    "convert.mat": ["convert", str(GAMES / "bot-match.txt"), "-"],
    "review.csv": ["review", str(GAMES / "bot-game.txt"), "--format", "csv"],
    "review.txt": ["review", str(GAMES / "bot-game.txt")],
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_command_output_is_unchanged(name):
    """Catches a reshaping (or any change) that alters a command's output: a moved template, a
    lost default, a table renderer reached through the wrong module."""
    result = CliRunner().invoke(cli, CASES[name])
    assert result.exit_code == 0, result.output
    path = GOLDEN / name
    if os.environ.get("NARDY_UPDATE_GOLDEN"):
        path.write_text(result.stdout)
    assert result.stdout == path.read_text()
