"""`pocha play`: a game against bots in the terminal, over the HTTP API.

It creates a game with one person (you, seat 0) and bots, then loops: it narrates the
events since the last look (bids, cards, tricks, scores), and on your turn shows the table
as the web page does (hand, trump, bids, tricks, the trick on the table, scores) and asks
for a bid or a card. The cards and bids the view's `legal` list leaves out are marked
before you choose, each with the reason the view gives (`you.refused`: the rule and the
sentence the server would refuse it with); the client knows no rule of the game. A card
you hold or a bid in range that the rules forbid is sent anyway if chosen, so that the
server's refusal says why, with the game untouched. `?` asks the bots for
a hint, told as the move and the search's reasons for it. After each hand the score sheet
is shown as on paper. Everything goes through `client.api.PochaClient`: this module knows
only the public contract.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from client.api import JSON, ApiError, JobFailed, PochaClient

SUITS = {
    "O": ("oros", "yellow"),
    "C": ("copas", "red"),
    "E": ("espadas", "blue"),
    "B": ("bastos", "green"),
}
RANK_NAMES = {1: "as", 10: "sota", 11: "caballo", 12: "rey"}

#: Why a move is barred now: the rule's code, as the API's refusal names it in `rule`
#: (asistir, montar, fallar, pisar, dealer_restriction), and the API's sentence.
Reason = tuple[str, str]

#: How often to look for the bots' moves while they think (seconds).
POLL_SECONDS = 0.25

Prompt = Callable[[str], str]


class Quit(Exception):
    """The player asked to leave (q, Ctrl-D or Ctrl-C); the game stays on the server."""


def card_name(code: str) -> str:
    """`O1` -> `as de oros`, `B12` -> `rey de bastos`, `C4` -> `4 de copas`."""
    suit, rank = SUITS[code[0]][0], int(code[1:])
    return f"{RANK_NAMES.get(rank, str(rank))} de {suit}"


def count(n: int, noun: str) -> str:
    """`1 card`, `3 cards`: a number with its noun in the right form."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def names_list(names: list[str]) -> str:
    """`Ana`, `Ana and Bot 1`, `Ana, Bot 1 and Bot 2`."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def as_sentence(text: str) -> str:
    """The API's refusals are clauses ("you must follow oros: you hold O4"), written to be
    embedded; said alone they start with a capital and end with a full stop."""
    text = text.strip()
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "!", "?")) else ".")


def card_text(code: str, *, dim: bool = False) -> Text:
    """A card as coloured text: its code and its name."""
    colour = SUITS[code[0]][1]
    return Text(f"{code} ({card_name(code)})", style=f"dim {colour}" if dim else f"bold {colour}")


def refusals(view: JSON) -> dict[int | str, Reason]:
    """What the server refuses you now and why: each card code or bid that your view's
    `legal` leaves out, with its rule and sentence (`you.refused`, sent on your turn)."""
    return {
        r["card"] if "card" in r else r["bid"]: (r["rule"], r["message"])
        for r in view["you"].get("refused", [])
    }


def action_words(action: int | str) -> str:
    """`bid 2`, `play O1 (as de oros)`."""
    return f"bid {action}" if isinstance(action, int) else f"play {action} ({card_name(action)})"


def hint_text(result: JSON, legal: list[Any]) -> Text:
    """A hint job's advice in a player's words: the move, and why. The why is the search's
    own account (`analysis`: per action, the share of the simulated deals in which the bot
    chose it, and the mean points it scored there), or that there was no other choice."""
    action = result["action"]
    bidding = isinstance(action, int)
    line = Text(style="magenta")
    line.append(f"Hint ({result.get('level') or 'bot'}): {action_words(action)}", style="bold")
    if len(legal) == 1:
        return line.append(
            " — the only bid you may make." if bidding else " — your only legal card."
        )
    stats = {s["action"]: s for s in result.get("analysis") or []}
    chosen = stats.get(action)
    if chosen is None:  # a level that does not search (heuristic, random): its choice only
        return line.append(".")
    tries = result.get("iterations")
    deals = count(tries, "simulated deal") if tries else "its simulated deals"
    line.append(
        f" — the bot {'bid' if bidding else 'played'} it in {chosen['share']:.0%} of {deals}; "
        f"expected {chosen['mean_score']:+.1f} points this hand."
    )
    others = sorted(
        (s for a, s in stats.items() if a != action and s.get("visits", 1)),
        key=lambda s: -s["share"],
    )[:3]
    if others:
        said = "; ".join(
            f"{'bid ' if bidding else ''}{s['action']}, expected {s['mean_score']:+.1f}"
            for s in others
        )
        line.append(f"\n  Other choices: {said}.")
    return line


class TerminalGame:
    """One game against bots, played at this terminal."""

    def __init__(self, api: PochaClient, console: Console, ask: Prompt | None = None) -> None:
        self.api = api
        self.console = console
        self.ask: Prompt = ask or console.input
        self.me: PochaClient = api
        self.game_id = ""
        self.seat = 0
        self.names: list[str] = []
        self.seen = 0  # seq of the last event narrated

    # -- the game loop ----------------------------------------------------------------------

    def start(
        self,
        name: str,
        players: int,
        level: str,
        rules: dict[str, Any] | None = None,
        seed: int | None = None,
    ) -> None:
        seats: list[dict[str, Any]] = [{"name": name}]
        seats += [{"name": f"Bot {i}", "bot": level} for i in range(1, players)]
        created = self.api.create_game(seats, rules, seed)
        self.game_id = created["id"]
        self.me = self.api.seat(created, 0)
        self.names = [s["name"] for s in created["seats"]]
        self.console.print(
            Text.assemble(
                "Game ",
                (self.game_id, "bold"),
                f" created: you are {name}, against {players - 1} {level} bots. "
                "Type ? for a hint, q to quit.",
            )
        )

    def run(self) -> int:
        """Play until the game is over (0) or the player quits (also 0: not an error)."""
        try:
            while True:
                self.narrate()
                view = self.me.view(self.game_id)
                if view["last_event"] > self.seen:
                    continue  # more happened since: tell it first
                if view["phase"] == "finished":
                    self.finish(view)
                    return 0
                if view["turn"] == self.seat:
                    self.show_table(view)
                    self.take_turn(view)
                else:
                    time.sleep(POLL_SECONDS)
        except Quit:
            self.console.print(f"Left game {self.game_id}; it stays on the server for a while.")
            return 0
        except OSError as exc:
            self.warn(f"Lost the service at {self.api.base_url}: {exc}")
            return 1

    def take_turn(self, view: JSON) -> None:
        """Ask until the server accepts a bid or a card (or the player quits)."""
        legal: list[Any] = view["you"]["legal"]
        bidding = view["phase"] == "bidding"
        while True:
            if bidding:
                options = "/".join(str(b) for b in legal)
                prompt = f"Your bid [{options}] (? hint, q quit): "
            else:
                prompt = "Your card (number or code, ? hint, q quit): "
            try:
                answer = self.ask(prompt).strip()
            except (EOFError, KeyboardInterrupt) as exc:
                raise Quit from exc
            if answer.lower() in ("q", "quit", "exit"):
                raise Quit
            if answer == "?":
                self.hint(view)
                continue
            action = self.parse(answer, view)
            if action is None:
                continue
            try:
                self.me.act(self.game_id, action, version=view["version"])
                return
            except ApiError as exc:
                self.warn(as_sentence(exc.message))
                if exc.error in ("stale_version", "not_your_turn", "conflict"):
                    return  # the game moved on: look again

    def parse(self, answer: str, view: JSON) -> int | str | None:
        """The action an answer names, or None (and a message) if it names none. A card
        in hand or a bid in range that is not in `legal` passes too: the server's refusal
        names the rule (and leaves the game as it was)."""
        legal: list[Any] = view["you"]["legal"]
        hand: list[str] = view["you"]["hand"]
        if view["phase"] == "bidding":
            if not answer.isdigit():
                self.warn(f"Bid a number: {', '.join(map(str, legal))}.")
                return None
            bid = int(answer)
            if bid in legal or bid <= view["cards_per_player"]:
                # In range yet not legal is the dealer's restriction: the server says so.
                return bid
            self.warn(
                f"Bid from 0 to {view['cards_per_player']}: you may bid "
                f"{', '.join(map(str, legal))}."
            )
            return None
        card = answer.upper()
        if answer.isdigit():
            index = int(answer)
            if not 1 <= index <= len(hand):
                pick = "Type 1" if len(hand) == 1 else f"Pick a card from 1 to {len(hand)}"
                self.warn(f"{pick}, or a card's code.")
                return None
            card = hand[index - 1]
        if card not in hand:
            self.warn(f"You do not hold {answer}: pick a number or a code.")
            return None
        return card

    def warn(self, message: str) -> None:
        """Say something went wrong. As Text, never markup: the message may hold what the
        player typed or the server said, and a `[` in it must print as itself."""
        self.console.print(Text(message, style="red"))

    def hint(self, view: JSON) -> None:
        self.console.print("Asking the bots…")
        try:
            job = self.me.hint(self.game_id, wait=60)
        except (ApiError, JobFailed, TimeoutError) as exc:
            self.warn(f"No hint: {exc}")
            return
        self.console.print(hint_text(job["result"], view["you"]["legal"]))

    # -- what is shown ----------------------------------------------------------------------

    def narrate(self) -> None:
        """Tell every event since the last look, one line each."""
        for event in self.api.events(self.game_id, after=self.seen):
            self.seen = event["seq"]
            line = self.describe(event)
            if line is not None:
                self.console.print(line)
            if event["type"] == "hand_scored":
                self.console.print(self.score_sheet(self.api.history(self.game_id)))

    def describe(self, event: JSON) -> Text | None:
        kind = event["type"]
        seat = event.get("seat")
        you = seat == self.seat
        who = "You" if you else self.names[seat] if seat is not None else ""
        if kind == "hand_dealt":
            trump = event["trump"]
            dealer = event["dealer"]
            deals = "You deal" if dealer == self.seat else f"{self.names[dealer]} deals"
            text = Text(
                f"\nHand {event['hand_number']} of {event['hands_total']}"
                f"{' (tiebreak)' if event.get('tiebreak') else ''}: "
                f"{count(event['cards_per_player'], 'card')} each. {deals}. Trump: ",
                style="bold",
            )
            text.append(card_text(trump["card"]))
            if trump["holder"] is not None:
                text.append(f", held by {self.holder(trump['holder'])}")
            return text.append(".")
        if kind == "bid":
            return Text(f"{who} {'bid' if you else 'bids'} {event['bid']}.")
        if kind == "card_played":
            return Text(f"{who} {'play' if you else 'plays'} ").append(card_text(event["card"]))
        if kind == "trick_won":
            won = "win" if you else "wins"
            return Text(f"{who} {won} trick {event['trick_number']}.", style="italic")
        if kind == "game_over":
            return None  # `finish` shows the result
        return None  # hand_scored: the score sheet follows

    def holder(self, seat: int) -> str:
        """Who holds the trump card, as the end of "held by ..."."""
        return "you" if seat == self.seat else self.names[seat]

    def show_table(self, view: JSON) -> None:
        self.console.print(self.table(view))

    def table(self, view: JSON) -> Panel:
        """Everything a seat knows now, laid out as the web page does."""
        trump = view["trump"]
        # A tiebreak hand is not one of the hands the game was set to have: say which it is.
        hand = (
            f"Tiebreak {view['tiebreak_hand']}"
            if view.get("tiebreak_hand")
            else f"Hand {view['hand_number']} of {view['hands_total']}"
        )
        head = Text(f"{hand} · {count(view['cards_per_player'], 'card')} each · trump: ")
        head.append(card_text(trump["card"]))
        if trump["holder"] is not None:
            head.append(f" (held by {self.holder(trump['holder'])})")
        seats = Table(box=None, pad_edge=False)
        for column in ("", "Player", "", "Bid", "Tricks", "Score"):
            seats.add_column(
                column, justify="right" if column in ("Bid", "Tricks", "Score") else "left"
            )
        for seat, name in enumerate(self.names):
            role = "dealer" if view["dealer"] == seat else "mano" if view["mano"] == seat else ""
            bid = view["bids"][seat]
            seats.add_row(
                "▶" if view["turn"] == seat else "",
                Text(name + (" (you)" if seat == self.seat and name != "You" else "")),
                role,
                "-" if bid is None else str(bid),
                str(view["tricks_won"][seat]),
                str(view["scores"][seat]),
                style="bold" if view["turn"] == seat else None,
            )
        trick = Text("On the table: ")
        if not view["trick"]:
            trick.append("nothing yet" if view["phase"] == "playing" else "(bidding)")
        for i, played in enumerate(view["trick"]):
            trick.append(", " if i else "").append(f"{self.names[played['seat']]} ")
            trick.append(card_text(played["card"]))
        winning = view.get("winning")
        if winning is not None:
            who = "you are" if winning == self.seat else f"{self.names[winning]} is"
            trick.append(f" — {who} winning it")
        parts: list[Any] = [head, seats, trick]
        if view["last_trick"] and not view["trick"]:
            last = Text("Last trick: ", style="dim")
            for i, played in enumerate(view["last_trick"]):
                last.append(", " if i else "").append(f"{self.names[played['seat']]} ")
                last.append(card_text(played["card"], dim=True))
            parts.append(last)
        parts.append(self.hand_text(view))
        parts.extend(self.barred(view))
        doing = "bid" if view["phase"] == "bidding" else "play"
        return Panel(Group(*parts), title=f"Your turn to {doing}", title_align="left")

    def hand_text(self, view: JSON) -> Text:
        """Your cards, numbered; those the rules bar now are marked ✗ and dimmed (the
        mark is for a terminal without colour)."""
        text = Text("Your hand: ")
        refused = refusals(view)
        for i, code in enumerate(view["you"]["hand"], 1):
            barred = code in refused
            text.append(f"  {i}) " + ("✗ " if barred else ""))
            text.append(card_text(code, dim=barred))
        return text

    def barred(self, view: JSON) -> list[Text]:
        """One line per reason the server gives against some of your cards or bids now,
        with the rule's name (the Spanish terms are the game's own)."""
        refused = refusals(view)
        lines: list[Text] = []
        if view["phase"] == "bidding":
            for bid in range(view["cards_per_player"] + 1):
                if bid in refused:
                    lines.append(Text(f"✗ Not {bid}: {refused[bid][1]}.", style="yellow"))
            return lines
        cards: dict[Reason, list[str]] = {}
        for i, code in enumerate(view["you"]["hand"], 1):
            if code in refused:
                cards.setdefault(refused[code], []).append(f"{i}) {code}")
        for (rule, sentence), barred in cards.items():
            lines.append(Text(f"✗ Not {', '.join(barred)}: {sentence} ({rule}).", style="yellow"))
        return lines

    def score_sheet(self, history: JSON) -> Table:
        """The score sheet as on paper: per hand, each player's bid, tricks and total."""
        sheet = Table(title="Score sheet", caption="bid/won, points → total; * tiebreak")
        sheet.add_column("Hand", justify="right")
        sheet.add_column("Cards", justify="right")
        sheet.add_column("Trump")
        for name in self.names:
            sheet.add_column(Text(name), justify="right", no_wrap=True)
        for hand in history["hands"]:
            cells = [
                f"{hand['bids'][s]}/{hand['tricks'][s]} {hand['points'][s]:+d} → "
                f"{hand['totals'][s]}"
                for s in range(len(self.names))
            ]
            trump = hand["trump"]["card"]
            sheet.add_row(
                str(hand["hand_number"]) + ("*" if hand.get("tiebreak") else ""),
                str(hand["cards"]),
                Text(trump, style=SUITS[trump[0]][1]),
                *cells,
            )
        return sheet

    def finish(self, view: JSON) -> None:
        winners = [self.names[s] for s in view["winners"]]
        won = "Winner" if len(winners) == 1 else "Winners"
        scores = ", ".join(f"{n} {s}" for n, s in zip(self.names, view["scores"], strict=True))
        self.console.print(
            Panel(
                Text(f"Game over. {won}: {names_list(winners)}.\nFinal scores: {scores}."),
                style="bold green",
            )
        )


