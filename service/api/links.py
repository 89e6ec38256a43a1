"""The OpenAPI links between operations: which values of an answer the next request takes (a
new game's id and its seats' tokens, the ETag a move is decided on, a job's or a match's
id). Each blueprint declares them on its answers with
`blp.doc(responses={status: {"links": ...}})`, so that a reader of the document, a client
generator or a stateful tester (schemathesis, tests/service/test_service_fuzz.py) can
follow a game from its creation to its seats, moves, events and hints.

A token travels in `Authorization: Bearer <token>`, so a link names it as the header's
whole value with the token embedded (`Bearer {$response.body#/token}`). A link can only
take a value from the answer it leaves or from its request's declared parameters, and the
Authorization header is the security scheme's, not a parameter: a view's answer cannot
hand on the token it was asked with, so the moves are linked from the answers that show a
token (a new game's, a taken seat's), and a view links on its version and its last event.
"""

from __future__ import annotations

from typing import Any

Links = dict[str, dict[str, Any]]


def link(operation_id: str, description: str, parameters: dict[str, str]) -> dict[str, Any]:
    """One link: to `operation_id`, with `parameters` (`"path.game_id"`, `"header.If-Match"`)
    taken by runtime expressions from the answer or its request."""
    return {"operationId": operation_id, "description": description, "parameters": parameters}


def bearer(expression: str) -> str:
    """The Authorization header's value, with the token `expression` finds."""
    return "Bearer {" + expression + "}"


def responses(status: int, links: Links) -> dict[str, Any]:
    """`blp.doc`'s `responses` adding `links` to the answer of `status` that the view's
    `blp.response` documents (flask-smorest merges the two)."""
    return {"responses": {status: {"links": links}}}


#: What a seat does with its token: see the game, follow it, move, ask for a hint, come back,
#: leave, and ask for the rematch.
_MOVES = {
    "postBid": "Bid (Pocha)",
    "postPlay": "Play a card",
    "postBet": "Bet (Poch)",
    "postSuit": "Choose the suit (Poch)",
}


def _seat_links(game_id: str, seat: str, token: str, whose: str) -> Links:
    """The operations a seat's token opens, for the game `game_id` and the seat `seat` whose
    token `token` finds (`whose` names that seat in the descriptions)."""
    auth = bearer(token)
    game = {"path.game_id": game_id}
    seated = {**game, "header.Authorization": auth}
    found: Links = {
        "SeatView": link("getGame", f"The game as {whose} sees it.", seated),
        "SeatEvents": link("getEvents", f"The game's events, as {whose} follows them.", seated),
        "History": link("getHistory", "The game's score sheet.", game),
        "Hint": link("askHint", f"A hint for {whose}, on its turn.", seated),
        "ComeBack": link(
            "returnToSeat",
            f"{whose.capitalize()} comes back.",
            {**seated, "path.seat": seat},
        ),
        "Leave": link("leaveSeat", f"{whose.capitalize()} leaves.", {**seated, "path.seat": seat}),
        "Rematch": link("joinRematch", f"{whose.capitalize()} asks for the rematch.", seated),
    }
    for operation_id, description in _MOVES.items():
        found[operation_id.removeprefix("post")] = link(
            operation_id, f"{description}, as {whose}.", seated
        )
    return found


def _host_links(game_id: str, host_token: str) -> Links:
    """The operations the host token opens."""
    hosted = {"path.game_id": game_id, "header.Authorization": bearer(host_token)}
    return {
        "Start": link("startGame", "The host starts the game now.", hosted),
        "SeatToBot": link("giveSeatToBot", "The host gives an open seat to a bot.", hosted),
        "Remove": link("removeFromSeat", "The host removes a seat's person.", hosted),
    }


def _table_links(code: str) -> Links:
    """The table of a game that waits for people (`code` is null for one that does not)."""
    return {
        "Table": link("getTable", "The table, as the lobby shows it.", {"path.code": code}),
        "Join": link("joinTable", "Someone else takes an open seat.", {"path.code": code}),
    }


#: A new game (`createGame`'s 201): seat 0's token (a person's seat), the host token, the
#: table's code when seats are open.
CREATED_GAME: Links = {
    **_seat_links(
        "$response.body#/id",
        "$response.body#/seats/0/seat",
        "$response.body#/seats/0/token",
        "the first seat",
    ),
    **_host_links("$response.body#/id", "$response.body#/host_token"),
    "Delete": link(
        "deleteGame",
        "The host deletes the game.",
        {
            "path.game_id": "$response.body#/id",
            "header.Authorization": bearer("$response.body#/host_token"),
        },
    ),
    **_table_links("$response.body#/table_code"),
}

#: A seat taken at a table (`joinTable`'s 201): its game, the seat and its token.
SEAT_TAKEN: Links = {
    **_seat_links(
        "$response.body#/game_id", "$response.body#/seat", "$response.body#/token", "this seat"
    ),
    **_table_links("$response.body#/table_code"),
}

#: A seat at the rematch (`joinRematch`'s 201): as a seat taken, and the host token of
#: whoever made the new table.
REMATCH_SEAT: Links = {
    **SEAT_TAKEN,
    **_host_links("$response.body#/game_id", "$response.body#/host_token"),
}

#: A view (`getGame`'s 200): its version for If-Match, its last event to follow the game
#: from. The seat's token is the one the view was asked with. (A move's answer is the same
#: view; it is not linked again, so that a stateful tester starts its chains from the
#: answers that make something, a game or a seat, rather than from a move on no game.)
FROM_VIEW: Links = {
    **{
        name: link(
            operation_id,
            f"{description}, decided on this view: If-Match is its version.",
            {"path.game_id": "$request.path.game_id", "header.If-Match": "$response.header.ETag"},
        )
        for operation_id, description in _MOVES.items()
        for name in [operation_id.removeprefix("post")]
    },
    "EventsAfter": link(
        "getEvents",
        "The events after this view.",
        {"path.game_id": "$request.path.game_id", "query.after": "$response.body#/last_event"},
    ),
}

#: A job (`askAiMove`'s and `askHint`'s 202): where to follow it.
JOB: Links = {
    "Job": link("getJob", "The job, until it is finished.", {"path.job_id": "$response.body#/id"})
}

#: A match seen (`getMatch`'s 200): its records, and cancelling it.
MATCH_SEEN: Links = {
    "Records": link(
        "getMatchRecords", "The games played so far.", {"path.match_id": "$response.body#/id"}
    ),
    "Cancel": link("cancelMatch", "Cancel the match.", {"path.match_id": "$response.body#/id"}),
}

#: A match started (`createMatch`'s 202): following it, its records, cancelling it.
MATCH: Links = {
    "Match": link("getMatch", "The match's progress.", {"path.match_id": "$response.body#/id"}),
    **MATCH_SEEN,
}
