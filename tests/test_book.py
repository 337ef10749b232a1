"""The opening book (issue 40): its entries re-roll within their intervals, a build resumes
without losing entries, runs on a Dask cluster, and refuses to mix networks or rules in a depth;
`nardy openings` and `nardy analyze` answer from it."""

from __future__ import annotations

import gzip
import hashlib
import json
import math
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from nardy_cli.book.build import build_book
from nardy_cli.book.entry import BookSettings, judge, network_hash
from nardy_cli.book.read import load_book
from nardy_cli.book.store import BookError, append_entries, pack, read_entries
from nardy_cli.book.tree import Decision, decisions, exchange_positions
from nardy_cli.commands.cli import cli
from nardy_cli.core.dice import parse_dice
from nardy_cli.core.position import START, Position
from nardy_cli.core.rules import PRESETS, make_rules
from tests.cases import subprocess_env

FED = PRESETS["federation"]
# cheap settings for builds made by the tests
CHEAP = BookSettings(games=36, truncate=2, exchange_games=36, deficits=False)
ROOT = Path(__file__).resolve().parent.parent


def run(*args):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False, prog_name="nardy")


def _figures(entries: dict) -> dict:
    """Entries without what differs between two runs of one build (CPU time, date)."""
    out = {}
    for key, entry in entries.items():
        e = {k: v for k, v in entry.items() if k != "cpu_seconds"}
        e["provenance"] = {k: v for k, v in e["provenance"].items() if k != "date"}
        out[key] = e
    return out


def test_the_opening_tree_has_the_issues_counts():
    """Bug caught: a tree that merges or splits the first exchange's positions (165 distinct,
    both 3-3 choices included) or misses White's second-turn decisions (3,465)."""
    assert len(exchange_positions(FED)) == 165
    assert len(decisions("white-2", FED)) == 3465
    assert len(decisions("white-1", FED)) == 21


def test_shipped_entries_reroll_within_their_intervals():
    """Bug caught: a shipped entry whose figures a re-run cannot reproduce: another seed's rollout
    of the same decision must land within 4 combined SE (White's 3-3 choice and a first-exchange
    position; e.g. an equity saved for the wrong side, or settings not recorded)."""
    book = load_book()
    keys = [f"white-1|{START}|3-3"] + sorted(k for k in book.entries
                                             if k.startswith("exchange|"))[:1]
    for key in keys:
        entry = book.entries[key]
        settings = replace(BookSettings.from_dict(
            {k: entry["provenance"][k] for k in ("policy", "filters", "games", "until_se",
                                                 "truncate", "vr", "exchange_games", "seed")}),
            seed=entry["provenance"]["seed"] + 1)
        dice = parse_dice(entry["dice"]) if entry["dice"] else None
        again = judge(Decision(entry["depth"], Position.parse(entry["position"]), dice),
                      settings, FED, network_hash(settings.policy))
        old = entry["plays"] if "plays" in entry else [entry["value"]]
        new = {p.get("play"): p for p in (again["plays"] if "plays" in again
                                          else [again["value"]])}
        for figures in old:
            fresh = new[figures.get("play")]
            bound = 4 * math.hypot(figures["equity_se"], fresh["equity_se"])
            assert abs(figures["equity"] - fresh["equity"]) <= bound, (key, figures, fresh)


def test_an_interrupted_build_resumes_without_losing_entries(tmp_path):
    """Bug caught: entries lost or judged twice when a build is interrupted and run again (the
    resumed book must equal one built in one go, figure for figure)."""
    whole, parts = tmp_path / "whole.jsonl.gz", tmp_path / "parts.jsonl.gz"
    depths = ("white-1", "exchange")
    build_book(whole, depths, CHEAP, FED, limit=5)
    seen = []

    def stop_after_three(done, total):
        seen.append(done)
        if len(seen) == 4:          # the first call reports what was there before
            raise KeyboardInterrupt
    first = build_book(parts, depths, CHEAP, FED, limit=5, progress=stop_after_three)
    assert first.interrupted and 0 < first.done < first.total
    kept = read_entries(parts)
    assert len(kept) == first.done
    second = build_book(parts, depths, CHEAP, FED, limit=5)
    assert not second.interrupted and second.added == first.total - first.done
    assert _figures(read_entries(parts)) == _figures(read_entries(whole))


