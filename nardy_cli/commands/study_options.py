"""The options the study commands share: the policy both sides play, run, rules, format and
report."""

from __future__ import annotations


import click

from .common import format_option, handle_errors, rules_options
from .match_options import match_options
from .policy_names import check_policy
from .report_options import report_options
from .run_options import run_options


STUDY_POLICY = "neural"


def study_policy_option(func):
    """--policy for both sides, defaulting to the neural bot."""
    return click.option("--policy", default=STUDY_POLICY, show_default=True, metavar="NAME",
                        callback=check_policy,
                        help="Policy both sides play in the rollouts (see 'nardy policies').")(func)


def study_options(func):
    """The options every study command shares: policy, run, rules, format and report; errors as exit
    2."""
    for decorate in (handle_errors, report_options, format_option, match_options, rules_options,
                     run_options, study_policy_option):
        func = decorate(func)
    return func
