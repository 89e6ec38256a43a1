"""The Python client's Poch calls (`create_game(game="poch")`, `bet`, `play`,
`choose_suit`, `poch_act`) against the real service over HTTP: a whole game against bots
with each of the seat's decisions sent through its own call, and the history; refusals
(an amount over the seat's chips, a suit while betting) and the endpoints of the other
game refused as `wrong_game`."""

from __future__ import annotations

import time
from typing import Any

import pytest

from client.api import ApiError, PochaClient, Seat
from tests.live import LiveService
from tests.waiting import LONG, scaled

BOTS: list[Seat] = [{"name": "Bot 1", "bot": "random"}, {"name": "Bot 2", "bot": "heuristic"}]


def test_a_poch_game_through_each_call(live_service: LiveService) -> None:
    api = PochaClient(live_service.url)
    created = api.create_game(["Ana", *BOTS], rules={"chips": 20, "deals": 3}, seed=4, game="poch")
    me, game_id = api.seat(created, 0), created["id"]
    used: dict[str, int] = {"bet": 0, "play": 0, "suit": 0}
    deadline = time.monotonic() + scaled(LONG)
    view: dict[str, Any] = me.view(game_id)
    assert view["game"] == "poch" and view["rules"]["deals"] == 3
    while view["phase"] != "over":
        assert time.monotonic() < deadline, view
        if view["turn"] != 0:
            time.sleep(0.05)
            view = me.view(game_id)
            continue
        legal, version = view["you"]["legal"], view["version"]
        # Each kind of decision through its own call (poch_act is checked below).
        if view["phase"] == "betting":
            view = me.bet(game_id, legal[-1] if used["bet"] == 0 else legal[0], version=version)
            used["bet"] += 1
        elif view["phase"] == "starting":
            view = me.play(game_id, legal[0], version=version)
            used["play"] += 1
        else:
            view = me.choose_suit(game_id, legal[0], version=version)
            used["suit"] += 1
    # Ana bets in every deal she sits in; she starts or chooses only when the cards say.
    assert used["bet"] >= 1
    history = api.history(game_id)
    assert history["game"] == "poch" and history["finished"]
    assert len(history["deals"]) == 3
    assert history["result"]["chips"] == view["result"]["chips"] == history["chips"]


def test_poch_refusals_and_the_other_games_endpoints(live_service: LiveService) -> None:
    api = PochaClient(live_service.url)
    poch = api.create_game(["Ana", *BOTS], rules={"deals": 1}, seed=2, game="poch")
    me, game_id = api.seat(poch, 0), poch["id"]
    deadline = time.monotonic() + scaled(LONG)
    while (view := me.view(game_id))["turn"] != 0:
        assert time.monotonic() < deadline and view["phase"] != "over", view
        time.sleep(0.05)
    assert view["phase"] == "betting"
    with pytest.raises(ApiError) as refused:
        me.bid(game_id, 1)
    assert refused.value.status == 409 and refused.value.error == "wrong_game"
    with pytest.raises(ApiError) as refused:
        me.bet(game_id, view["chips"][0] + 1)
    assert refused.value.status == 422
    with pytest.raises(ApiError) as refused:
        me.choose_suit(game_id, "H")
    assert refused.value.status in (409, 422)
    me.poch_act(game_id, "pass", version=view["version"])
    randoms: list[Seat] = [{"name": "Bot 1", "bot": "random"}, {"name": "Bot 2", "bot": "random"}]
    pocha = api.create_game(["Ana", *randoms], rules={"schedule": [1]})
    with pytest.raises(ApiError) as refused:
        api.seat(pocha, 0).bet(pocha["id"], "pass")
    assert refused.value.status == 409 and refused.value.error == "wrong_game"
    with pytest.raises(TypeError):
        me.bet(game_id, True)
