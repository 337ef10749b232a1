"""A network file as a policy name on the command line: `blocks_policy:candidate`.

With `experiments/` on PYTHONPATH and `NARDY_CANDIDATE` naming a network file,
`nardy benchmark --db yardstick --policy neural --against blocks_policy:candidate`
and `nardy duel blocks_policy:candidate neural --workers 1` play that network at
0-ply (`policies.builtin.network_policy`), whatever its input version.
"""

from __future__ import annotations

import os

from nardy_cli.policies.builtin import network_policy
from nardy_cli.policies.network import load_network

candidate = network_policy("blocks", load_network(os.environ["NARDY_CANDIDATE"]),
                           "the candidate network of NARDY_CANDIDATE")
