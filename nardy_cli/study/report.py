"""report.md (and report.html) from a folder's results.json."""

from __future__ import annotations

from pathlib import Path


def build_report(folder: Path, *, html: bool = False, svg: bool = False) -> None:
    """Write report.md (placeholder until charts exist)."""
    (folder / "report.md").write_text("# nardy report\n")
