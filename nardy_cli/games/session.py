"""A game between a person and a bot, one decision at a time: what a board page plays on.

The session holds the plays made so far from its start, the roll waiting to be played and whose
turn it is.  Dice come from the rollouts' counter-based stream of (`seed`, `game`), turn by turn,
or are typed in; taking a play back goes to before the person's last play, and the same turn
rolls the same dice again.  The bot chooses as in the game loops (`policies.bot_move`) by the
session's stakes (money, or a match score without the cube).  A session is a plain value: its
record (`record()`) is the game so far.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core.dice import Dice, as_dice
from ..core.engine import Play, legal_plays, outcome, parse_play
from ..core.errors import ArgumentError, IllegalPlayError
from ..core.position import START, Position
from ..core.rules import PRESETS, Rules
from ..kernels.game import game_dice
from ..match.stakes import MONEY, Stakes
from ..policies.bot_move import bot_play
from ..records.game_record import GameRecord, record_from_plays
from . import DEFAULT_SEED


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

    def __post_init__(self) -> None:
        if self.person not in ("w", "b"):
            raise ArgumentError(f"{{side}} must be 'w' or 'b', got {self.person!r}")
        if self.stakes.cube is not None:
            raise ArgumentError("a session against a bot is played without the cube for now")
        self.start = self.start.with_dice(None)

    @property
    def position(self) -> Position:
        """The position now, without its dice."""
        return self.plays[-1][1].result if self.plays else self.start

    @property
    def result(self):
        """The game's `Outcome`, or None while it goes on."""
        return outcome(self.position, self.rules)

    @property
    def to_move(self) -> str:
        """'person' or 'bot': whose turn it is."""
        return "person" if self.position.turn == self.person else "bot"

    def roll(self, dice: Dice | str | None = None) -> Dice:
        """The roll of the side to move: typed in (`dice`), else the stream's roll of this turn."""
        self._require_going()
        if self.dice is not None:
            raise ArgumentError(f"the dice are already rolled: {self.dice}; play them first")
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

    def bot_turn(self) -> Play:
        """The bot rolls (unless dice were typed in) and plays."""
        self._require_going()
        if self.to_move != "bot":
            raise ArgumentError("it is your turn, not the bot's")
        if self.dice is None:
            self.roll()
        valuation = self.stakes.valuation(self.rules) if self.stakes.match is not None else None
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
        del self.plays[last:]
        self.dice = dice

    def record(self, date: str = "?") -> GameRecord:
        """The game so far as a record (its result once it is over)."""
        names = {self.person: "you", "wb".replace(self.person, ""): self.bot}
        return record_from_plays(self.plays, self.start, self.rules, white=names["w"],
                                 black=names["b"], date=date,
                                 tags=(("Seed", str(self.seed)), ("Game", str(self.game + 1))))

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
        self.dice = None
        return play

    def _require_going(self) -> None:
        if self.result is not None:
            raise ArgumentError("the game is over")
