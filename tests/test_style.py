"""Structure rules no linter checks: line length counted in characters, pragmas included."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_no_line_is_over_100_columns():
    """Catches a long line hidden behind a `# noqa` or `# type:` pragma (ruff's E501 leaves those
    out) in the package, the tests or the experiments."""
    long = [f"{path.relative_to(ROOT)}:{n}" for folder in ("nardy_cli", "tests", "experiments")
            for path in sorted((ROOT / folder).rglob("*.py"))
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
            if len(line) > 100]
    assert long == []
