"""Report folders: results.json, results.csv, charts and report.md (optionally report.html).

A folder is written into a temporary sibling and renamed into place at the end,
so a failure leaves nothing half-written.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

import pandas as pd

from .errors import NardyError
from .render import to_json


def prepare_output(path: str | Path) -> tuple[Path, Path]:
    """A fresh temporary folder beside `path` (checked writable), and the final path."""
    final = Path(path)
    parent = final.parent if str(final.parent) else Path(".")
    try:
        parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{final.name}-", dir=parent))
    except OSError as exc:
        raise NardyError(f"cannot write to output directory {str(final)!r}: {exc.strerror}") from None
    return tmp, final


def commit_output(tmp: Path, final: Path) -> Path:
    """Move the finished temporary folder into place, replacing an older report."""
    try:
        if final.exists():
            if not final.is_dir():
                raise NardyError(f"output path {str(final)!r} exists and is not a directory")
            shutil.rmtree(final)
        os.replace(tmp, final)
    except OSError as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        raise NardyError(f"cannot write to output directory {str(final)!r}: {exc.strerror}") from None
    return final


def write_results(folder: Path, kind: str, records: list[dict], table: pd.DataFrame) -> None:
    """results.json (kind plus records) and results.csv (one row per analysed item)."""
    (folder / "results.json").write_text(json.dumps({"kind": kind, "results": records}, indent=1) + "\n")
    table.to_csv(folder / "results.csv", index=False)


def write_rollout_report(results, output: str | Path, *, html: bool = False, svg: bool = False) -> Path:
    """The report folder of one or more rollouts."""
    from .study.report import build_report
    tmp, final = prepare_output(output)
    try:
        records = [json.loads(to_json(r.to_dict())) for r in results]
        write_results(tmp, "rollout", records, pd.DataFrame([r.summary_row() for r in results]))
        build_report(tmp, html=html, svg=svg)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return commit_output(tmp, final)
