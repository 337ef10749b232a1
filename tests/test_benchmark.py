"""The benchmark database (issue 25): phases, the file and its digests, the builder's resume, and
error rates."""

from __future__ import annotations

import gzip
import json
from itertools import islice

import numpy as np
import pytest
from click.testing import CliRunner

from nardy_cli.benchmark.measure import measure_policy
from nardy_cli.benchmark.build import BuildSettings, build_benchmark
from nardy_cli.games.selfplay import sample_decisions
from nardy_cli.benchmark.db import BenchPosition, Candidate, header_record, line_of, read_benchmark
from nardy_cli.commands.cli import cli
from nardy_cli.core.engine import legal_plays
from nardy_cli.core.errors import BenchmarkFileError, FilterError
from nardy_cli.core.phases import phase_of
from nardy_cli.core.position import Position
from nardy_cli.core.position_id import format_position_id
from nardy_cli.analysis.staged import StageFilter


def run(*args):
    return CliRunner().invoke(cli, list(args))


# ---- phases: each board drawn in its own numbering, side to move last
# -----------------------------------

@pytest.mark.parametrize("text, phase", [
    # White 12 on its head (point 1), three checkers out: the first turns of the game
    ("W:1x12,5,8,10 B:1x14,9 w", "opening"),
    # White 11 on the head: its fourth turn is no longer the opening
    ("W:1x11,5,8,10,14 B:1x13,9,10 w", "contact"),
    # both sides all home (points 19-24)
    ("W:19x5,20x5,24x5 B:22x10,23x5 w", "bearoff"),
    # both sides past their point 12: no checker will ever stand where the other must go
    ("W:13x5,18x5,22x5 B:14x5,20x10 b", "race"),
    # one White checker still on its 12 = Black's 24, where Black's checkers are going: contact
    ("W:12,13x4,18x5,22x5 B:14x5,20x10 b", "contact"),
    # White holds its 17-20 = Black's 5-8, four points; Black's head (its 1) is 4 points before:
    # trapped
    ("W:1x7,17x2,18x2,19x2,20x2 B:1x10,12x5 b", "blocked"),
    # the same with three points (17-19): no block
    ("W:1x9,17x2,18x2,19x2 B:1x10,12x5 b", "contact"),
    # White's 21-24 = Black's 9-12; Black's checkers on its 1 and 2 are 7 and 8 points before: not
    # trapped
    ("W:1x7,21x2,22x2,23x2,24x2 B:1x10,2x5 b", "contact"),
    # ... and one Black checker on its 3, 6 points before the block: trapped
    ("W:1x7,21x2,22x2,23x2,24x2 B:1x10,2x4,3 b", "blocked"),
])
def test_phase_of_drawn_positions(text, phase):
    """Bugs: the opening told by the mover's head count off by one, race tested with `< 12` points
    (a checker on 12 still meets the other side), a block measured in the blocker's numbering
    instead of the trapped side's, the trap reach off by one (7 points counted as trapped), and a
    three-point block taken for a prime."""
    assert phase_of(Position.parse(text)) == phase


def test_a_stage_filter_with_count_and_margin_keeps_the_best_within_the_margin():
    """Bug: `top2:0.1` dropped its margin (kept the second play, 0.3 behind) or its count (kept
    three), or `top2:top3` was taken for a filter."""
    f = StageFilter.parse("top2:0.1")
    assert str(f) == "top2:0.1"
    assert list(f.keep(np.array([0.5, 0.2, 0.45, 0.44]))) == [0, 2]
    assert list(f.keep(np.array([0.5, 0.2]))) == [0]
    with pytest.raises(FilterError, match="'top2:top3'"):
        StageFilter.parse("top2:top3")


# ---- a database with known figures: real decisions, made-up equities
# ----------------------------------

# plays in the engine's order j = 0, 1, 2, 3...: 1-ply 0.5 - 0.03 j; plays 0-2 rolled out with these
# offsets from their 1-ply, so the rolled-out best is play 1 (0.51), the worst rolled-out play 2
# (0.39): spread 0.12
ROLLED = {0: -0.02, 1: +0.04, 2: -0.05}


