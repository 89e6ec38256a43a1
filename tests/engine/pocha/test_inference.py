"""What a seat sees (observe) and what it can infer about the other hands."""

from __future__ import annotations

import json
import random

import pytest

from engine.errors import InvalidStateError
from engine.pocha import Game, Knowledge, Observation, Rules, infer, observe
from engine.pocha.cards import BIT, DECK_40, NUM_CARDS, SUIT_MASK, codes, parse_card
from engine.pocha.inference import absences_from_play
from engine.pocha.legality import explain_illegal
from tests.engine.pocha.engine_support import bids, mask, play, worked

TRUMP = "B1"
OROS, BASTOS = SUIT_MASK[0], SUIT_MASK[3]


def knowledge_after(
    hands: list[list[str]], cards: list[str], observer: int = 0, **options: bool
) -> Knowledge:
    """What ``observer`` knows after ``cards`` are played (checked to be true)."""
    g = worked(hands, TRUMP, **options)
    play(g, *cards)
    k = infer(observe(g, observer))
    for seat in range(g.players):
        if seat != observer:
            assert not k.absent[seat] & g.hand_of(seat)
            assert not g.hand_of(seat) & ~k.possible(seat)
    return k


# -- absences from the obligations ----------------------------------------------------------


def test_no_lead_suit_and_no_trump_means_void_in_both() -> None:
    hands = [["O7", "C1", "E4"], ["C3", "E5", "E6"], ["E1", "E2", "C4"], ["O1", "C5", "E3"]]
    k = knowledge_after(hands, ["O7", "C3"])
    assert k.absent[1] & OROS == OROS
    assert k.absent[1] & BASTOS == BASTOS


def test_fallar_off_only_void_in_lead_suit() -> None:
    hands = [["O7", "C1", "E4"], ["B4", "C3", "E5"], ["E1", "E2", "C4"], ["O1", "C5", "E3"]]
    k = knowledge_after(hands, ["O7", "C3"], fallar=False)
    assert k.absent[1] & OROS == OROS
    assert not k.absent[1] & BASTOS  # it may well hold a trump (it does: B4)
    assert k.possible(1) & mask("B4")


def test_did_not_over_trump_means_no_higher_trump() -> None:
    # B5 on the table; seat 2 throws a copa: it has no oros and no trump above the B5.
    hands = [["O7", "C1", "E4"], ["B5", "C3", "E5"], ["B4", "B2", "C4"], ["O1", "C5", "E3"]]
    k = knowledge_after(hands, ["O7", "B5", "C4"])
    above_b5 = mask("B1", "B3", "B12", "B11", "B10", "B7", "B6")
    assert k.absent[2] & OROS == OROS
    assert k.absent[2] & BASTOS == above_b5
    assert k.possible(2) & mask("B4", "B2") == mask("B4", "B2")
    # seat 1 trumped with no oros: void in oros, nothing said about other trumps
    assert k.absent[1] == OROS


def test_lower_trump_under_pisar_means_no_higher_trump() -> None:
    hands = [["O7", "C1", "E4"], ["B5", "C3", "E5"], ["B4", "B2", "C4"], ["O1", "C5", "E3"]]
    k = knowledge_after(hands, ["O7", "B5", "B2"])
    assert k.absent[2] & BASTOS == mask("B1", "B3", "B12", "B11", "B10", "B7", "B6")


def test_pisar_off_lower_trump_says_nothing_about_higher() -> None:
    hands = [["O7", "C1", "E4"], ["B5", "C3", "E5"], ["B12", "B2", "C4"], ["O1", "C5", "E3"]]
    k = knowledge_after(hands, ["O7", "B5", "B2"], pisar=False)
    assert k.absent[2] == OROS
    assert k.possible(2) & mask("B12")


def test_played_under_when_montar_bound_means_nothing_higher() -> None:
    hands = [["O7", "C1", "E4"], ["O5", "C3", "E5"], ["E1", "E2", "C4"], ["O1", "C5", "E3"]]
    k = knowledge_after(hands, ["O7", "O5"])
    assert k.absent[1] == mask("O1", "O3", "O12", "O11", "O10")
    assert k.possible(1) & mask("O6", "O4", "O2") == mask("O6", "O4", "O2")


