"""Docs that cannot drift: every Python block of README.md and docs/*.md runs, every `nardy` line
of the README's shell blocks runs (or is one of `make demo`'s commands), the README's command
table names exactly the commands of `nardy_cli/commands/cli.py`, a README transcript prints what
the command prints, and every relative link points to a file that exists.

The blocks run as if from the repository's root: a temporary folder holds a link to each of the
root's entries (not `reports/`), so `games/bot-game.txt` reads the repository's file and whatever
a block writes (`board.png`, `reports/review/`) lands in the temporary folder.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from nardy_cli.commands.cli import COMMANDS, cli

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```([\w-]*)[^\n]*\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)
LINK = re.compile(r"\]\(([^)\s]+)\)")


def blocks(path: Path, language: str) -> list[str]:
    """The fenced blocks of `path` tagged `language`, in order."""
    return [body for tag, body in FENCE.findall(path.read_text()) if tag == language]


def shell_lines(text: str) -> list[str]:
    """The commands of shell blocks: one per line, `\\` continuations joined, comments dropped."""
    lines = []
    for body in text:
        for line in body.replace("\\\n", " ").splitlines():
            words = shlex.split(line, comments=True)
            if words:
                lines.append(shlex.join(words))
    return lines


@pytest.fixture
def at_root(tmp_path, monkeypatch):
    """A working folder that reads like the repository's root but keeps what is written."""
    for entry in ROOT.iterdir():
        if entry.name not in {"reports", ".git", ".venv"}:
            (tmp_path / entry.name).symlink_to(entry)
    (tmp_path / "reports").mkdir()
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _with_python(path: Path) -> bool:
    return bool(blocks(path, "python"))


@pytest.mark.parametrize("path", [p for p in DOCS if _with_python(p)],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_every_python_block_runs(path, at_root):
    """Catches a doc example that imports from a module that moved (`nardy_cli.records` for
    `nardy_cli.records.game_record`), calls a renamed function or reads a file that is not
    there. The blocks of one file run in order in one namespace, as a reader pastes them."""
    namespace: dict = {"__name__": "__doc_example__"}
    for k, code in enumerate(blocks(path, "python"), 1):
        try:
            exec(compile(code, f"{path.name} python block {k}", "exec"), namespace)
        except Exception as error:    # the message names the doc and the block
            raise AssertionError(f"{path.name}, python block {k} fails: {error!r}") from error


def _demo_lines() -> set[str]:
    """The commands `make demo` runs, written as a reader types them (`nardy ...`)."""
    text = (ROOT / "Makefile").read_text()
    demo = text.split("\ndemo:", 1)[1].split("\n\n", 1)[0]
    return {shlex.join(shlex.split(line.strip().replace("$(BIN)/", ""), comments=True))
            for line in demo.splitlines()[1:] if line.strip().startswith("$(BIN)/nardy")}


def _make_targets() -> set[str]:
    return set(re.findall(r"^([a-z]+):", (ROOT / "Makefile").read_text(), re.MULTILINE))


README_LINES = shell_lines(blocks(ROOT / "README.md", "sh"))


def test_readme_shell_lines_are_make_targets_or_nardy_commands():
    """Catches a README shell example that no test runs: every line is `make TARGET` (a target
    the Makefile has) or a `nardy` command (run below), never a pipe or another program."""
    targets = _make_targets()
    for line in README_LINES:
        words = shlex.split(line)
        if words[0] == "make":
            assert len(words) == 2 and words[1] in targets, line
        else:
            assert words[0] == "nardy" and not {"|", ">", "&&", ";"} & set(words), line


@pytest.mark.parametrize("line", [ln for ln in README_LINES if ln.startswith("nardy ")])
def test_every_readme_command_runs(line, at_root):
    """Catches a README command whose option was renamed or whose argument no longer parses
    (exit 2), or that fails (exit 1). `make demo`'s own commands are run by `make demo`."""
    if line in _demo_lines():
        pytest.skip("one of make demo's commands")
    result = CliRunner().invoke(cli, shlex.split(line)[1:])
    assert result.exit_code == 0, f"{line}\n{result.output}"


def test_the_readme_transcript_is_what_the_command_prints(at_root):
    """Catches a pasted output that drifted from the program (another network, a changed
    table): each ```console block's `$ nardy ...` line is run and its output compared."""
    transcripts = blocks(ROOT / "README.md", "console")
    assert transcripts
    for body in transcripts:
        command, _, expected = body.partition("\n")
        assert command.startswith("$ nardy "), command
        result = CliRunner().invoke(cli, shlex.split(command[2:])[1:])
        assert result.exit_code == 0, result.output
        assert result.output == expected, f"{command}\n{result.output}"


def test_the_readme_command_table_names_every_command():
    """Catches a command added to `COMMANDS` but not to the README's table (or one removed
    from the program and still listed)."""
    text = (ROOT / "README.md").read_text()
    listed = set(re.findall(r"^\| `nardy ([a-z]+)", text, re.MULTILINE))
    assert listed == set(COMMANDS)


def test_every_relative_link_points_to_a_file():
    """Catches a link left pointing at a moved or renamed file (`docs/speed.md`,
    `nardy_cli/errors.py`) in the README or the docs."""
    broken = []
    for path in DOCS:
        for target in LINK.findall(path.read_text()):
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue
            if not (path.parent / target.split("#")[0]).exists():
                broken.append(f"{path.relative_to(ROOT)}: {target}")
    assert broken == []
