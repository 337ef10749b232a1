"""Compiled (numba) kernels: the one rules engine every Python API wraps.

Boards here are mover-relative: an int8 array of 24 points in the side to move's
numbering (index 0 is its head, point 1), positive counts for the mover's
checkers and negative counts for the opponent's.  The opponent's point `q`
(0-based, its own numbering) is the mover's index `(q + 12) % 24`.

numba's on-disk cache checks only each function's own source file, so a kernel
that inlines a function from another file would keep stale machine code after
that file changes.  `drop_stale_cache` clears this package's cache whenever any
kernel source differs from the one the cache was built from.  It runs once, at
import; the usual case (nothing changed) costs one `stat` per source file: the
sources are hashed only when a file's size or modification time moved.  A package
outside this one whose cached functions call kernels (`training/td.py`) runs the same
check over its own sources and these (`also`).
"""

from __future__ import annotations

import hashlib
from pathlib import Path


def drop_stale_cache(here: Path = Path(__file__).parent, also: tuple[Path, ...] = ()) -> None:
    """Delete numba's cache files in `here/__pycache__` unless `here/*.py` (and the `*.py` of the
    folders `also`) hold the sources they came from."""
    sources = sorted(here.glob("*.py")) + [p for d in also for p in sorted(d.glob("*.py"))]
    cache = here / "__pycache__"
    # line 1: content digest; line 2: the files' sizes and times
    stamp = cache / "kernels-source.sha256"
    try:
        stats = " ".join(f"{p.name}:{st.st_size}:{st.st_mtime_ns}" for p in sources
                         for st in [p.stat()])
        known = stamp.read_text().split("\n") if stamp.exists() else []
        if known[1:2] == [stats]:
            return
        digest = hashlib.sha256(b"".join(p.read_bytes() for p in sources)).hexdigest()
        if known[:1] != [digest]:
            for f in list(cache.glob("*.nbi")) + list(cache.glob("*.nbc")):
                f.unlink()
        cache.mkdir(exist_ok=True)
        stamp.write_text(f"{digest}\n{stats}")
    except OSError:  # a read-only install: numba then caches elsewhere, keyed by file times
        pass


drop_stale_cache()
