"""The kernels' result codes, as plain integers (no numba: `outcomes` and `nardy met` import them
cheaply).

Outcome classes, from the winner's view: OIN, HOME_MARS, MARS, KOKS (R9).
Game-result codes for one side: WIN_BASE + class (a win), LOSE_BASE + class
(a loss), DRAW (R8) and, in rollout counts only, UNFINISHED.
"""

OIN, HOME_MARS, MARS, KOKS = 0, 1, 2, 3
WIN_BASE, LOSE_BASE, DRAW, UNFINISHED = 0, 4, 8, 9
N_RESULTS = 10
# the result codes of a finished game (0-8): what the evaluators give probabilities of
N_CLASSES = 9
# the cube's owner seen by the side on roll (`kernels/cube.py`, `kernels/match_cube.py`)
CENTRE, ROLLER, OPPONENT = 0, 1, 2


def roll_steps(high: int, low: int) -> int:
    """The steps a roll gives (R1): a double's dice are played twice each, four steps; any other
    roll's once each, two.  The one copy: the kernels compile it (`board.roll_steps`), `Dice.steps`
    calls it."""
    return 4 if high == low else 2
