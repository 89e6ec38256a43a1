"""The Poch referee (tests/poch_referee.py) itself: it passes whole games the engine plays
and catches streams corrupted on purpose.

This is the one test of the referee that drives `engine.poch` (to produce streams): each
game is played with random legal decisions (mostly passes and small bets, sometimes all
in, so that showdowns, bluffs, unbet deals, fines and players leaving all happen), and
recorded as the referee's input: the hands of each deal as dealt, from the seats'
observations, and every public event (the first deal's from `Game.opening_events`).
Then each corruption changes one thing in a recorded stream (a payout, a card's place, a
plate, a fine, a bet...) and the referee must refuse it, naming the rule.
"""

from __future__ import annotations

import copy
import itertools
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from engine.poch.actions import HOLD, PASS, bet_action, is_bet
from engine.poch.game import Game
from engine.poch.observation import observe
from engine.poch.rules import Rules
from tests.engine.poch.support import LAYOUT_N, rigged
from tests.poch_referee import PochReferee, RefereeError

Step = tuple[str, Any]  # ("hands", (deal, {seat: codes})) or ("event", event)


@dataclass
class Record:
    """A game as the referee is given it, and the views seen along the way."""

    rules: dict[str, Any]
    steps: list[Step] = field(default_factory=list)
    # (index in steps after which the view was taken, seat or None, the view)
    views: list[tuple[int, int | None, dict[str, Any]]] = field(default_factory=list)

    def kinds(self) -> set[str]:
        return {s[1]["type"] for s in self.steps if s[0] == "event"}


def dealt_hands(game: Game) -> dict[int, list[str]]:
    """Each active seat's hand as dealt: what it holds now and what it has played."""
    hands: dict[int, list[str]] = {}
    for seat in range(game.players):
        view = observe(game, seat).to_dict()
        if view["active"][seat]:
            hands[seat] = view["hand"] + [c for s, c in view["played"] if s == seat]
    return hands


def opening_events(game: Game) -> list[dict[str, Any]]:
    """The first deal's events as `Game.new` keeps them (the service's first events); they
    must say what the spectator's observation of the game's start says."""
    view = observe(game, None).to_dict()
    n = game.players
    order = [(view["dealer"] + 1 + k) % n for k in range(n)]
    counts = {str(s): view["hand_sizes"][s] for s in order}
    written = [
        {"type": "ante", "deal": 1, "dealer": view["dealer"], "each": 8 * view["rules"]["ante"]},
        {"type": "deal", "counts": counts, "trump": view["trump"]},
        *({"type": "collect", **e} for e in view["collected"]),
    ]
    assert game.opening_events == written
    return list(game.opening_events)


def choose(game: Game, rng: random.Random) -> int:
    legal = game.legal_actions()
    if game.phase != "betting":
        return rng.choice(legal)
    roll = rng.random()
    if roll < 0.5:
        return PASS
    if roll < 0.7 and HOLD in legal:
        return HOLD
    bets = [a for a in legal if is_bet(a)]
    if not bets:
        return PASS
    # Now and then all in: big pots, big fines, and players who cannot pay the next ante.
    return bets[-1] if roll > 0.95 else rng.choice(bets[:5])


def play(players: int, seed: int, views: bool = False, **options: Any) -> Record:
    """A whole engine game recorded for the referee; `views`: every seat's after each move."""
    return record_game(Game.new(Rules(players=players, **options), seed=seed), seed, views)


def record_game(
    game: Game, seed: int, views: bool = False, first: list[int] | None = None
) -> Record:
    """Play `game` to its end with random decisions (`first`: the first ones, as given)."""
    rng = random.Random(seed)
    players = game.players
    scripted = list(first or [])
    record = Record(game.rules.to_dict())
    record.steps.append(("hands", (game.deal_no, dealt_hands(game))))
    record.steps.extend(("event", e) for e in opening_events(game))
    while not game.finished:
        deal = game.deal_no
        seat = game.turn
        assert seat is not None
        events = game.apply(seat, scripted.pop(0) if scripted else choose(game, rng))
        if game.deal_no != deal and not game.finished:
            # A new deal began inside this move: its hands before its events.
            record.steps.append(("hands", (game.deal_no, dealt_hands(game))))
        record.steps.extend(("event", e) for e in events)
        if views:
            for s in [None, *range(players)]:
                record.views.append((len(record.steps), s, observe(game, s).to_dict()))
    return record


