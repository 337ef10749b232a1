"""A folder of boards: one image per position of a positions file, and index.md listing them
(`nardy show --output`)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from ..core.i18n import N_, _, side_words, translate
from ..core.positions_file import NamedPosition

INDEX = "index.md"
MARKER = "boards.json"      # names the folder as one nardy wrote (report_folder.REPORT_MARKERS)


def board_file(k: int, name: str | None, ext: str = "png") -> str:
    """`003-mars-danger.png`: the position's number in the file, then its name made safe for a file
    name."""
    slug = re.sub(r"[^A-Za-z0-9]+", "-", name or "").strip("-").lower()
    return f"{k:03d}{'-' + slug if slug else ''}.{ext}"


def write_boards(items: list[NamedPosition], output: str | Path, *, numbering: str = "w",
                 svg: bool = False, title: str = N_("Positions"), force: bool = False) -> Path:
    """Draw every position into `output` (all or nothing, replacing an older nardy folder); returns
    the folder."""
    from .folder import write_folder
    from .board_figure import draw_board
    from .figures import save_figure

    def render(folder: Path) -> None:
        count = (_("1 position") if len(items) == 1 else _("{n} positions").format(n=len(items)))
        heading = _("{count}, drawn with {sides} numbering along the bottom.").format(
            count=count, **side_words(numbering))
        lines, listed = [f"# {translate(title)}", "", heading, ""], []
        for k, item in enumerate(items, 1):
            name = board_file(k, item.name, "svg" if svg else "png")
            save_figure(draw_board(item.position, numbering, name=item.name), folder / name)
            listed.append({"name": item.name, "position": str(item.position), "file": name})
            lines += [f"## {k}. {item.name or item.position}", "",
                      _("Position:") + f" `{item.position}`", ""]
            if item.comment:
                lines += [f"*{item.comment}*", ""]
            lines += [f"![{item.name or item.position}]({name})", ""]
        (folder / INDEX).write_text("\n".join(lines), encoding="utf-8")
        (folder / MARKER).write_text(json.dumps({"kind": "boards", "boards": listed}, indent=1,
                                                ensure_ascii=False) + "\n", encoding="utf-8")
    return write_folder(output, render, force=force)
