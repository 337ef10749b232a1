"""No silent options and the rough edges a new user hits (issue 11): every mistake gets a one-line
error that helps, every option does what it says, and every example in every `--help` runs."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from nardy_cli import START, legal_plays
from nardy_cli.commands.cli import cli
from nardy_cli.core.i18n import LANGUAGES
from nardy_cli.core.dice import Dice

ROOT = Path(__file__).resolve().parent.parent


def run(*args, **kwargs):
    return CliRunner().invoke(cli, list(args), **kwargs)


def error_line(out) -> str:
    lines = out.output.strip().splitlines()
    assert out.exit_code == 2 and len(lines) == 1 and lines[0].startswith("Error: "), out.output
    return lines[0]


# --- show -o ----------------------------------------------------------------

def test_show_writes_the_format_its_suffix_names(tmp_path):
    """Bug: `nardy show start -o b.png` printed the text board and wrote nothing."""
    out = run("show", "start", "-o", str(tmp_path / "b.png"))
    assert out.exit_code == 0 and (tmp_path / "b.png").read_bytes()[:4] == b"\x89PNG"
    assert run("show", "start", "-o", str(tmp_path / "b.svg")).exit_code == 0
    assert (tmp_path / "b.svg").read_text().lstrip().startswith("<?xml")
    assert run("show", "start", "-o", str(tmp_path / "b.txt")).exit_code == 0
    assert "w15" in (tmp_path / "b.txt").read_text()


@pytest.mark.parametrize("args, message", [
    (["--format", "png", "-o", "x.svg"], "--format png does not match the file 'x.svg'"),
    (["-o", "x.jpg"], "cannot tell the format of 'x.jpg'"),
    (["--format", "svg"], "--format svg needs -o FILE.svg"),
])
def test_show_rejects_a_format_it_would_not_write(args, message, tmp_path, monkeypatch):
    """Bug: `--format png -o x.svg` silently wrote x.png."""
    monkeypatch.chdir(tmp_path)
    assert message in error_line(run("show", "start", *args)) and not list(tmp_path.iterdir())


IMAGE_MAGIC = {"png": b"\x89PNG", "svg": b"<?xml", "pdf": b"%PDF"}


@pytest.fixture(scope="module")
def saved_results(tmp_path_factory):
    """A small rollout report's results.json, for `nardy chart`."""
    folder = tmp_path_factory.mktemp("chart") / "report"
    out = run("rollout", "start", "--games", "36", "--policy", "random", "--workers", "1", "-q",
              "--output", str(folder))
    assert out.exit_code == 0, out.output
    return folder / "results.json"


def image_commands(results, out):
    """Every option that writes a chart or a board, writing to `out`."""
    return {"met --chart": ["met", "--length", "3", "--chart", out],
            "show -o": ["show", "start", "-o", out],
            "chart -o": ["chart", str(results), "--kind", "outcomes", "-o", out]}


@pytest.mark.parametrize("which", ["met --chart", "show -o", "chart -o"])
@pytest.mark.parametrize("suffix", ["png", "svg", "pdf"])
def test_every_image_option_writes_png_svg_and_pdf(which, suffix, tmp_path, saved_results):
    """Catches an image option that refuses one of the documented suffixes, or writes another
    format than its suffix names."""
    path = tmp_path / f"image.{suffix}"
    out = run(*image_commands(saved_results, str(path))[which])
    assert out.exit_code == 0, out.output
    assert path.read_bytes().lstrip()[:5].startswith(IMAGE_MAGIC[suffix])


@pytest.mark.parametrize("which", ["met --chart", "show -o", "chart -o"])
@pytest.mark.parametrize("name", ["x.bmp", "x.jpg", "x"])
def test_every_image_option_refuses_other_suffixes_up_front(which, name, tmp_path, monkeypatch,
                                                            saved_results):
    """Catches `nardy met --chart x.bmp` printing matplotlib's ValueError traceback with exit 0
    (or any image option writing an unasked format, or failing only after its work)."""
    monkeypatch.chdir(tmp_path)
    line = error_line(run(*image_commands(saved_results, name)[which]))
    assert f"'{name}'" in line and ".pdf" in line
    assert not list(tmp_path.iterdir())


