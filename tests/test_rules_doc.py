"""docs/rules.md, the players' rules in the repository (issue 11): it must cover every rule id."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "rules.md"
SPEC = ROOT.parent / "shared" / "RULES.md"


def rule_ids(text: str) -> set[str]:
    return set(re.findall(r"\*\*(R\d+)\b", text)) | set(re.findall(r"\b(R\d+)\b", text))


def test_rules_doc_has_every_rule_id_and_section():
    """Bug: the rules were only in ../shared/RULES.md, which a clone does not have."""
    text = DOC.read_text(encoding="utf-8")
    assert {f"R{i}" for i in range(1, 10)} <= rule_ids(text)
    for heading in ("numbering", "head rule", "block", "Bearing off", "scored", "Presets",
                    "deficit", "Writing positions"):
        assert re.search(rf"^## .*{heading}", text, re.M | re.I), heading
    for preset in ("federation", "classic", "extended"):
        assert f"`{preset}`" in text


@pytest.mark.skipif(not SPEC.exists(), reason="../shared/RULES.md is not beside this checkout")
def test_rules_doc_covers_every_rule_id_of_the_spec():
    """Bug: a rule added to the specification but missing from the players' rules."""
    assert rule_ids(SPEC.read_text(encoding="utf-8")) <= rule_ids(DOC.read_text(encoding="utf-8"))


def test_readme_and_help_point_to_docs_rules():
    """Bug: README and --help pointed to ../shared/RULES.md and 'RULES.md §7/§9'."""
    from click.testing import CliRunner

    from nardy_cli.commands.cli import cli
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "docs/rules.md" in readme and "../shared/RULES.md" not in readme
    for args in ([], ["rollout"]):
        out = CliRunner().invoke(cli, [*args, "--help"]).output
        assert "RULES.md" not in out
    assert "docs/rules.md" in CliRunner().invoke(cli, ["--help"]).output
