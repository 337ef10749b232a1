"""The doubling cube: its one shape, Janowski's cubeful money equity, and the cube decision of the
side on roll.

`Cube` is the cube of a game, wherever it travels (the stakes of an analysis, a record's plies, the
bots' games): its value, who owns it (the centre, White or Black) and the money-game rules it is
played with, Jacoby and beavers.  It belongs to a `stakes.Stakes` (money or a match at a score),
which checks it against the match (no money-game rules in a match, no double in the Crawford game).
Cubeful equity comes from the cubeless probabilities of the nine result codes by Janowski's model:
a dead cube (the cubeless equity) and a fully live cube (equity linear in the winning chance
between the take and cash points) interpolated with a cube efficiency x (docs/cube.md).  The mars,
home-mars and koks classes enter through the average values of a win and a loss, W and L; a draw
(R8) counts half a win and half a loss of value 0, which keeps the cubeless equity exact.  Equities
are in units of the current cube: double/pass is +1 in a money game.  Match play is in
`cube_table.py`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core.errors import CubeError
from ..kernels import cube as kc

OWNERS = ("centre", "white", "black")
DECISIONS = ("no double", "double, take", "double, pass", "too good")
RELATIVE = {"centre": kc.CENTRE, "roller": kc.ROLLER, "opponent": kc.OPPONENT}
CONTACT_EFFICIENCY = 0.68
"""Cube efficiency x with contact: GNU Backgammon's value, checked against cubeful rollouts of 28
long-nardy positions (experiments/cube_rollouts.py, docs/cube.md): in the doubling window the best x
was 0.75-0.8, within the measurement's noise of 0.68, so 0.68 stays."""


def race_efficiency(pips: int) -> float:
    """Cube efficiency x of a race (both sides all home) by the roller's pips: 0.006 a pip, 0.05 at
    least, at most the contact value; measured against the exact cubeful bear-offs of 1-5 checkers a
    side (best x 0.05 at 1-12 pips, 0.10 at 13-18, 0.15 at 19-30: experiments/cube_efficiency.py),
    beyond them extrapolated."""
    return float(kc.race_efficiency(int(pips), CONTACT_EFFICIENCY))


@dataclass(frozen=True)
class Cube:
    """The cube before a turn: its value, owner (`centre`, `white`, `black`) and the money-game cube
    rules (Jacoby: no mars or koks counts before the first double; beavers: a doubled side may
    redouble at once keeping the cube).  Raises `CubeError` for a value that is no power of 2 or
    does not fit the owner."""

    value: int = 1
    owner: str = "centre"
    jacoby: bool = False
    beavers: bool = False

    def __post_init__(self) -> None:
        if self.owner not in OWNERS:
            raise CubeError(f"unknown cube owner {self.owner!r}: choose one of {', '.join(OWNERS)}")
        v = self.value
        if isinstance(v, bool) or not isinstance(v, int) or v < 1 or v & (v - 1):
            raise CubeError(f"a cube value is a power of 2 (1, 2, 4, ...), got {v!r}")
        if self.owner == "centre" and v != 1:
            raise CubeError(f"a cube of value {v} has been doubled, so White or Black owns it, "
                            "not the centre")
        if self.owner != "centre" and v == 1:
            raise CubeError(f"a cube owned by {self.owner.capitalize()} has been doubled: "
                            "its value is 2 or more, got 1")

    def relative(self, turn: str) -> str:
        """The owner seen by the side on roll (`w`/`b`): `centre`, `roller` or `opponent`."""
        if self.owner == "centre":
            return "centre"
        return "roller" if self.owner[0] == turn else "opponent"

    def taken(self, value: int, taker: str) -> "Cube":
        """The cube after `taker` ('w'/'b') took (or beavered) a double to `value` (its rules
        stay)."""
        return Cube(value, "white" if taker == "w" else "black", self.jacoby, self.beavers)

    @property
    def jacoby_centred(self) -> bool:
        """True when the Jacoby rule counts every win as an oin: the rule is on and the cube was
        never turned."""
        return self.jacoby and self.owner == "centre"

    def to_dict(self) -> dict:
        """Plain data for JSON."""
        return {"value": self.value, "owner": self.owner, "jacoby": self.jacoby,
                "beavers": self.beavers}

    @classmethod
    def from_dict(cls, data: dict) -> "Cube":
        """The inverse of `to_dict` (other keys, such as an older `crawford`, are ignored)."""
        return cls(data["value"], data["owner"], bool(data.get("jacoby", False)),
                   bool(data.get("beavers", False)))


@dataclass(frozen=True)
class CubeDecision:
    """The cube decision of the side on roll and its three equities (None where the side cannot
    double).

    Money: in points per unit of the current cube (double/pass = +1); match: match winning chances.
    `take_point` is the opponent's least winning chance for a take; `exact` says the values are the
    cubeful bear-off database's, not the model's, or (with `last_roll`) that the game ends with
    Black's last roll, so the cube is dead and the cubeless chances are the cubeful ones.
    """

    decision: str
    no_double: float
    double_take: float | None
    double_pass: float | None
    take_point: float | None
    unit: str
    exact: bool = False
    efficiency: float | None = None
    beaver: bool = False
    reason: str = ""
    last_roll: bool = False     # before Black's last roll (R8): a dead cube, exact values

    def to_dict(self) -> dict:
        """Plain data for JSON."""
        d = {"decision": self.decision, "no_double": self.no_double,
             "double_take": self.double_take, "double_pass": self.double_pass,
             "take_point": self.take_point, "unit": self.unit, "exact": self.exact,
             "efficiency": self.efficiency}
        if self.beaver:
            d["beaver"] = True
        if self.last_roll:
            d["last_roll"] = True
        if self.reason:
            d["reason"] = self.reason
        return d


