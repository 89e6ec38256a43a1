"""A Pocha stream bot in 30 lines of standard Python: it holds its account's event stream,
accepts every challenge made to it and plays the first legal action of each of its turns,
with its key, which is all it is given: `GET /api/v1/account` tells it its account's id. Run
with the key `POST /api/v1/accounts` answered: POCHA_KEY=pa_... python
examples/stream_bot.py http://localhost:8000 (docs/bots-api.md, "Stream bots")."""

import json
import os
import sys
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
ME = os.environ.get("POCHA_ACCOUNT") or json.load(call("GET", "/api/v1/account"))["id"]


def on(event: dict) -> None:
    if event["type"] == "challenge":  # said to its challenger too, and at each acceptance
        challenge = event["challenge"]
        named = [seat["account"] for seat in challenge["seats"][1:]]
        if challenge["status"] == "open" and ME in named and ME not in challenge["accepted"]:
            call("POST", f"/api/v1/challenges/{challenge['id']}/accept")
    elif event["type"] == "your_turn":
        game = f"/api/v1/games/{event['game_id']}"
        view = json.load(call("GET", game))
        if view["turn"] == view["you"]["seat"]:  # else the stand-in played it already
            action = view["you"]["legal"][0]
            path, field = ("bids", "bid") if isinstance(action, int) else ("plays", "card")
            call("POST", f"{game}/{path}", {field: action})


while True:  # a stream ends after a minute or so: connecting again loses nothing
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
