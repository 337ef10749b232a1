"""The player's library (nardy_cli/library): adding, recognising, storing, filtering, removing,
the database file's checks and migrations, and the ratings' definitions."""

from __future__ import annotations

import math
import shutil
import sqlite3

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from nardy_cli.commands.cli import cli
from nardy_cli.core.errors import LibraryError
from nardy_cli.core.phases import phase_of
from nardy_cli.core.position_id import format_position_id
from nardy_cli.library import schema
from nardy_cli.library.ingest import content_key, read_source
from nardy_cli.library.quiz import select_cards
from nardy_cli.library.stats import counted_cube, rate, ratio_interval
from nardy_cli.library.store import Library, default_path
from nardy_cli.records.files import read_games
from nardy_cli.review.game_review import review_game
from tests.cases import ROOT

GAMES = ROOT / "games"
SAMPLES = sorted(GAMES.glob("*.txt")) + sorted(GAMES.glob("*.mat"))


def run(*args, **kw):
    return CliRunner().invoke(cli, list(args), prog_name="nardy", **kw)


@pytest.fixture(scope="module")
def filled(tmp_path_factory):
    """A library holding every sample game file (reviewed once by the default `neural`)."""
    path = tmp_path_factory.mktemp("library") / "library.sqlite"
    with Library(path) as library:
        results = library.add(SAMPLES)
    return path, results


def counts(path) -> tuple[int, int, int, int]:
    with sqlite3.connect(path) as conn:
        return tuple(conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
                     for t in ("sources", "games", "decisions", "cube_decisions"))


# ---------------------------------------------------------------- adding


def test_adding_the_samples_fills_the_library_and_adding_again_adds_nothing(filled):
    """Catches an `add` that does not recognise files already in the library (the second add would
    double every game, and every rating's weight)."""
    path, results = filled
    before = counts(path)
    assert before[0] == sum(r.status == "added" for r in results) >= 5
    assert before[1] >= 8 and before[2] > 400 and before[3] > 0
    with Library(path) as library:
        again = library.add(SAMPLES)
    assert [r.status for r in again] == ["skipped"] * len(SAMPLES)
    assert counts(path) == before
    out = run("library", "add", str(GAMES / "bot-game.txt"), "--db", str(path))
    assert out.exit_code == 0
    assert "bot-game.txt: skipped, its games are already in the library" in out.output
    assert counts(path) == before


def test_a_transcript_and_the_record_of_one_match_are_recognised_as_the_same_games(filled):
    """Catches recognising files by their bytes: games/bot-match.mat holds the match of
    games/bot-match.txt, and adding both would count that match twice."""
    txt, mat = (read_source(GAMES / n) for n in ("bot-match.txt", "bot-match.mat"))
    assert txt.content_key == mat.content_key
    other = read_source(GAMES / "cube-match.mat")
    assert other.content_key != txt.content_key
    statuses = {r.path.name: r.status for r in filled[1]}
    assert statuses["bot-match.mat"] == "skipped" and statuses["bot-match.txt"] == "added"


def test_the_content_key_sees_a_changed_play(tmp_path):
    """Catches a digest of the header alone, or one that leaves out the plays: the same game with
    another header tag has the same key, the game with its last play changed another key."""
    import dataclasses

    from nardy_cli.core.engine import legal_plays
    text = (GAMES / "bot-game.txt").read_text()
    (tmp_path / "b.txt").write_text(text.replace("[Event", "[Annotator \"me\"]\n[Event"))
    record = read_games(GAMES / "bot-game.txt")
    assert content_key(read_games(tmp_path / "b.txt")) == content_key(record)
    # the first ply with a choice, played otherwise: the game up to it
    k, other = next((k, p) for k, ply in enumerate(record.plies)
                    for p in legal_plays(ply.position, ply.dice, record.rules)
                    if p.result != ply.play.result)
    cut = dataclasses.replace(record, plies=record.plies[:k + 1], result=None)
    changed = dataclasses.replace(cut, plies=record.plies[:k]
                                  + (dataclasses.replace(record.plies[k], play=other),))
    assert content_key(changed) != content_key(cut)