def decide(no_double: float, double_take: float, double_pass: float) -> str:
    """The decision from the three equities: double when the opponent's best answer beats not
    doubling."""
    return DECISIONS[kc.decide_code(float(no_double), float(double_take), float(double_pass))]


def win_loss(probs: np.ndarray, win_values: np.ndarray, loss_values: np.ndarray,
             draw_value: float = 0.0
             ) -> tuple[float, float, float]:
    """(p, W, L): the winning chance and the average values of a win and of a loss (L as a positive
    loss in money, as the value itself for match chances); a draw counts half a win and half a
    loss."""
    pw, pl, pd = float(probs[:4].sum()), float(probs[4:8].sum()), float(probs[8])
    p = pw + pd / 2
    q = pl + pd / 2
    w = (float(probs[:4] @ win_values) + pd / 2 * draw_value) / p if p > 0 else float(win_values[0])
    lo = ((float(probs[4:8] @ loss_values) + pd / 2 * draw_value) / q if q > 0
          else float(loss_values[0]))
    return p, w, lo


def money_win_loss(probs: np.ndarray, points, jacoby_centred: bool = False) -> tuple[float, float,
                                                                                     float]:
    """(p, W, L) in points: the four classes' points (with Jacoby before the first double: every win
    an oin)."""
    p, w, lo = kc.money_win_loss(np.asarray(probs, dtype=np.float64), points_array(points),
                                 bool(jacoby_centred))
    return float(p), float(w), float(lo)


def points_array(points) -> np.ndarray:
    """The four classes' points (oin, home mars, mars, koks) as the kernels take them."""
    return np.array(points.as_tuple(), dtype=np.float64)


def money_take_point(w: float, lo: float, x: float) -> float:
    """Janowski's take point: the least winning chance at which a side whose wins average `w` and
    losses `lo` takes a double, at cube efficiency x (dead cube x=0: 25% without mars; live x=1:
    20%)."""
    return float(kc.take_point(float(w), float(lo), float(x)))


def money_equity(p, w, lo, owner: str, x: float):
    """Janowski's cubeful money equity per cube unit: (1-x) x dead + x x live, owner
    `centre`/`roller`/`opponent` (p, w, lo may be numpy arrays of positions)."""
    if owner not in RELATIVE:
        raise CubeError(f"unknown relative cube owner {owner!r}")
    p, w, lo = np.broadcast_arrays(*(np.asarray(v, dtype=np.float64) for v in (p, w, lo)))
    out = np.empty(p.size)
    kc.janowski_array(p.ravel(), w.ravel(), lo.ravel(), RELATIVE[owner], float(x), out)
    return float(out[0]) if p.ndim == 0 else out.reshape(p.shape)


def money_decision(probs: np.ndarray, points, cube: Cube, turn: str, x: float) -> CubeDecision:
    """The money cube decision of the side on roll (`turn` 'w'/'b') from its nine cubeless result
    probabilities."""
    owner = cube.relative(turn)
    code, beaver, nd, dt, take = kc.money_cube(np.asarray(probs, dtype=np.float64),
                                               points_array(points), RELATIVE[owner], cube.jacoby,
                                               cube.beavers, float(x))
    if owner == "opponent":
        return CubeDecision("no double", float(nd), None, None, None, "points", efficiency=x,
                            reason="the opponent owns the cube")
    return CubeDecision(DECISIONS[code], float(nd), float(dt), 1.0, float(take), "points",
                        efficiency=x, beaver=bool(beaver))


BEHAVIOURS = ("model", "nodouble")
"""How a bot uses the cube: `model` (its evaluator's cubeless chances through Janowski's model) or
`nodouble` (never doubles, always takes)."""


@dataclass(frozen=True)
class CubeBots:
    """How bots use the cube in games with the cube: each colour's behaviour (in a duel `white` is
    A's and `black` B's), the cube efficiency with contact, and whether the side on roll at the
    start holds its first double.  The cube itself is the stakes' (`stakes.Stakes.cube`)."""

    white: str = "model"
    black: str = "model"
    contact_efficiency: float = CONTACT_EFFICIENCY
    # the side on roll at the start does not double before its first roll
    hold_first: bool = False

    def __post_init__(self) -> None:
        for b in (self.white, self.black):
            if b not in BEHAVIOURS:
                raise CubeError(f"unknown cube behaviour {b!r}: "
                                f"choose one of {', '.join(BEHAVIOURS)}")
        if not 0.0 <= self.contact_efficiency <= 1.0:
            raise CubeError("a cube efficiency is between 0 and 1, "
                            f"got {self.contact_efficiency!r}")

    def swapped(self) -> "CubeBots":
        """The same bots with the colours' behaviours exchanged."""
        return CubeBots(self.black, self.white, self.contact_efficiency, self.hold_first)

    def to_dict(self) -> dict:
        """Plain data for JSON."""
        out = {"white": self.white, "black": self.black,
               "contact_efficiency": self.contact_efficiency}
        if self.hold_first:
            out["hold_first"] = True
        return out
