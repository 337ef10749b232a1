"""Study sheets from a player's mistakes: a quiz page, its answers page and an Anki deck.

`quiz_html` renders the printable quiz (each card: the board from the player's side, the dice,
the score and the cube, "what would you play?"), `answers_html` the answers (the played and the
best play with their equities, the board after the best play); both are one self-contained HTML
file (the boards inline as SVG, the style inline: no network access).  `write_quiz` writes both,
the deck (`anki_deck.write_deck`) and `quiz.json` (the cards as data) into a folder, all or
nothing.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import Sequence

from ..library.quiz import QuizCard
from .folder import write_folder
from ..core.i18n import _, side_words
from .quiz_boards import answer_board, question_board

TEMPLATES = Path(__file__).parent / "templates"
FILES = ("quiz.html", "answers.html", "quiz.apkg", "quiz.json")


def _render(name: str, **context) -> str:
    import jinja2
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True,
                             undefined=jinja2.StrictUndefined, keep_trailing_newline=True)
    env.filters["signed"] = lambda v: f"{v:+.3f}"
    env.globals["_"] = _            # the page in the language in use
    return env.get_template(name).render(
        style=(TEMPLATES / "library.css").read_text(encoding="utf-8"), **context)


def _items(cards: Sequence[QuizCard], answers: bool) -> list[dict]:
    items = []
    for card in cards:
        item = {"card": card, "question": question_board(card), "score": card.score_text(),
                "cube": card.cube_text(), "colour": side_words(card.side)["side"]}
        if answers:
            item["answer"] = answer_board(card)
        items.append(item)
    return items


def quiz_html(cards: Sequence[QuizCard], *, title: str, subtitle: str = "") -> str:
    """The quiz page: every card's position and question, nothing of the answer."""
    return _render("quiz.html.j2", cards=_items(cards, False), title=title, subtitle=subtitle,
                   answers=False)


def answers_html(cards: Sequence[QuizCard], *, title: str, subtitle: str = "") -> str:
    """The answers page: every card's played and best plays, equities, the board after the best."""
    return _render("quiz.html.j2", cards=_items(cards, True), title=title, subtitle=subtitle,
                   answers=True)


def write_quiz(cards: Sequence[QuizCard], output: str | Path, *, player: str,
               subtitle: str = "") -> Path:
    """Write quiz.html, answers.html, quiz.apkg and quiz.json into the folder `output` (all or
    nothing); returns the folder."""
    from .anki_deck import write_deck
    title = _("{player}: {n} positions to study").format(player=player, n=len(cards))

    def render(folder: Path) -> None:
        (folder / "quiz.html").write_text(quiz_html(cards, title=title, subtitle=subtitle),
                                          encoding="utf-8")
        (folder / "answers.html").write_text(
            answers_html(cards, title=_("{title} (answers)").format(title=title),
                         subtitle=subtitle), encoding="utf-8")
        write_deck(cards, folder / "quiz.apkg", player=player)
        data = {"kind": "quiz", "player": player, "subtitle": subtitle,
                "cards": [asdict(c) for c in cards]}
        (folder / "quiz.json").write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    return write_folder(output, render)


__all__ = ["quiz_html", "answers_html", "write_quiz", "FILES"]