def test_stored_decisions_are_the_reviews_row_by_row(filled):
    """Catches rows stored against the wrong ply (an off-by-one between the review's rows and the
    record's plies would give each decision its neighbour's position, phase and cube)."""
    path, _ = filled
    record = read_games(GAMES / "bot-game.txt")
    review = review_game(record, "neural")
    with Library(path) as library:
        stored = library.decisions()
    stored = stored[stored["source"] == "bot-game.txt"].reset_index(drop=True)
    assert len(stored) == len(review.frame)
    for row, ply_row in zip(stored.to_dict(orient="records"), review.frame.to_dict("records")):
        ply = record.plies[ply_row["ply"] - 1]
        assert row["ply"] == ply_row["ply"] and row["position"] == ply_row["position"]
        assert row["position_id"] == format_position_id(ply.position)
        assert row["phase"] == phase_of(ply.position)
        assert row["player"] == (record.white if row["side"] == "white" else record.black)
        assert row["opponent"] == (record.black if row["side"] == "white" else record.white)
        if ply_row["forced"]:
            assert row["forced"] and math.isnan(row["lost"])
        else:
            assert row["lost"] == pytest.approx(ply_row["lost"], abs=1e-12)


def test_match_scores_are_stored_from_each_players_side(filled):
    """Catches the score columns swapped (the quiz would show the player the opponent's score)."""
    path, _ = filled
    with Library(path) as library:
        games = library.games()
        heuristic = library.decisions("heuristic")
    match = games[games["source"] == "bot-match.txt"]
    assert match[["score_white", "score_black"]].values.tolist() == [[0, 0], [1, 0], [3, 0]]
    third = heuristic[(heuristic["source"] == "bot-match.txt") & (heuristic["game"] == 3)]
    assert set(third["score_player"]) == {0} and set(third["score_opponent"]) == {3}
    assert set(third["match_length"]) == {5}


def test_cube_decisions_are_stored_with_their_players(filled):
    """Catches cube rows lost or given to the wrong player: every cube decision of the cube match's
    review is stored, with the roller and the taker."""
    path, _ = filled
    with Library(path) as library:
        cube = library.cube_decisions()
    stored = cube[cube["source"] == "cube-match.mat"]
    from nardy_cli.review.match_review import review_match
    review = review_match(read_games(GAMES / "cube-match.mat"), "neural")
    expected = review.cube_frame()
    assert len(stored) == len(expected)
    assert stored["action"].tolist() == expected["action"].tolist()
    assert stored["player"].tolist() == expected["player"].tolist()
    assert stored["taker"].tolist() == expected["taker"].tolist()
    assert "double, take" in set(stored["action"])


def test_since_keeps_the_games_of_that_day_on(filled):
    """Catches `--since` comparing dates as record text (`2026.11.29`) or dropping the day
    itself."""
    path, _ = filled
    with Library(path) as library:
        days = library.games()["day"]
        later = library.games(since="2026-12-01")
        month = library.games(since="2026.12")
    assert "2026-11-29" in set(days)
    assert set(later["day"]) == {d for d in days if d >= "2026-12-01"} and len(later)
    assert len(month) == len(later)
    out = run("library", "stats", "--since", "yesterday", "--db", str(path))
    assert out.exit_code == 2 and out.output.startswith("Error: bad date 'yesterday' for --since")


def test_remove_takes_a_files_games_and_decisions_away(filled, tmp_path):
    """Catches a remove that leaves the games' decisions behind (SQLite's foreign keys are off
    unless asked for, so ON DELETE CASCADE alone does nothing)."""
    path = tmp_path / "copy.sqlite"
    shutil.copy(filled[0], path)
    out = run("library", "remove", "bot-match.txt", "--db", str(path))
    assert out.exit_code == 0 and out.output == "removed 1 file: bot-match.txt\n"
    with sqlite3.connect(path) as conn:
        orphans = conn.execute("SELECT count(*) FROM games WHERE source_id NOT IN "
                               "(SELECT id FROM sources)").fetchone()[0]
        left = conn.execute("SELECT count(*) FROM sources WHERE name = 'bot-match.txt'").fetchone()
    conn.close()
    assert orphans == 0 and left[0] == 0
    with Library(filled[0]) as library:
        gone = library.decisions()["source"].eq("bot-match.txt").sum()
    assert gone > 0 and counts(path)[2] == counts(filled[0])[2] - gone
    out = run("library", "remove", "bot-mach.txt", "--db", str(path))
    assert out.exit_code == 2
    assert out.output.startswith("Error: no source 'bot-mach.txt'") and "did you mean" in out.output


