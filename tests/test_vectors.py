"""Every public rule vector of ../shared/cases (copy in tests/data) through the engine and the
CLI."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from nardy_cli.commands.cli import cli
from nardy_cli.core.engine import legal_plays
from nardy_cli.core.errors import InvalidPositionError
from nardy_cli.core.position import parse_position
from nardy_cli.core.rules import rules_from_dict
from tests.bruteforce import brute_force_results
from tests.cases import LOCAL_CASES, SHARED_CASES, load_vectors

VECTORS = load_vectors()   # a 27-line file read once: cheap at collection

# Black holds B1-B6 (six in a row on White's path) and every White checker is behind it:
# a forbidden block (R6), which RULES.md §9 calls invalid input.
#   B:  1   2   3   4   5   6        White: W2 w1, W3 w2, W4 w1, W6 w1, W7 w4, W8 w2, W10 w1, W11 w3
#      b3  b2  b3  b2  b4  b1        (Black's B1-B6 are White's W13-W18: all White checkers are
# behind)
INVALID_BLOCK = "W:2,3x2,4,6,7x4,8x2,10,11x3 B:1x3,2x2,3x3,4x2,5x4,6 w"


def _id(v: dict) -> str:
    return (f"{v['position']} {v['dice']} "
            f"{v['rules'].get('head_rule')}/{v['rules'].get('block_check')}")


def test_local_copy_matches_shared():
    """Catches a stale tests/data copy (the vectors were corrected upstream)."""
    if not SHARED_CASES.exists():
        pytest.skip("../shared/cases is not present")
    assert (LOCAL_CASES / "rules.jsonl").read_text() == (SHARED_CASES / "rules.jsonl").read_text()


def test_every_vector_is_a_valid_position():
    """The corrected vectors hold no forbidden block, so no vector needs the validation switched
    off."""
    for v in VECTORS:
        parse_position(v["position"])


@pytest.mark.parametrize("vector", VECTORS, ids=_id)
def test_vector_engine(vector):
    """Catches any engine rule regression the public vectors pin down."""
    pos = parse_position(vector["position"])
    rules = rules_from_dict(vector["rules"])
    results = sorted(str(p.result) for p in legal_plays(pos, vector["dice"], rules))
    assert results == sorted(vector["results"])


@pytest.mark.parametrize("vector", VECTORS, ids=_id)
def test_vector_cli(vector):
    """Catches the CLI dropping or mistranslating a rules option on the way to the engine."""
    args = ["moves", vector["position"], "--dice", vector["dice"], "--format", "json"]
    for key in ("head_rule", "block_check"):
        if key in vector["rules"]:
            args += [f"--{key.replace('_', '-')}", vector["rules"][key]]
    out = CliRunner().invoke(cli, args)
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert sorted(p["result"] for p in data["rolls"][0]["plays"]) == sorted(vector["results"])


def test_forbidden_block_is_rejected_by_default_and_named():
    """Catches §9's 'a position with a forbidden block is invalid input' being dropped."""
    with pytest.raises(InvalidPositionError, match="B1-B6"):
        parse_position(INVALID_BLOCK)
    out = CliRunner().invoke(cli, ["moves", INVALID_BLOCK, "--dice", "6-2"])
    assert out.exit_code == 2 and out.output.startswith("Error: ") and "B1-B6" in out.output


@pytest.mark.parametrize("block_check, count", [("step", 14), ("turn-end", 15)])
def test_forbidden_block_position_is_still_answered_exactly_when_validation_is_off(block_check,
                                                                                   count):
    """Catches `check_blocks=False` / --no-block-validation skipping more than the input check.

    14 and 15 results: the two vectors this position used to be (before the upstream fix),
    re-derived here by the brute-force enumerator.
    """
    pos = parse_position(INVALID_BLOCK, check_blocks=False)
    engine = {str(p.result)
              for p in legal_plays(pos, "6-2", rules_from_dict({"block_check": block_check}))}
    assert engine == brute_force_results(pos, (6, 2), "federation", block_check)
    assert len(engine) == count
    out = CliRunner().invoke(cli,
                             ["moves", INVALID_BLOCK, "--dice", "6-2", "--block-check", block_check,
                              "--no-block-validation", "--format", "json"])
    assert out.exit_code == 0, out.output
    assert {p["result"] for p in json.loads(out.output)["rolls"][0]["plays"]} == engine
