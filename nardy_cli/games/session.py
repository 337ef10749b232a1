"""A game between a person and a bot, one decision at a time: what a board page plays on.

The session holds the plays made so far from its start, the roll waiting to be played and whose
turn it is.  Dice come from the rollouts' counter-based stream of (`seed`, `game`), turn by turn,
or are typed in; taking a play back goes to before the person's last play, and the same turn
rolls the same dice again.  The bot chooses as in the game loops (`policies.bot_move`) by the
session's stakes (money, or a match score).  With a cube in the stakes (centred at the start) the
side on roll may double before its roll and the other side takes or drops, each action checked by
the records' `CubeTracker` (the owner, the Crawford game, an answer before the roll); the bot
doubles and answers by the position's cube decision (`match.cube_decision`). A session is a plain
value: its record (`record()`) is the game so far.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core.dice import Dice, as_dice
from ..core.engine import Outcome, Play, legal_plays, outcome, parse_play
from ..core.errors import ArgumentError, IllegalPlayError
from ..core.position import START, Position, other_side
from ..core.rules import PRESETS, Rules
from ..kernels.game import game_dice
from ..match.stakes import MONEY, Stakes
from ..policies.bot_move import bot_play
from ..match.cube import Cube
from ..records.cube_actions import CubeTracker, drop_winner
from ..records.cube_record import record_from_turns
from ..records.game_record import GameRecord, record_from_plays
from . import DEFAULT_SEED

# the cube decisions on which the side on roll doubles, and on which the side doubled drops
DOUBLES = ("double, take", "double, pass")
DROPS = ("double, pass", "too good")


@dataclass
class GameSession:
    """A game of `person` ('w' or 'b') against the policy `bot` from `start`."""

    bot: str
    person: str = "w"
    rules: Rules = PRESETS["federation"]
    stakes: Stakes = MONEY
    seed: int = DEFAULT_SEED
    game: int = 0
    start: Position = START
    plays: list[tuple[Dice, Play]] = field(default_factory=list)
    dice: Dice | None = None
    # the cube actions (kind, side) before each play's roll, and those before the coming roll
    actions: list[tuple[tuple[str, str], ...]] = field(default_factory=list)
    pending: list[tuple[str, str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.person not in ("w", "b"):
            raise ArgumentError(f"{{side}} must be 'w' or 'b', got {self.person!r}")
        cube = self.stakes.cube
        if cube is not None and (cube.value != 1 or cube.owner != "centre"):
            raise ArgumentError("a game against the bot starts with the cube centred at 1")
        self.start = self.start.with_dice(None)

    @property
    def position(self) -> Position:
        """The position now, without its dice."""
        return self.plays[-1][1].result if self.plays else self.start

    @property
    def result(self):
        """The game's `Outcome` (a drop: the doubler wins, class `drop`), or None while it goes
        on."""
        dropped = self.tracker().dropped
        if dropped is not None:
            return Outcome(drop_winner(dropped), "drop")
        return outcome(self.position, self.rules)

    @property
    def to_move(self) -> str:
        """'person' or 'bot': who acts next (the side doubled answers first)."""
        offer = self.tracker().offer
        side = other_side(offer.side) if offer is not None else self.position.turn
        return "person" if side == self.person else "bot"

    # ----------------------------------------------------------------------------- the cube

    def tracker(self) -> CubeTracker:
        """The cube through the game so far (every action replayed and checked)."""
        tracker = CubeTracker({"Cube": "on"} if self.stakes.cube is not None else {},
                              self.stakes.crawford)
        before = self.start
        for acts, (dice, play) in zip(self.actions, self.plays):
            for kind, side in acts:
                tracker.act(kind, None, side, before.turn)
            tracker.roll(before.turn)
            before = play.result
        for kind, side in self.pending:
            tracker.act(kind, None, side, before.turn)
        return tracker

    @property
    def cube(self) -> Cube | None:
        """The cube now (None in a game without it)."""
        return self.tracker().state if self.stakes.cube is not None else None

    def may_double(self, side: str) -> bool:
        """Whether `side` may double now: a cube game going on, its turn before the roll, the cube
        centred or its own, no double waiting, not the Crawford game."""
        if self.stakes.cube is None or self.result is not None or self.dice is not None:
            return False
        tracker = self.tracker()
        return (side == self.position.turn and tracker.offer is None and not tracker.crawford
                and tracker.owner in ("centre", "white" if side == "w" else "black"))

    def double(self, side: str) -> None:
        """`side` doubles before its roll (`CubeRecordError` when it may not)."""
        if self.stakes.cube is None:
            raise ArgumentError("this game is played without the cube")
        if self.dice is not None:
            raise ArgumentError("the cube is turned before the roll, and the dice are rolled")
        self._cube_act("double", side)

    def answer(self, kind: str, side: str) -> None:
        """`side` takes or drops the double waiting for its answer."""
        if kind not in ("take", "drop"):
            raise ArgumentError(f"an answer is 'take' or 'drop', got {kind!r}")
        self._cube_act(kind, side)

    def _cube_act(self, kind: str, side: str) -> None:
        self._require_going()
        self.pending.append((kind, side))
        try:
            self.tracker()
        except Exception:
            self.pending.pop()
            raise

    def cube_stakes(self) -> Stakes:
        """The stakes now: the match score and the cube as it stands."""
        return Stakes(self.stakes.match, self.cube)

    def bot_cube(self) -> str | None:
        """The bot's cube action, if any, before its roll or as its answer: 'double', 'take' or
        'drop' (made), None when it has none to make."""
        from ..match.cube_decision import cube_decision
        if self.stakes.cube is None or self.result is not None or self.to_move != "bot":
            return None
        bot = "wb".replace(self.person, "")
        offer = self.tracker().offer
        if offer is not None:
            decision = cube_decision(self.position, Stakes(self.stakes.match, Cube(
                offer.value // 2, self._owner_before(offer))), self.rules).decision
            kind = "drop" if decision in DROPS else "take"
            self.answer(kind, bot)
            return kind
        if self.may_double(bot) and cube_decision(self.position, self.cube_stakes(),
                                                  self.rules).decision in DOUBLES:
            self.double(bot)
            return "double"
        return None

    def _owner_before(self, offer) -> str:
        """The cube's owner when `offer` was made."""
        return "centre" if offer.value == 2 else ("white" if offer.side == "w" else "black")

    def roll(self, dice: Dice | str | None = None) -> Dice:
        """The roll of the side to move: typed in (`dice`), else the stream's roll of this turn."""
        self._require_going()
        if self.dice is not None:
            raise ArgumentError(f"the dice are already rolled: {self.dice}; play them first")
        if self.tracker().offer is not None:
            raise ArgumentError("a double waits for its answer: take or drop first")
        if dice is None:
            high, low, _ = game_dice(self.seed, self.game, len(self.plays), False, 0, 0)
            dice = Dice(int(high), int(low))
        self.dice = as_dice(dice)
        return self.dice

    def legal(self) -> list[Play]:
        """The legal plays of the roll waiting to be played."""
        if self.dice is None:
            raise ArgumentError("roll the dice first")
        return legal_plays(self.position, self.dice, self.rules)

    def play(self, play: Play | str) -> Play:
        """Make the person's play (a `Play` or its text) with the rolled dice."""
        if self.to_move != "person":
            raise ArgumentError("it is the bot's turn")
        return self._make(play)

    def bot_turn(self) -> Play | None:
        """The bot acts: its cube action first (a double waits for the person's answer: None), then
        it rolls (unless dice were typed in) and plays."""
        self._require_going()
        if self.to_move != "bot":
            raise ArgumentError("it is your turn, not the bot's")
        if self.bot_cube() is not None and self.to_move != "bot" or self.result is not None:
            return None                              # the bot doubled: the person answers
        if self.dice is None:
            self.roll()
        plain = self.stakes.with_cube(None)
        valuation = plain.valuation(self.rules) if plain.match is not None else None
        chosen = bot_play(self.bot, self.position, self.dice, self.rules, valuation, self.seed,
                          self.game * 1000 + len(self.plays))
        return self._make(chosen)

    def take_back(self) -> None:
        """Undo back to before the person's last play (the bot's replies with it); the dice of
        that turn are rolled again as they were."""
        mine = [i for i, (_, p) in enumerate(self.plays) if self._side_of(i) == self.person]
        if not mine:
            raise ArgumentError("nothing to take back: you have not played yet")
        last = mine[-1]
        dice = self.plays[last][0]
        self.pending = list(self.actions[last])
        del self.plays[last:]
        del self.actions[last:]
        self.dice = dice

    def record(self, date: str = "?") -> GameRecord:
        """The game so far as a record (its result once it is over)."""
        names = {self.person: "you", "wb".replace(self.person, ""): self.bot}
        tags = (("Seed", str(self.seed)), ("Game", str(self.game + 1)))
        if self.stakes.cube is None:
            return record_from_plays(self.plays, self.start, self.rules, white=names["w"],
                                     black=names["b"], date=date, tags=tags)
        turns = [(tuple(k for k, _ in acts), dice, play)
                 for acts, (dice, play) in zip(self.actions, self.plays)]
        dropped = self.tracker().dropped is not None
        return record_from_turns(turns, self.start, self.rules,
                                 end=tuple(k for k, _ in self.pending) if dropped else (),
                                 cube=True, crawford=self.stakes.crawford, white=names["w"],
                                 black=names["b"], date=date, tags=tags)

    def _side_of(self, index: int) -> str:
        """Who made play number `index`."""
        before = self.plays[index - 1][1].result if index else self.start
        return before.turn

    def _make(self, play: Play | str) -> Play:
        if self.dice is None:
            raise ArgumentError("roll the dice first")
        if isinstance(play, str):
            play = parse_play(self.position, play, self.dice, self.rules)
        elif play not in legal_plays(self.position, self.dice, self.rules):
            raise IllegalPlayError(f"illegal play {str(play)!r} with {self.dice}")
        self.plays.append((self.dice, play))
        self.actions.append(tuple(self.pending))
        self.pending = []
        self.dice = None
        return play

    def _require_going(self) -> None:
        if self.result is not None:
            raise ArgumentError("the game is over")