def test_export_writes_every_row(filled, tmp_path):
    """Catches an export that drops rows or breaks its JSON lines."""
    path, _ = filled
    target = tmp_path / "decisions.csv"
    out = run("library", "export", "--db", str(path), "--output", str(target))
    assert out.exit_code == 0
    assert len(pd.read_csv(target)) == counts(path)[2]
    out = run("library", "export", "--db", str(path), "--table", "cube", "--format", "json")
    assert out.exit_code == 0
    import json
    rows = [json.loads(line) for line in out.output.splitlines()]
    assert len(rows) == counts(path)[3] and {"action", "player", "taker"} <= set(rows[0])


def test_an_unknown_player_is_one_line_naming_the_near_names(filled):
    """Catches a misspelt --player answered with an empty table (or a traceback) instead of an
    error."""
    out = run("library", "stats", "--player", "heuristik", "--db", str(filled[0]))
    assert out.exit_code == 2
    assert out.output.count("\n") == 1 and "did you mean 'heuristic'" in out.output


def test_reading_a_missing_library_creates_nothing(tmp_path):
    """Catches `stats` or `list` creating an empty library file where the user mistyped --db."""
    out = run("library", "list", "--db", str(tmp_path / "nope.sqlite"))
    assert out.exit_code == 2 and "no library at" in out.output
    assert not (tmp_path / "nope.sqlite").exists()


