"""`nardy policies`: the bots a rollout or duel can use, with a line on each."""

from __future__ import annotations

import click
import pandas as pd

from ..core.i18n import _
from ..policies import known_policies
from ..policies.network import network_summary, uses_network
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
    """List the policies (bots) a rollout or duel can use, with a one-line description each.

    Then the shipped network: its size, training and the sha256 hash of its weights, which every
    result made with it names."""
    net = network_summary()
    frame = pd.DataFrame([{"name": k, "description": v,
                           "network": net["sha256"] if uses_network(k) else ""}
                          for k, v in known_policies().items()])
    show(fmt, Views(table=lambda: _policies_text(frame, net), frame=lambda: frame,
                    data=lambda: {"policies": frame.to_dict(orient="records"), "network": net}))


def _policies_text(frame: pd.DataFrame, net: dict) -> str:
    """The policies for people: each name, aligned, and its description; then the network."""
    width = max(len(n) for n in frame["name"])
    lines = [f"{name:<{width}}  {desc}" for name, desc in zip(frame["name"], frame["description"])]
    return "\n".join(lines + ["", _("neural's network: {hidden} hidden units, {games:,} self-play "
                                     "games, input version {inputs}, weights sha256 {sha} ({file})")
                               .format(hidden=net["hidden"], games=net["games_trained_in_all"],
                                       inputs=net["input_version"], sha=net["sha256"],
                                       file=net["file"])])
