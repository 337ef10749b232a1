"""Static move deficit (docs/rules.md §8) of the side to move, over the 36 equally likely rolls."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..core.dice import Dice
from ..core.engine import enumerate_board, require_in_play
from ..core.position import Position
from ..core.rules import PRESETS, Rules
from ..kernels.board import bears_off_last
from ..kernels.movegen import face_mobility


@dataclass(frozen=True)
class StaticDeficit:
    """Deficit figures of one position for its side to move."""

    position: Position
    p_full: float
    p_partial: float
    p_pass: float
    expected_lost_pips: float
    face_deficit: tuple[float, ...]      # faces 1..6
    steps_played: np.ndarray             # 6x6: [first die - 1, second die - 1]
    mobility: tuple[int, ...]            # faces 1..6

    def to_dict(self) -> dict:
        """Plain data for JSON."""
        return {"position": str(self.position), "p_full": self.p_full, "p_partial": self.p_partial,
                "p_pass": self.p_pass, "expected_lost_pips": self.expected_lost_pips,
                "face_deficit": list(self.face_deficit), "steps_played": self.steps_played.tolist(),
                "mobility": list(self.mobility)}

    def faces_frame(self) -> pd.DataFrame:
        """One row per face: deficit and mobility."""
        return pd.DataFrame({"face": range(1, 7), "deficit": self.face_deficit,
                             "mobility": self.mobility})

    def table_frame(self) -> pd.DataFrame:
        """The 6x6 table of steps played, rows the first die, columns the second."""
        return pd.DataFrame(self.steps_played, index=pd.Index(range(1, 7), name="die1"),
                            columns=[str(c) for c in range(1, 7)])


def static_deficit(position: Position, rules: Rules = PRESETS["federation"]) -> StaticDeficit:
    """P(full), P(partial), P(pass), expected lost pips, per-face deficit, 6x6 steps table,
    mobility.

    Raises `GameOverError` on a finished game.
    """
    require_in_play(position, rules)
    board, _, opp_off = position.board()
    played = np.zeros((6, 6), dtype=np.int64)
    rolled = np.zeros(6)
    lost = np.zeros(6)
    full = partial = passes = 0
    lost_pips = 0.0
    for a in range(1, 7):
        for b in range(a, 7):
            dice = Dice(max(a, b), min(a, b))
            boards, _, step_die, count, nsteps = enumerate_board(board.copy(), opp_off, dice, rules)
            weight = 1 if a == b else 2
            played[a - 1, b - 1] = played[b - 1, a - 1] = nsteps
            available = len(dice.steps)
            if nsteps < available and bears_off_last(boards, count):
                # the last checker goes off: the steps left over are not lost (decision 18)
                nsteps = available
            if nsteps == available:
                full += weight
            elif nsteps == 0:
                passes += weight
            else:
                partial += weight
            if a == b:
                rolled[a - 1] += 4 * weight
                lost[a - 1] += (4 - nsteps) * weight
                lost_pips += (4 - nsteps) * a * weight
                continue
            rolled[a - 1] += weight
            rolled[b - 1] += weight
            if nsteps == 0:
                for d in (a, b):
                    lost[d - 1] += weight
                    lost_pips += d * weight
            elif nsteps == 1:
                other = dice.low if step_die[0, 0] == dice.high else dice.high
                lost[other - 1] += weight
                lost_pips += other * weight
    mobility = tuple(int(face_mobility(board, opp_off, f, rules.block_code)) for f in range(1, 7))
    return StaticDeficit(position, full / 36, partial / 36, passes / 36, lost_pips / 36,
                         tuple(float(l / r) for l, r in zip(lost, rolled)), played, mobility)
