"""The planner's constants per setting, for the expert (``ExpertBot(tuned=True)``).

The heuristic bot keeps one set for every setting (``heuristic.DEFAULT``). The expert's
planner, which plays its seat in the rollouts and (tuned) makes the move its search starts
from, takes the set tuned for its setting: with 2 players, with 3 or more, and the 1980
edition. Each was found by ``scripts/tune_planner.py`` (paired games of the planner against
``greedy`` from fresh deals, 200,000 a comparison); the command and the gain it measured are
beside each. Settings nobody tuned (points matches, other options) take the nearest one.
"""

from __future__ import annotations

from ..engine import Rules
from .heuristic import DEFAULT, Constants

# .venv/bin/python scripts/tune_planner.py 2p --games 200000: +0.53 ± 0.14 points over the
# heuristic's constants (53.40%) on 400,000 fresh games.
HEADS_UP = DEFAULT._replace(
    keep_play2=12.0, keep_fits=0.0, keep_small=1.62, pressure=13.8, come_back=1.0
)
# .venv/bin/python scripts/tune_planner.py 4p --games 200000: +0.45 ± 0.09 points over the
# heuristic's constants (31.01%) on 400,000 fresh games.
TABLE = DEFAULT._replace(keep_minus_ten=8.4, keep_fits=0.0, keep_small=1.62, play2_bait=0.0)
# .venv/bin/python scripts/tune_planner.py 1980 --games 100000: +0.91 ± 0.13 points over the
# heuristic's constants (31.79%) on 200,000 fresh matches.
EDITION_1980 = DEFAULT._replace(
    keep_reverse=7.2,
    keep_repeat=0.65,
    keep_fits=0.3125,
    keep_small=1.4175,
    pressure=13.8,
    play2_bait=0.0,
    come_back=0.5,
)


def constants_for(rules: Rules) -> Constants:
    """The tuned constants of the setting nearest ``rules``."""
    if rules.edition == "1980":
        return EDITION_1980
    return HEADS_UP if rules.players == 2 else TABLE
