"""The operator's `pocha accounts disable` with the workers playing: the disabled account's
seat, on its turn, is handed to the stand-in, whose move a worker plays from the queue; the
game goes on to its end for the others."""

from __future__ import annotations

from click.testing import CliRunner
from flask.testing import FlaskClient

from cli.main import pocha
from tests.service.helpers import bearer, move
from tests.service.test_accounts import account_header, sign_up
from tests.worker.conftest import Drain


def test_a_disabled_accounts_turn_is_played_by_the_stand_in_on_the_queue(
    client: FlaskClient, drain: Drain, redis_url: str
) -> None:
    ana, bruno = sign_up(client, "Ana").json, sign_up(client, "Bruno").json
    made = client.post(
        "/api/v1/games",
        json={"players": [{"name": "x"}, {"open": True}, {"name": "b", "bot": "easy"}],
              "rules": {"schedule": [1, 2]}},
        headers=account_header(bruno["key"]),
    ).json  # fmt: skip
    game_id, bruno_token = made["id"], made["seats"][0]["token"]
    joined = client.post(
        f"/api/v1/tables/{made['table_code']}/seats", json={"name": "n"},
        headers=account_header(ana["key"]),
    )  # fmt: skip
    assert joined.status_code == 201, joined.json
    ana_token = joined.json["token"]
    # Play up to Ana's turn: her seat is disabled while the game waits on her.
    for _turn in range(50):
        drain()
        view = client.get(f"/api/v1/games/{game_id}", headers=bearer(bruno_token)).json
        if view["turn"] == 1:
            break
        assert move(client, game_id, bruno_token, view["you"]["legal"][0]).status_code == 200
    assert view["turn"] == 1
    version = view["version"]

    disabled = CliRunner().invoke(
        pocha, ["accounts", "disable", ana["id"], "--redis-url", redis_url]
    )
    assert disabled.exit_code == 0, disabled.output
    assert "1 of its seats" in disabled.output
    drain()  # a worker takes the stand-in's turn from the queue
    events = client.get(f"/api/v1/games/{game_id}/events").json
    by_stand_in = [e for e in events if e.get("by") == "stand_in" and e.get("seat") == 1]
    assert by_stand_in and by_stand_in[0]["version"] > version, events[-4:]
    refused = move(client, game_id, ana_token, 0)
    assert refused.status_code == 409 and refused.json["error"] == "wrong_phase", refused.json

    for _turn in range(50):
        drain()
        view = client.get(f"/api/v1/games/{game_id}", headers=bearer(bruno_token)).json
        if view["phase"] == "finished":
            break
        assert view["turn"] == 0, view["turn"]
        assert move(client, game_id, bruno_token, view["you"]["legal"][0]).status_code == 200
    assert view["phase"] == "finished"