def refusal(exc: ApiError) -> str:
    """What a refused request did wrong: for a validation error each field's message once,
    named by the field (a wrong --level is the same mistake in every bot's seat: "bot: ..."
    once, not per seat), else the API's sentence."""
    said: list[str] = []

    def collect(node: object, field: str) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                collect(value, field if str(key).isdigit() else str(key))
        elif isinstance(node, list):
            for value in node:
                collect(value, field)
        else:
            # marshmallow files what no one field is to blame for under `_schema`.
            line = f"{field}: {node}" if field and not field.startswith("_") else str(node)
            if line not in said:
                said.append(line)

    if exc.error == "validation_error" and exc.errors:
        for fields in exc.errors.values():  # by location (json, query...), then field
            collect(fields, "")
    return " ".join(said) or exc.message


def parse_schedule(text: str) -> str | list[int]:
    """`classic`, `pyramid`, or card counts such as `1,2,3`."""
    text = text.strip()
    if text in ("classic", "pyramid"):
        return text
    try:
        return [int(part) for part in text.split(",") if part.strip()]
    except ValueError as exc:
        raise ValueError(
            f"schedule: 'classic', 'pyramid' or counts like 1,2,3, not {text!r}"
        ) from exc


def play(
    url: str,
    players: int,
    level: str,
    name: str = "You",
    schedule: str = "classic",
    seed: int | None = None,
    console: Console | None = None,
    ask: Prompt | None = None,
) -> int:
    """`pocha play`: create a game against bots at `url` and play it here; exit status."""
    console = console or Console()
    game = TerminalGame(PochaClient(url), console, ask)
    try:
        rules = {"schedule": parse_schedule(schedule)}
    except ValueError as exc:
        console.print(Text(f"Cannot create the game: {exc}.", style="red"))
        return 2
    try:
        game.start(name, players, level, rules, seed)
    except ApiError as exc:
        console.print(Text(f"Cannot create the game: {refusal(exc)}", style="red"))
        return 2
    except OSError as exc:
        console.print(
            Text(
                f"Cannot reach the Pocha service at {url} ({exc}). Start it with "
                "`pocha serve`, or give its address with --url.",
                style="red",
            )
        )
        return 2
    return game.run()
