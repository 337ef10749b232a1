"""The library under real processes: `add` killed in the middle of a file, Ctrl-C during `add`, two
`add`s at once on one file (tests/library_probe.py holds a writer inside its transaction)."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
import threading
import time

import pytest

from nardy_cli.library import schema
from nardy_cli.library.store import Library
from tests.cases import ROOT, default_signals, subprocess_env

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs SIGKILL and SIGINT")

GAMES = ROOT / "games"
PROBE = str(ROOT / "tests" / "library_probe.py")


def _probe(db, pause_file, pause_rows, sleep, *files):
    return subprocess.Popen([sys.executable, PROBE, str(db), str(pause_file), str(pause_rows),
                             str(sleep), *map(str, files)], cwd=ROOT, env=subprocess_env(),
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def _wait_for(proc, event: str, timeout: float = 180.0) -> list[str]:
    """Read the probe lines of `proc` until one starts with `event` (its lines so far)."""
    lines = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = proc.stderr.readline()
        if not line:
            break
        lines.append(line)
        if line.startswith(f"probe: {event}"):
            return lines
    proc.kill()
    raise AssertionError(f"no probe {event!r}: {''.join(lines)}")


def consistent(db) -> dict[str, int]:
    """Check the file whole (SQLite's integrity check) and every file in it complete (its games and
    decisions all there, no row without its game); the decisions per file name."""
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        rows = conn.execute(
            "SELECT s.name, s.games, s.decisions, "
            "(SELECT count(*) FROM games g WHERE g.source_id = s.id), "
            "(SELECT count(*) FROM decisions d JOIN games g ON g.id = d.game_id "
            " WHERE g.source_id = s.id) FROM sources s").fetchall()
        orphans = conn.execute("SELECT count(*) FROM games WHERE source_id NOT IN "
                               "(SELECT id FROM sources)").fetchone()[0]
    conn.close()
    assert orphans == 0
    for name, games, decisions, found_games, found_decisions in rows:
        assert (games, decisions) == (found_games, found_decisions), name
    return {name: decisions for name, _, decisions, _, _ in rows}


def test_add_killed_in_the_middle_of_a_file_leaves_the_files_before_it_whole(tmp_path):
    """Catches a file written in several transactions (or rows committed as they go): `add` killed
    (SIGKILL, no clean-up) with the second file's rows half written leaves the first file whole,
    nothing of the second, and a file SQLite finds sound; adding again completes it."""
    db = tmp_path / "library.sqlite"
    files = (GAMES / "bot-game.txt", GAMES / "bot-match.txt")
    proc = _probe(db, 2, 120, 120, *files)
    lines = _wait_for(proc, "inside")
    assert any(line.startswith("probe: added bot-game.txt") for line in lines)
    proc.send_signal(signal.SIGKILL)
    proc.wait(30)
    assert (tmp_path / "library.sqlite-journal").exists()     # the transaction was under way
    assert set(consistent(db)) == {"bot-game.txt"}
    with Library(db) as library:
        results = library.add(files)
    assert [r.status for r in results] == ["skipped", "added"]
    assert set(consistent(db)) == {"bot-game.txt", "bot-match.txt"}


def test_ctrl_c_during_add_is_one_line_and_exit_130_with_whole_files(tmp_path):
    """Catches Ctrl-C during `nardy library add` answered by a traceback, or leaving part of the
    file under way: the command says what was added and exits 130, the library holds whole
    files."""
    db = tmp_path / "library.sqlite"
    proc = subprocess.Popen(
        [sys.executable, "-m", "nardy_cli", "library", "add", str(GAMES / "typed-opening.txt"),
         str(GAMES / "bot-match.txt"), str(GAMES / "bot-game.txt"), "--db", str(db)],
        cwd=ROOT, env=subprocess_env(), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True,
        preexec_fn=default_signals)
    first = proc.stdout.readline()
    assert first.startswith("typed-opening.txt: added")
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    assert err.strip().splitlines()[-1].startswith("Interrupted: 1 file added; nothing of the "
                                                   "file under way was written")
    assert set(consistent(db)) == {"typed-opening.txt"}


def test_two_adds_at_once_both_land_and_one_waits_for_the_other(tmp_path):
    """Catches writers that do not wait for each other (`database is locked` errors, or a lost
    file), and a file that both add twice: one writer is held inside its transaction while the
    other reaches its own; the second waits, then both files land, the shared one once."""
    db = tmp_path / "library.sqlite"
    release = tmp_path / "release"
    # the first writer holds its lock until the second has come to write (however long the second
    # takes to start and review on a loaded machine), and 2 s more
    first = _probe(db, 1, 30, release, GAMES / "bot-game.txt", GAMES / "typed-opening.txt")
    _wait_for(first, "inside")
    second = _probe(db, 0, 0, 0, GAMES / "typed-opening.txt", GAMES / "bearoff-blunder.txt")
    second_lines = _wait_for(second, "store typed-opening.txt")
    time.sleep(2)
    released_at = time.time()
    release.touch()
    first_lines = _wait_for(first, "done")
    second_lines += _wait_for(second, "done")
    assert first.wait(60) == 0 and second.wait(60) == 0
    a, b = _events(first_lines), _events(second_lines)
    first_commit = a[("added", "bot-game.txt")]
    assert first_commit >= released_at          # the first writer held its lock until released
    # the second came to write its first file while the first held the lock, and waited
    assert b[("store", "typed-opening.txt")] < first_commit
    assert min(t for (event, _), t in b.items() if event != "store") >= first_commit
    assert set(consistent(db)) == {"bot-game.txt", "typed-opening.txt", "bearoff-blunder.txt"}
    shared = [event for (event, name) in list(a) + list(b)
              if name == "typed-opening.txt" and event != "store"]
    assert sorted(shared) == ["added", "skipped"]


def _events(lines: list[str]) -> dict[tuple[str, str], float]:
    """(event, file name) -> time of a probe's `store`, `added` and `skipped` lines."""
    out = {}
    for line in lines:
        words = line.split()
        if words[1] in ("store", "added", "skipped"):
            out[(words[1], words[2])] = float(words[-1])
    return out


def test_a_library_created_by_another_writer_while_this_one_waited_is_used_as_it_is(tmp_path):
    """Catches two writers both creating the schema of a new library (the second would fail on
    `table sources already exists`): a writer that found the file empty, then waited for the lock
    while another created the library, reads the version again under the lock."""
    path = tmp_path / "library.sqlite"
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")            # another writer, creating the library
    result = {}

    def open_library() -> None:
        try:
            with Library(path) as library:
                result["players"] = library.players()
        except Exception as exc:                # reported below
            result["error"] = exc
    waiting = threading.Thread(target=open_library)
    waiting.start()
    time.sleep(1.0)                             # it has read version 0 and waits for the lock
    for statement in schema.MIGRATIONS[0]:
        other.execute(statement)
    other.execute(f"PRAGMA application_id = {schema.APPLICATION_ID}")
    other.execute(f"PRAGMA user_version = {schema.SCHEMA_VERSION}")
    other.execute("COMMIT")
    other.close()
    waiting.join(60)
    assert result == {"players": []}
