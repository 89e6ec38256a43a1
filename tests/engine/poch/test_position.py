"""A Poch position sent by a client (``engine.poch.position``): every real one is taken
back as the very observation it came from, and every kind of impossibility is refused
with a sentence.

Real positions are the observations of the seat to move in random games of 3 to 8
players (small stacks, so players leave; random bets, so showdowns, bluffs and unbet
deals all occur), at every decision and, under hypothesis, at random ones.  Each goes
through JSON, as a client sends it.  Corruptions are made from real positions, each of
a kind no game can reach.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.errors import InvalidStateError
from engine.poch.actions import HOLD, PASS, action_to_wire, bet_action, is_bet
from engine.poch.cards import SUITS, rank_of
from engine.poch.game import Game
from engine.poch.observation import observe
from engine.poch.position import FIELDS, position_from_dict, position_of
from engine.poch.rules import Rules

Position = dict[str, Any]


def choose(game: Game, rng: random.Random) -> int:
    legal = game.legal_actions()
    if game.phase != "betting":
        return rng.choice(legal)
    roll = rng.random()
    if roll < 0.55:
        return PASS
    if roll < 0.75 and HOLD in legal:
        return HOLD
    bets = [a for a in legal if is_bet(a)]
    return rng.choice(bets[:6]) if bets else PASS


def new_game(seed: int, players: int, chips: int) -> Game:
    return Game.new(Rules(players=players, chips=chips, deals=3 * players), seed)


def game_at(seed: int, players: int, chips: int, steps: int) -> Game:
    """The game after ``steps`` random decisions (or at its last decision, if it ended)."""
    rng = random.Random(seed)
    game = new_game(seed, players, chips)
    for _ in range(steps):
        before = game.copy()
        game.apply(game.turn, choose(game, rng))  # type: ignore[arg-type]
        if game.finished:
            return before
    return game


def sent(position: Position) -> Position:
    """The position as a client's JSON brings it."""
    loaded: Position = json.loads(json.dumps(position))
    return loaded


def check_round_trip(game: Game) -> None:
    assert game.turn is not None
    obs = observe(game, game.turn)
    back = position_from_dict(sent(position_of(obs)))
    assert back == obs
    assert list(back.legal_actions) == game.legal_actions()


def test_every_decision_of_random_games_round_trips() -> None:
    rng = random.Random(2026)
    seen = {"betting": 0, "starting": 0, "choosing": 0}
    for players in range(3, 9):
        for _ in range(6):
            game = new_game(rng.randrange(1 << 30), players, rng.choice([8, 12, 20, 50]))
            while not game.finished:
                check_round_trip(game)
                seen[game.phase] += 1
                game.apply(game.turn, choose(game, rng))  # type: ignore[arg-type]
    assert min(seen.values()) > 100, seen


