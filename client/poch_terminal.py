"""`pocha play --game poch`: Poch, the German Pochbrett game, in the terminal, over the API.
How it works: docs/clients.md, `client.poch_terminal`.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from client.api import JSON, Data
from client.terminal import TerminalGame, count, names_list

#: Each suit's letter: its German name, its sign, its English name and its colour here (a
#: four-colour pack, so that no two suits look alike).
SUITS: dict[str, tuple[str, str, str, str]] = {
    "C": ("Kreuz", "♣", "clubs", "green"),
    "S": ("Pik", "♠", "spades", "bold"),
    "H": ("Herz", "♥", "hearts", "red"),
    "D": ("Karo", "♦", "diamonds", "blue"),
}
RANKS = {
    "7": "Sieben", "8": "Acht", "9": "Neun", "10": "Zehn",
    "J": "Bube", "Q": "Dame", "K": "König", "A": "Ass",
}  # fmt: skip
#: The board's plates in the API's words, with the names painted on a Pochbrett.
PLATES = (
    ("ace", "Ass"), ("king", "König"), ("queen", "Dame"), ("jack", "Bube"), ("ten", "Zehn"),
    ("marriage", "Mariage"), ("sequence", "Sequenz"), ("pocher", "Poch"),
)  # fmt: skip
PLATE_NAMES = dict(PLATES)
SET_SIZES = {2: "a pair", 3: "three of a kind", 4: "four of a kind"}
BET_VERBS = {"pass": "pass", "bet": "bet", "hold": "hold at", "raise": "raise to"}
BET_VERBS_3RD = {"pass": "passes", "bet": "bets", "hold": "holds at", "raise": "raises to"}
DIRECTIONS = {"up": "upwards (7 → Ass)", "down": "downwards (Ass → 7)"}


def card_name(code: str) -> str:
    """`HA` -> `Herz-Ass`, `S10` -> `Pik-Zehn`, `C7` -> `Kreuz-Sieben`."""
    return f"{SUITS[code[0]][0]}-{RANKS[code[1:]]}"


def card_text(code: str, *, named: bool = False) -> Text:
    """A card as coloured text: its code, and with `named` its German name."""
    return Text(f"{code} ({card_name(code)})" if named else code, style=SUITS[code[0]][3])


def suit_text(letter: str) -> Text:
    """`H` -> `♥ Herz`, in the suit's colour."""
    name, sign, _, colour = SUITS[letter]
    return Text(f"{sign} {name}", style=colour)


def cards_text(codes: list[str]) -> Text:
    """Cards side by side: `CK HK SK`."""
    text = Text()
    for i, code in enumerate(codes):
        text.append(" " if i else "").append(card_text(code))
    return text


def set_text(codes: list[str]) -> Text:
    """A set shown at the showdown: `three of a kind (CK HK SK)`."""
    return Text(f"{SET_SIZES.get(len(codes), 'a set')} (").append(cards_text(codes)).append(")")


def suit_of_answer(answer: str) -> str | None:
    """The suit letter an answer names: `h`, `Herz`, `hearts`, `♥`; None if none."""
    word = answer.strip().lower()
    for letter, (german, sign, english, _) in SUITS.items():
        if word in (letter.lower(), german.lower(), english, english[:-1], sign):
            return letter
    return None


def bet_words(call: str, amount: int) -> str:
    """A bet as the seats table shows it: `pass`, `bet 3`, `hold 3`, `raise 5`."""
    return "pass" if call == "pass" else f"{call} {amount}"


def amounts(legal: list[Any]) -> list[int]:
    """The amounts among the legal actions (bets or raises)."""
    return [a for a in legal if isinstance(a, int) and not isinstance(a, bool)]


def span(numbers: list[int]) -> str:
    """`4-42`, or `4` for one number."""
    return str(numbers[0]) if len(numbers) == 1 else f"{numbers[0]}-{numbers[-1]}"


