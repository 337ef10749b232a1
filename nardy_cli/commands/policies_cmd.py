"""`nardy policies`: the bots a rollout or duel can use, with a line on each."""

from __future__ import annotations

import click
import pandas as pd

from ..policies import known_policies
from ..reports.render import Views
from .common import format_option, handle_errors, show


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
    show(fmt, Views(table=lambda: _policies_text(frame), frame=lambda: frame,
                    data=lambda: frame.to_dict(orient="records")))


def _policies_text(frame: pd.DataFrame) -> str:
    """The policies for people: each name, aligned, and its description."""
    width = max(len(n) for n in frame["name"])
    return "\n".join(f"{name:<{width}}  {desc}"
                     for name, desc in zip(frame["name"], frame["description"]))
