"""The rating ranks the bundled bots in the order of their strength (docs/strength.md's ladder):
a few short self-play games of each, reviewed by the fast 0-ply `neural`, added to a library."""

from __future__ import annotations

import pytest

from nardy_cli.games.selfplay import play_games
from nardy_cli.library.bands import BANDS, band_of, band_table, reference
from nardy_cli.library.store import Library
from nardy_cli.records.game_record import format_game

# weakest first; lookahead:neural is left out: the 0-ply reviewer rates its own choices best, so
# only a stronger reviewer can place a bot above it (docs/library.md)
LADDER = ("random", "racer", "heuristic", "neural")
GAMES, PLIES, SEED = 3, 80, 39


@pytest.fixture(scope="module")
def ratings(tmp_path_factory):
    folder = tmp_path_factory.mktemp("bots")
    files = []
    for bot in LADDER:
        played = play_games(bot, bot, GAMES, seed=SEED, max_plies=PLIES)
        for g, record in enumerate(played.records, 1):
            files.append(folder / f"{bot}-{g}.txt")
            files[-1].write_text(format_game(record))
    with Library(folder / "bots.sqlite") as library:
        library.add(files, "neural")
        return library.stats().set_index("player")


def test_the_bots_ratings_follow_their_strength(ratings):
    """Catches a rating that does not measure strength (a sign error, the players' losses mixed
    up): three 80-ply self-play games of each bot, and the PRs fall from random to neural."""
    prs = [ratings.loc[bot, "pr"] for bot in LADDER]
    assert prs == sorted(prs, reverse=True), dict(zip(LADDER, prs))
    assert ratings.loc["neural", "pr"] < 1 < ratings.loc["heuristic", "pr"]


def test_each_reference_bot_has_its_own_band_in_order():
    """Catches bands out of step with their source: every reference bot of the band reviewer's run
    falls in the band its strength calls for, the stronger in the better band, no two in one but
    the network's two (its reviewer rates one of them by itself: docs/library.md)."""
    bots = sorted(reference()["bots"], key=lambda b: b["pr"])
    names = [name for name, _ in BANDS]
    places = [names.index(band_of(b["pr"])) for b in bots]
    assert places == sorted(places) and len(set(places[1:])) == len(places) - 1, places
    assert [b["name"] for b in bots] == ["lookahead:neural", "neural", "lookahead:heuristic",
                                         "heuristic", "racer", "random"]
    table = band_table()
    assert table["reference"].str.len().gt(0).sum() >= 4
    assert band_of(float("nan")) == "" and band_of(0.0) == names[0] and band_of(1e9) == names[-1]
