"""Compiled (numba) kernels: the one rules engine every Python API wraps.

Boards here are mover-relative: an int8 array of 24 points in the side to move's
numbering (index 0 is its head, point 1), positive counts for the mover's
checkers and negative counts for the opponent's.  The opponent's point `q`
(0-based, its own numbering) is the mover's index `(q + 12) % 24`.

numba's on-disk cache checks only each function's own source file, so a kernel
that inlines a function from another file would keep stale machine code after
that file changes.  `_drop_stale_cache` clears this package's cache whenever any
kernel source differs from the one the cache was built from.
"""

from __future__ import annotations

import hashlib
from pathlib import Path


def _drop_stale_cache() -> None:
    here = Path(__file__).parent
    digest = hashlib.sha256(b"".join(p.read_bytes() for p in sorted(here.glob("*.py")))).hexdigest()
    cache = here / "__pycache__"
    stamp = cache / "kernels-source.sha256"
    try:
        if stamp.exists() and stamp.read_text() == digest:
            return
        for f in list(cache.glob("*.nbi")) + list(cache.glob("*.nbc")):
            f.unlink()
        cache.mkdir(exist_ok=True)
        stamp.write_text(digest)
    except OSError:  # a read-only install: numba then caches elsewhere, keyed by file times
        pass


_drop_stale_cache()
