"""Text tables of library results, shared by the commands that print them."""

from __future__ import annotations

from ..position import SIDE_NAMES
from ..render import number
from ..rollout import RolloutResult
from ..rules import rules_label
from ..match import MatchState
from ..outcomes import PROB_KEYS

LABELS = {"win": "win", "lose": "lose", "draw": "draw",
          "win_oin": "  win by oin", "win_home_mars": "  win by home-mars", "win_mars": "  win by mars",
          "win_koks": "  win by koks", "lose_oin": "  lose by oin", "lose_home_mars": "  lose by home-mars",
          "lose_mars": "  lose by mars", "lose_koks": "  lose by koks"}
ORDER = ("win", "win_oin", "win_home_mars", "win_mars", "win_koks",
         "lose", "lose_oin", "lose_home_mars", "lose_mars", "lose_koks", "draw")


def rollout_table(r: RolloutResult) -> str:
    """The rollout report a player reads: outcomes with 95% intervals, equity, deficits."""
    p = r.params
    mover = SIDE_NAMES[r.position.turn]
    head = f"{r.name}: " if r.name else ""
    status = " (INTERRUPTED)" if r.interrupted else ""
    lines = [
        f"{head}{r.position}   {mover} to move",
        f"{r.games:,} games{status}, {p['policies']['white']} (White) vs {p['policies']['black']} (Black), "
        f"seed {p['seed']}, {rules_label(p['rules'])}{', stratified' if p['stratify'] else ''}",
        "",
        f"{'outcome for ' + mover:<24}{'prob':>8}{'±95%':>9}",
    ]
    for key in ORDER:
        lines.append(f"{LABELS[key]:<24}{number(r.probabilities[key]):>8}{1.96 * r.se[key]:>9.4f}")
    lines += ["",
              f"equity {r.equity:+.4f} ± {1.96 * r.equity_se:.4f} (95%), SE {r.equity_se:.4f}"
              + (" (money points)" if r.mwc is not None else ""),
              *([f"match winning chance {r.mwc:.4f} ± {1.96 * r.mwc_se:.4f} (95%), SE {r.mwc_se:.4f} at "
                 f"{match_label(p['match'])}; plays chosen by match equity"] if r.mwc is not None else []),
              f"mean game length {r.mean_plies:.1f} plies", "",
              f"{'move deficit':<24}{'White':>8}{'Black':>9}"]
    w, b = r.deficit["white"], r.deficit["black"]
    for f in range(6):
        lines.append(f"{'  face ' + str(f + 1) + ' not played':<24}{w['face_deficit'][f]:>8.4f}{b['face_deficit'][f]:>9.4f}")
    lines.append(f"{'  lost pips per game':<24}{w['lost_pips_per_game']:>8.2f}{b['lost_pips_per_game']:>9.2f}")
    lines.append(f"{'  partial turns':<24}{w['partial_turn_share']:>8.4f}{b['partial_turn_share']:>9.4f}")
    lines.append(f"{'  passes':<24}{w['pass_share']:>8.4f}{b['pass_share']:>9.4f}")
    return "\n".join(lines)


def match_label(data: dict) -> str:
    """`match to 7 at 4-6 (White-Black)` from a result's `params.match`."""
    return MatchState.from_dict(data).label()

def until_se_note(params: dict, games: int, se: float) -> str | None:
    """The line saying an `--until-se` target was missed because the maximum `--games` came first, else None."""
    if params.get("until_se_met") is not False:
        return None
    return (f"--until-se {params['until_se']:g} not reached: the maximum --games ({games:,}) was played, "
            f"SE {se:.4f}")


assert set(ORDER) == set(PROB_KEYS)
