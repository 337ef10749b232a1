"""Training starts beyond `start` (`nardy_cli.training.starts`): lopsided games, self-play's
blocked positions, trapped and walled blocks."""

from __future__ import annotations

import pytest


def test_lopsided_starts_are_in_play_and_reproducible():
    """Bug caught: training starts that are finished games (a start that trains nothing) or that
    change from one call to the next (a run that cannot be repeated)."""
    from nardy_cli.core.engine import outcome
    from nardy_cli.training.starts import lopsided_starts
    a, b = lopsided_starts(4, seed=5), lopsided_starts(4, seed=5)
    assert a == b and 8 <= len(a) <= 12
    assert all(outcome(p.position) is None and p.position.dice is None for p in a)
    assert {p.name.split("-")[1] for p in a} <= {"ply12", "ply24", "ply36"}


def test_selfplay_starts_are_positions_of_the_phases_asked_one_a_game():
    """Bug caught: starts of another phase than asked, two from one game (a few games' positions
    repeated through a run), or starts that change from one call to the next."""
    from nardy_cli.core.phases import phase_of
    from nardy_cli.training.starts import selfplay_starts
    a, b = selfplay_starts(3, seed=5), selfplay_starts(3, seed=5)
    assert a == b and len(a) == 3
    assert all(phase_of(p.position) == "blocked" and p.position.dice is None for p in a)
    games = [p.comment.split(" ply")[0] for p in a]
    assert len(set(games)) == 3


def _traps(own: tuple[int, ...], theirs: tuple[int, ...]) -> bool:
    """Whether `own` holds 5 adjacent points starting on its points 1-8 with a checker of `theirs`
    behind."""
    held = "".join("x" if n else "." for n in own)
    return any(held[f:f + 5] == "xxxxx" and any(theirs[:f + 12]) for f in range(8))


def _walls(own: tuple[int, ...], theirs: tuple[int, ...]) -> bool:
    """Whether `own` holds 4 of 11 adjacent points starting on its points 1-8, a checker of `theirs`
    behind."""
    return any(sum(1 for n in own[f:f + 11] if n) >= 4 and any(theirs[:f + 12]) for f in range(8))


@pytest.mark.parametrize("kind, holds", [("trapped", _traps), ("walled", _walls)])
def test_blocked_starts_hold_checkers_behind_a_block(kind, holds):
    """Bug caught: a trapped- or walled-start generator whose positions have no block or wall, put
    the held checkers in front of it (nothing to get past), are finished games, or change from one
    call to the next (a training run that cannot be repeated)."""
    from nardy_cli.core.engine import outcome
    from nardy_cli.training import starts as module
    make = getattr(module, f"{kind}_starts")
    starts = make(60, seed=3)
    assert starts == make(60, seed=3) and len(starts) == 60
    for entry in starts:
        pos = entry.position
        assert outcome(pos) is None and pos.dice is None
        assert any(holds(pos.checkers(a), pos.checkers(b)) for a,
                   b in (("w", "b"), ("b", "w"))), str(pos)
