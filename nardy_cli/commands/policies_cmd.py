"""`nardy policies`, `nardy eval` and `nardy duel`: bots, their estimates and their strength."""

from __future__ import annotations

import click
import pandas as pd

from ..deficit import static_deficit
from ..duel import duel, duel_figures
from ..estimate import estimate_equity, neural_estimate, static_estimate
from ..games.executors import default_workers
from ..policies import known_policies
from ..position import BLACK, SIDE_NAMES, WHITE
from ..render import frame_text, to_json
from .common import (POSITION, BadInput, block_validation_option, exit_if_interrupted, flatten, format_option,
                     handle_errors, report_interrupted, rules_options)
from .progress import Progress
from .rollout_cmd import run_options


@click.command("policies", epilog="""\b
Examples:
  nardy policies
  nardy policies --format json
""")
@format_option
@handle_errors
def policies_command(fmt) -> None:
    """List the policies (bots) a rollout or duel can use, with a one-line description each."""
    frame = pd.DataFrame([{"name": k, "description": v} for k, v in known_policies().items()])
    if fmt == "table":
        width = max(len(n) for n in frame["name"])
        for name, desc in zip(frame["name"], frame["description"]):
            click.echo(f"{name:<{width}}  {desc}")
    else:
        click.echo(frame_text(frame, fmt))


@click.command("eval", epilog="""\b
Examples:
  nardy eval "W:1x14,12 B:1x15 b"
  nardy eval "W:1x14,12 B:1x15 b 6-5"        # the best 6-5 play's chances (0-ply)
  nardy eval positions/study.txt --format csv
  nardy eval start --rules extended --model logistic
""")
@block_validation_option
@click.argument("positions", type=POSITION, nargs=-1, required=True, metavar="POSITION...")
@click.option("--model", type=click.Choice(["neural", "logistic"]), default="neural", show_default=True,
              help="neural: the trained network (all nine classes, impossible ones at 0); logistic: the older "
                   "model over the heuristic's features.")
@rules_options
@format_option
@handle_errors
def eval_command(positions, model, rules, fmt, no_block_validation) -> None:
    """Static (0-ply) estimate of the outcome chances of POSITION, with pip counts and static deficit."""
    rows = []
    for n, item in enumerate(flatten(positions)):
        pos = item.position
        if model == "neural":
            est = neural_estimate(pos, rules)
            equity = est.equity
        else:
            est = static_estimate(pos.with_dice(None))
            equity = estimate_equity(est.probabilities, rules.points)
        deficit = static_deficit(pos.with_dice(None), rules)
        record = {"position": str(pos), "model": est.policy, "method": est.method or est.policy, "rules": rules.to_dict(),
                  "probabilities": est.probabilities, "equity": equity,
                  "pips": {"white": pos.pip_count(WHITE), "black": pos.pip_count(BLACK)},
                  "deficit": {"p_full": deficit.p_full, "p_partial": deficit.p_partial, "p_pass": deficit.p_pass,
                              "expected_lost_pips": deficit.expected_lost_pips,
                              "face_deficit": list(deficit.face_deficit)}}
        if item.name:
            record = {"name": item.name, **record}
        if fmt == "json":
            click.echo(to_json(record))
            continue
        row = {"name": item.name or "", "position": str(pos), **est.probabilities, "equity": equity,
               "white_pips": pos.pip_count(WHITE), "black_pips": pos.pip_count(BLACK),
               "p_pass": deficit.p_pass, "expected_lost_pips": deficit.expected_lost_pips}
        rows.append(row)
        if fmt == "table":
            if n:
                click.echo()
            click.echo(_estimate_text(item.name, pos, est, equity, deficit, rules))
    if fmt == "csv":
        click.echo(frame_text(pd.DataFrame(rows), "csv"))


