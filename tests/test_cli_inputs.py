"""Bad input the way a new user types it: every case is one `Error: ...` line and the right exit code."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from nardy_cli.cli import cli

NOT_UTF8 = b"\xff\xfe6-5: 1/12\x80\n"


def run(*args, **kw):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False, **kw)


@pytest.mark.parametrize("command, message", [
    (["review"], "Error: game record '{f}' is not UTF-8 text (byte 1)\n"),
    (["batch"], "Error: positions file '{f}' is not UTF-8 text (byte 1)"),
    (["show"], "Error: Invalid value for 'POSITION...': positions file '{f}' is not UTF-8 text (byte 1)"),
    (["moves"], "Error: Invalid value for 'POSITION...': positions file '{f}' is not UTF-8 text (byte 1)"),
])
def test_a_file_that_is_not_utf8_is_one_line(tmp_path, command, message):
    """Catches a UnicodeDecodeError traceback from a game record or positions file in another encoding."""
    f = tmp_path / "binary.txt"
    f.write_bytes(NOT_UTF8)
    out = run(*command, str(f))
    assert out.exit_code == 2
    assert out.output.startswith(message.format(f=f)) and out.output.count("\n") == 1, out.output


def test_standard_input_that_is_not_utf8_is_one_line():
    """Catches `nardy review -` quoting undecodable bytes as if they were a misspelt roll."""
    out = run("review", "-", input=NOT_UTF8)
    assert out.exit_code == 2 and out.output == "Error: standard input is not UTF-8 text (byte 1)\n"
