"""Every public rule vector of ../shared/cases (copy in tests/data) through the engine and the CLI."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from conftest import LOCAL_CASES, SHARED_CASES, load_vectors
from nardy_cli.cli import cli
from nardy_cli.engine import legal_plays
from nardy_cli.errors import InvalidPositionError
from nardy_cli.position import parse_position
from nardy_cli.rules import rules_from_dict

VECTORS = load_vectors()


def _id(v: dict) -> str:
    return f"{v['position']} {v['dice']} {v['rules'].get('head_rule')}/{v['rules'].get('block_check')}"


def test_local_copy_matches_shared():
    if not SHARED_CASES.exists():
        pytest.skip("../shared/cases is not present")
    assert (LOCAL_CASES / "rules.jsonl").read_text() == (SHARED_CASES / "rules.jsonl").read_text()


@pytest.mark.parametrize("vector", VECTORS, ids=_id)
def test_vector_engine(vector):
    # A few vectors hold a block that RULES.md §9 calls invalid input (see
    # docs/rules-decisions.md); the engine still answers them exactly.
    pos = parse_position(vector["position"], check_blocks=False)
    rules = rules_from_dict(vector["rules"])
    results = sorted(str(p.result) for p in legal_plays(pos, vector["dice"], rules))
    assert results == sorted(vector["results"])


@pytest.mark.parametrize("vector", VECTORS, ids=_id)
def test_vector_cli(vector):
    args = ["moves", vector["position"], "--dice", vector["dice"], "--format", "json"]
    for key in ("head_rule", "block_check"):
        if key in vector["rules"]:
            args += [f"--{key.replace('_', '-')}", vector["rules"][key]]
    try:
        parse_position(vector["position"])
    except InvalidPositionError:
        args.append("--no-block-validation")
    out = CliRunner().invoke(cli, args)
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert sorted(p["result"] for p in data["rolls"][0]["plays"]) == sorted(vector["results"])


def test_block_vectors_are_rejected_by_default():
    bad = [v for v in VECTORS if v["position"].startswith("W:2,3x2,4,6,7x4")]
    assert bad, "the vector with Black's B1-B6 block is no longer in the cases"
    with pytest.raises(InvalidPositionError, match="B1-B6"):
        parse_position(bad[0]["position"])
