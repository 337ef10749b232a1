"""Exact cubeful money equities of bear-offs: a cubeful recursion over the two-sided database's
positions.

Both sides all home with at most `CUBE_N` checkers each: for the side to roll,
White (c = 0) or Black (c = 1), and the cube centred, owned by the roller or by
its opponent, `equity[c, k, m, o]` is the roller's money equity per unit of the
cube before its roll, with the cube played perfectly by both sides: the roller
doubles when the opponent's best answer (take, pass, or with beavers a beaver)
is worth more than playing on, and every play is the best by cubeful equity.
A race has no mars here (the loser always has a checker off), so Jacoby changes
nothing.  A draw (R8: Black bears off all in its last roll after White) is 0.
The arrays are built with numpy level by level of total pips (each roll takes
pips off) and cached beside the other bear-off databases.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..core.errors import BearoffError
from ..core.position import Position
from ..core.rules import PRESETS, Rules
from ..kernels import bearoff as kb
from ..policies import bearoff

CUBE_N = 5
OWNER_INDEX = {"centre": 0, "roller": 1, "opponent": 2}
_FLIP = np.array([0, 2, 1])          # the owner seen by the other side
FORMAT_VERSION = 2


def successor_table(n: int) -> np.ndarray:
    """S[r, roll, k]: the boards (ranks among boards of at most n checkers) roll `roll` can lead to
    from board r, padded with the first one."""
    boards = kb.unrank_all(n, kb.COMP)
    total = boards.shape[0]
    out = np.empty(4096, dtype=np.int64)
    stamp = np.zeros(total, dtype=np.int64)
    lists, width, tag = [], 1, 0
    for r in range(total):
        row = []
        for roll in range(21):
            tag += 1
            k = kb.successors(boards[r], kb.ROLL_HIGH[roll], kb.ROLL_LOW[roll], n, kb.COMP, out,
                              stamp, tag)
            row.append(out[:k].copy())
            width = max(width, k)
        lists.append(row)
    table = np.zeros((total, 21, width), dtype=np.int64)
    for r, row in enumerate(lists):
        for roll, succ in enumerate(row):
            if len(succ):
                table[r, roll, :] = succ[0]
                table[r, roll, :len(succ)] = succ
    return table


def build(n: int, last_roll: bool, beavers: bool) -> np.ndarray:
    """equity[2, 3, boards, boards] for both sides at most n checkers (see the module doc)."""
    boards = kb.unrank_all(n, kb.COMP)
    total = boards.shape[0]
    pips = (boards * np.arange(6, 0, -1)).sum(axis=1)
    succ = successor_table(n)
    if last_roll:
        full = np.array([kb.rank(b.astype(np.int64), kb.MAX_CHECKERS, kb.COMP) for b in boards])
        last = bearoff.one_sided()["all_dist"][full, 1]
    else:
        last = np.zeros(total)
    eq = np.zeros((2, 3, total, total))
    # White (c=0) just bore off its last checker: Black may still draw
    eq[1, :, :, 0] = -(1.0 - last)
    eq[0, :, :, 0] = -1.0              # Black just bore off: it won
    m_idx, o_idx = np.meshgrid(np.arange(1, total), np.arange(1, total), indexing="ij")
    m_idx, o_idx = m_idx.ravel(), o_idx.ravel()
    level = pips[m_idx] + pips[o_idx]
    order = np.argsort(level, kind="stable")
    bounds = np.flatnonzero(np.diff(level[order])) + 1
    for group in np.split(order, bounds):
        m, o = m_idx[group], o_idx[group]
        for c in range(2):
            nd = np.zeros((3, len(group)))
            for k in range(3):
                after = eq[1 - c, _FLIP[k]]
                for roll in range(21):
                    nd[k] += kb.ROLL_WEIGHT[roll] * (-after[o[:, None], succ[m, roll]]).max(axis=1)
            answer = np.minimum(1.0, 2.0 * nd[2])
            if beavers:
                answer = np.minimum(answer, 4.0 * nd[2])
            eq[c, 0, m, o] = np.maximum(nd[0], answer)
            eq[c, 1, m, o] = np.maximum(nd[1], answer)
            eq[c, 2, m, o] = nd[2]
    return eq


def cubeful_tables(rules: Rules = PRESETS["federation"], beavers: bool = False) -> np.ndarray:
    """The cubeful equities for these rules (the R8 last roll) and beaver rule, from the cache."""
    return _tables(str(bearoff.cache_dir()), bool(rules.last_roll), bool(beavers))["equity"]


@lru_cache(maxsize=4)
def _tables(folder: str, last_roll: bool, beavers: bool) -> dict[str, np.ndarray]:
    """{"equity", "succ"} (the successor table kept too: rebuilding it costs more than reading
    it)."""
    meta = {"format": FORMAT_VERSION, "kind": "cubeful", "n": CUBE_N, "last_roll": last_roll,
            "beavers": beavers}
    name = f"bearoff-cube{CUBE_N}-lr{int(last_roll)}-bv{int(beavers)}-v{FORMAT_VERSION}.npz"
    return bearoff._cached(name, meta, lambda: {"equity": build(CUBE_N, last_roll, beavers),
                                                "succ": successor_table(CUBE_N)})


def in_cube_database(position: Position) -> bool:
    """True when both sides are all home with at most `CUBE_N` checkers on the board."""
    homes = [bearoff.home_board(position, s) for s in ("w", "b")]
    return all(h is not None and 0 < int(h.sum()) <= CUBE_N for h in homes)


def cubeful_equities(position: Position, rules: Rules = PRESETS["federation"], beavers: bool = False
                     ) -> dict[str, float]:
    """The roller's exact cubeful money equities per cube unit before its roll: `no_double` with the
    cube centred (`nd_centre`) or its own (`nd_roller`), `opponent` (the opponent owns it;
    double/take is twice that), and with the cube action played: `centre`, `roller`."""
    if not in_cube_database(position):
        raise BearoffError("not in the cubeful bear-off database (both sides home, "
                           f"at most {CUBE_N} checkers each): {str(position)!r}")
    tables = _tables(str(bearoff.cache_dir()), bool(rules.last_roll), bool(beavers))
    eq = tables["equity"]
    c = 0 if position.turn == "w" else 1
    me = bearoff.home_board(position, position.turn)
    other = bearoff.home_board(position, "b" if position.turn == "w" else "w")
    m, o = (int(kb.rank(h.astype(np.int64), CUBE_N, kb.COMP)) for h in (me, other))
    succ = tables["succ"][m]
    nd = [float(sum(kb.ROLL_WEIGHT[r] * (-eq[1 - c, _FLIP[k], o, succ[r]]).max()
                    for r in range(21)))
          for k in range(2)]
    return {"nd_centre": nd[0], "nd_roller": nd[1], "opponent": float(eq[c, 2, m, o]),
            "centre": float(eq[c, 0, m, o]), "roller": float(eq[c, 1, m, o])}

