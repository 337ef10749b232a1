"""The glossary every report ends with: one list of terms, rendered as Markdown or HTML.

Rollout, batch, analysis and opening reports (`study/report.py`, through its templates) and game
reviews (`review_report.py`) all take their glossary from `GLOSSARY`, so a term reads the same in
each.
"""

from __future__ import annotations

from html import escape

from ..core.i18n import N_, _, translate

GLOSSARY: tuple[tuple[str, str], ...] = (     # shown through translate()
    (N_("equity"),
     N_("the points per game a side can expect under the rules' points table: each way of winning "
        "counts its points, each way of losing minus its points, a draw 0. "
        "+1.000 is a sure simple win; "
        "a report always says whose equity it is (the side to move, "
        "unless it says otherwise).")),
    (N_("oin (ойн)"), N_("a simple win: the loser has borne off at least one checker (1 point).")),
    (N_("home-mars (домашний марс)"),
     N_("the loser has borne off no checker and has all 15 in its home "
        "(2 points; 3 under the extended rules).")),
    (N_("mars (марс)"),
     N_("the loser has borne off no checker, is not all home, and has none left on its points 1-12 "
        "(2 points).")),
    (N_("koks (кокс)"),
     N_("the loser has borne off no checker and still has one on its points 1-12, at or behind the "
        "winner's home (2 points; 4 under the extended rules).")),
    (N_("draw"),
     N_("only with Black's last roll (R8): after White bears off its 15th checker, "
        "Black bears off all of its own in one more roll.")),
    (N_("SE (standard error)"),
     N_("how far an estimate from a finite number of games typically lies from the true "
        "value; written `± x (SE)`. Four times the games halve it.")),
    (N_("95% interval"),
     N_("the estimate ± 1.96 SE, the range that holds the true value in 95 of 100 such runs; the "
        "tables' `±` (and `± x (95%)`) is this interval.")),
    (N_("paired difference"),
     N_("two plays rolled out on the same dice (common random numbers) and compared game by "
        "game: the luck both share cancels, "
        "so the interval of their difference is much "
        "narrower than their own intervals suggest.")),
    (N_("luck"),
     N_("what the dice gave: the value of the best play for the roll rolled minus the "
        "average of that "
        "over the 21 rolls (positive: a good roll). Summed over a game it separates "
        "luck from skill.")),
    (N_("variance reduction (VR)"),
     N_("each game's result minus the luck of its rolls as the evaluator judges it: "
        "the average stays the same (no bias) while the SE shrinks, "
        "so fewer games give the same precision.")),
    (N_("move deficit (дефицит ходов)"),
     N_("the steps of its rolls a side could not play, as lost pips and as "
        "the share of each die face left unplayed; "
        "a turn is full, partial or a pass.")),
)


def glossary_markdown() -> str:
    """The glossary as a Markdown section (`## Glossary` and one bullet per term)."""
    return "\n".join(["## " + _("Glossary"), "",
                      *(f"- **{translate(term)}**: {translate(text)}" for term, text in GLOSSARY)])


def glossary_html() -> str:
    """The glossary as an HTML section (a definition list)."""
    items = "".join(
        f"<dt>{escape(translate(term))}</dt><dd>{escape(translate(text)).replace('`', '')}</dd>"
        for term, text in GLOSSARY)
    return f'<h2>{escape(_("Glossary"))}</h2>\n<dl class="glossary">{items}</dl>'
