"""The API's request bodies (pydantic models): what the OpenAPI document describes and FastAPI
checks before a handler runs.  Responses are the library's own `to_dict` data."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

RULES = Literal["federation", "classic", "extended"]
EVALUATORS = Literal["neural", "lookahead:neural", "lookahead2:neural"]
BOTS = Literal["neural", "lookahead:neural", "lookahead2:neural", "heuristic"]
ROLLOUT_POLICIES = Literal["neural", "heuristic", "lookahead:neural"]


class Strict(BaseModel):
    """Unknown fields are refused (a typo is named, not ignored)."""

    model_config = ConfigDict(extra="forbid")


class Board(Strict):
    """A set-up board: each side's 24 counts in its own numbering (index 0 is point 1)."""

    white: list[int] = Field(min_length=24, max_length=24)
    black: list[int] = Field(min_length=24, max_length=24)
    turn: Literal["w", "b"] = "w"


class MatchIn(Strict):
    """A match score (money play when absent)."""

    length: int = Field(ge=1, le=99)
    score: tuple[float, float] = (0, 0)
    crawford: bool = False


class CubeIn(Strict):
    """The cube before the roll (no cube when absent)."""

    value: int = Field(1, ge=1, le=4096)
    owner: Literal["centre", "white", "black"] = "centre"


class PositionIn(Strict):
    """A position by notation, ID or `start` (`position`) or by its `board`; `dice` (e.g. `6-5`)
    override the notation's."""

    position: str | None = Field(None, max_length=200,
                                 examples=["start", "W:1x14,12 B:1x15 b 6-5", "H__AAAA__4AAAA"])
    board: Board | None = None
    dice: str | None = Field(None, max_length=5, examples=["6-5"])
    rules: RULES = "federation"


class EvalIn(PositionIn):
    """A position to value, at a match score and with a cube when given."""

    match: MatchIn | None = None
    cube: CubeIn | None = None


class RankIn(PositionIn):
    """A roll's plays to rank: `plies` deep (0, 1, 2); `book` answers from the opening book when it
    holds the decision (money, federation rules)."""

    plies: Literal[0, 1, 2] = 0
    book: bool = True
    match: MatchIn | None = None


class RolloutIn(PositionIn):
    """A rollout job: `games` (capped by the server), `policy`, `seed`; with `plays` (texts of the
    roll's plays) each play's result is rolled out in turn on the same dice."""

    games: int = Field(1296, ge=1, le=10_000_000)
    policy: ROLLOUT_POLICIES = "neural"
    seed: int = Field(0, ge=0, le=2**62)
    plays: list[str] = Field(default_factory=list, max_length=10)


class SessionIn(Strict):
    """A new game against a bot: `side` the person plays, the bot, money or a `match` score (its
    `crawford` flag: the Crawford game), `with_cube` (the cube, centred), the tutor's evaluator and
    thresholds (points lost: doubtful, bad, very bad)."""

    bot: BOTS = "lookahead:neural"
    side: Literal["w", "b"] = "w"
    seed: int | None = Field(None, ge=0, le=2**62)
    rules: RULES = "federation"
    match: MatchIn | None = None
    with_cube: bool = False
    tutor: bool = True
    tutor_evaluator: EVALUATORS = "lookahead:neural"
    thresholds: tuple[float, float, float] = (0.04, 0.08, 0.16)


class RollIn(Strict):
    """The person's roll: typed in (`dice`), else the server's."""

    dice: str | None = Field(None, max_length=5)


class PlayIn(Strict):
    """The person's play (its text, e.g. `1/7 7/12` or a checker path `1/12`); `confirm` makes it
    even when the tutor warns."""

    play: str = Field(max_length=100)
    confirm: bool = False


class CubeActionIn(Strict):
    """A cube action of the person; `confirm` makes it even when the tutor warns."""

    confirm: bool = False


class SaveIn(Strict):
    """Save a finished (or unfinished) session's game: as a record file in the library's folder,
    and into the library under `player` when given."""

    player: str | None = Field(None, max_length=60)


class RecordIn(Strict):
    """A game record or `.mat` transcript as text."""

    text: str = Field(max_length=1_000_000)
    evaluator: EVALUATORS = "neural"
