"""Pocha's bots and levels, by name: a level is a bot and a budget.

``make_bot`` makes a bot by name (a bot that reads the bids may be given a file of models
of bidding); ``ai.pocha.kind`` gives these to the registry, whose ``BotKind.decide`` is the
one door the service and the workers use, so a level means the same everywhere.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from ai.bot import Bot, Budget, Level
from ai.pocha.deep_bids import DeepBidBot
from ai.pocha.endgame import ENDGAME_TRICKS, EndgameBot
from ai.pocha.heuristic import HeuristicBot
from ai.pocha.ismcts import ISMCTSBot
from ai.pocha.leaf_value import LeafValueBot
from ai.pocha.learned import LearnedBot
from ai.pocha.reading import BidModels
from ai.pocha.student_play import PlayStudentBot
from ai.random_bot import RandomBot
from engine.i18n import N_

LEVELS: dict[str, Level] = {
    "random": Level("random", "random", Budget(), N_("a uniformly random legal action")),
    "heuristic": Level("heuristic", "heuristic", Budget(), N_("rule-based bidding and play")),
    # On the classic game strength grows fast over the first hundred iterations and
    # slowly after, so the three lower levels sit in that steep part, each a step a player
    # can feel (docs/bots.md, "Bots and levels").
    "easy": Level("easy", "ismcts", Budget(iterations=8), N_("ISMCTS, 8 iterations")),
    "medium": Level("medium", "ismcts", Budget(iterations=15), N_("ISMCTS, 15 iterations")),
    "hard": Level("hard", "ismcts", Budget(iterations=60), N_("ISMCTS, 60 iterations")),
    # expert: ISMCTS at 1,000 iterations, past which its strength stops growing, cut at
    # 150 ms so that it decides within 200 ms.  The learned bidding (bot `learned`) is not
    # used: in the arena it lost 1.6 points a hand to ISMCTS's own bids (docs/bots.md).
    "expert": Level(
        "expert",
        "ismcts",
        Budget(iterations=1000, milliseconds=150),
        N_("ISMCTS, 1,000 iterations (at most 150 ms)"),
    ),
    # expert's search dealing from the reading of the other seats' bids and letting them bid
    # in the tree as that reading expects (ai.pocha.reading; docs/bots.md, "Reading the bids").
    # Playing against the others' scores too (ismcts-rival) gained nothing at this budget.
    "master": Level(
        "master",
        "ismcts-modelled",
        Budget(iterations=1000, milliseconds=150),
        N_("ISMCTS reading the bids, 1,000 iterations (at most 150 ms)"),
    ),
    # The expert before, 6,000 iterations within a second, kept by name to measure against.
    "ismcts-expert": Level(
        "ismcts-expert",
        "ismcts",
        Budget(iterations=6000, milliseconds=1000),
        N_("ISMCTS bids and play, 6,000 iterations (at most 1 s)"),
    ),
}

# The weight ismcts-rival gives the other seats' mean hand score against its own.  At 300
# iterations against ismcts-modelled, half weight scored +0.26 +- 0.20 points a hand over
# 120 deals; full weight -0.12 +- 0.35 and a quarter -0.02 +- 0.30 over 60; at 1,000
# iterations half weight scored +0.02 +- 0.23 over 72 (docs/bots.md).
RIVALRY = 0.5

# The PUCT constant of ismcts-student-prior: at a uniform prior over master's 3.6 legal
# cards a play on average and its 1,000 iterations, the root explores about as much as by
# UCB at master's exploration (0.7 x sqrt(3.6 x ln 1,000) = 3.5).
STUDENT_PRIOR = 3.5

# The leaf value's weight against the playout in ismcts-student-value, and the fewest tricks
# left at which it is taken (AlphaGo's mix of value and rollout, half and half). Against
# ismcts-modelled at 1,000 iterations it scored -0.23 +- 0.22 points a hand over 108 deals,
# and a quarter's weight -0.06 +- 0.37 over 36 (docs/bots.md).
LEAF_WEIGHT = 0.5
LEAF_TRICKS = 1

BOTS = (
    "random",
    "heuristic",
    "ismcts",
    "ismcts-random",
    "ismcts-reading",
    "ismcts-modelled",
    "ismcts-rival",
    "ismcts-located",
    "ismcts-located-bids",
    "ismcts-student",
    "ismcts-student-bids",
    "ismcts-student-play",
    "ismcts-student-cards",
    "ismcts-student-prior",
    "ismcts-student-value",
    "ismcts-deep-bids",
    "ismcts-endgame",
    "learned",
)


# The bots that read the other seats' bids, and so can be given a model of bidding
# other than the shipped one (``make_bot(name, reading_model=...)``): each an ISMCTSBot
# with these options.
READING_OPTIONS: dict[str, dict[str, Any]] = {
    "ismcts-reading": {"reading": True},
    "ismcts-modelled": {"reading": True, "modelled_bids": True},
    "ismcts-rival": {"reading": True, "modelled_bids": True, "rivalry": RIVALRY},
    "ismcts-located": {"reading": True, "modelled_bids": True, "locations": True},
    "ismcts-located-bids": {
        "reading": True,
        "modelled_bids": True,
        "locations": True,
        "location_bids": True,
    },
    # master, its bids blended half and half with the student's (ai.pocha.student), or
    # the student's alone (docs/bots.md, "The student").
    "ismcts-student": {"reading": True, "modelled_bids": True, "student": 0.5},
    "ismcts-student-bids": {"reading": True, "modelled_bids": True, "student": 1.0},
    # master, its card plays blended half and half with the student of the plays'
    # (ai.pocha.student_play), or the student's alone (docs/bots.md, "The student of the
    # plays").
    "ismcts-student-play": {"reading": True, "modelled_bids": True, "student_play": 0.5},
    "ismcts-student-cards": {"reading": True, "modelled_bids": True, "student_play": 1.0},
    # master, the student of the plays its root's prior (PUCT; docs/bots.md, "The student
    # of the plays").
    "ismcts-student-prior": {
        "reading": True,
        "modelled_bids": True,
        "student_play": 0.0,
        "student_prior": STUDENT_PRIOR,
    },
    # master, its leaves scored half by the student as a leaf value and half by their
    # playouts (ai.pocha.leaf_value; docs/bots.md, "The student as a leaf value").
    "ismcts-student-value": {
        "reading": True,
        "modelled_bids": True,
        "leaf_weight": LEAF_WEIGHT,
        "leaf_tricks": LEAF_TRICKS,
    },
    # master, its plays with few tricks left solved deal by deal (ai.pocha.endgame;
    # docs/bots.md, "The endgame solved").
    "ismcts-endgame": {"reading": True, "modelled_bids": True, "endgame_tricks": ENDGAME_TRICKS},
}
READING_BOTS = tuple(READING_OPTIONS)


@cache
def reading_models(path: str) -> BidModels:
    """The models of bidding in a file of ``pocha train-reading``, read once a process."""
    return BidModels.load(Path(path))


def make_bot(name: str, reading_model: str | None = None) -> Bot:
    """The bot called ``name``; a reading bot reads the bids by the models in the file
    ``reading_model`` when it is given, by the shipped ones otherwise."""
    models = None
    if reading_model is not None:
        if name not in READING_BOTS:
            raise ValueError(
                f"{name} does not read the bids, so it takes no model; the bots that do "
                f"are {', '.join(READING_BOTS)}"
            )
        models = reading_models(reading_model)
    if name == "random":
        return RandomBot()
    if name == "heuristic":
        return HeuristicBot()
    if name == "ismcts":
        return ISMCTSBot()
    if name == "ismcts-random":
        return ISMCTSBot(playout="random", name="ismcts-random")
    if name in READING_OPTIONS:
        options = READING_OPTIONS[name]
        if "student_play" in options:
            return PlayStudentBot(name=name, bid_models=models, **options)
        if "leaf_weight" in options:
            return LeafValueBot(name=name, bid_models=models, **options)
        if "endgame_tricks" in options:
            return EndgameBot(name=name, bid_models=models, **options)
        return ISMCTSBot(name=name, bid_models=models, **options)
    if name == "ismcts-deep-bids":
        # master's search, its bids at 20 times its budget (ai.pocha.deep_bids).
        return DeepBidBot(name=name, **READING_OPTIONS["ismcts-modelled"])
    if name == "learned":
        return LearnedBot()
    raise ValueError(f"unknown bot {name!r}; the bots are {', '.join(BOTS)}")
