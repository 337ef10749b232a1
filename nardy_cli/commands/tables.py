"""Text tables of library results, shared by the commands that print them."""

from __future__ import annotations

from ..analysis.rollout import RolloutResult
from ..core.i18n import N_, _, side_words, translate
from ..core.outcomes import PROB_KEYS
from ..core.rules import rules_label
from ..match.state import MatchState
from ..reports.render import number

LABELS = {"win": N_("win"), "lose": N_("lose"), "draw": N_("draw"),
          "win_oin": N_("  win by oin"), "win_home_mars": N_("  win by home-mars"),
          "win_mars": N_("  win by mars"), "win_koks": N_("  win by koks"),
          "lose_oin": N_("  lose by oin"), "lose_home_mars": N_("  lose by home-mars"),
          "lose_mars": N_("  lose by mars"), "lose_koks": N_("  lose by koks")}
ORDER = ("win", "win_oin", "win_home_mars", "win_mars", "win_koks",
         "lose", "lose_oin", "lose_home_mars", "lose_mars", "lose_koks", "draw")


def rollout_table(r: RolloutResult) -> str:
    """The rollout report a player reads: outcomes with 95% intervals, equity, deficits."""
    p = r.params
    words = side_words(r.position.turn)
    head = f"{r.name}: " if r.name else ""
    status = _(" (INTERRUPTED)") if r.interrupted else ""
    lines = [
        f"{head}{r.position}   " + _("{side} to move").format(**words),
        _("{games:,} games{status}, {white} (White) vs {black} (Black), seed {seed}, "
          "{rules}{stratified}").format(
            games=r.games, status=status, white=p['policies']['white'],
            black=p['policies']['black'], seed=p['seed'], rules=rules_label(p['rules']),
            stratified=_(", stratified") if p['stratify'] else ""),
        "",
        f"{_('outcome for {side}').format(**words):<24}{_('prob'):>8}{_('±95%'):>9}",
    ]
    for key in ORDER:
        label = translate(LABELS[key])
        lines.append(f"{label:<24}{number(r.probabilities[key]):>8}{1.96 * r.se[key]:>9.4f}")
    lines += ["",
              _("equity {equity:+.4f} ± {ci:.4f} (95%), SE {se:.4f}").format(
                  equity=r.equity, ci=1.96 * r.equity_se, se=r.equity_se)
              + (_(" (money points)") if r.mwc is not None else ""),
              *([_("cubeless match winning chance {mwc:.4f} ± {ci:.4f} (95%), SE {se:.4f} at "
                   "{match}; "
                   "plays chosen by "
                   "match equity").format(mwc=r.mwc, ci=1.96 * r.mwc_se, se=r.mwc_se,
                                          match=match_label(p['match']))]
                if r.mwc is not None else []),
              _("mean game length {plies:.1f} plies").format(plies=r.mean_plies), "",
              f"{_('move deficit'):<24}{_('White'):>8}{_('Black'):>9}"]
    w, b = r.deficit["white"], r.deficit["black"]
    for f in range(6):
        lines.append(
            f"{_('  face {face} not played').format(face=f + 1):<24}{w['face_deficit'][f]:>8.4f}"
            f"{b['face_deficit'][f]:>9.4f}")
    lost = _('  lost pips per game')
    lines.append(f"{lost:<24}{w['lost_pips_per_game']:>8.2f}{b['lost_pips_per_game']:>9.2f}")
    lines.append(
        f"{_('  partial turns'):<24}{w['partial_turn_share']:>8.4f}{b['partial_turn_share']:>9.4f}")
    lines.append(f"{_('  passes'):<24}{w['pass_share']:>8.4f}{b['pass_share']:>9.4f}")
    return "\n".join(lines)


def match_label(data: dict) -> str:
    """`match to 7 at 4-6 (White-Black)` from a result's `params.match`."""
    return MatchState.from_dict(data).label()

def until_se_note(params: dict, games: int, se: float) -> str | None:
    """The line saying an `--until-se` target was missed because the maximum `--games` came first,
    else None."""
    if params.get("until_se_met") is not False:
        return None
    return _("--until-se {target:g} not reached: the maximum --games ({games:,}) "
             "was played, SE {se:.4f}").format(
        target=params['until_se'], games=games, se=se)


assert set(ORDER) == set(PROB_KEYS)
