"""What a view says of the rules, so that no client needs them: the seat winning the trick on
the table (`winning`), which tiebreak hand is being played (`tiebreak_hand`), and on the seat's
turn why each card or bid it may not make is refused (`you.refused`), checked against the
engine's refusal of that very move, and over HTTP against the API's answer to it."""

from __future__ import annotations

import random
from typing import Any

import pytest
from flask.testing import FlaskClient

from core.play.games import view_of
from engine.errors import IllegalActionError
from engine.pocha.actions import action_from_wire
from engine.pocha.cards import parse_card
from engine.pocha.game import Game
from engine.pocha.rules import Rules
from tests.service.helpers import bearer, create_game, humans, move, tokens_of


def winning_by_the_rules(trick: list[dict[str, Any]], trump: str) -> int:
    """docs/rules.md's trick winner, worked out here: the highest trump, or with none the highest
    card of the lead suit (a card's index within its suit is its strength)."""
    lead = trick[0]["card"][0]

    def rank(played: dict[str, Any]) -> tuple[bool, bool, int]:
        suit = played["card"][0]
        return suit == trump, suit == lead, parse_card(played["card"]) % 10

    return int(max(trick, key=rank)["seat"])


def test_winning_names_the_seat_taking_the_trick_so_far() -> None:
    rng = random.Random(3)
    checked = 0
    for seed in range(12):
        game = Game.new(Rules.from_dict({"players": 5, "schedule": [8]}), seed)
        while not game.finished:
            spectator = view_of(game, None)
            if not spectator["trick"]:
                assert spectator["winning"] is None
            else:
                trump = spectator["trump"]["card"][0]
                assert spectator["winning"] == winning_by_the_rules(spectator["trick"], trump)
                checked += 1
            assert view_of(game, 0)["winning"] == spectator["winning"]
            assert game.turn is not None
            game.apply(game.turn, rng.choice(game.legal_actions()))
    assert checked > 200


def offered(view: dict[str, Any]) -> tuple[str, list[Any]]:
    """What a seat might try on its turn: "bid" and every bid up to its hand's size, or
    "card" and every card in its hand."""
    if view["phase"] == "bidding":
        return "bid", list(range(view["cards_per_player"] + 1))
    return "card", view["you"]["hand"]


def test_every_refusal_listed_is_the_engines() -> None:
    """Under every combination of montar, fallar and pisar, over many deals: on each turn
    the view lists just the cards in hand (or the bids up to the hand's size) that `legal`
    leaves out, each with the rule and sentence the engine refuses it with."""
    rng = random.Random(8)
    rules_seen: dict[str, int] = {}
    for deal in range(120):
        flags = deal % 8
        rules = {"montar": bool(flags & 1), "fallar": bool(flags & 2), "pisar": bool(flags & 4)}
        game = Game.new(Rules.from_dict({"players": 4, "schedule": [8], **rules}), deal)
        while not game.finished:
            turn = game.turn
            assert turn is not None
            views = [view_of(game, seat) for seat in range(4)]
            assert all(views[s]["you"]["refused"] == [] for s in range(4) if s != turn)
            you = views[turn]["you"]
            kind, tries = offered(views[turn])
            assert [r[kind] for r in you["refused"]] == [a for a in tries if a not in you["legal"]]
            for refusal in you["refused"]:
                with pytest.raises(IllegalActionError) as refused:
                    game.copy().apply(turn, action_from_wire(refusal[kind]))
                assert (refused.value.rule, refused.value.message) == (
                    refusal["rule"],
                    refusal["message"],
                )
                rules_seen[refusal["rule"]] = rules_seen.get(refusal["rule"], 0) + 1
            game.apply(turn, action_from_wire(rng.choice(you["legal"])))
    assert set(rules_seen) == {"asistir", "montar", "fallar", "pisar", "dealer_restriction"}


def test_a_refusal_listed_is_what_the_api_answers(client: FlaskClient) -> None:
    """Over HTTP: every card or bid the view lists as refused, sent, is refused with the
    very rule and sentence listed; the game is left as it was."""
    rng = random.Random(2)
    created = create_game(client, humans(4), {"schedule": [8, 4]}, seed=9)
    game_id, tokens = created["id"], tokens_of(created)
    rules_seen = set()
    while (view := client.get(f"/api/v1/games/{game_id}").json)["phase"] != "finished":
        token = tokens[view["turn"]]
        mine = client.get(f"/api/v1/games/{game_id}", headers=bearer(token)).json
        kind, _ = offered(mine)
        for refusal in mine["you"]["refused"]:
            answer = move(client, game_id, token, refusal[kind])
            assert answer.status_code == 422, answer.json
            assert (answer.json["rule"], answer.json["message"]) == (
                refusal["rule"],
                refusal["message"],
            )
            rules_seen.add(refusal["rule"])
        answer = move(client, game_id, token, rng.choice(mine["you"]["legal"]))
        assert answer.status_code == 200 and answer.json["version"] == mine["version"] + 1
    assert {"asistir", "dealer_restriction"} <= rules_seen


def test_a_spectator_has_no_refusals_and_a_view_changes_nothing() -> None:
    game = Game.new(Rules.from_dict({"players": 3, "schedule": [2]}), 4)
    for _ in range(2):
        assert game.turn is not None
        game.bid(game.turn, 1)
    dealer = game.turn
    assert dealer == game.dealer
    before = game.to_dict()
    view = view_of(game, dealer)
    assert view["you"]["refused"] == [
        {
            "bid": 0,
            "rule": "dealer_restriction",
            "message": "as dealer you may not bid 0: the bids would add up to the 2 cards in play",
        }
    ]
    assert "you" not in view_of(game, None)
    assert game.to_dict() == before


def test_a_tiebreak_hand_says_which_it_is(client: FlaskClient) -> None:
    # One card each and every bid 0: one seat takes the trick (-5), two tie at 10.
    created = create_game(client, humans(3), {"schedule": [1]}, seed=5)
    game_id, tokens = created["id"], tokens_of(created)
    view = client.get(f"/api/v1/games/{game_id}").json
    assert (view["tiebreak_hand"], view["hand_number"], view["hands_total"]) == (None, 1, 1)
    while view["phase"] == "bidding":
        view = move(client, game_id, tokens[view["turn"]], 0).json
    for _ in range(3):
        turn = client.get(f"/api/v1/games/{game_id}").json["turn"]
        mine = client.get(f"/api/v1/games/{game_id}", headers=bearer(tokens[turn])).json
        move(client, game_id, tokens[turn], mine["you"]["legal"][0])
    view = client.get(f"/api/v1/games/{game_id}").json
    assert sorted(view["scores"]) == [-5, 10, 10]
    assert (view["tiebreak_hand"], view["hand_number"], view["hands_total"]) == (1, 2, 2)