def test_a_torn_last_entry_is_ignored_and_redone(tmp_path):
    """Bug caught: a build killed while writing an entry leaves a file that cannot be read (the torn
    gzip member must be ignored, the entries before it kept)."""
    path = tmp_path / "book.jsonl.gz"
    build_book(path, ("white-1",), CHEAP, FED, limit=2)
    append_entries(path, [{"key": "x", "depth": "white-1"}])
    data = path.read_bytes()
    path.write_bytes(data[:-7])        # the last member cut short
    assert len(read_entries(path)) == 2
    assert build_book(path, ("white-1",), CHEAP, FED, limit=3).added == 1


def test_a_killed_build_goes_on_where_it_stopped(tmp_path):
    """Bug caught: `nardy book build` killed (SIGKILL, nothing flushed by Python) loses finished
    entries or cannot go on: the same command must finish the book."""
    path = tmp_path / "book.jsonl.gz"
    cmd = [sys.executable, "-m", "nardy_cli", "book", "build", "--book", str(path), "--depth",
           "white-1", "--depth", "exchange", "--limit", "12", "--games", "36", "--truncate", "2",
           "--exchange-games", "144", "-q"]
    proc = subprocess.Popen(cmd, env=subprocess_env(), cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline and len(read_entries(path)) < 3:
        time.sleep(0.2)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    kept = len(read_entries(path))
    assert 3 <= kept < 24
    done = subprocess.run(cmd, env=subprocess_env(), cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert len(read_entries(path)) == 24


def test_a_build_refuses_another_network_or_other_rules_in_a_depth(tmp_path):
    """Bug caught: a build that adds entries judged by another network or under other rules to a
    depth, so one table would mix two engines' figures."""
    path = tmp_path / "book.jsonl.gz"
    build_book(path, ("white-1",), CHEAP, FED, limit=1)
    other_rules = make_rules("federation", points="oin=1,home-mars=3,mars=2,koks=4")
    with pytest.raises(BookError, match="other rules"):
        build_book(path, ("white-1",), CHEAP, other_rules, limit=2)
    entries = read_entries(path)
    for entry in entries.values():
        entry["provenance"]["network"] = "0123456789abcdef"
    path.write_bytes(gzip.compress("".join(json.dumps(e) + "\n"
                                           for e in entries.values()).encode()))
    with pytest.raises(BookError, match="network 0123456789abcdef"):
        build_book(path, ("white-1",), CHEAP, FED, limit=2)
    res = run("book", "build", "--book", str(path), "--depth", "white-1", "--limit", "2", "-q")
    assert res.exit_code == 2 and res.output.startswith("Error: ") and "network" in res.output
    # another depth of the same file may use them
    build_book(path, ("exchange",), CHEAP, other_rules, limit=1)


def test_a_build_on_a_local_dask_cluster_equals_a_local_one(tmp_path):
    """Bug caught: book jobs that cannot travel to Dask workers (not picklable, or the entries
    coming back in another form): the same book as a local build."""
    distributed = pytest.importorskip("distributed", reason="the dask extra is not installed")
    local, remote = tmp_path / "local.jsonl.gz", tmp_path / "remote.jsonl.gz"
    build_book(local, ("white-1", "exchange"), CHEAP, FED, limit=3)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                  dashboard_address=":0", silence_logs=40) as cluster:
        result = build_book(remote, ("white-1", "exchange"), CHEAP, FED, limit=3,
                            executor="dask", scheduler=cluster.scheduler_address)
    assert result.added == 6 and not result.interrupted
    assert _figures(read_entries(remote)) == _figures(read_entries(local))


def test_openings_answers_from_the_book_at_once():
    """Bug caught: `nardy openings` rolling out afresh (minutes) when the shipped book holds the
    answer, or answering without saying where its figures come from."""
    start = time.monotonic()
    res = run("openings")
    assert res.exit_code == 0, res.output
    assert res.output.startswith("from the opening book: the first exchange")
    assert time.monotonic() - start < 10
    tree = run("openings", "--rolls", "33", "--format", "json")
    data = json.loads(tree.output)
    assert data["source"] == "opening book" and len(data["replies"]) == 21


def test_analyze_answers_from_the_book_and_no_book_computes():
    """Bug caught: `nardy analyze` of a position in the book computing anyway (or the book answering
    a question asked with other settings, e.g. --policy heuristic)."""
    res = run("analyze", "start", "--dice", "3-3")
    assert res.exit_code == 0 and "from the opening book: rollout" in res.output
    assert "1/4 1/4 4/7 7/10" in res.output
    fresh = run("analyze", "start", "--dice", "3-3", "--policy", "heuristic", "--games", "36",
                "--no-book", "-q")
    assert fresh.exit_code == 0 and "opening book" not in fresh.output


def test_the_book_as_a_dataframe(tmp_path):
    """Bug caught: the library's book frame (or the entries a build writes) losing the figures the
    issue asks of every judged play (equity, every outcome class, method, verdict, provenance)."""
    build_book(tmp_path / "b.jsonl.gz", ("white-1",), CHEAP, FED)
    frame = load_book(tmp_path / "b.jsonl.gz").frame()
    plays = frame[frame["depth"] == "white-1"]
    for column in ("equity", "win", "lose", "draw", "win_mars", "lose_koks", "method",
                   "verdict", "network", "seed", "truncate"):
        assert column in plays and plays[column].notna().all(), column
    assert set(plays["verdict"]) <= {"best", "close", "error"}



def test_the_study_guide_is_generated_self_contained_and_bilingual(tmp_path):
    """Bug caught: a study guide whose HTML page links images it does not carry (not
    self-contained, so it prints without its boards), whose lessons lack their Russian, or whose
    Markdown names images that were not written."""
    from nardy_cli.reports.book_guide import write_guide
    path = tmp_path / "b.jsonl.gz"
    build_book(path, ("white-1", "exchange", "white-2"), CHEAP, FED, limit=12)
    paths = write_guide(load_book(path), FED, tmp_path / "docs")
    md = paths["markdown"].read_text()
    page = paths["html"].read_text()
    assert "src=\"data:image/png;base64," in page and "src=\"openings/" not in page
    lessons = md.split("## Lessons")[1].split("## ")[0]
    assert "второго хода белых" in lessons and "second-turn decisions" in lessons
    for name in __import__("re").findall(r"\]\((openings/[^)]+)\)", md):
        assert (tmp_path / "docs" / name).exists(), name
    assert "Built so far: 12 of White's 3,465" in md


def test_a_book_entry_is_read_without_parsing_the_whole_book(monkeypatch, tmp_path):
    """Bug caught: reading the book parsing every entry's JSON (the shipped book grows by Black's
    second turn; `nardy openings --position` must stay quick), or a line that is no entry no longer
    refused once it is read."""
    import nardy_cli.book.store as store
    parsed = []
    loads = json.loads
    monkeypatch.setattr(store.json, "loads", lambda text, **kw: parsed.append(1) or loads(text))
    entries = read_entries(store.SHIPPED)
    assert len(entries) > 4000 and parsed == []
    pos = Position.parse("W:1x12,2,4,12 B:1x13,4,10 b")
    assert load_book(store.SHIPPED).entry(pos, parse_dice("1-1"))["depth"] == "black-2"
    monkeypatch.setattr(store.json, "loads", loads)
    path = tmp_path / "b.jsonl.gz"
    path.write_bytes(gzip.compress(b'{"key":"white-1|x|1-1","depth":\n'))
    with pytest.raises(BookError, match="not an opening book"):
        read_entries(path)["white-1|x|1-1"]


def _made_up(depth: str, i: int) -> dict:
    """A book entry of `depth` with made-up figures (Black's second turn's entries bulky, as in the
    shipped book)."""
    return {"key": f"{depth}|position {i}|-", "depth": depth, "n": i,
            "provenance": {"net": "made-up", "depth": depth},
            "method": "".join(hashlib.sha256(f"{i}.{k}".encode()).hexdigest()
                              for k in range(30 if depth == "black-2" else 1))}


DEPTH_ORDER = ("white-1", "exchange", "white-2", "black-2")


def test_a_packed_book_decompresses_only_the_depths_asked_for(tmp_path, monkeypatch):
    """Bugs: the first exchange read by decompressing every depth (Black's second turn is nine
    tenths of the shipped book: `nardy openings` took 1.2 s instead of 0.7 s), an entry lost or
    changed by the packing, and a packed book another gzip reader reads otherwise (the index is an
    empty member)."""
    import nardy_cli.book.store as store
    path = tmp_path / "b.jsonl.gz"
    made = [_made_up(d, i) for d in reversed(DEPTH_ORDER) for i in range(40)]
    append_entries(path, made)
    pack(path)
    unpacked = []
    lines = store._lines
    monkeypatch.setattr(store, "_lines", lambda raw, p: unpacked.append(len(raw)) or lines(raw, p))
    book = read_entries(path)
    assert book["white-1|position 3|-"]["n"] == 3
    assert set(book.provenance_texts(("white-1", "exchange"))) == {"white-1", "exchange"}
    assert sum(unpacked) < path.stat().st_size / 10
    assert {key: book[key] for key in book} == {e["key"]: e for e in made}
    plain = [json.loads(line)["depth"] for line in gzip.decompress(path.read_bytes()).splitlines()]
    assert plain == [d for d in DEPTH_ORDER for _ in range(40)]


def test_entries_appended_to_a_packed_book_are_read(tmp_path):
    """Bug: a packed book's index trusted after a build appended entries to it (a build killed
    before it packed the file again): the appended entries were not read."""
    path = tmp_path / "b.jsonl.gz"
    append_entries(path, [_made_up(d, 1) for d in DEPTH_ORDER])
    pack(path)
    append_entries(path, [_made_up("white-1", 2), _made_up("black-2", 2)])
    book = read_entries(path)
    assert len(book) == 6 and book["white-1|position 2|-"]["n"] == 2
    assert read_entries(path)["black-2|position 2|-"]["n"] == 2


def test_openings_still_refuses_an_invalid_position_the_book_lacks():
    """Bug caught: the book lookup, which skips the R6 check until a miss, answering an invalid
    position with 'no entry' (or a traceback) instead of the block's one-line error."""
    res = CliRunner().invoke(cli, ["openings", "--position", "W:1x9,2,3,4,5,6,7 B:1x15 b",
                                   "--dice", "1-1"])
    assert res.exit_code == 2 and res.output.startswith("Error: --position: forbidden block"), \
        res.output


def test_the_first_exchange_tree_is_kept_in_the_cache_folder_per_rules(tmp_path, monkeypatch):
    """`nardy openings` reads the first exchange's tree as text from the cache folder, so it loads
    no kernel.  Catches a cached tree that differs from the computed one, a key without the rules (a
    preset reading another's tree: `classic` has no head exceptions, so fewer plays), and a cache
    that is written but never read."""
    from nardy_cli.book import tree
    from nardy_cli.core.rules import PRESETS
    monkeypatch.setenv("NARDY_CACHE_DIR", str(tmp_path))
    tree.exchange_lines.cache_clear()
    computed = {name: tuple((str(e.white_roll), e.white_play, str(e.black_roll), e.black_play,
                             str(e.position)) for e in tree.first_exchanges(PRESETS[name]))
                for name in ("federation", "classic")}
    assert computed["federation"] != computed["classic"]
    for name in ("federation", "classic"):
        assert tree.exchange_lines(PRESETS[name]) == computed[name]
    assert len(list(tmp_path.glob("first-exchange-*.json"))) == 2
    tree.exchange_lines.cache_clear()

    def no_enumeration(rules):
        raise AssertionError("the tree was computed again")

    monkeypatch.setattr(tree, "first_exchanges", no_enumeration)
    for name in ("federation", "classic"):
        assert tree.exchange_lines(PRESETS[name]) == computed[name]
    tree.exchange_lines.cache_clear()
