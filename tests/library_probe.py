"""`python tests/library_probe.py DB PAUSE_FILE PAUSE_ROWS SLEEP FILES...`: `Library(DB).add(FILES)`
with probes on stderr, for the library's process tests.

Probes are lines `probe: EVENT TIME` on stderr: `inside` when the PAUSE_FILE-th file's
transaction (1 the first; 0 never) has written PAUSE_ROWS rows, after which the process sleeps
inside that transaction (holding the write lock: a test kills it there, or starts another writer)
SLEEP seconds, or, when SLEEP is a path, until that file exists (at most 300 s); `store NAME` when
a file, reviewed, goes to be written (before the write lock is taken), `added NAME` or `skipped
NAME` when a file's transaction ended; `done` at the end.  Nothing else changes.
"""

from __future__ import annotations

import os
import sys
import time


def _probe(event: str) -> None:
    os.write(2, f"probe: {event} {time.time():.3f}\n".encode())


def _pause(sleep: str) -> None:
    """Sleep `sleep` seconds, or until the file `sleep` names exists (at most 300 s)."""
    try:
        time.sleep(float(sleep))
        return
    except ValueError:
        pass
    deadline = time.monotonic() + 300
    while not os.path.exists(sleep) and time.monotonic() < deadline:
        time.sleep(0.05)


def main() -> None:
    from nardy_cli.library import store
    db, pause_file, pause_rows, sleep = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    files = sys.argv[5:]
    state = {"file": 0, "rows": 0}
    insert, keep = store._insert, store.Library.store

    def counted_insert(conn, table, row):
        state["rows"] += 1
        if state["file"] == pause_file and state["rows"] == pause_rows:
            _probe("inside")
            _pause(sleep)
        return insert(conn, table, row)

    def counted_store(self, reviewed):
        _probe(f"store {reviewed.source.name}")
        state["file"] += 1
        state["rows"] = 0
        result = keep(self, reviewed)
        _probe(f"{result.status} {reviewed.source.name}")
        return result

    store._insert = counted_insert
    store.Library.store = counted_store
    with store.Library(db) as library:
        library.add(files)
    _probe("done")


if __name__ == "__main__":
    main()
