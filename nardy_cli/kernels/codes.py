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