def made_up_database(path, count=6):
    """`count` real non-forced decisions (the sampler's first with four plays or more) with the
    equities above."""
    lines, previous = [], ""
    member, previous = line_of(header_record(BuildSettings().to_dict()), previous)
    lines.append(member)
    found = [(pos, phase, src) for pos, phase, src in islice(sample_decisions(2026), 40)
             if len(legal_plays(pos, pos.dice)) >= 4][:count]
    for i, (pos, phase, src) in enumerate(found):
        cands = []
        for j, play in enumerate(legal_plays(pos, pos.dice)):
            v = 0.5 - 0.03 * j
            rolled = (v + ROLLED[j], 0.005, 0.0 if j == 1 else 0.004) if j in ROLLED else ()
            cands.append(Candidate(format_position_id(play.result), v, *rolled))
        record = BenchPosition(i, pos.with_dice(None), pos.dice, phase, src, "rollout",
                               tuple(cands)).to_dict()
        member, previous = line_of(record, previous)
        lines.append(member)
    path.write_bytes(b"".join(lines))
    return read_benchmark(path)


class PlaysNumber:
    """A bot that makes the engine's play number `j` of every decision."""

    def __init__(self, j: int) -> None:
        self.j = j

    def choose(self, position, dice, plays, rng):
        return legal_plays(position.with_dice(None), dice)[self.j].result


@pytest.fixture(scope="module")
def made_up(tmp_path_factory):
    return made_up_database(tmp_path_factory.mktemp("bench") / "bench.jsonl.gz")


def test_playing_the_rolled_out_best_loses_nothing_and_always_agrees(made_up):
    """Bugs: the loss of a rolled-out play taken from the 1-ply values (the best 1-ply equity minus
    its own: 0.03 here), or agreement counted against the best 1-ply play (play 0) instead of the
    rolled-out best."""
    all_ = measure_policy(made_up, PlaysNumber(1)).frame().set_index("phase").loc["all"]
    assert (all_["error_mp"], all_["agreement"], all_["decisions"], all_["unrolled"]) == (0.0, 1.0,
                                                                                          6, 0)


def test_playing_the_worst_rolled_out_play_loses_the_mean_spread(made_up):
    """Bug: the loss of a rolled-out play taken from its 1-ply equity (0.07 here, not 0.12)."""
    spread = sum(b.best.equity - min(c.equity for c in b.rolled) for b in made_up.positions) / 6
    all_ = measure_policy(made_up, PlaysNumber(2)).frame().set_index("phase").loc["all"]
    assert spread == pytest.approx(0.12)
    assert all_["error_mp"] == pytest.approx(1000 * spread) and all_["agreement"] == 0.0


def test_a_play_not_rolled_out_is_valued_by_its_one_ply_shifted_by_the_positions_offset(made_up):
    """Bug: the offset (mean rollout minus 1-ply over the rolled-out plays, -0.01 here) left out,
    which gives 0.10 instead of 0.51 - (0.41 - 0.01) = 0.11."""
    all_ = measure_policy(made_up, PlaysNumber(3)).frame().set_index("phase").loc["all"]
    assert all_["error_mp"] == pytest.approx(110.0) and all_["unrolled"] == 6


def test_benchmark_command_reports_the_policy_database_and_rows(made_up):
    """Bug: the command ignored --db or --phase, or its JSON lost the per-phase rows."""
    out = run("benchmark", "--db", made_up.path, "--policy", "neural", "--format", "json", "-q")
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert (data["policy"], data["database"], data["positions"]) == ("neural", made_up.path, 6)
    assert data["phases"][-1]["phase"] == "all" and data["phases"][-1]["decisions"] == 6
    phase = made_up.positions[0].phase
    out = run("benchmark", "--db", made_up.path, "--phase", phase, "-q")
    lines = out.output.splitlines()
    assert (out.exit_code == 0
            and lines[0].startswith(f"neural against {made_up.path}: 6 positions, "))
    assert [line.split()[0] for line in lines[3:5]] == [phase, "all"]