def referee_run(record: Record) -> PochReferee:
    referee = PochReferee(record.rules)
    pending = iter(record.views)
    view = next(pending, None)
    for i, (kind, payload) in enumerate(record.steps, start=1):
        if kind == "hands":
            referee.deal_hands(*payload)
        else:
            referee.event(payload)
        while view is not None and view[0] == i:
            referee.check_view(view[2], view[1])
            view = next(pending, None)
    return referee


# -- it passes the engine's games -----------------------------------------------------------------


@pytest.mark.parametrize("players", range(3, 9))
def test_passes_engine_games(players: int) -> None:
    deals = blind = 0
    kinds: set[str] = set()
    for seed in range(12):
        rng = random.Random(1000 * players + seed)
        ante = rng.choice([1, 1, 2])
        options = {
            "ante": ante,
            # Small stacks now and then, so that players run short and leave.
            "chips": rng.choice([50, 8 * ante + rng.randint(0, 12)]),
            "deals": rng.choice([None, rng.randint(1, 4)]),
        }
        record = play(players, 1000 * players + seed, views=seed < 3, **options)
        referee = referee_run(record)
        assert referee.expect == "over", "the game did not end"
        deals += referee.deals_checked
        blind += referee.blind_deals
        kinds |= record.kinds()
    assert blind == 0
    assert deals >= 12 * 1
    # The games went through every kind of step.
    assert kinds >= {
        "ante", "deal", "collect", "pass", "bet", "hold", "raise", "no_bet", "showdown",
        "take_pot", "start", "play", "choose", "deal_won", "game_over",
    }  # fmt: skip


def test_passes_games_with_leaves_and_bluffs() -> None:
    seen: set[str] = set()
    for seed in range(60):
        record = play(3 + seed % 6, seed, chips=8 + seed % 9, deals=6)
        referee_run(record)
        seen |= record.kinds()
        if {"leave", "bluff"} <= seen:
            break
    assert {"leave", "bluff"} <= seen, seen


def test_passes_a_deal_where_nobody_has_a_set(monkeypatch: pytest.MonkeyPatch) -> None:
    # Rare when dealt at random (4 cards each among 8 players at best): a rigged deal in which
    # nobody holds two cards of a rank; Vorhand bets 2, the rest pass: the payment stays.
    game = rigged(monkeypatch, LAYOUT_N)
    record = record_game(game, 5, views=True, first=[bet_action(2), PASS, PASS, PASS])
    assert "no_set" in record.kinds()
    referee = referee_run(record)
    assert referee.expect == "over"


def test_a_hand_not_seen_is_worked_out_or_checked_blind() -> None:
    record = play(5, 3, deals=3)
    # One hand missing: the complement of the others.
    one = copy.deepcopy(record)
    for kind, payload in one.steps:
        if kind == "hands":
            payload[1].pop(min(payload[1]))
    assert referee_run(one).blind_deals == 0
    # Two missing: the public checks only, and the deals counted as blind.
    two = copy.deepcopy(one)
    for kind, payload in two.steps:
        if kind == "hands":
            payload[1].pop(min(payload[1]))
    referee = referee_run(two)
    assert referee.expect == "over"
    assert referee.blind_deals == referee.deals_checked > 0


# -- it catches corrupted streams --------------------------------------------------------------

Corruption = Callable[[list[Step]], str]


def _events(steps: list[Step], kind: str) -> list[dict[str, Any]]:
    return [p for k, p in steps if k == "event" and p["type"] == kind]


def _index(steps: list[Step], event: dict[str, Any]) -> int:
    return next(i for i, (k, p) in enumerate(steps) if k == "event" and p is event)


def wrong_payout(steps: list[Step]) -> str:
    won = _events(steps, "deal_won")[0]
    seat = next(iter(won["paid"]))
    won["paid"][seat] += 1
    return "a chip per card"


def payout_to_wrong_winner(steps: list[Step]) -> str:
    won = _events(steps, "deal_won")[0]
    loser = next(iter(won["paid"]))
    won["paid"][str(won["winner"])] = won["paid"].pop(loser)
    won["winner"] = int(loser)
    return "a chip per card"


