"""The independent yardstick (issue 38, item 1): a second shipped benchmark database whose truth is
rolled out by `lookahead:neural` (not by the `neural` net it grades), from the games of several
policies, truncated deeper than the first database; `nardy benchmark --db yardstick` reads it."""

from __future__ import annotations

import json
from collections import Counter

from click.testing import CliRunner

from nardy_cli.benchmark.db import benchmark_path, default_benchmark_path, read_benchmark
from nardy_cli.commands.cli import cli


def test_the_yardstick_is_rolled_out_by_a_stronger_policy_than_the_first():
    """Bug caught: a yardstick built with the default settings (neural's rollouts, neural's games,
    truncated at 10 plies), which would only repeat the database it is meant to check, or one whose
    digest chain is broken (read_benchmark checks every line)."""
    bench = read_benchmark(default_benchmark_path("yardstick"))
    first = read_benchmark(default_benchmark_path())
    rollout = bench.settings["rollout"]
    assert rollout["policy"] == bench.settings["one_ply"] == "lookahead:neural"
    assert rollout["truncate"] > first.settings["rollout"]["truncate"] and rollout["vr"]
    pairs = Counter(p.source.rsplit("(", 1)[1] for p in bench.positions)
    assert {"neural v heuristic)", "heuristic v lookahead:neural)"} <= set(pairs)
    phases = Counter(p.phase for p in bench.positions)
    assert phases["blocked"] + phases["contact"] > len(bench.positions) / 2
    # every truth figure has its SE (0 where every game ends the same: a sure koks, a race that
    # reaches the exact bear-off databases at once)
    assert all(c.se is not None and c.se >= 0 for p in bench.positions for c in p.rolled)
    assert sum(c.se > 0 for p in bench.positions for c in p.rolled) > len(bench.positions)


def test_benchmark_takes_a_shipped_database_by_name():
    """Bug caught: `--db yardstick` read as a file name (not found), or silently measuring the first
    database; an unknown name a traceback instead of one line."""
    runner = CliRunner()
    got = runner.invoke(cli, ["benchmark", "--db", "yardstick", "--policy", "heuristic", "-q",
                              "--format", "json", "--phase", "race"])
    assert got.exit_code == 0, got.output
    assert json.loads(got.output)["database"] == str(benchmark_path("yardstick"))
    assert "yardstick.jsonl.gz" in json.loads(got.output)["database"]
    bad = runner.invoke(cli, ["benchmark", "--db", "yardstik"])
    assert bad.exit_code == 2
    assert bad.output == ("Error: benchmark database 'yardstik' not found: give a file or one of "
                          "the shipped databases (benchmark, yardstick)\n")