class PochTerminalGame(TerminalGame):
    """A game of Poch at this terminal; see the module's paragraph."""

    GAME = "poch"
    OVER = "over"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.rules: Data = {}  # the game's options, as the views give them

    def look_at(self, view: Data) -> None:
        super().look_at(view)
        self.rules = view.get("rules") or self.rules

    def who(self, seat: int, event: Data | None = None) -> tuple[str, bool]:
        """The subject for `seat` ("You", a name, "Bea's stand-in") and whether it is you
        (for the verb's form)."""
        you = seat == self.seat
        who = "You" if you else self.names[seat] if seat < len(self.names) else f"Seat {seat}"
        if event is not None and event.get("by") == "stand_in":
            # The table's stand-in bot made this person's decision (clock out, away, left).
            return ("Your stand-in" if you else f"{who}'s stand-in"), False
        return who, you

    def whom(self, seat: int) -> str:
        """A seat as an object: `you`, or the name."""
        return "you" if seat == self.seat else self.names[seat]

    # -- events -----------------------------------------------------------------------------

    def new_events(self) -> list[Data]:
        """The events since the last one told, each suit's run of cards made one: a suit
        runs through forced cards, eight `play` events for one decision."""
        if not self.rules:  # the deal's count needs the rules: one look first
            self.look_at(self.me.view(self.game_id))
        merged: list[Data] = []
        run: JSON | None = None  # the run of cards being merged, while it is the last line
        for event in super().new_events():
            if event["type"] != "play":
                merged.append(event)
                run = None
            elif run is not None and run["cards"][-1][1][0] == event["card"][0]:
                run["cards"].append([event["seat"], event["card"]])
                run["seq"] = event["seq"]
            else:
                played = [[event["seat"], event["card"]]]
                run = {"type": "plays", "seq": event["seq"], "cards": played}
                merged.append(run)
        return merged

    def dealing(self, event: Data) -> bool:
        # A table waiting for people has dealt its first deal already; it is told when the
        # game starts, with everyone's name.
        return bool(event["type"] in ("ante", "deal", "collect", "leave"))

    def after(self, event: Data) -> None:
        """Nothing follows an event's line (Poch has no score sheet: the chips are on the
        table shown on each of your turns)."""

    def describe(self, event: Data) -> Text | None:
        kind = event["type"]
        seat: Any = event.get("seat")  # an int in every event of a seat
        if kind == "ante":
            deals = self.rules.get("deals")
            of = f" of {deals}" if deals else ""
            who, you = self.who(event["dealer"])
            dealer = f"{who} {'deal' if you else 'deals'}"
            plates = len(PLATES)
            return Text(
                f"\nDeal {event['deal']}{of}. {dealer}. Everyone pays "
                f"{count(event['each'], 'chip')} onto the board "
                f"({event['each'] // plates} on each plate).",
                style="bold",
            )
        if kind == "deal":
            cards = ", ".join(
                f"{self.names[int(s)] if int(s) != self.seat else 'you'} {n}"
                for s, n in event["counts"].items()
            )
            return Text("Trump: ").append(suit_text(event["trump"])).append(f". Cards: {cards}.")
        if kind == "collect":
            who, you = self.who(seat)
            return (
                Text(f"{who} {'show' if you else 'shows'} ")
                .append(cards_text(event["cards"]))
                .append(
                    f" and {'take' if you else 'takes'} the {PLATE_NAMES[event['plate']]} "
                    f"plate: {count(event['chips'], 'chip')}."
                )
            )
        if kind in ("pass", "bet", "hold", "raise"):
            who, you = self.who(seat, event)
            verb = (BET_VERBS if you else BET_VERBS_3RD)[kind]
            said = f"{who} {verb}" + ("." if kind == "pass" else f" {event['amount']}.")
            return Text(said + ("" if kind == "pass" else f" Pot: {event['pot']}."))
        if kind == "no_bet":
            return Text(
                f"Nobody bets: the pot ({event['pot']}) and the Poch plate stay for the next deal.",
                style="italic",
            )
        if kind == "showdown":
            return self.showdown_text(event["sets"])
        if kind == "no_set":
            return Text(
                f"Nobody has a set: the pot ({event['pot']}) stays, with the Poch plate, for "
                "the next deal.",
                style="italic",
            )
        if kind == "bluff":
            who, you = self.who(seat)
            return Text(
                f"{who} {'do' if you else 'does'} not hold the best set: "
                f"{'pay' if you else 'pays'} {count(event['paid'], 'chip')} into the pot "
                "(twice the pot).",
                style="yellow",
            )
        if kind == "take_pot":
            who, you = self.who(seat)
            won = event["pot"] + event["pocher"]
            return Text(
                f"{who} {'take' if you else 'takes'} the pot ({event['pot']}) and the Poch "
                f"plate ({event['pocher']}): {count(won, 'chip')}.",
                style="bold",
            )
        if kind == "start":
            who, you = self.who(seat, event)
            return Text(
                f"{who} {'start' if you else 'starts'} the shedding "
                f"{DIRECTIONS.get(event['direction'], event['direction'])}."
            )
        if kind == "choose":
            who, you = self.who(seat, event)
            text = Text(f"{who} {'choose' if you else 'chooses'} ")
            return text.append(suit_text(event["suit"])).append(".")
        if kind == "plays":
            text = Text("  ")
            for i, (s, code) in enumerate(event["cards"]):
                text.append(" · " if i else "").append(card_text(code))
                text.append(f" {self.whom(s)}")
            return text
        if kind == "deal_won":
            who, you = self.who(event["winner"])
            paid = ", ".join(
                f"{self.whom(int(s))} {'pay' if int(s) == self.seat else 'pays'} {n or 'nothing'}"
                for s, n in event["paid"].items()
            )
            return Text(
                f"{who} {'have' if you else 'has'} no cards left and "
                f"{'win' if you else 'wins'} deal {event['deal']}"
                + (f": {paid}." if paid else "."),
                style="bold",
            )
        if kind == "leave":
            who, you = self.who(seat)
            return Text(
                f"{who} cannot pay the ante and {'leave' if you else 'leaves'} the game with "
                f"{count(event['chips'], 'chip')}.",
                style="yellow",
            )
        if kind == "game_over":
            return None  # `finish` shows the result
        who, you = self.who(seat, event) if seat is not None else ("", False)
        return self.table_event(kind, event, who, you)

    def showdown_text(self, sets: Data) -> Text:
        """Everyone's best set, as shown: `Showdown: you a pair (C8 H8); Bot 1 ...`."""
        text = Text("Showdown: ")
        if not sets:
            return text.append("nobody has a set.")
        for i, (seat, codes) in enumerate(sets.items()):
            text.append("; " if i else "").append(f"{self.whom(int(seat))} ")
            text.append(set_text(codes))
        shown = {int(s) for s in sets}
        others = [self.whom(s) for s in range(len(self.names)) if s not in shown]
        if others:
            text.append(f"; no set: {names_list(others)}")
        return text.append(".")

    # -- the table --------------------------------------------------------------------------

    def doing(self, view: Data) -> str:
        return {
            "betting": "bet",
            "starting": "start the shedding",
            "choosing": "choose a suit",
        }.get(view["phase"], "play")

    def table(self, view: Data) -> Panel:
        """Everything a seat knows now: the board, the seats, the deal so far, your hand."""
        deals = self.rules.get("deals")
        head = Text(f"Deal {view['deal']}" + (f" of {deals}" if deals else "") + " · trump: ")
        if view["trump"]:
            head.append(suit_text(view["trump"]))
        if view.get("direction"):
            head.append(f" · shedding {DIRECTIONS.get(view['direction'], view['direction'])}")
        parts: list[Any] = [head, self.board(view), self.seats(view)]
        if view["collected"]:
            collected = Text("Collected: ")
            for i, entry in enumerate(view["collected"]):
                collected.append(" · " if i else "")
                collected.append(f"{self.whom(entry['seat'])} {PLATE_NAMES[entry['plate']]} (")
                collected.append(cards_text(entry["cards"])).append(f") {entry['chips']}")
            parts.append(collected)
        if view["showdown"]:
            parts.append(self.showdown_text(view["showdown"]))
        if view["played"]:
            parts.append(self.shed(view))
        parts.append(self.hand_text(view))
        parts.extend(self.choices(view))
        left = view.get("seconds_left")
        clock = f" · {left:.0f} s on your clock" if left is not None else ""
        return Panel(
            Group(*parts), title=f"Your turn to {self.doing(view)}{clock}", title_align="left"
        )

    def board(self, view: Data) -> Text:
        """The Pochbrett: the eight plates and the pot in the middle."""
        text = Text("Board: ")
        for i, (key, name) in enumerate(PLATES):
            text.append(" · " if i else "").append(f"{name} ")
            text.append(str(view["plates"][key]), style="bold")
        return text.append(" · pot (Kasse) ").append(str(view["pot"]), style="bold")

    def seats(self, view: Data) -> Table:
        """Each seat: dealer or Vorhand, chips, cards in hand, bet this deal, state."""
        seats = Table(box=None, pad_edge=False)
        for column in ("", "Player", "", "Chips", "Cards", "Bet", ""):
            seats.add_column(column, justify="right" if column in ("Chips", "Cards") else "left")
        bets = {b["seat"]: bet_words(b["call"], b["amount"]) for b in view["bets"]}
        active = view["active"]
        vorhand = next(
            (
                s
                for s in ((view["dealer"] + k) % len(active) for k in range(1, len(active)))
                if active[s]
            ),
            None,
        )
        players = view.get("players") or []
        for seat, name in enumerate(self.names):
            role = (
                "out" if not active[seat]
                else "dealer" if view["dealer"] == seat
                else "Vorhand" if vorhand == seat
                else ""
            )  # fmt: skip
            state = self.seat_column(view, players, seat)
            seats.add_row(
                "▶" if view["turn"] == seat else "",
                Text(name + (" (you)" if seat == self.seat and name != "You" else "")),
                role,
                str(view["chips"][seat]),
                str(view["hand_sizes"][seat]),
                bets.get(seat, "-"),
                Text(state, style="yellow") if state else "",
                style="bold" if view["turn"] == seat else None,
            )
        return seats

    def shed(self, view: Data) -> Text:
        """The cards shed this deal, suit by suit in the order they ran."""
        runs: dict[str, list[str]] = {}
        for _, code in view["played"]:
            runs.setdefault(code[0], []).append(code[1:])
        text = Text("Shed: ")
        for i, (suit, ranks) in enumerate(runs.items()):
            text.append("  " if i else "").append(suit_text(suit)).append(" ")
            text.append(" ".join(ranks), style=SUITS[suit][3])
            if suit in view["suits_done"]:
                text.append(" ✓")
            elif suit == view.get("suit"):
                text.append(" …")
        return text

    def hand_text(self, view: Data) -> Text:
        """Your cards by suit (each code is what you type to start with it)."""
        text = Text("Your hand:")
        hand: list[str] = view["you"]["hand"]
        for suit in SUITS:
            mine = [c for c in hand if c[0] == suit]
            if mine:
                text.append("  ").append(SUITS[suit][1], style=SUITS[suit][3]).append(" ")
                text.append(cards_text(mine))
        return text

    def choices(self, view: Data) -> list[Text]:
        """What you may do now, from `you.legal`, in words."""
        legal: list[Any] = view["you"]["legal"]
        if view["phase"] == "starting":
            text = Text("Start with: ")
            for i, code in enumerate(legal, 1):
                way = "upwards" if code[1:] == "7" else "downwards"
                text.append("  " if i > 1 else "").append(f"{i}) ")
                text.append(card_text(code, named=True)).append(f", {way}")
            return [text]
        if view["phase"] == "choosing":
            text = Text("Suits left: ")
            for i, letter in enumerate(legal):
                text.append(", " if i else "").append(f"{letter} (").append(suit_text(letter))
                text.append(")")
            return [text]
        if view["phase"] == "betting":
            top = max((b["amount"] for b in view["bets"]), default=0)
            bids = amounts(legal)
            said = ["pass"]
            if "hold" in legal:
                said.append(f"hold at {top}")
            if bids:
                said.append(f"{'raise to' if top else 'bet'} {span(bids)} chips")
            return [Text(f"You may {names_list(said).replace(' and ', ' or ')}.")]
        return []

    # -- your turn --------------------------------------------------------------------------

    def prompt(self, view: Data, clock: str, quit_word: str) -> str:
        legal: list[Any] = view["you"]["legal"]
        tail = f"{clock}? hint, q {quit_word}): "
        if view["phase"] == "betting":
            top = max((b["amount"] for b in view["bets"]), default=0)
            options = ["pass"] + (["hold"] if "hold" in legal else [])
            if amounts(legal):
                options.append(span(amounts(legal)))
            costs = f"hold costs {top}; " if "hold" in legal else ""
            return f"Your bet [{'/'.join(options)}] ({costs}{tail}"
        if view["phase"] == "starting":
            return f"Your start card [{'/'.join(legal)}] ({clock}number or code, ? hint, " + (
                f"q {quit_word}): "
            )
        return f"Next suit [{'/'.join(legal)}] ({clock}letter or name, ? hint, q {quit_word}): "

    def parse(self, answer: str, view: Data) -> int | str | None:
        """The action an answer names if `you.legal` has it; else None, and why not."""
        legal: list[Any] = view["you"]["legal"]
        if view["phase"] == "betting":
            return self.parse_bet(answer, legal, view)
        if view["phase"] == "starting":
            code = answer.upper()
            if answer.isdigit() and 1 <= int(answer) <= len(legal):
                return str(legal[int(answer) - 1])
            if code in legal:
                return code
            if code in view["you"]["hand"]:
                self.warn(f"The shedding starts with a 7 or an ace: {', '.join(legal)}.")
            elif answer.isdigit():
                self.warn(f"Pick a start card from 1 to {len(legal)}, or its code.")
            else:
                self.warn(f"You do not hold {answer}: start with {', '.join(legal)}.")
            return None
        letter = suit_of_answer(answer)
        if letter is not None and letter in legal:
            return letter
        left = ", ".join(f"{s} ({SUITS[s][0]})" for s in legal)
        if letter is not None:
            self.warn(f"{SUITS[letter][0]} has been played: choose {left}.")
        else:
            self.warn(f"Choose a suit by its letter or name: {left}.")
        return None

    def parse_bet(self, answer: str, legal: list[Any], view: Data) -> int | str | None:
        words = answer.lower().split()
        # "bet 5", "raise to 5", "raise 5": the amount is what counts.
        while len(words) > 1 and words[0] in ("bet", "raise", "to"):
            words = words[1:]
        word = " ".join(words)
        top = max((b["amount"] for b in view["bets"]), default=0)
        bids = amounts(legal)
        if word in ("p", "pass"):
            return "pass"
        if word in ("h", "hold", "call"):
            if "hold" in legal:
                return "hold"
            if top == 0:
                self.warn("Nobody has bet: there is nothing to hold. Pass or bet an amount.")
            else:
                self.warn(f"Holding costs {top} chips; you cannot pay it. You may only pass.")
            return None
        paying = "raise to" if top else "bet"
        if word.isdigit():
            amount = int(word)
            if amount in legal:
                return amount
            if amount == top and "hold" in legal:
                return "hold"  # paying the highest amount is holding
            if not bids:
                self.warn("You cannot pay more than has been bet: pass" + (
                    " or hold." if "hold" in legal else "."
                ))  # fmt: skip
            elif amount < bids[0]:
                least = f"a raise is more than {top}" if top else "a bet is at least 1"
                self.warn(f"Too little: {least}. You may {paying} {span(bids)} chips.")
            else:
                self.warn(f"You have {view['chips'][self.seat]} chips: {paying} {span(bids)}.")
            return None
        options = ["pass"] + (["hold"] if "hold" in legal else [])
        if bids:
            options.append(f"an amount from {span(bids).replace('-', ' to ')}")
        self.warn(f"Type {names_list(options).replace(' and ', ' or ')}.")
        return None

    def send(self, action: int | str, version: int) -> None:
        self.me.poch_act(self.game_id, action, version=version)

    def advice(self, result: Data, view: Data) -> Text:
        """A hint in words: the decision, and the share of the search that chose it."""
        action = result["action"]
        line = Text(style="magenta")
        line.append(f"Hint ({result.get('level') or 'bot'}): {action_words(action)}", style="bold")
        if len(view["you"]["legal"]) == 1:
            return line.append(" — your only choice.")
        stats = {str(s["action"]): s for s in result.get("analysis") or []}
        chosen = stats.get(str(action))
        if chosen is None:  # a level that does not search: its choice only
            return line.append(".")
        tries = result.get("iterations")
        deals = count(tries, "simulated deal") if tries else "its simulated deals"
        mean = chosen.get("mean_chips", chosen.get("mean_score"))
        line.append(f" — the bot chose it in {chosen['share']:.0%} of {deals}")
        if isinstance(mean, int | float):
            line.append(f"; expected {mean:+.1f} chips")
        line.append(".")
        others = sorted(
            (s for a, s in stats.items() if a != str(action) and s.get("visits", 1)),
            key=lambda s: -s["share"],
        )[:3]
        said = [
            f"{action_words(s['action'])}, expected {s['mean_chips']:+.1f}"
            for s in others
            if isinstance(s.get("mean_chips"), int | float)
        ]
        if said:
            line.append(f"\n  Other choices: {'; '.join(said)}.")
        return line

    # -- the end ----------------------------------------------------------------------------

    def finish(self, view: Data) -> None:
        result = view.get("result") or {}
        chips = result.get("chips") or view["chips"]
        winners = [self.names[s] for s in result.get("winners") or []]
        won = "Winner" if len(winners) == 1 else "Winners"
        standing = ", ".join(f"{n} {c}" for n, c in zip(self.names, chips, strict=True))
        self.console.print(
            Panel(
                Text(
                    f"Game over. {won}: {names_list(winners) if winners else 'nobody'}.\n"
                    f"Final chips: {standing}."
                ),
                style="bold green",
            )
        )


def action_words(action: int | str) -> str:
    """A Poch decision in words: `pass`, `hold`, `bet 3`, `start with C7 (Kreuz-Sieben)`,
    `choose ♥ Herz`."""
    if isinstance(action, int):
        return f"bet {action}"
    if action in ("pass", "hold"):
        return action
    if len(action) == 1:
        return f"choose {SUITS[action][1]} {SUITS[action][0]}"
    return f"start with {action} ({card_name(action)})"