def test_the_library_refuses_an_image_name_it_cannot_draw(tmp_path):
    """Catches save_figure handing an unknown suffix to matplotlib (a ValueError that is not a
    NardyError, or a file in a format nobody asked for)."""
    from matplotlib.figure import Figure

    from nardy_cli.core.errors import OutputError
    from nardy_cli.reports.figures import save_figure
    with pytest.raises(OutputError, match="x.bmp"):
        save_figure(Figure(), tmp_path / "x.bmp")
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("command", [["rollout", "start"], ["analyze", "start", "--dice", "6-5"],
                                     ["openings", "--rolls", "65"],
                                     ["batch", "positions/study.txt"]])
@pytest.mark.parametrize("flag", ["--html", "--svg"])
def test_report_flags_need_output(command, flag):
    """Bug: `--html` without `--output` was ignored."""
    assert f"{flag} needs --output DIR" in error_line(run(*command, flag))


# --- names: positions, start, presets, policies -----------------------------

def test_unknown_position_name_lists_the_names():
    """Bug: 'no position named X' neither listed the names nor suggested the nearest."""
    line = error_line(run("show", "positions/openings.txt:six-five"))
    assert "no position named 'six-five'" in line and "r65" in line and "r33-a" in line
    assert "did you mean 'race'" in error_line(run("show", "positions/study.txt:rase"))


def test_did_you_mean_start_and_files():
    """Bug: `strat` or a mistyped positions file got no suggestion."""
    assert "did you mean 'start'?" in error_line(run("show", "strat"))
    assert "did you mean 'positions/study.txt'" in error_line(run("show", "positions/stdy.txt"))


def test_unquoted_position_gets_a_hint_to_quote_it():
    """Bug: `nardy show W:1x14,12 B:1x15` (unquoted, split by the shell) got no hint."""
    line = error_line(run("show", "W:1x14,12", "B:1x15", "b"))
    assert "in quotes" in line and "'W:1x14,12'" in line


@pytest.mark.parametrize("command", [["rollout", "start", "--games", "36"],
                                     ["analyze", "start", "--dice", "6-5", "--games", "36"]])
def test_did_you_mean_for_policies(command):
    """Bug: a mistyped policy name got no suggestion."""
    assert "did you mean 'heuristic'?" in error_line(run(*command, "--policy", "heuristc"))
    assert "did you mean 'lookahead:heuristic'" in error_line(run(*command, "--policy",
                                                                  "lookahead:heuristc"))


def test_presets_are_listed_on_a_typo():
    """A mistyped preset names the choices (library: a did-you-mean)."""
    from nardy_cli.core.errors import RulesError
    from nardy_cli.core.rules import make_rules
    assert "federation" in error_line(run("moves", "start", "--rules", "federatoin"))
    with pytest.raises(RulesError, match="did you mean 'federation'"):
        make_rules("federatoin")


def test_module_attr_policy_loads_from_the_current_folder(tmp_path, monkeypatch):
    """Bug: `--policy mybot:MyBot` with mybot.py in the current folder failed with No module named
    'mybot'."""
    (tmp_path / "mybot_c11.py").write_text(
        "class MyBot:\n    '''first play'''\n    def choose(self, position, dice, plays, rng):\n"
        "        return plays[0]\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.path",
                        [p for p in __import__("sys").path if p not in ("", str(tmp_path))])
    out = run("rollout", "W:24x2 B:23,24x2 w", "--games", "36", "--workers", "1", "-q",
              "--policy", "mybot_c11:MyBot")
    assert out.exit_code == 0, out.output
    assert "mybot_c11:MyBot (White) vs mybot_c11:MyBot (Black)" in out.output


# --- positions, rules headers, deficit -------------------------------------

def test_both_sides_borne_off_is_rejected():
    """Bug: `nardy show "W:- B:- w"` (every checker of both sides borne off) was accepted."""
    assert "both sides have borne off every checker" in error_line(run("show", "W:- B:- w"))


