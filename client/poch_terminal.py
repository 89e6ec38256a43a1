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
from client.language import N_, _, ngettext, pgettext
from client.terminal import (
    Figure,
    SeatRow,
    TerminalGame,
    game_over,
    hint_head,
    names_list,
    seat_name,
    seats_table,
    signed,
    simulated_deals,
    styled,
)

#: Each suit's letter: its German name, its sign, its English name and its colour here (a
#: four-colour pack, so that no two suits look alike).
SUITS: dict[str, tuple[str, str, str, str]] = {
    "C": ("Kreuz", "♣", "clubs", "green"),
    "S": ("Pik", "♠", "spades", "bold"),
    "H": ("Herz", "♥", "hearts", "red"),
    "D": ("Karo", "♦", "diamonds", "blue"),
}
#: Each suit's Spanish names, as the Spanish page says them, for a suit typed in Spanish.
SPANISH_SUITS = {
    "C": ("tréboles", "trébol", "trebol"),
    "S": ("picas", "pica"),
    "H": ("corazones", "corazón", "corazon"),
    "D": ("diamantes", "diamante"),
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
SET_SIZES = {2: N_("a pair"), 3: N_("three of a kind"), 4: N_("four of a kind")}
#: A decision in the betting as told: yours, and another seat's (or a stand-in's).
BETS_TOLD = {
    "pass": (N_("You pass."), N_("{who} passes.")),
    "bet": (N_("You bet {amount}."), N_("{who} bets {amount}.")),
    "hold": (N_("You hold at {amount}."), N_("{who} holds at {amount}.")),
    "raise": (N_("You raise to {amount}."), N_("{who} raises to {amount}.")),
}
DIRECTIONS = {"up": N_("upwards (7 → Ass)"), "down": N_("downwards (Ass → 7)")}
#: The words a player may type in the betting, in either language (German's calls too).
PASS_WORDS = ("p", "pass", "paso", "pasar", "passe")
HOLD_WORDS = ("h", "hold", "call", "i", "igualo", "igualar", "halte")
#: Words before an amount that say nothing more than the amount ("raise to 5", "subo a 5").
AMOUNT_WORDS = ("bet", "raise", "to", "apuesto", "apostar", "subo", "subir", "a", "poche")


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
    size = _(SET_SIZES[len(codes)]) if len(codes) in SET_SIZES else _("a set")
    return Text(f"{size} (").append(cards_text(codes)).append(")")


def suit_of_answer(answer: str) -> str | None:
    """The suit letter an answer names: `h`, `Herz`, `hearts`, `corazones`, `♥`; None if
    none."""
    word = answer.strip().lower()
    for letter, (german, sign, english, _colour) in SUITS.items():
        names = (letter.lower(), german.lower(), english, english[:-1], sign)
        if word in names or word in SPANISH_SUITS[letter]:
            return letter
    return None


def bet_words(call: str, amount: int) -> str:
    """A bet as the seats table shows it: `pass`, `bet 3`, `hold 3`, `raise 5`."""
    if call == "pass":
        return pgettext("a seat's bet", "pass")
    if call == "bet":
        return pgettext("a seat's bet", "bet {amount}", amount=amount)
    if call == "hold":
        return pgettext("a seat's bet", "hold {amount}", amount=amount)
    return pgettext("a seat's bet", "raise {amount}", amount=amount)


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
        who = (
            "You"
            if you
            else self.names[seat]
            if seat < len(self.names)
            else _("Seat {number}", number=seat)
        )
        if event is not None and event.get("by") == "stand_in":
            # The table's stand-in bot made this person's decision (clock out, away, left).
            return (_("Your stand-in") if you else _("{name}'s stand-in", name=who)), False
        return who, you

    def whom(self, seat: int) -> str:
        """A seat as an object: `you`, or the name."""
        return _("you") if seat == self.seat else self.names[seat]

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
            told = _(
                "Deal {deal}{of}. {dealer}. Everyone pays {chips} onto the board ({each} on "
                "each plate).",
                deal=event["deal"],
                of=_(" of {deals}", deals=deals) if deals else "",
                dealer=self.deals(event["dealer"]),
                chips=chips(event["each"]),
                each=event["each"] // len(PLATES),
            )
            return Text("\n" + told, style="bold")
        if kind == "deal":
            cards = ", ".join(f"{self.whom(int(s))} {n}" for s, n in event["counts"].items())
            told = _("Trump: {suit}. Cards: {cards}.")
            return styled(told, suit=suit_text(event["trump"]), cards=cards)
        if kind == "collect":
            who, you = self.who(seat)
            told = (
                _("You show {cards} and take the {plate} plate: {chips}.")
                if you
                else _("{who} shows {cards} and takes the {plate} plate: {chips}.")
            )
            return styled(
                told,
                who=who,
                cards=cards_text(event["cards"]),
                plate=PLATE_NAMES[event["plate"]],
                chips=chips(event["chips"]),
            )
        if kind in ("pass", "bet", "hold", "raise"):
            who, you = self.who(seat, event)
            said = _(BETS_TOLD[kind][0 if you else 1], who=who, amount=event.get("amount"))
            if kind != "pass":
                said += _(" Pot: {pot}.", pot=event["pot"])
            return Text(said)
        if kind == "no_bet":
            return Text(
                _(
                    "Nobody bets: the pot ({pot}) and the Poch plate stay for the next deal.",
                    pot=event["pot"],
                ),
                style="italic",
            )
        if kind == "showdown":
            return self.showdown_text(event["sets"])
        if kind == "no_set":
            return Text(
                _(
                    "Nobody has a set: the pot ({pot}) stays, with the Poch plate, for the "
                    "next deal.",
                    pot=event["pot"],
                ),
                style="italic",
            )
        if kind == "bluff":
            who, you = self.who(seat)
            told = (
                _("You do not hold the best set: pay {chips} into the pot (twice the pot).")
                if you
                else _(
                    "{who} does not hold the best set: pays {chips} into the pot (twice the pot)."
                )
            )
            return Text(told.format(who=who, chips=chips(event["paid"])), style="yellow")
        if kind == "take_pot":
            who, you = self.who(seat)
            told = (
                _("You take the pot ({pot}) and the Poch plate ({pocher}): {chips}.")
                if you
                else _("{who} takes the pot ({pot}) and the Poch plate ({pocher}): {chips}.")
            )
            won = chips(event["pot"] + event["pocher"])
            return Text(
                told.format(who=who, pot=event["pot"], pocher=event["pocher"], chips=won),
                style="bold",
            )
        if kind == "start":
            who, you = self.who(seat, event)
            told = (
                _("You start the shedding {direction}.")
                if you
                else _("{who} starts the shedding {direction}.")
            )
            return Text(told.format(who=who, direction=direction(event["direction"])))
        if kind == "choose":
            who, you = self.who(seat, event)
            told = _("You choose {suit}.") if you else _("{who} chooses {suit}.")
            return styled(told, who=who, suit=suit_text(event["suit"]))
        if kind == "plays":
            text = Text("  ")
            for i, (s, code) in enumerate(event["cards"]):
                text.append(" · " if i else "").append(card_text(code))
                text.append(f" {self.whom(s)}")
            return text
        if kind == "deal_won":
            who, you = self.who(event["winner"])
            paid = ", ".join(self.pays(int(s), n) for s, n in event["paid"].items())
            told = (
                _("You have no cards left and win deal {deal}")
                if you
                else _("{who} has no cards left and wins deal {deal}")
            )
            return Text(
                told.format(who=who, deal=event["deal"]) + (f": {paid}." if paid else "."),
                style="bold",
            )
        if kind == "leave":
            who, you = self.who(seat)
            told = (
                _("You cannot pay the ante and leave the game with {chips}.")
                if you
                else _("{who} cannot pay the ante and leaves the game with {chips}.")
            )
            return Text(told.format(who=who, chips=chips(event["chips"])), style="yellow")
        if kind == "game_over":
            return None  # `finish` shows the result
        who, you = self.who(seat, event) if seat is not None else ("", False)
        return self.table_event(kind, event, who, you)

    def pays(self, seat: int, amount: int) -> str:
        """What `seat` pays the deal's winner: `you pay 2`, `Bot 1 pays nothing`."""
        if seat == self.seat:
            return _("you pay {amount}", amount=amount) if amount else _("you pay nothing")
        name = self.whom(seat)
        return (
            _("{name} pays {amount}", name=name, amount=amount)
            if amount
            else _("{name} pays nothing", name=name)
        )

    def showdown_text(self, sets: Data) -> Text:
        """Everyone's best set, as shown: `Showdown: you a pair (C8 H8); Bot 1 ...`."""
        text = Text(_("Showdown: "))
        if not sets:
            return text.append(_("nobody has a set."))
        for i, (seat, codes) in enumerate(sets.items()):
            text.append("; " if i else "").append(f"{self.whom(int(seat))} ")
            text.append(set_text(codes))
        shown = {int(s) for s in sets}
        others = [self.whom(s) for s in range(len(self.names)) if s not in shown]
        if others:
            text.append(_("; no set: {names}", names=names_list(others)))
        return text.append(".")

    # -- the table --------------------------------------------------------------------------

    def doing(self, view: Data) -> str:
        doing = {
            "betting": N_("bet"),
            "starting": N_("start the shedding"),
            "choosing": N_("choose a suit"),
        }.get(view["phase"], N_("play"))
        return _(doing)

    def table(self, view: Data) -> Panel:
        """Everything a seat knows now: the board, the seats, the deal so far, your hand."""
        deals = self.rules.get("deals")
        of = _(" of {deals}", deals=deals) if deals else ""
        head = Text(_("Deal {deal}{of} · trump: ", deal=view["deal"], of=of))
        if view["trump"]:
            head.append(suit_text(view["trump"]))
        if view.get("direction"):
            head.append(_(" · shedding {direction}", direction=direction(view["direction"])))
        parts: list[Any] = [head, self.board(view), self.seats(view)]
        if view["collected"]:
            collected = Text(_("Collected: "))
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
        return Panel(Group(*parts), title=self.turn_title(view), title_align="left")

    def board(self, view: Data) -> Text:
        """The Pochbrett: the eight plates and the pot in the middle."""
        text = Text(_("Board: "))
        for i, (key, name) in enumerate(PLATES):
            text.append(" · " if i else "").append(f"{name} ")
            text.append(str(view["plates"][key]), style="bold")
        return text.append(_(" · pot (Kasse) ")).append(str(view["pot"]), style="bold")

    def seats(self, view: Data) -> Table:
        """Each seat: dealer or Vorhand, chips, cards in hand, bet this deal, state; a row a
        seat in a narrow terminal, as Pocha's (`seats_table`)."""
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
        rows = []
        for seat, name in enumerate(self.names):
            role = (
                _("out") if not active[seat]
                else _("dealer") if view["dealer"] == seat
                else "Vorhand" if vorhand == seat
                else ""
            )  # fmt: skip
            rows.append(
                SeatRow(
                    name=seat_name(name, seat == self.seat),
                    role=role,
                    figures=[
                        str(view["chips"][seat]),
                        str(view["hand_sizes"][seat]),
                        bets.get(seat, "-"),
                    ],
                    state=self.seat_column(view, players, seat),
                    brief=self.seat_column(view, players, seat, brief=True),
                    turn=view["turn"] == seat,
                )
            )
        return seats_table(self.console, rows, self.figures())

    def figures(self) -> list[Figure]:
        """The headers of the seats table's figures, whole and short (`seats_table`)."""
        return [
            (_("Chips"), pgettext("the seats table's short header for Chips", "Chp")),
            (_("Cards"), pgettext("the seats table's short header for Cards", "Crd")),
            (_("Bet"), pgettext("the seats table's short header for Bet", "Bet")),
        ]

    def shed(self, view: Data) -> Text:
        """The cards shed this deal, suit by suit in the order they ran."""
        runs: dict[str, list[str]] = {}
        for _seat, code in view["played"]:
            runs.setdefault(code[0], []).append(code[1:])
        text = Text(_("Shed: "))
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
        text = Text(_("Your hand:"))
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
            text = Text(_("Start with: "))
            for i, code in enumerate(legal, 1):
                way = _("upwards") if code[1:] == "7" else _("downwards")
                text.append("  " if i > 1 else "").append(f"{i}) ")
                text.append(card_text(code, named=True)).append(f", {way}")
            return [text]
        if view["phase"] == "choosing":
            text = Text(_("Suits left: "))
            for i, letter in enumerate(legal):
                text.append(", " if i else "").append(f"{letter} (").append(suit_text(letter))
                text.append(")")
            return [text]
        if view["phase"] == "betting":
            top = max((b["amount"] for b in view["bets"]), default=0)
            bids = amounts(legal)
            said = [_("pass")]
            if "hold" in legal:
                said.append(_("hold at {top}", top=top))
            if bids:
                said.append(paying(top, bids))
            return [Text(_("You may {choices}.", choices=alternatives(said)))]
        return []

    # -- your turn --------------------------------------------------------------------------

    def prompt(self, view: Data, clock: str, quit_word: str) -> str:
        legal: list[Any] = view["you"]["legal"]
        if view["phase"] == "betting":
            top = max((b["amount"] for b in view["bets"]), default=0)
            options = typed_calls(legal)
            if amounts(legal):
                options.append(span(amounts(legal)))
            return _(
                "Your bet [{options}] ({costs}{clock}? hint, q {quit}): ",
                options="/".join(options),
                costs=_("hold costs {top}; ", top=top) if "hold" in legal else "",
                clock=clock,
                quit=quit_word,
            )
        if view["phase"] == "starting":
            return _(
                "Your start card [{options}] ({clock}number or code, ? hint, q {quit}): ",
                options="/".join(legal),
                clock=clock,
                quit=quit_word,
            )
        return _(
            "Next suit [{options}] ({clock}letter or name, ? hint, q {quit}): ",
            options="/".join(legal),
            clock=clock,
            quit=quit_word,
        )

    def parse(self, answer: str, view: Data) -> int | str | None:
        """The action an answer names if `you.legal` has it; else None, and why not."""
        legal: list[Any] = view["you"]["legal"]
        if view["phase"] == "betting":
            return self.parse_bet(answer, legal, view)
        if view["phase"] == "starting":
            code = answer.upper()
            if answer.isdecimal() and 1 <= int(answer) <= len(legal):
                return str(legal[int(answer) - 1])
            if code in legal:
                return code
            if code in view["you"]["hand"]:
                self.warn(
                    _("The shedding starts with a 7 or an ace: {cards}.", cards=", ".join(legal))
                )
            elif answer.isdecimal():
                self.warn(_("Pick a start card from 1 to {most}, or its code.", most=len(legal)))
            else:
                self.warn(
                    _(
                        "You do not hold {card}: start with {cards}.",
                        card=answer,
                        cards=", ".join(legal),
                    )
                )
            return None
        letter = suit_of_answer(answer)
        if letter is not None and letter in legal:
            return letter
        left = ", ".join(f"{s} ({SUITS[s][0]})" for s in legal)
        if letter is not None:
            self.warn(_("{suit} has been played: choose {left}.", suit=SUITS[letter][0], left=left))
        else:
            self.warn(_("Choose a suit by its letter or name: {left}.", left=left))
        return None

    def parse_bet(self, answer: str, legal: list[Any], view: Data) -> int | str | None:
        words = answer.lower().split()
        # "bet 5", "raise to 5", "raise 5": the amount is what counts.
        while len(words) > 1 and words[0] in AMOUNT_WORDS:
            words = words[1:]
        word = " ".join(words)
        top = max((b["amount"] for b in view["bets"]), default=0)
        bids = amounts(legal)
        if word in PASS_WORDS:
            return "pass"
        if word in HOLD_WORDS:
            if "hold" in legal:
                return "hold"
            if top == 0:
                self.warn(_("Nobody has bet: there is nothing to hold. Pass or bet an amount."))
            else:
                self.warn(
                    ngettext(
                        "Holding costs {n} chip; you cannot pay it. You may only pass.",
                        "Holding costs {n} chips; you cannot pay it. You may only pass.",
                        top,
                    )
                )
            return None
        if word.isdecimal():
            amount = int(word)
            if amount in legal:
                return amount
            if amount == top and "hold" in legal:
                return "hold"  # paying the highest amount is holding
            if not bids:
                self.warn(
                    _("You cannot pay more than has been bet: pass or hold.")
                    if "hold" in legal
                    else _("You cannot pay more than has been bet: pass.")
                )
            elif amount < bids[0]:
                least = (
                    _("a raise is more than {top}", top=top) if top else _("a bet is at least 1")
                )
                self.warn(
                    _(
                        "Too little: {least}. You may {paying}.",
                        least=least,
                        paying=paying(top, bids),
                    )
                )
            else:
                have = view["chips"][self.seat]
                self.warn(
                    ngettext(
                        "You have {n} chip: raise to {amounts}.",
                        "You have {n} chips: raise to {amounts}.",
                        have,
                        amounts=span(bids),
                    )
                    if top
                    else ngettext(
                        "You have {n} chip: bet {amounts}.",
                        "You have {n} chips: bet {amounts}.",
                        have,
                        amounts=span(bids),
                    )
                )
            return None
        options = typed_calls(legal)
        if len(bids) == 1:
            options.append(_("an amount from {low}", low=bids[0]))
        elif bids:
            options.append(_("an amount from {low} to {high}", low=bids[0], high=bids[-1]))
        self.warn(_("Type {options}.", options=alternatives(options)))
        return None

    def send(self, action: int | str, version: int) -> None:
        self.me.poch_act(self.game_id, action, version=version)

    def advice(self, result: Data, view: Data) -> Text:
        """A hint in words: the decision, and the share of the search that chose it."""
        action = result["action"]
        line = Text(style="magenta")
        line.append(hint_head(result, action_words(action)), style="bold")
        if len(view["you"]["legal"]) == 1:
            return line.append(_(" — your only choice."))
        stats = {str(s["action"]): s for s in result.get("analysis") or []}
        chosen = stats.get(str(action))
        if chosen is None:  # a level that does not search: its choice only
            return line.append(".")
        deals = simulated_deals(result.get("iterations"))
        mean = chosen.get("mean_chips", chosen.get("mean_score"))
        share = f"{chosen['share']:.0%}"
        line.append(_(" — the bot chose it in {share} of {deals}", share=share, deals=deals))
        if isinstance(mean, int | float):
            line.append(_("; expected {chips} chips", chips=signed(mean)))
        line.append(".")
        others = sorted(
            (s for a, s in stats.items() if a != str(action) and s.get("visits", 1)),
            key=lambda s: -s["share"],
        )[:3]
        said = [
            _(
                "{action}, expected {points}",
                action=action_words(s["action"]),
                points=signed(s["mean_chips"]),
            )
            for s in others
            if isinstance(s.get("mean_chips"), int | float)
        ]
        if said:
            line.append("\n  " + _("Other choices: {choices}.", choices="; ".join(said)))
        return line

    # -- the end ----------------------------------------------------------------------------

    def finish(self, view: Data) -> None:
        result = view.get("result") or {}
        chips = result.get("chips") or view["chips"]
        winners = [self.names[s] for s in result.get("winners") or []]
        standing = ", ".join(f"{n} {c}" for n, c in zip(self.names, chips, strict=True))
        said = game_over(winners) + "\n" + _("Final chips: {standing}.", standing=standing)
        self.console.print(Panel(Text(said), style="bold green"))


def action_words(action: int | str) -> str:
    """A Poch decision in words: `pass`, `hold`, `bet 3`, `start with C7 (Kreuz-Sieben)`,
    `choose ♥ Herz`."""
    if isinstance(action, int):
        return _("bet {amount}", amount=action)
    if action == "pass":
        return _("pass")
    if action == "hold":
        return _("hold")
    if len(action) == 1:
        sign, german = SUITS[action][1], SUITS[action][0]
        return _("choose {suit}", suit=sign + " " + german)
    return _("start with {card} ({name})", card=action, name=card_name(action))


def alternatives(choices: list[str]) -> str:
    """`pass, hold or bet 1-5 chips`: the choices, the last two joined by "or"."""
    return names_list(choices, _(" or "))


def chips(n: int) -> str:
    """`1 chip`, `5 chips`."""
    return ngettext("{n} chip", "{n} chips", n)


def direction(way: str) -> str:
    """The shedding's direction in words: `upwards (7 → Ass)`."""
    return _(DIRECTIONS[way]) if way in DIRECTIONS else way


def paying(top: int, bids: list[int]) -> str:
    """What paying more is now, with its amounts: `raise to 4-42 chips`, `bet 1-5 chips`."""
    if top:
        return _("raise to {amounts} chips", amounts=span(bids))
    return _("bet {amounts} chips", amounts=span(bids))


def typed_calls(legal: list[Any]) -> list[str]:
    """The calls you may type now, as typed in the terminal's language: `pass`, `hold`."""
    calls = [pgettext("typed", "pass")]
    if "hold" in legal:
        calls.append(pgettext("typed", "hold"))
    return calls
