"""Whole matches with the cube and the Crawford rule (docs/cube.md): no double in the Crawford game,
a drop's points, records that read back, the cubeless matches when nobody doubles,
`duel`/`play --match N --cube`."""

from __future__ import annotations

import json

from click.testing import CliRunner

from nardy_cli.commands.cli import cli
from nardy_cli.games.match_cube_play import cube_match_duel, cube_match_record, play_cube_match
from nardy_cli.games.match_play import MatchSettings, match_duel, play_match
from nardy_cli.match.cube import CubeBots
from nardy_cli.records.match_record import format_match, parse_match
from nardy_cli.policies import as_policy

A, B = as_policy("neural"), as_policy("heuristic")


def _doubles(record) -> list[int]:
    """The values of every double offered in a game record (before a roll or at its end)."""
    return ([a.value for p in record.plies for a in p.actions if a.kind == "double"]
            + [a.value for a in record.end_actions if a.kind == "double"])


def test_no_double_in_the_crawford_game_of_a_played_match():
    """Would catch: the bots doubling in the Crawford game (the game after a player first needs 1
    point); the match record, which refuses such a double, would not build."""
    seen = 0
    for seed, index, cube in ((3, 0, CubeBots()), (1, 1, CubeBots("model", "nodouble")),
                              (1, 1, CubeBots("nodouble", "model"))):
        record = cube_match_record(A, B, MatchSettings(3, seed=seed), cube, index)
        for game, crawford in zip(record.games, record.crawford_games()):
            if crawford:
                seen += 1
                assert _doubles(game) == [], (seed, index)
    assert seen == 3


def test_a_drop_scores_the_cube_before_the_double_and_the_score_follows():
    """Would catch: a dropped double scored at the doubled cube (2 for a drop of a double to 2)
    instead of the cube before it, or the match's score not following the games the record holds."""
    played, records = play_cube_match(A, B, MatchSettings(3, seed=3), CubeBots(), 0)
    # A doubled to 2 twice, B dropped
    assert [r.dropped.value for r in records[:2]] == [2, 2]
    assert [g.score for g in played.games] == [(0.0, 0.0), (1.0, 0.0), (2.0, 0.0)]
    record = cube_match_record(A, B, MatchSettings(3, seed=3), CubeBots(), 0)
    # White-Black, A White in every game
    assert record.scores() == ((0.0, 0.0), (1.0, 0.0), (2.0, 0.0))
    assert record.final_score == played.score and record.winner == "neural"


def test_never_doubling_sides_play_the_cubeless_matches():
    """Would catch: the cube's matches rolling other dice (or choosing plays by other values) than
    the cubeless matches, so `--never-double` on both sides would not be the cubeless match duel."""
    settings = MatchSettings(3, seed=2)
    off = CubeBots("nodouble", "nodouble")
    for index in range(2):
        for a_first in (True, False):
            assert play_cube_match(A, B, settings, off, index,
                                   a_first)[0] == play_match(A, B, settings, index,
                                                               a_first)
    plain, cubed = match_duel(A, B, 2, settings), cube_match_duel(A, B, 2, settings, off)
    assert {k: v for k, v in cubed.to_dict().items() if k != "params"} == \
        {k: v for k, v in plain.to_dict().items() if k != "params"}
    assert cubed.params["cube"]["a"] == "nodouble" and "cube" not in plain.params


def test_play_match_with_the_cube_round_trips_through_review(tmp_path):
    """Would catch: `play --match N --cube` writing a match whose cube actions do not read back
    (`Doubles =>` lines lost or a cube game without its tag), or `review` failing on such a
    match."""
    runner = CliRunner()
    out = runner.invoke(cli,
                        ["play", "neural", "heuristic", "--match", "3", "--cube", "--seed", "3"])
    assert out.exit_code == 0, out.output
    match = parse_match(out.output)
    assert format_match(match) == out.output
    assert ([len(_doubles(g)) for g in match.games] == [1, 1, 0]
            and match.games[0].dropped is not None)
    assert match.crawford_games() == (False, False, True) and match.final_score == (4.0, 0.0)
    path = tmp_path / "m.txt"
    path.write_text(out.output)
    review = runner.invoke(cli, ["review", str(path), "--game", "1", "--format", "json"])
    assert review.exit_code == 0, review.output
    data = json.loads(review.output)
    assert data["cube"][-1]["action"] == "double, pass" and data["cube"][-1]["taker"] == "heuristic"


def test_duel_match_with_the_cube_output():
    """Would catch: `duel --match N --cube` refused, or its figures printed without the cube's
    line."""
    out = CliRunner().invoke(cli, ["duel", "neural", "heuristic", "--match", "3", "--cube",
                                   "--matches", "2", "--seed", "3", "--never-double", "b",
                                   "--workers", "1", "-q"])
    assert out.exit_code == 0, out.output
    assert out.output == (
        "neural vs heuristic: 2 pairs of matches to 3 with duplicate dice (each policy first "
        "player once), seed 3, federation rules, next White: winner\n"
        "match wins for neural: 100.00%  95% CI [51.01%, 100.00%]  SE 0.00%\n"
        "4 games, 1.0 per match\n"
        "with the cube (centred at the start of each game, no double in the Crawford game; "
        "the bots double and take "
        "by the cube model at the score; heuristic never doubles and always takes)\n")


def test_duel_match_with_the_cube_bad_input_is_one_line():
    """Would catch: a money-game rule (--jacoby, --beavers) accepted in a match, or a policy without
    an evaluator (random) failing with a traceback instead of one `Error:` line and exit code 2."""
    for args, message in ((["--jacoby"],
                           "Error: --jacoby is a money-game rule, not for a match to 3\n"),
                          (["--beavers"],
                           "Error: --beavers is a money-game rule, not for a match to 3\n")):
        out = CliRunner().invoke(cli,
                                 ["duel", "neural", "heuristic", "--match", "3", "--cube", *args])
        assert (out.exit_code, out.output) == (2, message)
    out = CliRunner().invoke(cli, ["duel", "neural", "random", "--match", "3", "--cube",
                                   "--matches", "1", "-q"])
    assert (out.exit_code == 2 and out.output.startswith("Error: ")
            and len(out.output.splitlines()) == 1), out.output