def test_a_damaged_file_is_one_line_error_with_exit_code_2(made_up, tmp_path):
    """Bug: a changed equity in a line went unnoticed (the digest not checked), or a damaged file
    gave a traceback."""
    text = gzip.decompress(open(made_up.path, "rb").read()).decode().splitlines()
    record = json.loads(text[3])
    record["plays"][0][1] = 0.99
    text[3] = json.dumps(record)
    damaged = tmp_path / "damaged.jsonl.gz"
    damaged.write_bytes(b"".join(gzip.compress((t + "\n").encode()) for t in text))
    with pytest.raises(BenchmarkFileError):
        read_benchmark(damaged)
    out = run("benchmark", "--db", str(damaged), "-q")
    assert (out.exit_code, out.output) == (2,
                                           f"Error: benchmark file '{damaged}' is damaged: "
                                           "line 4's digest does "
                                           "not match its content (or a line before "
                                           "it changed)\n")
    cut = tmp_path / "cut.jsonl.gz"
    cut.write_bytes(open(made_up.path, "rb").read()[:-7])
    out = run("benchmark", "--db", str(cut), "-q")
    assert out.exit_code == 2 and out.output.startswith(f"Error: benchmark file '{cut}' is "
                                                        "damaged: its last line "
                                                        "is cut short at byte ")


# ---- the builder
# --------------------------------------------------------------------------------------

TINY = BuildSettings(games=36, truncate=2)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    path = tmp_path_factory.mktemp("built") / "bench.jsonl.gz"
    build_benchmark(path, 3, TINY)
    return path


def test_a_resumed_build_writes_the_lines_of_one_uninterrupted_build(built, tmp_path):
    """Bugs: a resumed build restarting the sampler or the rollout seeds at its first new position
    (seed + 1
    + positions added instead of + position index), or keeping a last line cut short by a kill."""
    part = tmp_path / "part.jsonl.gz"
    first = build_benchmark(part, 1, TINY)
    member, _ = line_of({"i": 99}, "")
    # killed while writing its second line
    part.write_bytes(part.read_bytes() + member[:20])
    again = build_benchmark(part, 3, TINY)
    assert (first.added, again.found, again.added, again.dropped_partial) == (1, 1, 2, True)
    assert part.read_bytes() == built.read_bytes()


def test_a_build_resumed_with_other_settings_is_refused(built):
    """Bug: resuming with other games per play appended lines rolled out differently to the file."""
    out = run("benchmark", "build", "--output", str(built), "--positions", "4", "--games", "72",
              "--truncate", "2", "-q")
    assert (out.exit_code,
            out.output) == (2, f"Error: benchmark file '{built}' was built with other settings "
                               "(rollout): resume it with its own, "
                               "or write a new file\n")


def _one_ply(boards, white, rules):
    """Each result's value one ply deeper by brute force: the mean over the opponent's 21 rolls of
    minus its best reply's value by the network (exact where decided)."""
    from nardy_cli.core.dice import ALL_ROLLS
    from nardy_cli.core.engine import enumerate_board
    from nardy_cli.policies.judges import NEURAL_EVALUATOR, ROLL_WEIGHTS, result_values
    out = []
    for board in boards:
        opp = np.ascontiguousarray(-board[np.r_[12:24, 0:12]])
        off = 15 - int(np.maximum(board, 0).sum())
        replies = [enumerate_board(opp, off, dice, rules)[0].copy() for dice in ALL_ROLLS]
        best = [result_values(NEURAL_EVALUATOR, r, not white, rules).max() for r in replies]
        out.append(-float(np.dot(ROLL_WEIGHTS, best)))
    return np.array(out)


