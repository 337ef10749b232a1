"""Report folders: results.json, results.csv, charts and report.md (optionally report.html).

A folder is written into a temporary sibling and renamed into place at the end,
so a failure leaves nothing half-written. A complete report replaces an older
report folder; the report of an interrupted run never does (it goes to
`DIR-interrupted`). A folder that is not a nardy report is replaced only with
`force`. Folders get the permissions the umask gives, like any other.

What goes into a folder is not this module's business: `write_folder` takes the
function that renders it (a report of results data, `study/report.render_folder`;
a game review, `review_report`; a deficit or boards folder; `nardy play`'s games).
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Callable

from ..core.errors import NotAReportError, OutputError, WriteError
from .render import to_json

Render = Callable[[Path], None]     # writes every file of a folder into the folder it is given


def prepare_output(path: str | Path) -> tuple[Path, Path]:
    """A fresh temporary folder beside `path` (checked writable), and the final path."""
    final = Path(path)
    parent = final.parent if str(final.parent) else Path(".")
    _no_file_in_the_way(parent, f"output directory {str(final)!r}")
    try:
        parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{final.name}-", dir=parent))
        tmp.chmod(0o777 & ~_umask())
    except OSError as exc:
        raise WriteError(f"cannot write to output directory {str(final)!r}: "
                         f"{exc.strerror}") from None
    return tmp, final


def _no_file_in_the_way(folder: Path, what: str) -> None:
    """An OutputError when `folder` or the nearest of its parents that exists is a file."""
    found = next((p for p in (folder, *folder.parents) if p.exists()), None)
    if found is not None and not found.is_dir():
        raise OutputError(f"cannot write to {what}: {str(found)!r} is a file")


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


# the file that marks a folder as one nardy wrote: rollout/study reports, `nardy deficit`,
# `nardy review`, `nardy play`, `nardy show --output`, `nardy library quiz` and `progress`
REPORT_MARKERS = ("results.json", "deficit.json", "review.json", "summary.json", "boards.json",
                  "quiz.json", "progress.json")


def is_report_folder(path: Path) -> bool:
    """True for an empty folder or one nardy wrote (it holds one of `REPORT_MARKERS`)."""
    return (path.is_dir()
            and (not any(path.iterdir()) or any((path / m).is_file() for m in REPORT_MARKERS)))


def interrupted_path(final: Path) -> Path:
    """Where the report of an interrupted run goes, so it never replaces a complete one."""
    return final.with_name(final.name + "-interrupted")


def ensure_writable(path: str | Path | None, force: bool = False) -> None:
    """Fail early, before any work, when a report folder cannot be written at `path`."""
    if path is None:
        return
    tmp, final = prepare_output(path)
    shutil.rmtree(tmp, ignore_errors=True)
    if final.exists() and not final.is_dir():
        raise OutputError(f"cannot write to output directory {str(final)!r}: it is a file")
    try:
        if final.exists() and not force and not is_report_folder(final):
            raise NotAReportError(f"output folder {str(final)!r} holds files that are not a "
                                  "nardy report; "
                              "choose another folder or allow replacing it")
        # the old report is removed at the end: the folder itself must be writable too
        if final.is_dir():
            _probe(final)
    except OSError as exc:
        raise WriteError(f"cannot write to output directory {str(final)!r}: "
                         f"{exc.strerror}") from None


def ensure_folder(path: str | Path) -> None:
    """Fail early when the working folder `path` (a training folder) cannot be created or written
    (nothing created)."""
    folder = Path(path)
    _no_file_in_the_way(folder, f"folder {str(folder)!r}")
    nearest = next((p for p in (folder, *folder.parents) if p.exists()), Path("."))
    try:
        _probe(nearest)
    except OSError as exc:
        raise WriteError(f"cannot write to folder {str(folder)!r}: {exc.strerror}") from None


def _probe(folder: Path) -> None:
    """Create and remove one file in `folder` (raises OSError when it cannot be written)."""
    fd, probe = tempfile.mkstemp(prefix=".nardy-probe-", dir=folder)
    os.close(fd)
    os.unlink(probe)


def commit_output(tmp: Path, final: Path, force: bool = False) -> Path:
    """Move the finished temporary folder into place, replacing an older report folder."""
    try:
        if final.exists():
            if not final.is_dir():
                raise OutputError(f"output path {str(final)!r} exists and is not a directory")
            if not force and not is_report_folder(final):
                raise NotAReportError(f"output folder {str(final)!r} holds files that are not a "
                                      "nardy report; "
                                  "choose another folder or allow replacing it")
            shutil.rmtree(final)
        os.replace(tmp, final)
    except OSError as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        raise WriteError(f"cannot write to output directory {str(final)!r}: "
                         f"{exc.strerror}") from None
    return final


def is_interrupted(data: dict) -> bool:
    """True for the results of an interrupted run (the run's flag, or any result's)."""
    return bool(data.get("interrupted")) or any(r.get("interrupted") for r in data["results"])


def write_folder(output: str | Path, render: Render, *, interrupted: bool = False,
                 force: bool = False) -> Path:
    """Write a folder by `render(folder)` into `output`, all or nothing; returns the folder written.

    `render` writes every file into the empty temporary folder it is given; when it
    raises, that folder is removed and `output` is left as it was. The folder of an
    interrupted run goes to `interrupted_path(output)` instead, so it never replaces
    a complete one. `force` replaces a folder that is not a nardy report.
    """
    tmp, final = prepare_output(output)
    if interrupted:
        final = interrupted_path(final)
    try:
        render(tmp)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return commit_output(tmp, final, force)


def write_report(data: dict, output: str | Path, render: Render, *, force: bool = False) -> Path:
    """Write the report folder of results `data` by `render` (`write_folder`), to
    `DIR-interrupted` when the run was interrupted; returns the folder written."""
    return write_folder(output, render, interrupted=is_interrupted(data), force=force)


def rollout_data(results, kind: str = "rollout", comments: list[str] | None = None,
                 interrupted: bool = False) -> dict:
    """Results data of one or more rollouts, with their traces, static deficits and positions-file
    comments; `interrupted` marks a run stopped before its last positions (any interrupted result
    marks it too)."""
    from ..analysis.deficit import static_deficit
    rules = None
    out = []
    for r in results:
        out.append(json.loads(to_json(r.to_dict())))
    from ..core.rules import rules_from_dict
    rules = rules_from_dict(out[0]["params"]["rules"])
    data = {"kind": kind, "interrupted": bool(interrupted or any(r.interrupted for r in results)),
            "results": out, "traces": [[list(t) for t in r.trace] for r in results],
            "static_deficit": [json.loads(to_json(static_deficit(r.position, rules).to_dict()))
                               for r in results]}
    if comments and any(comments):
        data["comments"] = list(comments)
    return data


def json_data(kind: str, obj, names: list[str | None] | None = None,
              comments: list[str] | None = None) -> dict:
    """Results data of an analysis or opening table (anything with `to_dict`), with position
    names/comments."""
    result = json.loads(to_json(obj.to_dict()))
    data = {"kind": kind, "interrupted": bool(result.get("interrupted")), "results": [result]}
    if names and any(names):
        data["names"] = list(names)
    if comments and any(comments):
        data["comments"] = list(comments)
    return data
