"""One error class per kind of failure; library messages name arguments, the command line names its
flags."""

from __future__ import annotations

import pickle

import pytest
from click.testing import CliRunner

from nardy_cli.policies.bearoff import bearoff_value
from nardy_cli.commands.cli import cli
from nardy_cli.analysis.deficit import static_deficit
from nardy_cli.games.duel import duel
from nardy_cli.core.engine import legal_plays
from nardy_cli.core.errors import ArgumentError, GameOverError, NardyError
from nardy_cli.policies.estimate import neural_estimate, static_estimate
from nardy_cli.core.position import parse_position
from nardy_cli.analysis.rollout import rollout
from nardy_cli.analysis.analyze import rank_plays

# White has borne off all 15 checkers: the game is over.
#   W: -            B: 1x15
FINISHED = parse_position("W:- B:1x15 b")


@pytest.mark.parametrize("run", [lambda: rollout(FINISHED, "random", games=10),
                                 lambda: duel("random", "random", games=10, position=FINISHED),
                                 lambda: legal_plays(FINISHED, "6-5"),
                                 lambda: static_deficit(FINISHED),
                                 lambda: static_estimate(FINISHED),
                                 lambda: neural_estimate(FINISHED),
                                 lambda: bearoff_value(FINISHED)])
def test_a_finished_game_is_game_over_everywhere(run):
    """Catches a finished game raised as a plain NardyError (rollout and duel once did), or a copy
    of the check whose message leaves out the result (six copies once said it three ways)."""
    with pytest.raises(GameOverError, match="already over in 'W:- B:1x15 b': White wins by"):
        run()


@pytest.mark.parametrize("run, keyword", [
    (lambda: rollout(parse_position("start"), "random", games=10, until_se=-1.0), "until_se"),
    (lambda: rank_plays(parse_position("start"), None, "random", games=100), "dice"),
])
def test_library_messages_name_keywords_not_flags(run, keyword):
    """Catches a library message that names a command-line flag (`--until-se`, `--dice`)."""
    with pytest.raises(ArgumentError) as info:
        run()
    assert keyword in str(info.value) and "--" not in str(info.value)


@pytest.mark.parametrize("args, message", [
    (["rollout", "start", "--games", "10", "--until-se", "-1"],
     "Error: --until-se must be positive, got -1.0\n"),
    (["analyze", "start", "--games", "10"],
     "Error: no dice: give --dice or a position that carries dice\n"),
    (["rollout", "start", "--executor", "dask"],
     "Error: --executor dask needs --scheduler ADDRESS (e.g. tcp://127.0.0.1:8786)\n"),
])
def test_the_command_line_names_its_flags(args, message):
    """Catches the CLI showing the library's keyword (`until_se`) instead of its own option name."""
    out = CliRunner().invoke(cli, args)
    assert out.exit_code == 2 and out.output == message


def test_argument_error_keeps_its_fields_through_pickle():
    """Catches an ArgumentError that a worker process cannot send back: an __init__ that pickling
    cannot call again, or fields lost on the way (the parent would show `games`, not `--games`)."""
    exc = pickle.loads(pickle.dumps(ArgumentError("{games} must be at least 1, got 0")))
    assert isinstance(exc, NardyError)
    assert exc.message({"games": "--games"}) == "--games must be at least 1, got 0"


START_POS = parse_position("start")


@pytest.mark.parametrize("call, keyword", [
    (lambda: __import__("nardy_cli").legal_plays("6-5", START_POS), "position"),
    (lambda: __import__("nardy_cli").legal_plays(START_POS, START_POS), "dice"),
    (lambda: __import__("nardy_cli").legal_plays(START_POS, "6-5", "federation"), "rules"),
    (lambda: __import__("nardy_cli").parse_play("1/12", START_POS, "6-5"), "position"),
    (lambda: __import__("nardy_cli").parse_play(START_POS, ("1/12",), "6-5"), "text"),
    (lambda: __import__("nardy_cli").apply_play("1/12", START_POS, "6-5"), "position"),
    (lambda: __import__("nardy_cli").apply_play(START_POS, 12, "6-5"), "play"),
    (lambda: __import__("nardy_cli").outcome("start"), "position"),
    (lambda: __import__("nardy_cli").format_play("1/12"), "steps"),
    (lambda: __import__("nardy_cli").format_play(((1, 12, 3),)), "steps"),
    (lambda: __import__("nardy_cli").pip_count(START_POS), "counts"),
    (lambda: __import__("nardy_cli").format_position("start"), "pos"),
    (lambda: __import__("nardy_cli").parse_position(START_POS), "text"),
    (lambda: __import__("nardy_cli").parse_dice((6, 5)), "text"),
    (lambda: __import__("nardy_cli").format_dice("6-5"), "dice"),
    (lambda: __import__("nardy_cli").make_rules(START_POS), "preset"),
    (lambda: START_POS.pip_count("white"), "side"),
])
def test_a_wrong_argument_to_a_public_function_is_a_nardy_error_naming_it(call, keyword):
    """Catches a swapped or mistyped argument to a public entry point failing as an AttributeError
    deep inside (`legal_plays("6-5", position)` once did), or `position.pip_count("white")` silently
    counting Black."""
    with pytest.raises(NardyError) as info:
        call()
    assert str(info.value).startswith(f"{keyword} must be "), str(info.value)
    assert isinstance(info.value, TypeError) or keyword == "side"


def test_parse_play_takes_the_position_first_like_legal_plays():
    """Catches `parse_play` keeping its old order (text first) while `legal_plays` takes the
    position first, and the keyword names changing under callers that use them."""
    from nardy_cli import legal_plays, parse_play
    play = next(p for p in legal_plays(START_POS, "6-5") if str(p) == "1/7 7/12")
    assert parse_play(START_POS, "1/7 7/12", "6-5") == play
    assert parse_play(text="1/12", position=START_POS, dice="6-5") == play
    with pytest.raises(NardyError,
                       match=r"the position comes first: parse_play\(position, text, dice\)"):
        parse_play("1/12", START_POS, "6-5")
