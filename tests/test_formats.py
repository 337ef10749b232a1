"""The two tables of formats: record formats (`records/formats.py`: nardy records, `.mat`, and any
format added there) and output formats (`reports/render.py`: table, CSV, JSON).  A format is found
in its table, never by a command comparing its name."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd
from click.testing import CliRunner

from nardy_cli.commands.cli import cli
from nardy_cli.records import formats
from nardy_cli.records.files import convert, format_games, parse_games, read_games
from nardy_cli.records.formats import (DEFAULT_FORMAT, MAT, NARDY, RECORD_FORMATS, RecordFormat,
                                       counterpart, format_of_path, format_of_text)
from nardy_cli.records.match_record import format_record, parse_record
from nardy_cli.reports.render import FORMATS, Views, frame_text, render, table_text

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "games"
PACKAGE = ROOT / "nardy_cli"

# a record format as a user might add one: nardy's record text inside a JSON object
JREC = RecordFormat("jrec", ".json", "a JSON record",
                    read=lambda text, options: parse_record(json.loads(text)["record"]),
                    write=lambda record, options: json.dumps({"record": format_record(record)}),
                    sniff=lambda text: text.lstrip().startswith('{"record"'),
                    not_this="not a JSON record: no 'record' key")


def test_a_new_record_format_is_one_line_of_the_table(tmp_path, monkeypatch):
    """Catches a command or `files.py` that picks formats by name (`fmt == "mat"`) instead of the
    table: a format added there is read by its sniffer and its suffix, written by `convert` for its
    suffix and reviewed, with no other change."""
    monkeypatch.setitem(RECORD_FORMATS, JREC.name, JREC)
    game = read_games(GAMES / "bot-game.txt")
    target = tmp_path / "game.json"
    convert(GAMES / "bot-game.txt", target)
    assert json.loads(target.read_text())["record"] == format_record(game)
    assert read_games(target) == game == parse_games(target.read_text())
    out = CliRunner().invoke(cli, ["convert", str(GAMES / "bot-match.mat"),
                                   str(tmp_path / "match.json")])
    assert out.exit_code == 0 and out.output.endswith("written as a JSON record\n")
    out = CliRunner().invoke(cli, ["review", str(target), "--evaluator", "heuristic",
                                   "--format", "csv"])
    assert out.exit_code == 0 and out.output.startswith("ply,turn,side")
    (tmp_path / "bad.json").write_text(format_record(game))
    out = CliRunner().invoke(cli, ["review", str(tmp_path / "bad.json")])
    assert (out.exit_code, out.output) == (2, "Error: bad.json: not a JSON record: no 'record' "
                                              "key\n")


def test_formats_are_found_by_suffix_by_content_and_by_name():
    """Catches a lookup that falls back wrongly: an unknown suffix or text is nardy's record, a
    `.mat` name or an `N point match` text a transcript, an unknown name an error naming the
    known ones."""
    assert format_of_path("x.MAT") is MAT and format_of_path("x.txt") is NARDY
    assert format_of_path("x.rec") is DEFAULT_FORMAT is NARDY
    assert format_of_text((GAMES / "bot-match.mat").read_text()) is MAT
    assert format_of_text("hello") is NARDY
    assert [counterpart(MAT), counterpart(NARDY), counterpart(JREC)] == [NARDY, MAT, NARDY]
    try:
        format_games(read_games(GAMES / "bot-game.txt"), "sgf")
    except ValueError as exc:
        assert str(exc) == "unknown record format 'sgf': choose one of mat, nardy"
    else:
        raise AssertionError("an unknown record format was written")


def test_views_render_in_each_output_format():
    """Catches the table of output formats showing the wrong view (CSV of the table's text, JSON
    of the frame), several JSON lines run together, or a missing view printed as an empty line."""
    frame = pd.DataFrame({"play": ["1/7", "1/12"], "equity": [0.25, -0.00001]})
    views = Views.of_frame(frame)
    assert render(views, "table") == table_text(frame) == "play equity\n 1/7 0.2500\n1/12 0.0000"
    assert render(views, "csv") == "play,equity\n1/7,0.25\n1/12,-1e-05"
    assert render(views, "json") == ('[{"play": "1/7", "equity": 0.25}, '
                                     '{"play": "1/12", "equity": -1e-05}]')
    assert [frame_text(frame, f) for f in FORMATS] == [render(views, f) for f in FORMATS]
    lines = Views(data=lambda: [{"a": 1}, {"a": 2}], lines=True, rows=lambda: [{"a": 1}])
    assert render(lines, "json") == '{"a": 1}\n{"a": 2}'
    assert render(lines, "csv") == "a\n1"
    assert render(lines, "table") is None
    assert render(Views(table=lambda: "heading"), "csv") is None


def test_positions_shown_one_after_another_make_one_csv():
    """Catches results shown one after another (a position each) printing a CSV header per position,
    or a JSON line or table block withheld until the end."""
    args = ["moves", "start", "W:1x14,12 B:1x15 b", "--dice", "6-5"]
    csv = CliRunner().invoke(cli, args + ["--format", "csv"]).output
    assert csv.count("name,position,dice") == 1 and len(csv.splitlines()) == 1 + 1 + 1
    lines = CliRunner().invoke(cli, args + ["--format", "json"]).output.splitlines()
    assert [json.loads(line)["position"] for line in lines] == [
        "W:1x15 B:1x15 w", "W:1x14,12 B:1x15 b"]
    table = CliRunner().invoke(cli, args).output
    assert table.startswith("W:1x15 B:1x15 w\n6-5: 1 play\n") and table.count("6-5:") == 2


FORMAT_NAMES = "|".join(sorted({*FORMATS, *RECORD_FORMATS, *formats.RECORD_FORMATS}))
COMPARED = re.compile(rf"""[=!]=\s*["']({FORMAT_NAMES})["']|["']({FORMAT_NAMES})["']\s*[=!]="""
                      rf"""|\bin\s*[(\[{{]\s*["']({FORMAT_NAMES})["']""")


def test_no_command_compares_format_names():
    """Catches a per-command chain such as `if fmt == "csv":` or `"mat" if fmt == "mat"` creeping
    back into the command line or the record files: formats are chosen through their tables."""
    places = [*(PACKAGE / "commands").glob("*.py"), *(PACKAGE / "records").glob("*.py"),
              PACKAGE / "reports" / "render.py"]
    found = [f"{path.name}:{n}: {line.strip()}" for path in places
             for n, line in enumerate(path.read_text().splitlines(), 1) if COMPARED.search(line)]
    assert found == []


def test_the_name_check_sees_a_comparison():
    """Catches a pattern in `test_no_command_compares_format_names` that matches nothing."""
    for line in ('if fmt == "csv":', "x = 'mat' if fmt == 'mat' else 'txt'",
                 'if fmt in ("json", "csv"):', 'err=fmt != "table"'):
        assert COMPARED.search(line), line
    assert not COMPARED.search('show(fmt, Views(table=lambda: text))')
