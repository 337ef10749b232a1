"""A handful of commands' outputs, byte for byte, as the package printed them before it was
reshaped into layer folders (issue 37): moving code must not change what a user sees.

The files in tests/data/golden/ were written by the commands below at the last commit of the flat
package.  A change that is meant to alter one of these outputs rewrites its file with
`NARDY_UPDATE_GOLDEN=1 pytest tests/test_golden_outputs.py` and says why in its commit.
"""

from __future__ import annotations

import math
import os
import re
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


# a float printed with all its digits (repr): its last bits depend on the CPU that ran the network's
# fastmath layers (FMA or not), so such numbers are compared to 1e-12, everything else exactly
LONG_FLOAT = re.compile(r"-?\d+\.\d{12,}(?:e-?\d+)?")


def same_output(got: str, want: str) -> bool:
    """`got` equals `want`, but for full-precision floats, which agree to a relative 1e-12."""
    if got == want:
        return True
    if LONG_FLOAT.split(got) != LONG_FLOAT.split(want):
        return False
    return all(math.isclose(float(a), float(b), rel_tol=1e-12, abs_tol=1e-15)
               for a, b in zip(LONG_FLOAT.findall(got), LONG_FLOAT.findall(want), strict=True))


def test_full_precision_floats_may_differ_in_their_last_bits_only():
    """Would catch a comparison so loose that it let a changed figure or word through."""
    assert same_output("a,0.12394948132342667,b\n", "a,0.12394948132342677,b\n")
    assert not same_output("a,0.12394948132342667,b\n", "a,0.12394948133342667,b\n")
    assert not same_output("a,0.12394948132342667,c\n", "a,0.12394948132342667,b\n")
    assert not same_output("a,0.1239,b\n", "a,0.1238,b\n")


@pytest.mark.parametrize("name", sorted(CASES))
def test_command_output_is_unchanged(name):
    """Catches a reshaping (or any change) that alters a command's output: a moved template, a
    lost default, a table renderer reached through the wrong module."""
    result = CliRunner().invoke(cli, CASES[name])
    assert result.exit_code == 0, result.output
    path = GOLDEN / name
    if os.environ.get("NARDY_UPDATE_GOLDEN"):
        path.write_text(result.stdout)
    assert same_output(result.stdout, path.read_text()), result.stdout
