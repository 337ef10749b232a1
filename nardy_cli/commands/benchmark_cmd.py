"""`nardy benchmark`: a policy's error rate against the benchmark database; `nardy benchmark build`
makes it."""

from __future__ import annotations

import click

from .common import (KEPT_GAMES, SEED, BadInput, exit_if_interrupted, format_option, handle_errors,
                     rules_options, show)
from .policy_names import check_policy

# phases.PHASES, kept here for --help
PHASE_CHOICES = ("all", "contact", "blocked", "race", "bearoff", "opening")


@click.group("benchmark", invoke_without_command=True, epilog="""\b
Examples:
  nardy benchmark --policy neural
  nardy benchmark --policy heuristic --phase race
  nardy benchmark --policy lookahead:neural --format json
  nardy benchmark --policy neural --against lookahead:neural
  nardy benchmark --policy neural --db yardstick
  nardy benchmark --policy lookahead2:neural --against lookahead:neural --phase contact
  nardy benchmark build --output reports/bench.jsonl.gz --positions 20 --games 36
""")
@click.option("--policy", default="neural", show_default=True, metavar="NAME",
              callback=check_policy,
              help="The policy whose choices are measured (any policy `nardy policies` lists).")
@click.option("--against", default=None, metavar="NAME", callback=check_policy,
              help="Also measure this policy and compare the two on the same decisions: the "
                   "mean difference in loss per decision with its paired SE.")
@click.option("--phase", type=click.Choice(PHASE_CHOICES), default="all", show_default=True,
              help="Measure only the positions of this phase (docs/strength.md, \"Phases\").")
@click.option("--db", "db_file", default=None, metavar="NAME|FILE",
              help="The benchmark database: a file, or a shipped one by name: 'benchmark' "
                   "(rolled out by neural; the default) or 'yardstick' (rolled out by "
                   "lookahead:neural, from several policies' games).")
@click.option("--seed", type=SEED, default=2026, show_default=True,
              help="Seed of a randomised policy's choices.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@format_option
@click.pass_context
@handle_errors
def command(ctx, policy, against, phase, db_file, seed, quiet, fmt) -> None:
    """A policy's error rate (equity lost per decision, in millipoints)
    against the benchmark database."""
    if ctx.invoked_subcommand is not None:
        return
    from ..benchmark.measure import measure_policy
    from ..benchmark.db import benchmark_path, read_benchmark
    from ..reports.render import Views, table_text
    from .progress import StepBar
    bench = read_benchmark(benchmark_path(db_file))
    results = []
    only = None if phase == "all" else phase
    for name in [policy] + ([against] if against else []):
        bar = StepBar(name, not quiet, unit="decisions")
        try:
            results.append(measure_policy(bench, name, phase=only, seed=seed, progress=bar))
        finally:
            bar.close()
    if against:
        from ..benchmark.measure import compare
        result = compare(*results)
    else:
        result = results[0]
    show(fmt, Views(table=lambda: "\n".join([result.title(), "", table_text(result.table()), "",
                                             *result.notes()]),
                    frame=result.frame, data=result.to_dict))


@command.command("build", epilog="""\b
Examples:
  nardy benchmark build --output reports/bench.jsonl.gz --positions 20 --games 36
  nardy benchmark build --output nardy_cli/data/benchmark.jsonl.gz --positions 1500 --seed 2026
  nardy benchmark build --output nardy_cli/data/yardstick.jsonl.gz --positions 400 --seed 38 \\
      --policy lookahead:neural --sampler neural,heuristic,lookahead:neural --truncate 20 \\
      --games 72 --filter top4:0.12 --weights contact=2,blocked=2,race=1,bearoff=0.5,opening=0.5
""")
@click.option("--output", "-o", "output", type=click.Path(dir_okay=False, writable=True),
              required=True, metavar="FILE",
              help="The database file (.jsonl.gz): made, or resumed when it exists.")
@click.option("--positions", type=KEPT_GAMES, default=1500, show_default=True,
              help="Build up to this many positions.")
@click.option("--seed", type=click.IntRange(0, 2**62), default=2026, show_default=True,
              help="Seed of the sampled games and the rollouts.")
@click.option("--games", type=KEPT_GAMES, default=216, show_default=True,
              help="Rollout games per rolled-out play (a multiple of 36 keeps the first roll "
                   "stratified).")
@click.option("--truncate", type=click.IntRange(min=0), default=10, show_default=True,
              help="Truncate each rollout game after this many plies (scored by the network).")
@click.option("--filter", "play_filter", default="top8:0.16", show_default=True, metavar="FILTER",
              help="Which plays are rolled out, by their 1-ply equity: the best 8 within "
                   "0.16 by default.")
@click.option("--no-vr", is_flag=True, help="Roll out without variance reduction.")
@click.option("--policy", default="neural", show_default=True, metavar="NAME",
              callback=check_policy,
              help="The truth: the policy whose 1-ply stage and rollouts rank the plays "
                   "(lookahead:neural for the independent yardstick).")
@click.option("--sampler", "samplers", default="neural", show_default=True, metavar="A,B,...",
              help="Policies whose games the decisions are drawn from: every ordered pair in turn.")
@click.option("--weights", default=None, metavar="PHASE=N,...",
              help="Decisions drawn per game for each phase (fractions by chance), e.g. "
                   "'contact=2,blocked=2,race=1,bearoff=0.5,opening=0.5' [default: one of each].")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@rules_options
@handle_errors
def build_command(output, positions, seed, games, truncate, play_filter, no_vr, policy, samplers,
                  weights, quiet, rules) -> None:
    """Build or resume the benchmark database: positions of bot games, their plays rolled out."""
    from ..benchmark.build import BuildSettings, build_benchmark
    from ..analysis.staged import StageFilter
    from .progress import StepBar
    StageFilter.parse(play_filter)
    settings = BuildSettings(seed=seed, games=games, truncate=truncate, vr=not no_vr,
                             filter=play_filter, rules=rules, policy=policy,
                             samplers=tuple(check_policy(None, None, s.strip())
                                            for s in samplers.split(",")),
                             weights=_weights(weights))
    bar = StepBar("positions", not quiet, unit="positions", delay=0)
    try:
        result = build_benchmark(output, positions, settings, progress=bar)
    finally:
        bar.close()
    if result.dropped_partial:
        click.echo("A last line cut short (a killed build) was dropped.", err=True)
    state = "interrupted" if result.interrupted else "done"
    click.echo(f"{result.path}: {result.total} of {result.target} positions ({result.found} found, "
               f"{result.added} added; {state})")
    if result.interrupted:
        click.echo("Run the same command again to resume.", err=True)
    exit_if_interrupted(result.interrupted)




def _weights(text: str | None) -> tuple[tuple[str, float], ...] | None:
    """`contact=2,blocked=2,...` as ((phase, weight), ...) in the phases' order; bad input exits
    2."""
    if text is None:
        return None
    from ..core.phases import PHASES
    found = {}
    for item in text.split(","):
        name, _, value = item.partition("=")
        try:
            weight = float(value)
        except ValueError:
            raise BadInput(f"--weights: {item.strip()!r} is not PHASE=N") from None
        if name.strip() not in PHASES or not 0 <= weight <= 8:
            raise BadInput(f"--weights: {item.strip()!r}: a phase of {', '.join(PHASES)} "
                           "with 0 to 8 decisions a game")
        found[name.strip()] = weight
    return tuple((p, found.get(p, 0.0)) for p in PHASES)
