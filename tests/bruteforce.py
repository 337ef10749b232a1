"""A deliberately simple, slow enumerator of legal plays, written straight from RULES.md.

It shares no code with the compiled engine (only the Position value and the
notation are reused, to name results), so the two can be checked against each other.
"""

from __future__ import annotations

from nardy_cli.core.position import WHITE, Position, format_checkers


def blocked_forever(mine: list[int], theirs: list[int]) -> bool:
    """R6: the mover has 6+ points in a row along the opponent's path and no opponent checker is
    past them."""
    if sum(theirs) < 15:
        return False
    occupied = [mine[(q + 12) % 24] > 0 for q in range(24)]  # in the opponent's numbering
    q = 0
    while q < 24:
        if not occupied[q]:
            q += 1
            continue
        start = q
        while q < 24 and occupied[q]:
            q += 1
        last = q - 1
        if last - start + 1 >= 6 and not any(theirs[r] > 0 for r in range(last + 1, 24)):
            return True
    return False


def head_allowance(mine: list[int], theirs: list[int], dice: tuple[int, int],
                   head_rule: str) -> int:
    """R4/R5: how many checkers may leave the head this turn."""
    if dice[0] != dice[1] or mine[0] != 15 or head_rule == "strict":
        return 1
    d = dice[0]
    if head_rule == "doubles-643":
        return 2 if d in (3, 4, 6) else 1
    point = 0
    for _ in range(4):
        point += d
        if point >= 24:
            return 1
        if theirs[(point + 12) % 24] > 0:  # an opponent checker stops the runner here
            return 2 if point == 12 else 1
    return 1


def step_result(mine: list[int], theirs: list[int], src: int, die: int,
                block_check: str) -> list[int] | None:
    """One checker from `src` (0-based) steps `die` pips: the mover's new counts, or None if
    illegal.

    R1 (no landing on the opponent), R6 under `step` (no forbidden block, even for a moment),
    R7 (bear off only with every checker home; an over-sized die only from the furthest-back
    checker). The head limit (R4/R5) is the caller's business.
    """
    if mine[src] == 0:
        return None
    dst = src + die
    after = mine.copy()
    after[src] -= 1
    if dst < 24:
        if theirs[(dst + 12) % 24] > 0:
            return None
        after[dst] += 1
        if block_check == "step" and blocked_forever(after, theirs):
            return None
        return after
    if sum(mine[:18]) > 0:
        return None
    if dst > 24 and any(mine[p] > 0 for p in range(18, src)):
        return None
    return after


def brute_force_results(pos: Position, dice: tuple[int, int], head_rule: str,
                        block_check: str) -> set[str]:
    """The set of canonical result notations of every legal play."""
    return brute_force_turn(pos, dice, head_rule, block_check)[0]


def brute_force_mobility(pos: Position, face: int, block_check: str) -> int:
    """RULES.md §8 mobility: the mover's checkers that can legally take one step of `face` (one from
    the head)."""
    mine = list(pos.white if pos.turn == WHITE else pos.black)
    theirs = list(pos.black if pos.turn == WHITE else pos.white)
    return sum(1 if src == 0 else mine[src] for src in range(24)
               if step_result(mine, theirs, src, face, block_check) is not None)


def brute_force_turn(pos: Position, dice: tuple[int, int], head_rule: str,
                     block_check: str) -> tuple[set[str], int, int | None]:
    """(results, steps every legal play takes, the die played when a non-double plays one step)."""
    me = pos.turn
    mine0 = list(pos.white if me == WHITE else pos.black)
    theirs = list(pos.black if me == WHITE else pos.white)
    high, low = max(dice), min(dice)
    steps = [high] * 4 if high == low else [high, low]
    allowance = head_allowance(mine0, theirs, (high, low), head_rule)
    found: list[tuple[int, int, tuple[int, ...]]] = []  # (steps played, first die, final board)
    seen = set()

    def walk(mine: list[int], left: list[int], first_die: int, played: int, head_used: int) -> None:
        key = (tuple(mine), tuple(sorted(left)), first_die if played == 1 else 0)
        if key in seen:
            return
        seen.add(key)
        found.append((played, first_die, tuple(mine)))
        for die in sorted(set(left)):
            rest = left.copy()
            rest.remove(die)
            for src in range(24):
                if src == 0 and head_used >= allowance:
                    continue
                after = step_result(mine, theirs, src, die, block_check)
                if after is not None:
                    walk(after, rest, first_die if played else die, played + 1,
                         head_used + (src == 0))

    walk(mine0, steps, 0, 0, 0)
    if block_check == "turn-end":
        found = [f for f in found if not blocked_forever(list(f[2]), theirs)]
    most = max(f[0] for f in found)
    best = [f for f in found if f[0] == most]
    if high != low and most == 1 and any(f[1] == high for f in best):
        best = [f for f in best if f[1] == high]
    lone = best[0][1] if high != low and most == 1 else None
    nxt = "b" if me == WHITE else "w"
    out = set()
    for _, _, board in best:
        w, b = (board, tuple(theirs)) if me == WHITE else (tuple(theirs), board)
        out.add(f"W:{format_checkers(w)} B:{format_checkers(b)} {nxt}")
    return out, most, lone
