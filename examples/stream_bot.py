"""A Pocha stream bot in a page of standard Python: it holds its account's event stream,
accepts every Pocha challenge made to it (and declines Poch's, which it does not play) and
plays the first legal action of each of its turns, with its key, which is all it is given:
`GET /api/v1/account` tells it its account's id. A lost stream (the service restarting, the
network) is connected again. Run with the key `POST /api/v1/accounts` answered:
POCHA_KEY=pa_... python examples/stream_bot.py http://localhost:8000 (docs/bots-api.md,
"Stream bots")."""

import http.client
import json
import os
import sys
import time
import urllib.error
import urllib.request
from typing import Any

URL = sys.argv[1] if len(sys.argv) > 1 else "http://localhost:8000"
KEY = os.environ["POCHA_KEY"]


def call(method: str, path: str, body: object = None, **headers: str) -> Any:
    data = None if body is None else json.dumps(body).encode()
    headers = {"X-Pocha-Account": KEY, "Authorization": f"Bearer {KEY}", **headers}
    headers["Content-Type"] = "application/json"
    return urllib.request.urlopen(urllib.request.Request(URL + path, data, headers, method=method))


# The key's account: the one a challenge must name for the bot to answer it.
ME = os.environ.get("POCHA_ACCOUNT")


def on(event: dict) -> None:
    if event["type"] == "challenge":  # said to its challenger too, and at each acceptance
        challenge = event["challenge"]
        named = [seat["account"] for seat in challenge["seats"][1:]]
        if challenge["status"] == "open" and ME in named and ME not in challenge["accepted"]:
            answer = "accept" if challenge["game"] == "pocha" else "decline"
            call("POST", f"/api/v1/challenges/{challenge['id']}/{answer}")
    elif event["type"] == "your_turn":
        game = f"/api/v1/games/{event['game_id']}"
        view = json.load(call("GET", game))
        # Not yet its turn: the stand-in played it already. (A Poch seat a match gave it is
        # the stand-in's to play.)
        if view["game"] == "pocha" and view["turn"] == view["you"]["seat"]:
            action = view["you"]["legal"][0]
            path, field = ("bids", "bid") if isinstance(action, int) else ("plays", "card")
            call("POST", f"{game}/{path}", {field: action})


def follow() -> None:
    with call("GET", "/api/v1/bot/events", Accept="text/event-stream") as stream:
        for line in stream:
            if line.startswith(b"data: "):
                event = json.loads(line[6:])
                if event["type"] == "replaced":
                    sys.exit("another stream of this account took over")
                try:
                    on(event)
                except urllib.error.HTTPError as refused:  # e.g. a move the clock beat
                    print(refused.code, refused.read().decode(), file=sys.stderr)


while True:  # a stream ends after a minute or so: connecting again loses nothing
    try:
        ME = ME or json.load(call("GET", "/api/v1/account"))["id"]
        follow()
    except urllib.error.HTTPError as refused:
        if refused.code < 500 and refused.code != 429:  # the key refused: no use trying again
            sys.exit(f"{refused.code} {refused.read().decode()}")
        print(f"no stream ({refused.code}): connecting again in 2 s", file=sys.stderr)
        time.sleep(2)
    except (OSError, http.client.HTTPException) as lost:  # the service away, the network
        print(f"no stream ({lost}): connecting again in 2 s", file=sys.stderr)
        time.sleep(2)