def test_the_default_library_is_in_the_users_data_folder(tmp_path, monkeypatch):
    """Catches a default path in the working folder (or the package's): the library goes to the
    platform's data folder, here $XDG_DATA_HOME/nardy."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert default_path() == tmp_path / "data" / "nardy" / "library.sqlite"
    out = run("library", "add", str(GAMES / "typed-opening.txt"))
    assert out.exit_code == 0, out.output
    assert (tmp_path / "data" / "nardy" / "library.sqlite").exists()


# ---------------------------------------------------------------- the file


def _unchanged(path, check) -> None:
    before = path.read_bytes()
    with pytest.raises(LibraryError) as err:
        Library(path)
    assert check(str(err.value)), str(err.value)
    assert path.read_bytes() == before
    out = run("library", "add", str(GAMES / "typed-opening.txt"), "--db", str(path))
    assert out.exit_code == 2 and out.output.count("\n") == 1 and out.output.startswith("Error: ")
    assert path.read_bytes() == before


def test_a_file_that_is_not_a_library_is_refused_and_left_alone(tmp_path):
    """Catches a foreign file taken for a library: a text file, another program's SQLite
    database (nardy would add its tables to it), a folder."""
    text = tmp_path / "notes.sqlite"
    text.write_text("my notes\n" * 50)
    _unchanged(text, lambda m: "not a nardy library" in m)
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE things (x)")
        conn.execute("INSERT INTO things VALUES (1)")
    conn.close()
    _unchanged(other, lambda m: "another program" in m)
    with pytest.raises(LibraryError, match="is a folder"):
        Library(tmp_path)


def test_a_damaged_library_is_refused_and_left_alone(filled, tmp_path):
    """Catches a damaged library opened and written to (SQLite may go on writing into a file whose
    pages are garbage): the quick check refuses it first."""
    path = tmp_path / "damaged.sqlite"
    data = bytearray(filled[0].read_bytes())
    page = 4096
    for k in range(2 * page + 100, len(data) - page, 3 * page):     # garble pages past the schema
        data[k:k + 200] = bytes(range(200))
    path.write_bytes(bytes(data))
    _unchanged(path, lambda m: "damaged" in m)


def test_a_library_of_a_newer_schema_is_refused(tmp_path):
    """Catches an old nardy writing into a library of a newer schema it does not know."""
    path = tmp_path / "new.sqlite"
    Library(path).close()
    with sqlite3.connect(path) as conn:
        conn.execute(f"PRAGMA user_version = {schema.SCHEMA_VERSION + 1}")
    conn.close()
    _unchanged(path, lambda m: "newer than this nardy's" in m)


def test_an_older_library_is_migrated_forward_in_one_step(tmp_path, monkeypatch):
    """Catches a migration that skips a version or half-applies: a version-1 file opened by a
    nardy with a second migration is at version 2 with its rows kept; a migration that fails
    leaves the file at version 1."""
    path = tmp_path / "old.sqlite"
    with Library(path) as library:
        library.add([GAMES / "typed-opening.txt"])
    step = ("ALTER TABLE sources ADD COLUMN note TEXT", "UPDATE sources SET note = 'migrated'")
    broken = ("ALTER TABLE sources ADD COLUMN note TEXT", "UPDATE nowhere SET x = 1")
    monkeypatch.setattr(schema, "SCHEMA_VERSION", 2)
    monkeypatch.setattr(schema, "MIGRATIONS", schema.MIGRATIONS + (broken,))
    with pytest.raises(LibraryError):
        Library(path)
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 1
        assert "note" not in [c[1] for c in conn.execute("PRAGMA table_info(sources)")]
    conn.close()
    monkeypatch.setattr(schema, "MIGRATIONS", schema.MIGRATIONS[:1] + (step,))
    with Library(path) as library:
        assert len(library.decisions()) == 8
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 2
        assert conn.execute("SELECT note FROM sources").fetchall() == [("migrated",)]
    conn.close()


# ---------------------------------------------------------------- ratings


def _decisions(rows) -> pd.DataFrame:
    """A decisions frame of (game_id, player, phase, forced, lost) rows."""
    frame = pd.DataFrame(rows, columns=["game_id", "player", "phase", "forced", "lost"])
    return frame.assign(day="2026-12-01", source="s.txt", source_id=1)


def _cube(rows) -> pd.DataFrame:
    """A cube frame of (game_id, player, taker, action, best, double_lost, take_lost) rows."""
    frame = pd.DataFrame(rows, columns=["game_id", "player", "taker", "action", "best",
                                        "double_lost", "take_lost"])
    return frame.assign(day="2026-12-01", source="s.txt", source_id=1)


def test_pr_is_500_times_the_loss_per_non_forced_decision_of_both_kinds():
    """Catches a PR over every decision (forced ones would dilute it), x1000 instead of x500, or
    the cube's loss left out."""
    d = _decisions([(1, "a", "race", False, 0.1), (1, "a", "race", False, 0.0),
                    (1, "a", "race", True, float("nan")), (2, "a", "contact", False, 0.2)])
    c = _cube([(1, "a", "b", "no double", "double, take", 0.05, float("nan")),
               (2, "b", "a", "double, take", "double, pass", 0.0, 0.3)])
    row = rate(d, c).iloc[0]
    assert row["non_forced"] == 3 and row["decisions"] == 4 and row["cube_decisions"] == 2
    assert row["checker_mp"] == pytest.approx(1000 * 0.3 / 3)
    assert row["cube_mp"] == pytest.approx(1000 * 0.35 / 2)
    assert row["pr"] == pytest.approx(500 * 0.65 / 5)
    assert row["errors_per_game"] == pytest.approx(0.5)      # 0.1 (game 1 of 2 games)
    assert row["blunders_per_game"] == pytest.approx(1.0)    # 0.2 and 0.3