GAMES = st.builds(
    game_at,
    seed=st.integers(0, 2**31),
    players=st.integers(3, 8),
    chips=st.sampled_from([8, 10, 16, 50]),
    steps=st.integers(0, 300),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(GAMES)
def test_any_real_position_round_trips(game: Game) -> None:
    check_round_trip(game)


def test_the_view_of_a_seat_is_a_position() -> None:
    """What our own view gives a seat (engine.poch.view.view) is a position as it is,
    less its envelope."""
    from engine.poch.view import view as poch_view_of

    game = game_at(7, 5, 50, 12)
    assert game.turn is not None
    view = poch_view_of(game, game.turn)
    assert view == position_of(observe(game, game.turn))
    assert set(view) <= set(FIELDS)
    assert position_from_dict(view) == observe(game, game.turn)


# -- corruptions ---------------------------------------------------------------------------


def other_seat(p: Position) -> int:
    seat = p["you"]["seat"]
    return next(s for s in range(len(p["chips"])) if s != seat and p["active"][s])


def _unknown_card(p: Position) -> None:
    p["you"]["hand"][0] = "Z9"


def _card_twice(p: Position) -> None:
    p["you"]["hand"].append(p["you"]["hand"][0])
    p["hand_sizes"][p["you"]["seat"]] += 1


def _hand_size(p: Position) -> None:
    p["hand_sizes"][p["you"]["seat"]] += 1


def _other_hand_size(p: Position) -> None:
    p["hand_sizes"][other_seat(p)] += 1


def _seen_twice(p: Position) -> None:
    """A card of someone else's shown honours also in the hand."""
    seat = p["you"]["seat"]
    mine = set(p["you"]["hand"])
    theirs = [c for e in p["collected"] if e["seat"] != seat for c in e["cards"] if c not in mine]
    p["you"]["hand"][0] = theirs[0]


def _played_and_held(p: Position) -> None:
    p["played"].append([other_seat(p), p["you"]["hand"][0]])


def _negative_chips(p: Position) -> None:
    p["chips"][other_seat(p)] = -1


def _chips_not_conserved(p: Position) -> None:
    p["chips"][other_seat(p)] += 1


def _honour_plate_full(p: Position) -> None:
    """A chip moved from a hand onto the ace plate, which every deal empties."""
    rich = max(range(len(p["chips"])), key=lambda s: p["chips"][s])
    p["chips"][rich] -= 1
    p["plates"]["ace"] += 1


def _not_your_turn(p: Position) -> None:
    p["turn"] = other_seat(p)


def _wrong_phase(p: Position) -> None:
    p["phase"] = {"betting": "choosing", "starting": "betting", "choosing": "starting"}[p["phase"]]


def _game_over(p: Position) -> None:
    p["phase"] = "over"


def _ace_not_collected(p: Position) -> None:
    p["collected"] = [e for e in p["collected"] if e["plate"] != "ace"]


def _other_trump(p: Position) -> None:
    p["trump"] = SUITS[(SUITS.index(p["trump"]) + 1) % 4]


def _bets_out_of_order(p: Position) -> None:
    if p["bets"]:
        p["bets"][0]["seat"] = (p["bets"][0]["seat"] + 1) % len(p["chips"])
    else:
        p["bets"] = [{"seat": p["you"]["seat"], "call": "pass", "amount": 0}] * len(p["chips"])


def _wrong_legal(p: Position) -> None:
    p["you"]["legal"] = [*p["you"]["legal"], "hold" if p["phase"] != "betting" else "C"]


def _unknown_field(p: Position) -> None:
    p["hands"] = []


def _first_deal_zero(p: Position) -> None:
    p["deal"] = 0


def _missing_field(p: Position) -> None:
    del p["plates"]


def _seat_not_at_table(p: Position) -> None:
    p["active"][p["you"]["seat"]] = False


def _too_many_players(p: Position) -> None:
    p["rules"]["players"] = len(p["chips"]) + 1 if len(p["chips"]) < 8 else 3


def _shown_set_changed(p: Position) -> None:
    """The seat's own showdown entry is not its best set (or it showed none it has)."""
    seat = str(p["you"]["seat"])
    if seat in p["showdown"]:
        del p["showdown"][seat]
    else:
        p["showdown"][seat] = p["you"]["hand"][:2]


CORRUPTIONS: dict[str, Callable[[Position], None]] = {
    f.__name__.strip("_"): f
    for f in (
        _unknown_card,
        _card_twice,
        _hand_size,
        _other_hand_size,
        _seen_twice,
        _played_and_held,
        _negative_chips,
        _chips_not_conserved,
        _honour_plate_full,
        _not_your_turn,
        _wrong_phase,
        _game_over,
        _ace_not_collected,
        _other_trump,
        _bets_out_of_order,
        _wrong_legal,
        _unknown_field,
        _first_deal_zero,
        _missing_field,
        _seat_not_at_table,
        _too_many_players,
        _shown_set_changed,
    )
}


def applies(name: str, p: Position) -> bool:
    """Whether the corruption ``name`` can be made of ``p`` and is surely impossible."""
    seat = p["you"]["seat"]
    if name == "seen_twice":
        mine = set(p["you"]["hand"])
        return any(c not in mine for e in p["collected"] if e["seat"] != seat for c in e["cards"])
    if name == "shown_set_changed":
        # Only after a showdown; and a seat that showed none must have two cards to show.
        return p["phase"] != "betting" and any(b["amount"] for b in p["bets"])
    if name == "honour_plate_full":
        return max(p["chips"]) > 0
    return True


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(GAMES, st.sampled_from(sorted(CORRUPTIONS)))
def test_corrupted_positions_are_refused(game: Game, name: str) -> None:
    assert game.turn is not None
    position = sent(position_of(observe(game, game.turn)))
    if not applies(name, position):
        return
    CORRUPTIONS[name](position)
    with pytest.raises(InvalidStateError) as refused:
        position_from_dict(position)
    assert refused.value.code == "invalid_state"
    assert str(refused.value.message)


def test_every_corruption_is_tried() -> None:
    """Each corruption applies to some real position (so none is vacuous)."""
    games = [game_at(seed, 4, 50, steps) for seed in range(6) for steps in (0, 3, 5, 9)]
    for name in CORRUPTIONS:
        tried = 0
        for game in games:
            position = sent(position_of(observe(game, game.turn)))  # type: ignore[arg-type]
            if applies(name, position):
                CORRUPTIONS[name](position)
                with pytest.raises(InvalidStateError):
                    position_from_dict(position)
                tried += 1
        assert tried, name


# -- the sentences -----------------------------------------------------------------------------


def betting_position() -> tuple[Game, Position]:
    game = game_at(11, 4, 50, 0)
    assert game.turn is not None
    return game, sent(position_of(observe(game, game.turn)))


def refusal(position: Position) -> str:
    with pytest.raises(InvalidStateError) as refused:
        position_from_dict(position)
    return str(refused.value.message)


def test_the_sentences_say_what_is_wrong() -> None:
    _game, p = betting_position()
    seat = p["you"]["seat"]
    assert refusal({**p, "turn": (seat + 1) % 4}).startswith(
        f"it is seat {(seat + 1) % 4}'s turn, not seat {seat}'s"
    )
    chips = list(p["chips"])
    chips[0] += 3
    assert refusal({**p, "chips": chips}).startswith("the chips do not add up: 203 in hands")
    hand = [*p["you"]["hand"][1:], "X1"]
    assert refusal({**p, "you": {**p["you"], "hand": hand}}).startswith("you.hand: 'X1'")
    other = next(e for e in p["collected"] if e["seat"] != seat)
    code = other["cards"][0]
    hand = [*p["you"]["hand"][1:], code]
    assert refusal({**p, "you": {**p["you"], "hand": hand}}) == (
        f"{code} is in the hand but was shown by seat {other['seat']}"
    )
    sizes = list(p["hand_sizes"])
    sizes[seat] -= 1
    assert refusal({**p, "hand_sizes": sizes}) == (
        f"the hand has 8 cards but hand_sizes gives seat {seat} 7"
    )
    assert refusal({**p, "phase": "over"}) == "the game is over: there is no move to make"
    assert refusal({**p, "you": {**p["you"], "legal": ["pass"]}}).startswith(
        "you.legal does not match the position: the legal actions are pass, 1, 2"
    )


def positions(seeds: range, players: int = 4) -> Any:
    """Every (game, position) of the seat to move in the first deals of seeded games."""
    for seed in seeds:
        rng = random.Random(seed)
        game = new_game(seed, players, 50)
        while not game.finished and game.deal_no <= 2:
            assert game.turn is not None
            yield game, sent(position_of(observe(game, game.turn)))
            game.apply(game.turn, choose(game, rng))


def test_holding_the_sequence_without_taking_its_plate_is_refused() -> None:
    for _game, p in positions(range(400)):
        seat = p["you"]["seat"]
        taken = [e for e in p["collected"] if e["plate"] == "sequence" and e["seat"] == seat]
        if not taken or p["chips"][seat] < taken[0]["chips"]:
            continue
        # The plate put back: the chips add up, the plate is full, but the seat holds it.
        p["collected"] = [e for e in p["collected"] if e["plate"] != "sequence"]
        p["plates"]["sequence"] += taken[0]["chips"]
        p["chips"][seat] -= taken[0]["chips"]
        assert refusal(p) == (
            f"seat {seat} was dealt {' '.join(taken[0]['cards'])} but did not take the "
            "sequence plate"
        )
        return
    pytest.fail("no seat to move took the sequence plate")


def test_a_dealer_dealt_no_trump_is_refused() -> None:
    """Once trumps have run, who played them is known: a dealer who played none and
    showed none was dealt no trump, yet the dealer's last card set trumps."""
    for game, p in positions(range(400)):
        dealer, trump = p["dealer"], p["trump"]
        if p["phase"] != "choosing" or trump not in p["suits_done"]:
            continue
        if any(e["seat"] == dealer for e in p["collected"]):
            continue
        shown = {c for e in p["collected"] for c in e["cards"]}
        shown |= {c for cs in p["showdown"].values() for c in cs}
        if any(c[0] == trump for cs in p["showdown"].get(str(dealer), []) for c in cs):
            continue
        mine = [i for i, (s, c) in enumerate(p["played"]) if s == dealer and c[0] == trump]
        theirs = [
            i
            for i, (s, c) in enumerate(p["played"])
            if s not in (dealer,) and c[0] != trump and c not in shown
        ]
        if len(theirs) < len(mine) or p["you"]["seat"] == dealer:
            continue
        if any(p["played"][i][0] == p["you"]["seat"] for i in theirs[: len(mine)]):
            continue
        # Swap who played them: the counts hold, but the dealer has no trump left to have.
        for i, j in zip(mine, theirs, strict=False):
            p["played"][i][0], p["played"][j][0] = p["played"][j][0], dealer
        if (
            p["played"][-1][0] != p["turn"]
            or p["played"][0][0] != observe(game, game.turn).played[0][0]
        ):
            continue
        try:
            position_from_dict(p)
        except InvalidStateError as exc:
            assert str(exc.message).startswith("no deal of the unseen cards agrees")
            return
        raise AssertionError("a dealer dealt no trump was accepted")
    pytest.fail("no position after trumps ran")


def test_a_seat_passed_over_for_the_start_held_no_seven_and_no_ace() -> None:
    """The start goes round from the winner (else Vorhand) to the first seat with a 7 or an
    ace: a seat passed over that has shown one cannot be."""
    for _game, p in positions(range(600)):
        if p["phase"] != "starting" or p["showdown"]:
            continue
        first = p["starter"] if p["starter"] is not None else (p["dealer"] + 1) % 4
        if first == p["turn"]:
            continue
        # The trump ace shown by a seat passed over: moved to it from its holder.
        ace = next(e for e in p["collected"] if e["plate"] == "ace")
        if ace["seat"] == p["you"]["seat"]:
            continue
        p["collected"][p["collected"].index(ace)] = {**ace, "seat": first}
        assert refusal(p) == (
            f"seat {first} was dealt {ace['cards'][0]}, so the shedding starts with seat "
            f"{first}, not seat {p['turn']}"
        )
        return
    pytest.fail("no start passed over a seat")


def test_the_legal_actions_come_from_the_position_not_the_client() -> None:
    game, p = betting_position()
    assert "legal" in p["you"]
    del p["you"]["legal"]
    obs = position_from_dict(p)
    assert list(obs.legal_actions) == game.legal_actions()
    assert [action_to_wire(a) for a in obs.legal_actions][:3] == ["pass", 1, 2]


def test_a_start_card_position_and_a_suit_choice() -> None:
    """The shedding's decisions: the start card's legal actions are the seat's 7s and aces;
    a suit choice offers the suits not yet shed."""
    rng = random.Random(5)
    found = set()
    for seed in range(200):
        game = new_game(seed, rng.randrange(3, 9), 50)
        while not game.finished and game.phase == "betting":
            game.apply(game.turn, choose(game, rng))  # type: ignore[arg-type]
        if game.phase == "starting":
            obs = position_from_dict(sent(position_of(observe(game, game.turn))))
            assert obs.legal_actions and all(rank_of(c) in (0, 7) for c in obs.legal_actions)
            found.add("starting")
            game.apply(game.turn, choose(game, rng))  # type: ignore[arg-type]
        if game.phase == "choosing":
            obs = position_from_dict(sent(position_of(observe(game, game.turn))))
            assert len(obs.legal_actions) == 4 - len(obs.suits_done)
            found.add("choosing")
        if found == {"starting", "choosing"}:
            break
    assert found == {"starting", "choosing"}


def test_a_bet_in_the_position_is_checked_against_the_round() -> None:
    game = new_game(3, 4, 50)
    game.apply(game.turn, bet_action(2))  # type: ignore[arg-type]
    game.apply(game.turn, HOLD)  # type: ignore[arg-type]
    p = sent(position_of(observe(game, game.turn)))
    assert position_from_dict(p).legal_actions[:2] == (PASS, HOLD)
    bad = copy.deepcopy(p)
    bad["bets"][1]["call"] = "raise"
    assert refusal(bad) == "bet 2: raise with 2 chips after a highest bet of 2"


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 40) | st.sampled_from(["C7", "HA", "x", "²", "1"]),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner, max_size=3)
    ),
    max_leaves=8,
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(GAMES, st.sampled_from(FIELDS), JSON, st.booleans())
def test_any_value_in_any_field_is_taken_or_refused_with_a_sentence(
    game: Game, field: str, value: Any, inside: bool
) -> None:
    """Whatever a client puts in a field (or in the first entry of a list or object field),
    the answer is an observation or an InvalidStateError: never another exception."""
    assert game.turn is not None
    p = sent(position_of(observe(game, game.turn)))
    current = p.get(field)
    if inside and isinstance(current, list) and current:
        current[0] = value
    elif inside and isinstance(current, dict) and current:
        current[next(iter(current))] = value
    else:
        p[field] = value
    try:
        position_from_dict(p)
    except InvalidStateError as exc:
        assert str(exc.message)


def test_a_seat_written_in_other_digits_is_not_a_seat() -> None:
    _game, p = betting_position()
    assert refusal({**p, "showdown": {"²": ["C7", "S7"]}}) == 'showdown: "²" is not a seat'