def card_out_of_order(steps: list[Step]) -> str:
    # Two forced cards of one suit in a row, swapped.
    plays = [(i, p) for i, (k, p) in enumerate(steps) if k == "event" and p["type"] == "play"]
    for (i, a), (j, b) in itertools.pairwise(plays):
        before = steps[i - 1][1]
        forced = before["type"] == "play" and before["card"][0] == a["card"][0]
        if forced and j == i + 1 and a["card"][0] == b["card"][0] and a["seat"] != b["seat"]:
            steps[i], steps[j] = steps[j], steps[i]
            return "fixed order"
    raise AssertionError("no two forced cards in a row")


def card_by_wrong_seat(steps: list[Step]) -> str:
    play_event = _events(steps, "play")[3]
    play_event["seat"] = (play_event["seat"] + 1) % 3
    return "holds the next card"


def wrong_plate_chips(steps: list[Step]) -> str:
    _events(steps, "collect")[0]["chips"] += 1
    return "takes the plate's chips"


def plate_to_wrong_seat(steps: list[Step]) -> str:
    collect = _events(steps, "collect")[0]
    collect["seat"] = (collect["seat"] + 1) % 3
    return "the holder takes the plate"


def plate_not_taken(steps: list[Step]) -> str:
    collect = next(c for c in _events(steps, "collect") if c["plate"] == "ace")
    del steps[_index(steps, collect)]
    return "all cards dealt"


def marriage_not_taken(steps: list[Step]) -> str:
    collect = _events(steps, "collect")
    married = next(c for c in collect if c["plate"] == "marriage")
    del steps[_index(steps, married)]
    return "the holder takes the plate"


def carry_over_lost(steps: list[Step]) -> str:
    # A deal after one where marriage or sequence stayed: claim it held only this deal's ante.
    for collect in _events(steps, "collect"):
        if collect["plate"] in ("marriage", "sequence") and collect["chips"] > 4:
            collect["chips"] -= 1
            return "takes the plate's chips"
    raise AssertionError("no plate carried over")


def wrong_trump(steps: list[Step]) -> str:
    deal = _events(steps, "deal")[0]
    deal["trump"] = "CSHD"[("CSHD".index(deal["trump"]) + 1) % 4]
    return "A deal"


def uneven_deal_wrong(steps: list[Step]) -> str:
    deal = _events(steps, "deal")[0]
    seats = list(deal["counts"])
    first, last = seats[0], seats[-1]
    deal["counts"][first] -= 1
    deal["counts"][last] += 1
    return "the first 32 mod n one more"


def wrong_dealer(steps: list[Step]) -> str:
    ante = _events(steps, "ante")[1]
    ante["dealer"] = (ante["dealer"] + 1) % 4
    return "the next seat still in the game"


def hold_wrong_amount(steps: list[Step]) -> str:
    hold = _events(steps, "hold")[0]
    hold["amount"] += 1
    hold["pot"] += 1
    return "pass, bet, hold or raise"


def raise_not_above(steps: list[Step]) -> str:
    raised = _events(steps, "raise")[0]
    raised["type"] = "hold"
    return "pass, bet, hold or raise"


def bet_out_of_turn(steps: list[Step]) -> str:
    # A pass and the next seat's call, swapped.
    calls = ("pass", "bet", "hold", "raise")
    i = next(
        i
        for i, (k, p) in enumerate(steps[:-1])
        if k == "event" and p["type"] == "pass" and steps[i + 1][1].get("type") in calls
    )
    steps[i], steps[i + 1] = steps[i + 1], steps[i]
    return "from Vorhand round once"


def pays_more_than_held(steps: list[Step]) -> str:
    bet = _events(steps, "bet")[0]
    # Everything the bettor had and one more, as if that were allowed.
    extra = 10_000
    bet["amount"] += extra
    bet["pot"] += extra
    return "nobody may pay more than they hold"


def wrong_fine(steps: list[Step]) -> str:
    _events(steps, "bluff")[0]["paid"] += 1
    return "pays twice the pot"


def missing_fine(steps: list[Step]) -> str:
    bluff = _events(steps, "bluff")[0]
    del steps[_index(steps, bluff)]
    return "pays twice the pot"


def pot_to_wrong_seat(steps: list[Step]) -> str:
    take = _events(steps, "take_pot")[0]
    take["seat"] = (take["seat"] + 1) % 3
    return "the best set takes"


def pocher_plate_kept(steps: list[Step]) -> str:
    _events(steps, "take_pot")[0]["pocher"] -= 1
    return "the best set takes"


