"""`nardy batch`: every position of a positions file rolled out into one table."""

from __future__ import annotations


import click

from ..analysis.batch import batch_frame, batch_record, batch_rollout
from ..core.errors import PositionsFileError
from ..core.i18n import _, translate
from ..core.positions_file import read_positions
from ..core.rules import rules_label
from ..reports.folder import rollout_data
from ..reports.render import Views, table_text
from .common import exit_if_interrupted, note, report_interrupted, show
from .progress import StepBar
from .report_options import check_report_flags, finish_report
from .study_options import study_options
from .tables import until_se_note


@click.command("batch", epilog="""\b
Examples:
  nardy batch positions/study.txt --games 5000
  nardy batch positions/openings.txt --format csv > openings.csv
  nardy batch positions/study.txt --output reports/study --html
""")
@click.argument("file", type=click.Path(dir_okay=False))
@study_options
def batch_command(file, policy, run, quiet, rules, stakes, fmt, output, html, svg, force) -> None:
    """Roll out every position of a positions FILE into one table."""
    positions = read_positions(file)
    if not positions:
        raise PositionsFileError(f"positions file {file!r} holds no position")
    check_report_flags(output, html, svg, force)
    bar = StepBar("batch", not quiet, unit="positions")
    try:
        results = batch_rollout(positions, policy, run=run.with_progress(bar), rules=rules,
                                stakes=stakes)
    finally:
        bar.close()
    frame = batch_frame(results)
    show(fmt, Views(table=lambda: _batch_text(results, frame, file, policy, run.seed, rules,
                                                      stakes.match),
                    frame=lambda: frame, data=lambda: [batch_record(r) for r in results],
                    lines=True))
    for r in results:
        missed = until_se_note(r.params, r.games, r.equity_se)
        if missed:
            note(fmt, f"{r.name}: {missed}")
    if results.interrupted:
        report_interrupted(True, fmt, _("these figures (the first {done} of {n} positions)").format(
            done=len(results), n=len(positions)))
    finish_report(rollout_data(results, "batch",
                               comments=[p.comment for p in positions[:len(results)]],
                               interrupted=results.interrupted), output, html, svg, force)
    exit_if_interrupted(results.interrupted)


def _batch_text(results, frame, file, policy, seed, rules, match) -> str:
    """The positions' rollouts for people: what was rolled out, then one row a position."""
    lines = [_("{n} positions of {file}: {policy} (both sides), seed {seed}, {rules}").format(
        n=len(results), file=file, policy=policy, seed=seed, rules=rules_label(rules))]
    columns = ["name", "to_move", "games", "equity", "equity_se", "win", "lose", "draw",
               "mean_plies", "white_lost_pips_per_game", "black_lost_pips_per_game"]
    lines.append(_("equity and chances are the side to move's (to_move) in each position"))
    if match is not None:
        columns[5:5] = ["mwc", "mwc_se"]
        lines.append(_("at {match}: mwc is the side to move's cubeless match "
                       "winning chance").format(match=match.label()))
    lines.append(table_text(frame[columns].assign(to_move=frame["to_move"].map(translate))))
    return "\n".join(lines)