def test_built_positions_hold_every_play_with_its_one_ply_value(built):
    """Bugs: a play left out of the stored candidates (the 0-ply filter dropping some), more than 8
    plays or a play beyond 0.16 at 1-ply rolled out, or the stored values not the 1-ply ones (the
    0-ply stage's stored): away from the bear-off (where the kernel's 1-ply takes the databases'
    values), each equals the expectimax of a brute-force Python expectimax over every reply
    (`_one_ply`) to the file's four decimals."""
    from nardy_cli.policies.judges import result_board
    from nardy_cli.core.rules import PRESETS
    bench = read_benchmark(built)
    assert [b.index for b in bench.positions] == [0, 1, 2]
    for b in bench.positions:
        plays = legal_plays(b.position, b.dice)
        assert sorted(c.result for c in b.candidates) == sorted(format_position_id(p.result)
                                                                for p in plays)
        assert 1 <= len(b.rolled) <= 8
        assert all(c.one_ply >= b.candidates[0].one_ply - 0.16 for c in b.rolled)
        if b.phase in ("contact", "blocked", "opening"):
            boards = np.stack([result_board(p.result, b.position.turn) for p in plays])
            values = _one_ply(boards, b.position.turn == "w", PRESETS["federation"])
            stored = {c.result: c.one_ply for c in b.candidates}
            got = [stored[format_position_id(p.result)] for p in plays]
            assert got == pytest.approx(values, abs=6e-5)


def test_an_interrupted_build_keeps_its_finished_positions_and_exits_130(built, tmp_path,
                                                                         monkeypatch):
    """Bugs: Ctrl-C during a build gave a traceback or exit 0 ("done"), or lost the positions
    finished before it (they are the first lines of an uninterrupted build)."""
    import nardy_cli.benchmark.build as bb
    real, calls = bb.score_decision, []

    def stopped_at_the_third(*args):
        calls.append(args[0])
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(*args)

    monkeypatch.setattr(bb, "score_decision", stopped_at_the_third)
    path = tmp_path / "b.jsonl.gz"
    out = CliRunner().invoke(cli, ["benchmark", "build", "--output", str(path), "--positions", "3",
                                  "--games", "36", "--truncate", "2", "-q"])
    assert (out.exit_code, out.stdout, out.stderr) == (
        130, f"{path}: 2 of 3 positions (0 found, 2 added; interrupted)\n",
        "Run the same command again to resume.\n")
    assert [b.index for b in read_benchmark(path).positions] == [0, 1]
    assert built.read_bytes().startswith(path.read_bytes())


def test_the_sampler_draws_non_forced_decisions_of_every_phase():
    """Bugs: forced plays (one legal result) sampled, a decision filed under another phase, or a
    phase never drawn."""
    drawn = list(islice(sample_decisions(2026), 40))
    assert all(len(legal_plays(p, p.dice)) > 1 and phase_of(p) == phase for p, phase, _ in drawn)
    assert {phase for _, phase, _ in drawn} == {"contact", "blocked", "race", "bearoff", "opening"}


def test_a_weighted_sample_of_several_policies_draws_their_games_and_more_of_the_heavy_phases():
    """Bugs: the samplers ignored (every game `neural` self-play), a pair never played, phase
    weights ignored (one of each phase), or the default sample changed by the new options (the
    shipped database would no longer resume)."""
    from nardy_cli.games.selfplay import sampler_pair
    assert [sampler_pair(("a", "b"), g) for g in range(4)] == [("a", "a"), ("b", "a"),
                                                              ("a", "b"), ("b", "b")]
    weights = {"contact": 3, "blocked": 3, "race": 0, "bearoff": 0, "opening": 0}
    drawn = list(islice(sample_decisions(2026, samplers=("heuristic", "racer"),
                                         weights=weights), 30))
    phases = [phase for _, phase, _ in drawn]
    assert set(phases) <= {"contact", "blocked"} and phases.count("contact") >= 10
    assert {src.split("(")[1] for _, _, src in drawn} >= {"heuristic v heuristic)",
                                                          "racer v heuristic)"}
    plain = list(islice(sample_decisions(2026), 5))
    assert plain == list(islice(sample_decisions(2026, samplers=("neural",)), 5))
    assert all("(" not in src for _, _, src in plain)


def test_bad_phase_weights_are_one_line_errors_with_exit_code_2(tmp_path):
    """Bug: a mistyped phase or weight in `--weights` crashing the build or silently ignored."""
    for bad, token in (("contct=2", "'contct=2'"), ("contact=x", "'contact=x'"),
                       ("contact=9", "'contact=9'")):
        out = CliRunner().invoke(cli, ["benchmark", "build", "-o", str(tmp_path / "b.jsonl.gz"),
                                       "--weights", bad])
        assert out.exit_code == 2 and token in out.output and "Traceback" not in out.output