def set_hidden_at_showdown(steps: list[Step]) -> str:
    show = next(s for s in _events(steps, "showdown") if s["sets"])
    show["sets"].pop(next(iter(show["sets"])))
    return "shows their best set"


def showdown_without_bet(steps: list[Step]) -> str:
    no_bet = _events(steps, "no_bet")[0]
    no_bet["type"] = "showdown"
    no_bet["sets"] = {}
    del no_bet["pot"]
    return "sequence of a deal"


def wrong_start_card(steps: list[Step]) -> str:
    start = _events(steps, "start")[0]
    start["direction"] = "down" if start["direction"] == "up" else "up"
    return "a 7 fixes the order upwards"


def wrong_starter(steps: list[Step]) -> str:
    start = _events(steps, "start")[0]
    i = _index(steps, start)
    first_play = steps[i + 1][1]
    start["seat"] = first_play["seat"] = (start["seat"] + 1) % 3
    return "A deal 6"


def suit_chosen_twice(steps: list[Step]) -> str:
    choose_event = _events(steps, "choose")[0]
    i = _index(steps, choose_event)
    choose_event["suit"] = steps[i - 1][1]["card"][0]
    return "a suit not yet played"


def suit_chosen_by_wrong_seat(steps: list[Step]) -> str:
    choose_event = _events(steps, "choose")[0]
    choose_event["seat"] = (choose_event["seat"] + 1) % 3
    return "who played a suit's last card chooses"


def leave_missing(steps: list[Step]) -> str:
    leave = _events(steps, "leave")[0]
    del steps[_index(steps, leave)]
    return "who cannot pay the ante leaves"


def wrong_winners(steps: list[Step]) -> str:
    over = _events(steps, "game_over")[0]
    over["winners"] = [s for s in range(len(over["chips"])) if s not in over["winners"]][:1]
    return "most chips wins"


def game_runs_long(steps: list[Step]) -> str:
    over = _events(steps, "game_over")[0]
    steps.insert(_index(steps, over) + 1, ("event", {"type": "pass", "seat": 0, "amount": 0}))
    return "after the game's end"


def hand_swapped(steps: list[Step]) -> str:
    # The views said other hands than the stream played: two seats' cards swapped.
    hands = next(p for k, p in steps if k == "hands")[1]
    a, b = sorted(hands)[:2]
    ca = next(c for c in hands[a] if c[1:] in ("7", "A"))
    cb = next(c for c in hands[b] if c not in hands[a] and c[0] != ca[0])
    hands[a] = [cb if c == ca else c for c in hands[a]]
    hands[b] = [ca if c == cb else c for c in hands[b]]
    return ""


CORRUPTIONS: list[Corruption] = [
    wrong_payout,
    payout_to_wrong_winner,
    card_out_of_order,
    card_by_wrong_seat,
    wrong_plate_chips,
    plate_to_wrong_seat,
    plate_not_taken,
    marriage_not_taken,
    carry_over_lost,
    wrong_trump,
    uneven_deal_wrong,
    wrong_dealer,
    hold_wrong_amount,
    raise_not_above,
    bet_out_of_turn,
    pays_more_than_held,
    wrong_fine,
    missing_fine,
    pot_to_wrong_seat,
    pocher_plate_kept,
    set_hidden_at_showdown,
    showdown_without_bet,
    wrong_start_card,
    wrong_starter,
    suit_chosen_twice,
    suit_chosen_by_wrong_seat,
    leave_missing,
    wrong_winners,
    game_runs_long,
    hand_swapped,
]


@pytest.fixture(scope="module")
def streams() -> list[Record]:
    """Games to corrupt: 3 players, each with the steps the corruptions need somewhere."""
    found = [play(3, seed, chips=8 + seed % 20, deals=6) for seed in range(40)]
    return found


@pytest.mark.parametrize("corrupt", CORRUPTIONS, ids=lambda c: c.__name__)
def test_catches_a_corrupted_stream(streams: list[Record], corrupt: Corruption) -> None:
    tried = 0
    for record in streams:
        broken = copy.deepcopy(record)
        try:
            rule = corrupt(broken.steps)
        except (StopIteration, IndexError, AssertionError, KeyError):
            continue  # this game lacks the step to corrupt
        tried += 1
        referee_run(record)  # the game as played passes
        with pytest.raises(RefereeError) as caught:
            referee_run(broken)
        assert rule in str(caught.value), caught.value
        if tried >= 3:
            break
    assert tried, f"no game had a step for {corrupt.__name__}"