def test_a_cube_decision_counts_when_a_double_was_right_or_made():
    """Catches every turn's trivial no-double counted as a cube decision (a player's rate would
    shrink with the length of their games), or answers given to the roller."""
    c = _cube([(1, "a", "b", "no double", "no double", 0.0, float("nan")),      # trivial
               (1, "a", "b", "no double", "double, take", 0.04, float("nan")),   # missed double
               (1, "a", "b", "double, pass", "no double", 0.2, 0.07),             # b's pass
               (1, "b", "a", "double, take", "double, pass", 0.0, 0.11)])         # a's take
    mine = counted_cube(c, "a")
    assert sorted(mine["lost"]) == pytest.approx([0.04, 0.11, 0.2])
    assert sorted(counted_cube(c, "b")["lost"]) == pytest.approx([0.0, 0.07])


def test_the_interval_brackets_the_rate_and_repeats_with_its_seed():
    """Catches an unseeded bootstrap (intervals that change run to run) or one that resamples the
    losses and the counts apart."""
    rng = np.random.default_rng(5)
    lost, n = rng.exponential(0.05, 40) * 20, rng.integers(15, 25, 40).astype(float)
    a = ratio_interval(lost, n, np.random.default_rng(1), 1000)
    b = ratio_interval(lost, n, np.random.default_rng(1), 1000)
    assert a == b
    assert a[0] < 1000 * lost.sum() / n.sum() < a[1]
    low, high = ratio_interval(0.05 * n, n, rng)      # every game at one rate: no spread
    assert high - low < 1e-12
    assert all(math.isnan(v) for v in ratio_interval(lost[:1], n[:1], rng))
    frame = _decisions([(g, "a", "race", False, float(x)) for g, x in enumerate(lost / 10)])
    empty = _cube([])
    assert rate(frame, empty, seed=3).equals(rate(frame, empty, seed=3))
    assert not rate(frame, empty, seed=3).equals(rate(frame, empty, seed=4))


def test_the_quiz_takes_the_costliest_distinct_mistakes():
    """Catches a quiz that repeats one position met in several games, or that is not ordered by
    the equity lost."""
    base = {"opponent": "b", "side": "white", "phase": "race", "match_length": 0,
            "score_player": float("nan"), "score_opponent": float("nan"), "crawford": 0,
            "cube_value": float("nan"), "cube_owner": None, "played": "1/2", "best": "1/3",
            "equity_played": 0.0, "equity_best": 0.1, "played_result": "W:1 B:1 b",
            "best_result": "W:1 B:1 b", "source": "s.txt", "source_id": 1, "turn": "3.",
            "day": "2026-12-01", "player": "a", "forced": False, "ply": 5}
    rows = [dict(base, position_id="P1", position="p1", dice="6-5", lost=0.3, game=1),
            dict(base, position_id="P1", position="p1", dice="6-5", lost=0.2, game=2),
            dict(base, position_id="P1", position="p1", dice="4-4", lost=0.1, game=2),
            dict(base, position_id="P2", position="p2", dice="6-5", lost=0.25, game=3),
            dict(base, position_id="P3", position="p3", dice="6-5", lost=0.0, game=3)]
    cards = select_cards(pd.DataFrame(rows), "a", 10)
    assert [(c.position_id, c.dice, c.lost, c.times) for c in cards] == [
        ("P1", "6-5", 0.3, 2), ("P2", "6-5", 0.25, 1), ("P1", "4-4", 0.1, 1)]
    assert [c.number for c in select_cards(pd.DataFrame(rows), "a", 2)] == [1, 2]


def test_stats_reads_the_ratings_of_the_samples(filled):
    """Catches the command's table and JSON disagreeing with the library's frame."""
    path, _ = filled
    with Library(path) as library:
        frame = library.stats()
    out = run("library", "stats", "--db", str(path), "--format", "json")
    assert out.exit_code == 0
    import json
    rows = json.loads(out.output)
    assert [r["player"] for r in rows] == frame["player"].tolist()
    assert rows[-1]["pr"] == pytest.approx(frame["pr"].iloc[-1])
    table = run("library", "stats", "--db", str(path)).output
    assert "PR" in table and "Note: reviewed by neural." in table
    assert "neural was reviewed by itself" in table


# ---------------------------------------------------------------- issue 50


