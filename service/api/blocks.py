"""The accounts an account blocks, over HTTP, under its own key (`X-Pocha-Account`):
listing them, blocking one (by id or by name, as a challenge names its opponents) and
unblocking one. A blocked account's challenges to the blocker are refused, and the two
share no table or match made from then on. The routes join
the blueprint of the account a key opens (`/api/v1/account`).
How it works: docs/bots-api.md, "Blocking".
"""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from flask.views import MethodView
from marshmallow import fields, validate

from core.play import blocks
from core.play.blocks import Blocked
from core.store.blocks import MOST_BLOCKS
from service.accounts import SCHEME, key_holder
from service.answers import Answer
from service.api.accounts import own
from service.api.jobs import document_each_error
from service.context import services

_SECURITY: dict[str, Any] = {"security": [{SCHEME: []}]}
_KEY_ERRORS = (
    (401, "account_required: no X-Pocha-Account; unknown_account: a key that opens no account."),
    (403, "account_disabled: the account is disabled."),
    (429, "rate_limited: too many reads and changes of blocks from your address or key "
          "(`POCHA_RATE_LIMIT_BLOCKS`), wrong keys counted too."),
    (503, "unavailable: retry shortly."),
)  # fmt: skip
_BLOCKED = [
    {
        "in": "path",
        "name": "account",
        "description": "The blocked account's id, or its name.",
        "schema": {"type": "string", "minLength": 1},
    }
]


def _documented(*extra: tuple[int, str]) -> Any:
    return document_each_error(own, *_KEY_ERRORS, *extra)


class NewBlockSchema(ma.Schema):
    account = fields.String(
        required=True,
        validate=validate.Length(1, 64),
        metadata={"description": "The account to block: its id or its name.", "example": "Pest"},
    )


class BlockSchema(Answer):
    id = fields.String(
        metadata={"description": "The blocked account's id.", "example": "q3ZkR8vX1mNc2pLw"}
    )
    name = fields.String(metadata={"description": "Its name.", "example": "Pest"})
    since = fields.Float(metadata={"description": "When it was blocked (Unix time)."})


class NewBlockAnswerSchema(BlockSchema):
    declined = fields.List(
        fields.String(),
        metadata={
            "description": "The ids of its open challenges to you, declined by this block "
            "(none when it was blocked already). Its challenges to you leave your list of "
            "challenges, and count no more against how many you may receive.",
            "example": ["b8VnQ2xKp0aZq1Wm"],
        },
    )


class BlockListSchema(Answer):
    blocks = fields.List(
        fields.Nested(BlockSchema),
        metadata={"description": "The accounts you block, the latest blocked first."},
    )
    most = fields.Integer(
        metadata={"description": "The most accounts one account may block.", "example": 1000}
    )


def _shown(blocked: Blocked) -> dict[str, Any]:
    return {"id": blocked.id, "name": blocked.name, "since": blocked.since}


@own.route("/blocks")
class Blocks(MethodView):
    @own.doc(operationId="listBlocks", **_SECURITY)
    @own.response(200, BlockListSchema)
    @_documented()
    def get(self) -> dict[str, Any]:
        """The accounts you block

        With your account's key: every account you block, the latest first, and how many
        you may block.
        """
        found = blocks.of_account(services().redises.store, key_holder())
        return {"blocks": [_shown(b) for b in found], "most": MOST_BLOCKS}

    @own.doc(operationId="blockAccount", **_SECURITY)
    @own.arguments(NewBlockSchema(), location="json")
    @own.response(200, NewBlockAnswerSchema)
    @_documented(
        (409, "too_many_blocks: you block as many accounts as you may (1000): unblock one "
              "first."),
        (422, "validation_error: no such account, your own account, or one of our bot "
              "levels (they challenge nobody)."),
        (400, "bad_json: the body is not JSON."),
        (408, "body_too_slow."),
        (413, "body_too_large."),
        (415, "unsupported_media_type."),
    )  # fmt: skip
    def post(self, body: dict[str, Any]) -> dict[str, Any]:
        """Block an account

        With your account's key: the account's challenges to you are refused from now on
        (403 `challenge_refused`, which tells it no more than that you take none of its
        challenges). Its open challenges to you are declined at once, and those it made
        within the hour count no more against how many you may receive. It takes no seat
        at a table you made or sit at, nor you at one where it sits, and no match seats
        you together or seats your bot at its asking (403 `seat_refused`); a game already
        made is left as it is. Blocking an account you block already changes nothing.
        """
        blocked, declined = blocks.block(services().redises.store, key_holder(), body["account"])
        return {**_shown(blocked), "declined": declined}


# `path`: a name may hold `/` (as it is, or escaped: the path is read decoded), and names
# the account here as it does in a challenge's body.
@own.route("/blocks/<path:account>", parameters=_BLOCKED)
class Block(MethodView):
    @own.doc(operationId="unblockAccount", **_SECURITY)
    @own.response(204)
    @_documented((404, "account_not_found: no account has this id or name."))
    def delete(self, account: str) -> None:
        """Unblock an account

        With your account's key: its challenges to you are taken again. Unblocking an
        account you do not block changes nothing.
        """
        blocks.unblock(services().redises.store, key_holder(), account)