def test_montar_off_playing_under_says_nothing() -> None:
    hands = [["O7", "C1", "E4"], ["O5", "O1", "E5"], ["E1", "E2", "C4"], ["O12", "C5", "E3"]]
    k = knowledge_after(hands, ["O7", "O5"], montar=False)
    assert k.absent[1] == 0


def test_montar_with_trump_on_table_says_nothing_about_lead_suit() -> None:
    hands = [["O7", "C1", "E4"], ["B5", "C3", "E5"], ["O4", "O1", "C4"], ["O12", "C5", "E3"]]
    k = knowledge_after(hands, ["O7", "B5", "O4"])
    assert k.absent[2] == 0


def test_trump_lead_under_montar_means_no_higher_trump() -> None:
    hands = [["B7", "C1", "E4"], ["B4", "C3", "E5"], ["E1", "E2", "C4"], ["O12", "C5", "E3"]]
    k = knowledge_after(hands, ["B7", "B4"])
    assert k.absent[1] == mask("B1", "B3", "B12", "B11", "B10")


def test_leader_reveals_nothing() -> None:
    hands = [["O7", "C1", "E4"], ["O5", "C3", "E5"], ["E1", "E2", "C4"], ["O1", "C5", "E3"]]
    k = knowledge_after(hands, ["E4"], observer=1)
    assert k.absent[0] == 0


def test_absences_from_play_function() -> None:
    o7, o5, c3 = parse_card("O7"), parse_card("O5"), parse_card("C3")
    b5 = parse_card("B5")
    assert absences_from_play(o7, -1, -1, 3, True, True, True) == 0
    assert absences_from_play(o5, 0, o7, 3, True, True, True) == mask(
        "O1", "O3", "O12", "O11", "O10"
    )
    assert absences_from_play(c3, 0, o7, 3, True, True, True) == OROS | BASTOS
    assert absences_from_play(c3, 0, b5, 3, True, True, True) == OROS | mask(
        "B1", "B3", "B12", "B11", "B10", "B7", "B6"
    )
    assert absences_from_play(c3, 0, b5, 3, True, True, False) == OROS | BASTOS
    assert absences_from_play(c3, 0, o7, 3, True, False, True) == OROS


def test_absences_are_the_legality_rules_read_backwards() -> None:
    """A play rules out a card exactly when holding that card beside the one played
    would have made the play illegal (engine.pocha.legality), over random trick situations."""
    rng = random.Random(11)
    for _ in range(30_000):
        trump, lead = rng.randrange(4), rng.randrange(4)
        # The winning card is of the lead suit or a trump.
        win = 10 * rng.choice((lead, trump)) + rng.randrange(10)
        card, other = rng.sample(range(NUM_CARDS), 2)
        if win in (card, other):
            continue
        options = (trump, rng.random() < 0.5, rng.random() < 0.5, rng.random() < 0.5)
        absent = absences_from_play(card, lead, win, *options)
        illegal = explain_illegal(card, BIT[card] | BIT[other], lead, win, *options)
        assert bool(absent & BIT[other]) == (illegal is not None), (card, other, lead, win)


# -- what is known to be there; sizes; the stock ------------------------------------------------


def whole_deck_game(dealer: int = 3) -> Game:
    deck = codes(DECK_40)
    hands = [deck[i::4] for i in range(4)]
    return Game.with_deal(Rules(schedule=[10]), hands, hands[dealer][-1], dealer=dealer)


def test_shown_trump_is_known_in_the_dealers_hand() -> None:
    g = whole_deck_game()
    trump = g.trump_card
    for seat in range(3):
        k = infer(observe(g, seat))
        assert k.present[3] == 1 << trump
        assert k.stock_size == 0
        assert k.hand_sizes == [10, 10, 10, 10]
        assert k.possible(3) & (1 << trump)
    k = infer(observe(g, 3))
    assert k.present[3] == g.hand_of(3)


def test_turned_trump_is_nobodys() -> None:
    g = worked(
        [["O7", "C1", "E4"], ["O5", "C3", "E5"], ["E1", "E2", "C4"], ["O1", "C5", "E3"]], TRUMP
    )
    k = infer(observe(g, 0))
    b1 = 1 << parse_card("B1")
    assert not k.unseen & b1
    assert not any(k.possible(s) & b1 for s in range(4))
    assert k.stock_size == 40 - 12 - 1
    assert k.unseen.bit_count() == 40 - 3 - 1


