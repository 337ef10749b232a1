"""The glossary every report ends with: one list of terms, rendered as Markdown or HTML.

Rollout, batch, analysis and opening reports (`study/report.py`, through its templates) and game
reviews (`review_report.py`) all take their glossary from `GLOSSARY`, so a term reads the same in each.
"""

from __future__ import annotations

from html import escape

GLOSSARY: tuple[tuple[str, str], ...] = (
    ("equity", "the points per game a side can expect under the rules' points table: each way of winning "
               "counts its points, each way of losing minus its points, a draw 0. +1.000 is a sure simple win; "
               "a report always says whose equity it is (the side to move, unless it says otherwise)."),
    ("oin (ойн)", "a simple win: the loser has borne off at least one checker (1 point)."),
    ("home-mars (домашний марс)", "the loser has borne off no checker and has all 15 in its home "
                                  "(2 points; 3 under the extended rules)."),
    ("mars (марс)", "the loser has borne off no checker, is not all home, and has none left on its points 1-12 "
                    "(2 points)."),
    ("koks (кокс)", "the loser has borne off no checker and still has one on its points 1-12, at or behind the "
                    "winner's home (2 points; 4 under the extended rules)."),
    ("draw", "only with Black's last roll (R8): after White bears off its 15th checker, Black bears off all of "
             "its own in one more roll."),
    ("SE (standard error)", "how far an estimate from a finite number of games typically lies from the true "
                            "value; written `± x (SE)`. Four times the games halve it."),
    ("95% interval", "the estimate ± 1.96 SE, the range that holds the true value in 95 of 100 such runs; the "
                     "tables' `±` (and `± x (95%)`) is this interval."),
    ("paired difference", "two plays rolled out on the same dice (common random numbers) and compared game by "
                          "game: the luck both share cancels, so the interval of their difference is much "
                          "narrower than their own intervals suggest."),
    ("luck", "what the dice gave: the value of the best play for the roll rolled minus the average of that "
             "over the 21 rolls (positive: a good roll). Summed over a game it separates luck from skill."),
    ("variance reduction (VR)", "each game's result minus the luck of its rolls as the evaluator judges it: "
                                "the average stays the same (no bias) while the SE shrinks, so fewer games give "
                                "the same precision."),
    ("move deficit (дефицит ходов)", "the steps of its rolls a side could not play, as lost pips and as "
                                     "the share of each die face left unplayed; a turn is full, partial or a "
                                     "pass."),
)


def glossary_markdown() -> str:
    """The glossary as a Markdown section (`## Glossary` and one bullet per term)."""
    return "\n".join(["## Glossary", "", *(f"- **{term}**: {text}" for term, text in GLOSSARY)])


def glossary_html() -> str:
    """The glossary as an HTML section (a definition list)."""
    items = "".join(f"<dt>{escape(term)}</dt><dd>{escape(text).replace('`', '')}</dd>" for term, text in GLOSSARY)
    return f'<h2>Glossary</h2>\n<dl class="glossary">{items}</dl>'