def test_points_override_appears_in_every_header(tmp_path):
    """Bug: `--points koks=3` was not reflected in the printed rules header."""
    pos = "W:24x2 B:23,24x2 w"
    assert "federation rules (koks=3)" in run("rollout", pos, "--games", "36", "--workers", "1",
                                              "-q", "--points", "koks=3").output
    assert "federation rules (koks=3)" in run("deficit", pos, "--points", "koks=3").output
    assert "federation rules (koks=3)" in run("analyze", "W:24x2 B:23,24x2 w 2-1", "--games", "36",
                                              "--rollout-forced", "--workers", "1", "-q",
                                              "--points", "koks=3").output


def test_deficit_table_prints_cleanly_and_output_writes_tables_and_charts(tmp_path):
    """Bugs: the 6x6 table printed a stray `die1` header row; `deficit` had no --output."""
    out = run("deficit", "positions/study.txt:deficit-heavy", "--output", str(tmp_path / "d"))
    assert out.exit_code == 0, out.output
    assert "die1" not in out.output
    assert re.search(r"^first die +1  2  3  4  5  6$", out.output, re.M)
    assert re.search(r"^ +4 +1  1  1  0  0  0$", out.output, re.M)
    names = sorted(p.name for p in (tmp_path / "d").iterdir())
    assert names == ["deficit.csv", "deficit.json", "faces.csv", "static-deficit.png",
                     "static-face-deficit.png", "steps.csv"]


# --- library polish ---------------------------------------------------------

@pytest.mark.parametrize("dice", ["6-5", "56", (6, 5), [5, 6], Dice(6, 5)])
def test_dice_in_every_form(dice):
    """Bug: `legal_plays(pos, (6, 5))` raised AttributeError."""
    assert [str(p.result) for p in legal_plays(START, dice)] == ["W:1x14,12 B:1x15 b"]


# --- every example of every --help -----------------------------------------

def _example_lines(epilog: str | None) -> list[list[str]]:
    """The example command lines of an epilog (a line ending in a backslash goes on on the next, as
    in a shell), without comments, pipes and redirections."""
    out = []
    joined = re.sub(r"\\\n\s*", "", epilog or "")
    for line in joined.splitlines():
        line = line.strip()
        if line.startswith("nardy "):
            line = re.split(r" [|>] ", line)[0]
            args = shlex.split(line, comments=True)[1:]
            if args[:1] == ["--lang"]:          # the group's option: the command follows it
                assert args[1] in LANGUAGES, line
                args = args[2:]
            out.append(args)
    return out


def _examples() -> list[tuple[str, list[str]]]:
    ctx = click.Context(cli)
    found = [(args[0], args) for args in _example_lines(cli.epilog)]
    for name in cli.list_commands(ctx):
        found += [(name, args) for args in _example_lines(cli.get_command(ctx, name).epilog)]
    return found


CHEAP = {"show", "moves", "deficit", "policies"}


@pytest.mark.parametrize("name, args", _examples(),
                         ids=lambda v: " ".join(v) if isinstance(v, list) else v)
def test_every_help_example_parses(name, args, tmp_path, monkeypatch):
    """Bug: `nardy moves positions/openings.txt:six-five`, an example in `moves --help`, failed.

    Each example is parsed as the command line would parse it (positions resolved, dice and choices
    checked; `chart`'s results file is a stand-in); the cheap ones (show, moves, deficit, policies)
    also run in full."""
    for folder in ("positions",):
        (tmp_path / folder).symlink_to(ROOT / folder)
    monkeypatch.chdir(tmp_path)
    if name in CHEAP:
        out = run(*args)
        assert out.exit_code == 0, out.output
        return
    # reads a results.json an earlier run wrote: a stand-in lets its options parse
    if name == "chart":
        (tmp_path / args[1]).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / args[1]).write_text("{}")
    command = cli.get_command(click.Context(cli), args[0])
    try:
        command.make_context(args[0], args[1:])
    except click.BadParameter as exc:
        if "does not exist" in exc.format_message():
            pytest.skip(f"the example reads a file of the user's: {exc.format_message()}")
        raise


OUTPUT_OPTIONS = {"--output", "-o", "--out", "--chart", "--save"}