def test_add_reads_every_file_before_adding_any(tmp_path):
    """Catches issue 50's `library add games/bot-game.txt empty.txt`: the first file was added, then
    `Error: the game record holds no plies` without naming the file, though every file is read
    first and nothing is added."""
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    db = tmp_path / "lib.sqlite"
    out = run("library", "add", str(GAMES / "bot-game.txt"), str(empty), "--db", str(db))
    assert (out.exit_code, out.output) == (
        2, f"Error: {str(empty)!r}: the game record holds no plies: nothing to review\n")
    assert counts(db)[0] == 0


def test_a_name_two_sources_share_is_refused_and_told_apart(filled, tmp_path):
    """Catches issue 50's `library remove game-001.txt` removing every file of that name (two
    different games) without a word, and `stats --by match` rows that cannot be told apart."""
    path = tmp_path / "twins.sqlite"
    shutil.copy(filled[0], path)
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE sources SET name = 'bot-game.txt' WHERE name = 'bot-match.txt'")
        ids = [i for (i,) in conn.execute("SELECT id FROM sources WHERE name = 'bot-game.txt' "
                                          "ORDER BY id")]
    conn.close()
    before = counts(path)
    out = run("library", "remove", "bot-game.txt", "--db", str(path))
    assert (out.exit_code, out.output) == (
        2, f"Error: 2 sources are named 'bot-game.txt' (ids {ids[0]}, {ids[1]}): remove them by "
           "id\n")
    assert counts(path) == before
    with Library(path) as library:
        frame = library.stats(by="match")
    labels = set(frame["match"])
    assert {f"bot-game.txt (source {i})" for i in ids} <= labels
    assert "bot-game.txt" not in labels
    out = run("library", "remove", str(ids[0]), "--db", str(path))
    assert out.exit_code == 0 and counts(path)[0] == before[0] - 1


def test_the_library_speaks_russian(filled):
    """Catches issue 50's `nardy --lang ru library stats` and `list` printing half-English headers
    (`checker mp`, `errors/game`), English notes and band names, and `library bands` in English."""
    path = str(filled[0])
    stats = run("--lang", "ru", "library", "stats", "--db", path).output
    listing = run("--lang", "ru", "library", "list", "--db", path).output
    bands = run("--lang", "ru", "library", "bands").output
    for english in ("checker mp", "cube mp", "errors/game", "blunders/game", "band", "Note:",
                    "reviewed by", "Supernatural", "Intermediate", "Casual"):
        assert english not in stats + bands, english
    for english in ("format", "match_length", "evaluator", "players", "added", " game ", "to 5"):
        assert english not in listing, english
    assert "шашки mp" in stats and "длина матча" in listing and "Сверхчеловеческий" in bands
    csv = run("--lang", "ru", "library", "bands", "--format", "csv").output
    assert csv.startswith("band,from,below,reference\nSupernatural,")    # data stays English


def test_the_progress_and_quiz_pages_speak_russian(filled, tmp_path):
    """Catches issue 50's English quiz and progress pages under `nardy --lang ru`."""
    path = str(filled[0])
    out = run("--lang", "ru", "library", "progress", "--player", "heuristic", "--db", path,
              "--output", str(tmp_path / "p"))
    assert out.exit_code == 0, out.output
    page = (tmp_path / "p" / "progress.html").read_text(encoding="utf-8")
    for english in ("rating of play", "Overall", "By phase", "Grade bands", "PR below",
                    "checker mp", "Supernatural", "lower is better"):
        assert english not in page, english
    assert '<html lang="ru">' in page and "Уровни" in page
    out = run("--lang", "ru", "library", "quiz", "--player", "heuristic", "--count", "2", "--db",
              path, "--output", str(tmp_path / "q"))
    assert out.exit_code == 0 and out.output.startswith("позиций 2 записано в")
    for name in ("quiz.html", "answers.html"):
        page = (tmp_path / "q" / name).read_text(encoding="utf-8")
        for english in (" to play ", "positions to study", "What would you play?", "phase:",
                        "position ID", "point match", "no cube", "Equity lost", "game ",
                        "The costliest"):
            assert english not in page, (name, english)
