"""How often Janowski's match cube model, from the exact cubeless chances, disagrees with the exact
match cube decision in small bear-offs (issue 42, item 4; docs/cube.md).

For every bear-off of 1 to N checkers a side (both colours on roll, the cube centred) at a few
scores of a match to 7: the model's decision (`cube_table.GameCube` at the race efficiency, from
the two-sided database's chances) against the exact one (`match/match_bearoff.py`), and the
largest gap in the no-double and double/take chances.

    python experiments/match_cube_exact.py [--checkers 3]
"""

from __future__ import annotations

import argparse
import itertools

import numpy as np

from nardy_cli.core.outcomes import RESULT_KEYS
from nardy_cli.core.position import parse_position
from nardy_cli.core.rules import PRESETS
from nardy_cli.match.cube import Cube, decide
from nardy_cli.match.cube_decision import efficiency_of
from nardy_cli.match.cube_table import GameCube, cubeful_table, game_kind
from nardy_cli.match.match_bearoff import exact_match_values
from nardy_cli.match.state import MatchState, match_table
from nardy_cli.match.table import half_points
from nardy_cli.policies.bearoff import bearoff_value

RULES = PRESETS["federation"]
SCORES = [(0, 0), (3, 3), (4, 5), (5, 5), (5, 6), (4, 6), (6, 4)]


def boards(n: int):
    """Every home board of 1..n checkers, as `20x2,23` point lists."""
    for counts in itertools.product(range(n + 1), repeat=6):
        if 0 < sum(counts) <= n:
            yield ",".join(f"{19 + j}x{c}" if c > 1 else str(19 + j)
                           for j, c in enumerate(counts) if c)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkers", type=int, default=3)
    args = parser.parse_args()
    homes = list(boards(args.checkers))
    print(f"{len(homes)} boards a side; cube centred; match to 7")
    print("score  positions  decisions differ  max |ND gap|  max |DT gap|")
    for score in SCORES:
        match = MatchState(7, score)
        met = cubeful_table(match_table(match, RULES))
        needs = [half_points(n, "a need") for n in match.needs]
        differ = total = 0
        gap_nd = gap_dt = 0.0
        for w, b, turn in itertools.product(homes, homes, "wb"):
            pos = parse_position(f"W:{w} B:{b} {turn}")
            exact = exact_match_values(pos, match, Cube(), RULES)
            probs = bearoff_value(pos, RULES).probabilities
            mine = needs if turn == "w" else needs[::-1]
            game = GameCube(met, mine[0], mine[1], turn == "w",
                            game_kind(mine[0], mine[1], False),
                            np.array([probs[k] for k in RESULT_KEYS]), efficiency_of(pos))
            nd, dt, dp = game.equity(1, "centre"), game.equity(2, "opponent"), game.cash(0, 1)
            total += 1
            differ += decide(nd, dt, dp) != decide(exact["no_double"], exact["double_take"],
                                                    exact["double_pass"])
            gap_nd = max(gap_nd, abs(nd - exact["no_double"]))
            gap_dt = max(gap_dt, abs(dt - exact["double_take"]))
        print(f"{score[0]}-{score[1]:<4} {total:9d}  {differ:6d} ({differ / total:5.1%})"
              f"   {gap_nd:10.3f}  {gap_dt:12.3f}", flush=True)


if __name__ == "__main__":
    main()
