"""The boards of a quiz card as SVG (`core.board_svg`), drawn from the player's side: the position
with its dice, and the position after the best play (for the quiz pages and the Anki deck)."""

from __future__ import annotations

from ..core.board_svg import board_svg
from ..core.position import parse_position
from ..library.quiz import QuizCard


def question_board(card: QuizCard) -> str:
    """The position with its dice, drawn from the player's side, as SVG."""
    return board_svg(parse_position(card.position, check_blocks=False), card.side[0])


def answer_board(card: QuizCard) -> str:
    """The position after the best play, drawn from the player's side, as SVG."""
    return board_svg(parse_position(card.best_result, check_blocks=False), card.side[0])


__all__ = ["question_board", "answer_board"]
