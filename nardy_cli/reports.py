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


def ensure_writable(path: str | Path | None) -> None:
    """Fail early, before any work, when a report folder cannot be written at `path`."""
    if path is None:
        return
    tmp, final = prepare_output(path)
    shutil.rmtree(tmp, ignore_errors=True)
    if final.exists() and not final.is_dir():
        raise NardyError(f"cannot write to output directory {str(final)!r}: it is a file")


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


def write_report(data: dict, output: str | Path, *, html: bool = False, svg: bool = False) -> Path:
    """Render a report folder from results `data` into `output`, all or nothing."""
    from .study.report import render_folder
    tmp, final = prepare_output(output)
    try:
        render_folder(tmp, data, html=html, svg=svg)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return commit_output(tmp, final)


def rollout_data(results, kind: str = "rollout") -> dict:
    """Results data of one or more rollouts, with their traces and static deficits."""
    from .deficit import static_deficit
    rules = None
    out = []
    for r in results:
        out.append(json.loads(to_json(r.to_dict())))
    from .rules import rules_from_dict
    rules = rules_from_dict(out[0]["params"]["rules"])
    return {"kind": kind, "results": out, "traces": [[list(t) for t in r.trace] for r in results],
            "static_deficit": [json.loads(to_json(static_deficit(r.position, rules).to_dict())) for r in results]}


def json_data(kind: str, obj) -> dict:
    """Results data of an analysis or opening table (anything with `to_dict`)."""
    return {"kind": kind, "results": [json.loads(to_json(obj.to_dict()))]}
