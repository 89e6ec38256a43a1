"""An account blocks another, against the test's real Redis: the blocked account's
challenges to it are refused with 403 `challenge_refused`, nothing written and no cap
counted; blocking declines its open challenges and frees the blocker's caps on challenges
waiting and received at once; unblocking takes its challenges again; blocks are idempotent,
listed, capped (an account forgotten since gives its place up), refused for oneself and our
levels, rate-limited, and go with a forgotten account."""

from __future__ import annotations

import time
from typing import Any

import redis
from flask.testing import FlaskClient

from core.store import accounts, blocks, challenges
from core.store.blocks import MOST_BLOCKS
from core.store.challenges import (
    MOST_FROM_ONE,
    MOST_FROM_ONE_LATELY,
    MOST_RECEIVED,
    MOST_RECEIVED_LATELY,
)
from core.store.keys import account_blocks_key, account_challenges_key, challenges_lately_key
from core.store.store import GameStore
from tests.service.helpers import ANA, limited_app
from tests.service.test_service_challenges import against, challenge, churn, key_of, sign_up

BLOCKS = "/api/v1/account/blocks"
#: Made long enough ago to be idle now.
LONG_AGO = time.time() - accounts.Lifetime().idle_seconds - 30 * 86_400.0


def block(client: FlaskClient, by: dict[str, Any], whom: str, language: str = "en") -> Any:
    return client.post(BLOCKS, json={"account": whom},
                       headers={**key_of(by), "Accept-Language": language})  # fmt: skip


def blocked(client: FlaskClient, by: dict[str, Any]) -> list[dict[str, Any]]:
    listed = client.get(BLOCKS, headers=key_of(by))
    assert listed.status_code == 200, listed.json
    assert listed.json["most"] == MOST_BLOCKS
    return list(listed.json["blocks"])


def challenge_keys(r: redis.Redis) -> dict[bytes, Any]:
    """Every key of the challenges and their sets, with what it holds."""
    return {key: r.dump(key) for key in sorted(r.scan_iter(match="*challenge*", count=1000))}


def test_a_blocked_accounts_challenges_are_refused_with_nothing_written(
    client: FlaskClient, store: GameStore
) -> None:
    ana, pest, bea = sign_up(client, "Ana"), sign_up(client, "Pest"), sign_up(client, "Bea")
    made = block(client, ana, "pest")  # by name, any case
    assert made.status_code == 200, made.json
    assert made.json["id"] == pest["id"] and made.json["name"] == "Pest"
    assert made.json["declined"] == []
    before = challenge_keys(store.redis)
    # More times than any cap would allow: none of them counts.
    for _ in range(MOST_FROM_ONE_LATELY + 1):
        refused = challenge(client, pest, against(ana["id"]))
        assert (refused.status_code, refused.json["error"]) == (403, "challenge_refused")
    # Named beside another account, too.
    refused = challenge(client, pest, [{"account": bea["id"]}, {"account": ana["id"]}])
    assert (refused.status_code, refused.json["error"]) == (403, "challenge_refused")
    assert challenge_keys(store.redis) == before
    # It says whose refusal it is, and no more.
    for language, said in (("en", "Ana does not take challenges from your account."),
                           ("es", "Ana no acepta desafíos de tu cuenta.")):  # fmt: skip
        asked = {"game": "pocha", "rules": {"schedule": [1, 2]}, "opponents": against("Ana")}
        refused = client.post("/api/v1/challenges", json=asked,
                              headers={**key_of(pest), "Accept-Language": language})  # fmt: skip
        assert (refused.status_code, refused.json["message"]) == (403, said)
    # The pest still challenges others, and Ana the pest.
    assert challenge(client, pest, against(bea["id"])).status_code == 201
    assert challenge(client, ana, against(pest["id"])).status_code == 201


