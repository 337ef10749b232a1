"""Starting positions for training beyond `start`: the lopsided games self-play seldom reaches."""

from __future__ import annotations

from ..engine import outcome
from ..positions_file import NamedPosition
from ..selfplay import play_game

LOPSIDED_PLIES = (12, 24, 36)


def lopsided_starts(games: int, seed: int, plies: tuple[int, ...] = LOPSIDED_PLIES) -> list[NamedPosition]:
    """Positions after the given plies of games where `neural` plays one side and `random` the other (each
    way round in turn): long blocks, stuck heads and stragglers, decided between oin, mars and koks."""
    out = []
    for g in range(games):
        white, black = ("neural", "random") if g % 2 == 0 else ("random", "neural")
        positions = play_game(white, black, seed=seed, game=g).positions()
        for ply in plies:
            if ply < len(positions) and outcome(positions[ply]) is None:
                out.append(NamedPosition(f"game{g + 1}-ply{ply}", positions[ply].with_dice(None),
                                         f"{white} (White) vs {black} (Black), game {g + 1} of seed {seed}"))
    return out
