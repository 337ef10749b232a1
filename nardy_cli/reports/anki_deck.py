"""The quiz cards as an Anki deck (`.apkg`, written by `genanki`).

One note per card: the front shows the board from the player's side with the dice, the score and
the cube; the back the best and the played plays with their equities and the board after the best
play.  The model's id is fixed and the deck's and each note's come from the player's name and the
card's position and dice, so a deck written again for the same player updates the cards already
imported instead of doubling them.
"""

from __future__ import annotations

import hashlib
from html import escape
from pathlib import Path
from typing import Sequence

from ..library.quiz import QuizCard
from .quiz_boards import answer_board, question_board

MODEL_ID = 1739039390          # fixed: the note type every nardy deck shares
MODEL_NAME = "nardy position quiz"
CSS = """.card{font-family:system-ui,sans-serif;font-size:16px;text-align:center;color:#222}
svg{max-width:100%;height:auto}.facts{color:#555;font-size:.9em}
table{margin:.4em auto;border-collapse:collapse}td{border:1px solid #ccc;padding:2px 8px}
.best{color:#1b5e20;font-weight:600}.played{color:#b71c1c}"""


def deck_id(player: str) -> int:
    """A stable 31-bit deck id for the player (the same deck each time)."""
    return int(hashlib.sha256(f"nardy deck {player}".encode()).hexdigest()[:8], 16) & 0x7FFFFFFF


def _model():
    import genanki
    return genanki.Model(
        MODEL_ID, MODEL_NAME,
        fields=[{"name": "Position"}, {"name": "Question"}, {"name": "Answer"}],
        templates=[{"name": "What would you play?", "qfmt": "{{Question}}",
                    "afmt": '{{FrontSide}}<hr id="answer">{{Answer}}'}],
        css=CSS)


def card_fields(card: QuizCard) -> tuple[str, str, str]:
    """(position key, front HTML, back HTML) of one card."""
    colour = card.side.capitalize()
    front = (f"<p><b>{escape(colour)} ({escape(card.player)}) to play {escape(card.dice)}</b></p>"
             f'<p class="facts">{escape(card.score_text())} &middot; {escape(card.cube_text())}'
             f" &middot; {escape(card.phase)}</p>{question_board(card)}"
             "<p><b>What would you play?</b></p>")
    back = (f'<table><tr class="best"><td>best</td><td>{escape(card.best)}</td>'
            f"<td>{card.equity_best:+.3f}</td></tr>"
            f'<tr class="played"><td>played</td><td>{escape(card.played)}</td>'
            f"<td>{card.equity_played:+.3f}</td></tr></table>"
            f"<p>Equity lost: {card.lost:.3f}</p><p>After the best play:</p>{answer_board(card)}"
            f'<p class="facts">{escape(card.source)}, game {card.game}, turn '
            f"{escape(card.turn)}</p>")
    return card.key, front, back


def write_deck(cards: Sequence[QuizCard], path: str | Path, *, player: str) -> Path:
    """Write the cards as an Anki package (one deck, `nardy::PLAYER`) to `path`."""
    import genanki
    model = _model()
    deck = genanki.Deck(deck_id(player), f"nardy::{player}")
    for card in cards:
        key, front, back = card_fields(card)
        deck.add_note(genanki.Note(model=model, fields=[key, front, back],
                                   guid=genanki.guid_for("nardy", player, key)))
    genanki.Package(deck).write_to_file(str(path))
    return Path(path)


__all__ = ["write_deck", "card_fields", "deck_id", "MODEL_ID"]