def _named_files(args: list[str]) -> tuple[list[str], list[str]]:
    """(files an example reads, paths it writes): tokens that look like paths (a `/` or a file
    suffix), the FILE of FILE:NAME; the values of --output/-o/--out are written."""
    reads, writes = [], []
    if args and args[0] == "convert" and len(args) > 2:    # convert IN OUT: OUT is written
        writes.append(args[2])
    for prev, token in zip([None, *args], args):
        if " " in token or token[:2].upper() in ("W:", "B:") or not (
                "/" in token or re.search(r"\.(txt|npz|json|png|svg|csv)$", token)):
            continue
        if prev in OUTPUT_OPTIONS or token in writes:
            writes.append(token)
        else:
            reads.append(token.rpartition(":")[0] if re.search(r"\.txt:[\w-]+$", token) else token)
    return reads, writes


def _help_examples() -> list[tuple[str, list[list[str]]]]:
    ctx = click.Context(cli)
    return [("nardy", _example_lines(cli.epilog))] + [
        (name, _example_lines(cli.get_command(ctx, name).epilog))
        for name in cli.list_commands(ctx)]


@pytest.mark.parametrize("name, examples", _help_examples(),
                         ids=lambda v: v if isinstance(v, str) else "")
def test_files_named_in_help_examples_exist(name, examples):
    """Catches a help example that names a file the repository does not have (`nardy review
    games/blunder-in-the-bear-off.txt`, `nardy review game.txt`): every file an example reads is in
    the repository, or an earlier example of the same help writes it (`--output reports/demo` then
    `nardy chart reports/demo/results.json`)."""
    written: list[str] = []
    for args in examples:
        reads, writes = _named_files(args)
        for path in reads:
            made = any(path == w or path.startswith(w.rstrip("/") + "/") for w in written)
            assert made or (ROOT / path).exists(), f"nardy {' '.join(args)}: {path} does not exist"
        written += writes


def test_help_examples_have_no_stray_spaces():
    """Catches a help example broken over two lines by a bare backslash in the docstring, which
    Python joins into one line with the next line's indentation in it (`train --help` showed
    `neural.npz       --player`)."""
    ctx = click.Context(cli)
    for name in cli.list_commands(ctx):
        for line in (cli.get_command(ctx, name).epilog or "").splitlines():
            if line.strip().startswith("nardy "):
                assert "   " not in line.strip().split("  #")[0].rstrip(), (name, line)


# --- progress ---------------------------------------------------------------

class _Terminal:
    """A stand-in stderr: a terminal (or not) that keeps what is written."""

    def __init__(self, tty: bool) -> None:
        self.tty, self.text = tty, ""

    def isatty(self) -> bool:
        return self.tty

    def write(self, s: str) -> int:
        self.text += s
        return len(s)

    def flush(self) -> None:
        pass


@pytest.mark.parametrize("tty", [True, False])
def test_progress_bar_shows_rate_eta_and_estimate_only_on_a_terminal(tty, monkeypatch):
    """Bug: the hand-drawn progress line had no time estimate; it must still stay off pipes; its ±
    must say it is one SE (the result line's ± is the 95% interval)."""
    from nardy_cli.commands import progress
    fake = _Terminal(tty)
    monkeypatch.setattr(progress.sys, "stderr", fake)
    # a terminal wide enough for the whole line: the bar is cut to the width (80 columns under
    # pytest-xdist's workers)
    monkeypatch.setenv("COLUMNS", "120")
    bar = progress.Progress(2592, "race: ", delay=0)
    bar.update(1296, 0.1, 0.01)
    bar.close()
    if not tty:
        assert fake.text == ""
        return
    assert ("1296/2592" in fake.text and "games/s" in fake.text
            and "equity +0.1000 ± 0.0100 (SE)" in fake.text)
    assert re.search(r"\[\d\d:\d\d<\d\d:\d\d", fake.text)  # elapsed < time left


def test_policy_help_lists_every_built_in_policy():
    """Catches `rollout --help` leaving a built-in policy (`neural`) out of the --policy list."""
    from nardy_cli.policies.registry import BUILTINS
    option = next(p for p in cli.get_command(click.Context(cli), "rollout").params
                  if p.name == "policy")
    assert all(name in option.help for name in [*BUILTINS, "lookahead:NAME"]), option.help