def test_blocking_declines_the_open_challenges_and_frees_the_waiting_places_at_once(
    client: FlaskClient, store: GameStore
) -> None:
    robo = sign_up(client, "Robo")
    pests = [sign_up(client, f"Pest{i}") for i in range(MOST_RECEIVED // MOST_FROM_ONE)]
    made: dict[str, list[str]] = {}
    for pest in pests:
        for _ in range(MOST_FROM_ONE):
            sent = challenge(client, pest, against(robo["id"]))
            assert sent.status_code == 201, sent.json
            made.setdefault(pest["id"], []).append(sent.json["id"])
    late = sign_up(client, "Late", "person")
    full = challenge(client, late, against(robo["id"]))
    assert (full.status_code, full.json["error"]) == (429, "too_many_challenges")

    first = block(client, robo, pests[0]["id"])
    assert first.status_code == 200, first.json
    assert sorted(first.json["declined"]) == sorted(made[pests[0]["id"]])
    # The challenger sees its challenges declined, as if Robo had declined them.
    mine = client.get("/api/v1/challenges", headers=key_of(pests[0])).json["challenges"]
    assert {c["id"]: c["status"] for c in mine} == dict.fromkeys(made[pests[0]["id"]], "declined")
    # Robo's list keeps no challenge of the blocked account.
    listed = client.get("/api/v1/challenges", headers=key_of(robo)).json["challenges"]
    assert {c["challenger"] for c in listed} == {p["id"] for p in pests[1:]}
    assert challenge(client, late, against(robo["id"])).status_code == 201
    # Blocking again changes nothing: the same block, nothing more declined.
    again = block(client, robo, "Pest0")
    assert again.status_code == 200
    assert (again.json["since"], again.json["declined"]) == (first.json["since"], [])
    assert [b["id"] for b in blocked(client, robo)] == [pests[0]["id"]]


def test_blocking_the_pests_frees_the_received_cap_at_once(
    client: FlaskClient, store: GameStore
) -> None:
    """Ten accounts churning challenges fill what Robo may receive within the hour; once
    Robo blocks them, none of theirs counts, and anyone may challenge it at once."""
    robo = sign_up(client, "Robo")
    pests = [
        sign_up(client, f"Pest{i}") for i in range(MOST_RECEIVED_LATELY // MOST_FROM_ONE_LATELY)
    ]
    for pest in pests:
        churn(client, pest, robo, MOST_FROM_ONE_LATELY)
    late = sign_up(client, "Late", "person")
    full = challenge(client, late, against(robo["id"]))
    assert (full.status_code, full.json["error"]) == (429, "too_many_challenges")
    received = challenges_lately_key(robo["id"], "received")
    assert store.redis.zcard(received) == MOST_RECEIVED_LATELY

    assert block(client, robo, pests[0]["id"]).status_code == 200
    assert store.redis.zcard(received) == MOST_RECEIVED_LATELY - MOST_FROM_ONE_LATELY
    assert challenge(client, late, against(robo["id"])).status_code == 201
    for pest in pests[1:]:
        assert block(client, robo, pest["name"]).status_code == 200
    # What is left is Late's one: the pests' are neither counted nor listed.
    assert store.redis.zcard(received) == 1
    assert store.redis.zcard(account_challenges_key(robo["id"])) == 1
    assert len(blocked(client, robo)) == len(pests)


def test_unblocking_takes_the_accounts_challenges_again(client: FlaskClient) -> None:
    ana, pest = sign_up(client, "Ana"), sign_up(client, "Pest")
    assert block(client, ana, pest["id"]).status_code == 200
    assert challenge(client, pest, against(ana["id"])).json["error"] == "challenge_refused"
    for _ in range(2):  # twice: the same
        unblocked = client.delete(f"{BLOCKS}/{pest['id']}", headers=key_of(ana))
        assert unblocked.status_code == 204, unblocked.get_data()
    assert blocked(client, ana) == []
    assert challenge(client, pest, against(ana["id"])).status_code == 201
    # By name, too.
    assert block(client, ana, "Pest").status_code == 200
    assert client.delete(f"{BLOCKS}/pest", headers=key_of(ana)).status_code == 204
    assert blocked(client, ana) == []
    missing = client.delete(f"{BLOCKS}/Nobody", headers=key_of(ana))
    assert (missing.status_code, missing.json["error"]) == (404, "account_not_found")
    anonymous = client.delete(f"{BLOCKS}/{pest['id']}")
    assert (anonymous.status_code, anonymous.json["error"]) == (401, "account_required")


def test_a_name_with_a_slash_is_unblocked_by_name_too(client: FlaskClient) -> None:
    """A name may hold `/` (and `?`, `#`, `%`): its place in the path, as it is or escaped,
    still names the account, as a challenge's body would."""
    ana = sign_up(client, "Ana")
    for name, paths in (
        ("Pe/st", ("Pe/st", "Pe%2Fst")),
        ("a/../b", ("a%2F..%2Fb",)),
        ("Pe?st#", ("Pe%3Fst%23",)),
    ):
        pest = sign_up(client, name)
        for path in paths:
            assert block(client, ana, name).json["id"] == pest["id"]
            unblocked = client.delete(f"{BLOCKS}/{path}", headers=key_of(ana))
            assert unblocked.status_code == 204, (path, unblocked.get_data())
            assert blocked(client, ana) == []
    missing = client.delete(f"{BLOCKS}/No/body", headers=key_of(ana))
    assert (missing.status_code, missing.json["error"]) == (404, "account_not_found")


def test_oneself_our_levels_and_no_account_cannot_be_blocked(
    client: FlaskClient, store: GameStore
) -> None:
    ana = sign_up(client, "Ana")
    level = accounts.level_account(store.redis, "hard")
    itself = ("An account cannot block itself.", "Una cuenta no puede bloquearse a sí misma.")
    cases = (
        (ana["id"], *itself),
        ("ana", *itself),
        (level.id, "hard is one of our bot levels: it challenges nobody, so there is nothing "
         "to block.", "hard es uno de nuestros niveles de bot: no desafía a nadie, así que no "
         "hay nada que bloquear."),
        ("Nobody", "No account has the id or name 'Nobody'.",
         "Ninguna cuenta tiene el id o el nombre 'Nobody'."),
    )  # fmt: skip
    for whom, english, spanish in cases:
        for language, said in (("en", english), ("es", spanish)):
            refused = block(client, ana, whom, language)
            assert (refused.status_code, refused.json["error"]) == (422, "validation_error")
            assert refused.json["message"] == said
            assert refused.json["errors"] == {"json": {"account": [said]}}
    assert blocked(client, ana) == []
    for body in ({}, {"account": ""}, {"account": 7}):
        bad = client.post(BLOCKS, json=body, headers=key_of(ana))
        assert (bad.status_code, bad.json["error"]) == (422, "validation_error"), body
    assert client.get(BLOCKS).json["error"] == "account_required"
    wrong = client.post(BLOCKS, json={"account": "Ana"}, headers={"X-Pocha-Account": "pa_x"})
    assert (wrong.status_code, wrong.json["error"]) == (401, "unknown_account")


def test_blocks_are_capped_and_accounts_gone_give_their_places_up(
    client: FlaskClient, store: GameStore
) -> None:
    r = store.redis
    ana = sign_up(client, "Ana")
    others = [accounts.create(r, f"Other{i}", "bot", now=LONG_AGO)[1] for i in range(MOST_BLOCKS)]
    for other in others[:-1]:
        blocks.block(r, ana["id"], other.id)
    assert block(client, ana, others[-1].id).status_code == 200
    one_more = sign_up(client, "OneMore")
    for language, said in (
        ("en", f"You block {MOST_BLOCKS} accounts, the most you may"),
        ("es", f"Bloqueas {MOST_BLOCKS} cuentas, el máximo permitido"),
    ):
        full = block(client, ana, one_more["id"], language)
        assert (full.status_code, full.json["error"]) == (409, "too_many_blocks")
        assert full.json["message"].startswith(said)
    # One already blocked is still blocked again, full or not.
    assert block(client, ana, others[0].id).status_code == 200
    listed = blocked(client, ana)
    assert len(listed) == MOST_BLOCKS and listed[0]["id"] == others[-1].id
    # An account blocked and forgotten since challenges nobody: it leaves the list, and its
    # place goes to the next block.
    assert accounts.forget(r, [others[1].id], idle_before=time.time()) == [others[1].id]
    assert others[1].id not in {b["id"] for b in blocked(client, ana)}
    assert block(client, ana, one_more["id"]).status_code == 200
    assert r.zcard(account_blocks_key(ana["id"])) == MOST_BLOCKS
    # An id blocked is let go even once its account is gone.
    assert accounts.forget(r, [others[2].id], idle_before=time.time()) == [others[2].id]
    assert client.delete(f"{BLOCKS}/{others[2].id}", headers=key_of(ana)).status_code == 204
    assert r.zscore(account_blocks_key(ana["id"]), others[2].id) is None


def test_a_forgotten_account_takes_its_blocks_with_it(store: GameStore) -> None:
    r = store.redis
    _key, idle = accounts.create(r, "Ocioso", "person", now=LONG_AGO)
    _key, other = accounts.create(r, "Otro", "person")
    blocks.block(r, idle.id, other.id)
    assert account_blocks_key(idle.id) in accounts.account_keys(idle.id)
    assert accounts.forget(r, [idle.id], idle_before=time.time()) == [idle.id]
    assert not r.exists(account_blocks_key(idle.id))


def test_blocks_are_rate_limited_per_address(redis_url: str) -> None:
    client = limited_app(redis_url, RATE_LIMIT_BLOCKS="3/minute").test_client()
    client.environ_base.update(ANA)
    ana, pest = sign_up(client, "Ana"), sign_up(client, "Pest")
    assert client.get(BLOCKS, headers=key_of(ana)).status_code == 200
    assert block(client, ana, pest["id"]).status_code == 200
    assert client.delete(f"{BLOCKS}/{pest['id']}", headers=key_of(ana)).status_code == 204
    for over in (
        client.get(BLOCKS, headers=key_of(ana)),
        block(client, ana, pest["id"], "es"),
        client.delete(f"{BLOCKS}/{pest['id']}", headers=key_of(ana)),
    ):
        assert (over.status_code, over.json["error"]) == (429, "rate_limited")
        assert 1 <= int(over.headers["Retry-After"]) <= 60
    assert "las cuentas que bloqueas" in block(client, ana, pest["id"], "es").json["message"]


def test_a_challenge_whose_game_failed_is_declined_if_blocked_meanwhile(
    client: FlaskClient, store: GameStore
) -> None:
    """All accepted, its game being made: a block then leaves it (it declines open ones
    only); if making the game fails, the challenge opens again, unless blocked meanwhile:
    then it is declined, and no longer in the blocker's list."""
    ana, pest, bea = sign_up(client, "Ana"), sign_up(client, "Pest"), sign_up(client, "Bea")
    r = store.redis
    for whom, blocks_it in ((bea, False), (ana, True)):
        made = challenge(client, pest, against(whom["id"]))
        assert made.status_code == 201, made.json
        found = challenges.get(r, made.json["id"])
        assert found is not None
        status, taken = challenges.answer(r, found, whom["id"], "accepted")
        assert (status, taken) == ("starting", True)
        if blocks_it:
            done = block(client, whom, pest["id"])
            assert (done.status_code, done.json["declined"]) == (200, []), done.json
        challenges.failed(r, found)
        after = challenges.get(r, found.id)
        assert after is not None
        assert after.status == ("declined" if blocks_it else "open")
        listed = {c.id for c in challenges.of_account(r, whom["id"])}
        assert (found.id in listed) is not blocks_it
        # The maker remembers it either way, as it does a challenge declined.
        assert found.id in {c.id for c in challenges.of_account(r, pest["id"])}
