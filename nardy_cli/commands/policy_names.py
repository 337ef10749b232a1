"""Checking policy names as the command line parses them, with a did-you-mean hint."""

from __future__ import annotations

import click


def policy_candidates() -> list[str]:
    """Every name a user may type: the known policies and `lookahead:` over each of them."""
    from ..policies import known_policies
    names = [n for n in known_policies() if n != "lookahead:NAME"]
    return names + [f"lookahead:{n}" for n in names if not n.startswith("lookahead:")]


def check_policy(ctx: click.Context | None, param: click.Parameter | None,
                 value: str | None) -> str | None:
    """A click callback: load the policy once so a bad name is a usage error naming the
    parameter."""
    if value is None:
        return value
    from ..core.errors import PolicyError, UnknownPolicyError
    from ..policies import get_policy
    from ..core.suggest import did_you_mean
    try:
        get_policy(value)
    except PolicyError as exc:
        message = str(exc)
        if isinstance(exc, UnknownPolicyError):
            hint = did_you_mean(value, policy_candidates())
            if hint:
                message = f"unknown policy {value!r}{hint}"
        raise click.BadParameter(message, ctx=ctx, param=param) from None
    return value