def _estimate_text(name, pos, est, equity, deficit, rules) -> str:
    """The table form of one estimate."""
    from ..rules import rules_label
    side = SIDE_NAMES[pos.turn]
    p = est.probabilities
    kind = est.method if est.policy == "neural" else "logistic model over heuristic features"
    lines = [f"{name + ': ' if name else ''}{pos}   {side} to move",
             f"{kind}, {rules_label(rules)}, chances for {side}:"]
    if "win_home_mars" in p:
        for outcome in ("win", "lose"):
            parts = ", ".join(f"{label} {p[f'{outcome}_{key}']:.3f}" for key, label in
                              (("oin", "oin"), ("home_mars", "home-mars"), ("mars", "mars"), ("koks", "koks")))
            lines.append(f"  {outcome:<5} {p[outcome]:.3f}  ({parts})")
    else:
        for outcome in ("win", "lose"):
            lines.append(f"  {outcome:<5} {p[outcome]:.3f}  (oin {p[f'{outcome}_oin']:.3f}, mars "
                         f"{p[f'{outcome}_mars']:.3f} incl. home-mars, koks {p[f'{outcome}_koks']:.3f})")
    lines.append(f"  draw  {p['draw']:.3f}")
    lines.append(f"equity {equity:+.3f}   pips White {pos.pip_count(WHITE)}, Black {pos.pip_count(BLACK)}")
    lines.append(f"static deficit: full {deficit.p_full:.3f}, partial {deficit.p_partial:.3f}, "
                 f"pass {deficit.p_pass:.3f}, expected lost pips {deficit.expected_lost_pips:.2f}")
    return "\n".join(lines)


@click.command("duel", epilog="""\b
Examples:
  nardy duel heuristic random --games 10000
  nardy duel lookahead:heuristic heuristic --games 2000 --format json
  nardy duel heuristic racer --position "W:1x14,12 B:1x15 b"
""")
@click.argument("a", metavar="A")
@click.argument("b", metavar="B")
@click.option("--position", "position", type=POSITION, default="start", show_default=True,
              help="Where every game starts.")
@run_options
@rules_options
@format_option
@handle_errors
def duel_command(a, b, position, games, until_se, seed, workers, stratify, executor, scheduler, quiet,
                 rules, fmt) -> None:
    """Play policy A against policy B with duplicate dice; report A's points per game ± 95% CI."""
    if until_se is not None:
        raise BadInput("--until-se is not supported by duel; use --games")
    if len(position) != 1:
        raise BadInput("--position must name exactly one position")
    bar = Progress(games, f"{a} vs {b}: ", enabled=not quiet)

    def progress(tally):
        if bar.enabled:
            fig = duel_figures(tally.joint, rules)
            bar.update(fig["games"], fig["points_per_game"], fig["se"], what="points/game")

    try:
        result = duel(a, b, games, seed, rules, position=position[0].position, stratify=stratify,
                      workers=workers or default_workers(), executor=executor, scheduler=scheduler,
                      progress=progress)
    finally:
        bar.close()
    if fmt == "json":
        click.echo(to_json(result.to_dict()))
    elif fmt == "csv":
        click.echo(frame_text(result.frame(), "csv"))
    else:
        lo, hi = result.ci95
        from ..rules import rules_label
        click.echo(f"{result.a} vs {result.b}: {result.games:,} games with duplicate dice, seed {seed}, "
                   f"{rules_label(rules)}")
        click.echo(f"points per game for {result.a}: {result.points_per_game:+.4f}  "
                   f"95% CI [{lo:+.4f}, {hi:+.4f}]  SE {result.se:.4f}")
        click.echo(f"wins {result.win_share:.2%}   draws {result.draw_share:.2%}")
        click.echo(f"mars for {result.mars_share_for:.2%} / against {result.mars_share_against:.2%}   "
                   f"koks for {result.koks_share_for:.2%} / against {result.koks_share_against:.2%}")
    report_interrupted(result.interrupted, fmt, f"these figures ({result.games:,} of {games:,} games)")
    exit_if_interrupted(result.interrupted)
