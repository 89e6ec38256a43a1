"""A stream bot on the typed Python client (`client.api`, in a clone of this repository): it
holds its account's event stream, accepts every challenge made to it, and plays the first
legal action of each of its turns in either game, the view told apart by `game` and then by
`phase` so that `you["legal"]` has the phase's type, with no cast. A stream ends after a
minute or so: it connects again, losing nothing. Run with the key `POST /api/v1/accounts`
answered: POCHA_KEY=pa_... PYTHONPATH=. python examples/client_bot.py http://localhost:8000
(docs/clients.md, "A bot on the Python client")."""

from __future__ import annotations

import http.client
import os
import sys
import time

from client.api import ApiError, PochaClient, View

URL = sys.argv[1] if len(sys.argv) > 1 else "http://localhost:8000"
KEY = os.environ["POCHA_KEY"]
#: The key makes games and answers challenges, and it opens the account's seats as a token.
bot = PochaClient(URL, token=KEY, account_key=KEY)


def move(view: View) -> None:
    """The first legal action of this seat's turn, sent to its phase's endpoint."""
    game, version = view["id"], view["version"]
    if view["game"] == "pocha":
        if view["phase"] == "bidding":
            bot.bid(game, view["you"]["legal"][0], version=version)
        elif view["phase"] == "playing":
            bot.play(game, view["you"]["legal"][0], version=version)
    elif view["phase"] == "betting":
        bot.bet(game, view["you"]["legal"][0], version=version)
    elif view["phase"] == "starting":
        bot.play(game, view["you"]["legal"][0], version=version)
    elif view["phase"] == "choosing":
        bot.choose_suit(game, view["you"]["legal"][0], version=version)


def follow(me: str) -> None:
    for event in bot.bot_events():
        if event["type"] == "replaced":
            sys.exit("another stream of this account took over")
        if event["type"] == "challenge":  # said to its challenger too, and at each change
            challenge = event["challenge"]
            named = [seat["account"] for seat in challenge["seats"][1:]]
            if challenge["status"] == "open" and me in named and me not in challenge["accepted"]:
                bot.accept_challenge(challenge["id"])
        elif event["type"] == "your_turn":
            view = bot.view(event["game_id"])
            # Not its turn any more: a clock ran out and the stand-in played it.
            if "you" in view and view["turn"] == view["you"]["seat"]:
                try:
                    move(view)
                except ApiError as refused:  # e.g. 412 stale_version: the clock beat it
                    print(refused, file=sys.stderr)


if __name__ == "__main__":
    while True:
        try:
            follow(bot.own_account()["id"])
        except ApiError as refused:
            if refused.status < 500 and refused.status != 429:  # the key refused
                sys.exit(str(refused))
            print(f"no stream ({refused}): connecting again in 2 s", file=sys.stderr)
            time.sleep(2)
        except (OSError, http.client.HTTPException) as lost:  # the service away, the network
            print(f"no stream ({lost}): connecting again in 2 s", file=sys.stderr)
            time.sleep(2)