def test_own_hand_known_exactly() -> None:
    g = worked(
        [["O7", "C1", "E4"], ["O5", "C3", "E5"], ["E1", "E2", "C4"], ["O1", "C5", "E3"]], TRUMP
    )
    play(g, "O7", "O5")
    k = infer(observe(g, 1))
    assert k.present[1] == g.hand_of(1) == mask("C3", "E5")
    assert k.possible(1) == g.hand_of(1)
    assert k.hand_sizes == [2, 2, 3, 3]
    assert not k.unseen & mask("O7", "O5")


def test_spectator_cannot_infer() -> None:
    g = whole_deck_game()
    with pytest.raises(ValueError):
        infer(observe(g, None))


# -- the observation --------------------------------------------------------------------------


def test_observation_holds_exactly_the_rules_list() -> None:
    g = worked(
        [["O7", "C1", "E4"], ["O5", "C3", "E5"], ["E1", "E2", "C4"], ["O1", "C5", "E3"]],
        TRUMP,
        bids=[1, 0, 1, 0],
    )
    play(g, "O7", "O5")
    d = observe(g, 2).to_dict()
    assert d["seat"] == 2
    assert d["rules"] == g.rules.to_dict()
    assert d["scores"] == [0, 0, 0, 0] and d["history"] == []
    assert d["you"]["hand"] == ["C4", "E1", "E2"]
    assert d["trump"] == {"card": "B1", "holder": None}
    assert d["bids"] == [1, 0, 1, 0]
    assert d["plays"] == [{"seat": 0, "card": "O7"}, {"seat": 1, "card": "O5"}]
    assert d["trick"] == d["plays"]
    assert d["tricks_won"] == [0, 0, 0, 0]
    assert d["turn"] == 2 and d["phase"] == "playing"
    assert sorted(d["you"]["legal"]) == ["C4", "E1", "E2"]
    assert d["hand_sizes"] == [2, 2, 3, 3]
    assert (d["dealer"], d["mano"]) == (3, 0)
    assert "hands" not in d and "dealt" not in d and "deck" not in d
    # not its turn: no legal actions
    assert observe(g, 3).to_dict()["you"]["legal"] == []


def test_spectator_view_has_no_hand() -> None:
    g = whole_deck_game()
    d = observe(g, None).to_dict()
    assert "you" not in d
    assert d["trump"]["holder"] == 3
    text = json.dumps(d)
    # the only card a spectator sees before any play is the shown trump
    shown = {x for x in json.loads(text)["trump"].values() if isinstance(x, str)}
    assert shown == {d["trump"]["card"]}


def test_bidding_view_lists_bids() -> None:
    g = Game.with_deal(
        Rules(schedule=[3]),
        [["O7", "C1", "E4"], ["O5", "C3", "E5"], ["E1", "E2", "C4"], ["O1", "C5", "E3"]],
        TRUMP,
        dealer=3,
    )
    for b in (1, 1, 0):
        g.bid(g.turn, b)  # type: ignore[arg-type]
    obs = observe(g, 3)
    assert obs.bidding
    assert obs.legal_actions == tuple(bids(0, 2, 3))
    assert obs.to_dict()["you"]["legal"] == [0, 2, 3]
    assert obs.bids == (1, 1, 0, None)
    assert Observation.from_json(obs.to_json()) == obs


def test_observation_after_a_hand_keeps_history_and_last_trick() -> None:
    g = Game.new(Rules(players=3, schedule=[1, 2]), seed=5)
    while g.hand_index == 0:
        g.apply(g.turn, g.legal_actions()[0])  # type: ignore[arg-type]
    obs = observe(g, 0)
    assert len(obs.history) == 1
    assert len(obs.last_trick) == 3
    assert obs.plays == ()
    assert obs.hand_number == 2 and obs.hands_total == 2
    assert Observation.from_json(obs.to_json()) == obs


def test_observe_bad_seat() -> None:
    g = whole_deck_game()
    with pytest.raises(ValueError):
        observe(g, 4)
    with pytest.raises(ValueError):
        observe(g, -1)


@pytest.mark.parametrize("text", ['{"format": 2}', "{}", '{"format": 1}'])
def test_observation_from_bad_json(text: str) -> None:
    with pytest.raises(InvalidStateError):
        Observation.from_json(text)
