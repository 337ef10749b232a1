"""`nardy policies`: the bots a rollout or duel can use, with a line on each."""

from __future__ import annotations

import click
import pandas as pd

from ..policies import known_policies
from ..reports.render import frame_text
from .common import format_option, handle_errors


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


