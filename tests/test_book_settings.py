"""The book states the settings its entries were built with (issue 50): a header computes them from
the entries it shows, and says so where depths differ.  The shipped book's White turns and first
exchange were rolled out truncated at 7 plies with margins 0.25/0.06/0.03, Black's second turn at
8 with 0.25/0.08/0.04; every header said 8 and 0.08, 0.04 (the provenance of the first entry read,
a Black one)."""

from __future__ import annotations

from click.testing import CliRunner

from nardy_cli.book.read import Book, load_book, setting_groups
from nardy_cli.commands.cli import cli
from nardy_cli.core.rules import PRESETS
from nardy_cli.reports.book_guide import exchange_chart
from nardy_cli.reports.book_settings import setting_text, truncation
from tests.cases import ROOT

WHITE = ("white-1", "exchange", "white-2")


def _entry(depth: str, n: int, truncate: int, date: str) -> tuple[str, dict]:
    prov = {"policy": "neural", "truncate": truncate, "filters": ["0.25", "0.08"], "seed": 1,
            "date": date}
    return f"{depth}|{n}|-", {"depth": depth, "provenance": prov}


def test_provenance_is_computed_from_the_entries_of_the_depths_asked_for():
    """Catches a provenance read off one entry (whichever comes first) and stated for all."""
    book = Book(ROOT, dict([_entry("black-2", 1, 8, "2026-12-06"), _entry("white-1", 2, 7,
                                                                         "2026-12-05"),
                            _entry("exchange", 3, 7, "2026-12-05")]))
    prov = book.provenance()
    assert "truncate" not in prov and prov["policy"] == "neural"
    assert prov["date"] == "2026-12-05 to 2026-12-06"
    assert setting_groups(prov, "truncate") == [(("white-1", "exchange"), 7), (("black-2",), 8)]
    assert setting_text(prov, "truncate", truncation) == (
        "truncated at 7 plies (White's first turn, the first exchange); truncated at 8 plies "
        "(Black's second turn)")
    white = book.provenance(("white-1", "exchange"))
    assert white["truncate"] == 7 and "by_depth" not in white and white["date"] == "2026-12-05"
    assert book.provenance(("white-2",)) == {}


def test_the_shipped_books_headers_state_its_own_settings():
    """Catches `nardy openings`, `--rolls 33`, the guide's intro and its chart saying "truncated at
    8 plies" and "0.25, 0.08, 0.04" of entries built at 7 plies with 0.25, 0.06, 0.03."""
    book = load_book(None)
    white = book.provenance(WHITE)
    assert (white["truncate"], white["filters"]) == (7, ["0.25", "0.06", "0.03"])
    for args in (["openings"], ["openings", "--rolls", "33"]):
        first = CliRunner().invoke(cli, args).output.splitlines()[0]
        assert "truncated at 7 plies" in first and "8 plies" not in first, first
    guide = (ROOT / "docs" / "openings.md").read_text(encoding="utf-8")
    assert ("truncated at 7 plies (White's first turn, the first exchange, White's second turn); "
            "truncated at 8 plies (Black's second turn)") in guide
    assert ("0.25, 0.06, 0.03 (White's first turn, the first exchange, White's second turn); "
            "0.25, 0.08, 0.04 (Black's second turn)") in guide
    title = exchange_chart(book, PRESETS["federation"]).axes[0].get_title()
    assert "truncated at 7 plies" in title and "8 plies" not in title


def test_naming_a_default_keeps_the_book():
    """Catches issue 50's `analyze start --dice 3-3 --rules federation` starting a fresh 10,000-game
    rollout (an option given was taken for an option changed, even at its default), and
    `openings --position ... --games 36` saying `--position needs --book` though the book is the
    default."""
    out = CliRunner().invoke(cli, ["analyze", "start", "--dice", "3-3", "--rules", "federation",
                                   "--stratify", "-q"])
    assert out.exit_code == 0 and "from the opening book" in out.output.splitlines()[1]
    out = CliRunner().invoke(cli, ["openings", "--rules", "federation", "--position",
                                   "W:1x13,4,10 B:1x13,4,10 w", "--dice", "2-1"])
    assert out.exit_code == 0 and "from the opening book" in out.output
    out = CliRunner().invoke(cli, ["openings", "--position", "W:1x13,4,10 B:1x13,4,10 w", "--dice",
                                   "2-1", "--games", "36"])
    assert (out.exit_code, out.output) == (2, "Error: --position answers from the book, whose "
                                              "entries have their own settings: drop --games\n")


def test_russian_counts_have_no_thousands_separator_and_decimals_a_point():
    """Catches issue 50's `--lang ru book show` printing `18,443` (docs/russian.md: Russian counts
    have no thousands separator, `10,000` reads as ten) and the guide's Russian lessons mixing
    `1,96` with `0.064`: no Russian message formats a count with `,` or writes a decimal comma."""
    import json
    import re
    catalogue = json.loads((ROOT / "nardy_cli" / "data" / "ru.json").read_text(encoding="utf-8"))
    for english, russian in catalogue["messages"].items():
        assert not re.search(r"\{[^{}]*:,", russian), russian
        assert not re.search(r"\d,\d", russian), russian
    first = CliRunner().invoke(cli, ["--lang", "ru", "book", "show"]).output.splitlines()[0]
    assert re.fullmatch(r".*: записей \d+", first), first


def test_the_head_lesson_says_the_counts_and_cites_the_exceptions_as_such():
    """Catches issue 50's lesson: "takes a checker from the head in 100%" and "the runner alone is
    best in only 0%", citing as its examples exactly the 2 of 3,032 decisions where it does not."""
    from nardy_cli.book.lessons import decisions_frame, lessons, share_text
    book = load_book(None)
    lesson = next(x for x in lessons(book, PRESETS["federation"]) if x.name == "head")
    frame = decisions_frame(book)
    runner = int((frame["kind"] == "runner").sum())
    text = lesson.text()
    assert f"from the head in {len(frame) - runner} " in text
    assert "100%" not in text and " 0%" not in text
    assert f"The runner alone is best in only {runner}: the exceptions, below." in text
    assert len(lesson.examples) == min(runner, 3)
    assert (share_text(3030, 3032), share_text(1, 3032), share_text(3032, 3032),
            share_text(0, 5)) == ("99.9%", "<0.1%", "100.0%", "0.0%")
