"""The network's hash (issue 38, item 4): `nardy policies` prints it, and every result made with the
network names it, so a figure can be traced to the weights that made it."""

from __future__ import annotations

import hashlib
import json

import numpy as np
from click.testing import CliRunner

from nardy_cli.commands.cli import cli
from nardy_cli.kernels import neural as kn
from nardy_cli.policies.network import default_network_path


def weights_digest() -> str:
    """The sha256 of the shipped weights, read from the file here: the header of the parameter
    vector (magic, inputs, hidden units, then zeros) and the four layers in order."""
    with np.load(default_network_path()) as data:
        layers = [np.asarray(data[k], dtype=np.float64) for k in ("w1", "b1", "w2", "b2")]
    header = np.zeros(kn.HEADER)
    header[kn.H_MAGIC], header[kn.H_INPUTS], header[kn.H_HIDDEN] = (kn.MAGIC, kn.N_INPUTS,
                                                                    layers[1].size)
    flat = np.concatenate([header] + [a.ravel() for a in layers])
    return hashlib.sha256(flat.tobytes()).hexdigest()[:16]


def test_policies_prints_the_weights_hash():
    """Bug caught: `nardy policies` naming no network, or a hash of something other than the
    weights (another file, the file's bytes with its metadata)."""
    got = CliRunner().invoke(cli, ["policies"])
    assert got.exit_code == 0, got.output
    assert f"weights sha256 {weights_digest()} (neural.npz)" in got.output
    data = json.loads(CliRunner().invoke(cli, ["policies", "--format", "json"]).output)
    assert data["network"]["sha256"] == weights_digest()
    rows = {row["name"]: row["network"] for row in data["policies"]}
    assert rows["neural"] == weights_digest() and rows["heuristic"] == ""


def test_a_result_names_the_network_only_when_it_used_it():
    """Bug caught: a rollout by the network whose parameters do not say which weights played it,
    or a heuristic rollout claiming a network it never asked."""
    runner = CliRunner()
    neural = runner.invoke(cli, ["rollout", "start", "--games", "36", "--format", "json"])
    assert neural.exit_code == 0, neural.output
    assert json.loads(neural.output)["params"]["network"] == weights_digest()
    plain = runner.invoke(cli, ["rollout", "start", "--games", "36", "--policy", "heuristic",
                                "--format", "json"])
    assert "network" not in json.loads(plain.output)["params"]


def test_a_benchmark_result_names_the_network():
    """Bug caught: an error rate quoted in docs/strength.md that cannot be traced to the weights
    that chose the plays."""
    got = CliRunner().invoke(cli, ["benchmark", "--policy", "neural", "--phase", "bearoff", "-q",
                                   "--format", "json"])
    assert got.exit_code == 0, got.output
    assert json.loads(got.output)["network"] == weights_digest()
