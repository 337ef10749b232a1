"""The limits of one run, where every layer (and the command line, without loading the engine) can
read them."""

# the most games (or duplicate pairs, or matches) one run plays: a rollout's memory does not grow
# with its games (counts, and job ranges made as they are sent), so this bounds its time, not its
# memory (README, "How many games")
MAX_GAMES = 1_000_000_000

# the most games a play (or matches) a run that keeps every game's result plays (`analyze`, its
# staged rankings, `openings`, a duel of matches): its memory grows with them (1 byte a game and
# play; 160 bytes in a staged ranking's rollouts; a match's games)
MAX_KEPT_GAMES = 1_000_000


def check_kept(value: int, keyword: str = "games") -> None:
    """Raise `ArgumentError` naming `keyword` for more games a play (or matches) than a run that
    keeps each one's result takes (`MAX_KEPT_GAMES`)."""
    from .errors import ArgumentError
    if value > MAX_KEPT_GAMES:
        raise ArgumentError(f"{{{keyword}}} must be at most {MAX_KEPT_GAMES:,} in a run that keeps "
                            f"every game's result, got {value}")


# seeds are 64-bit: 0 to 2**63-1 (the dice generator takes them as unsigned 64-bit integers)
MAX_SEED = 2**63 - 1


def check_seed(seed: int | None, keyword: str = "seed") -> None:
    """Raise `ArgumentError` naming `keyword` for a seed outside 0..2**63-1 (None: the default)."""
    from .errors import ArgumentError
    if seed is not None and not 0 <= seed <= MAX_SEED:
        raise ArgumentError(f"{{{keyword}}} must be between 0 and 2**63-1, got {seed}")
