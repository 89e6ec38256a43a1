"""`pocha play`: a game against bots in the terminal, over the HTTP API.
How it works: docs/clients.md, `client.terminal`.
"""

from __future__ import annotations

import ipaddress
import re
import select
import socket
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from http.client import HTTPException
from string import Formatter
from typing import Any
from urllib.parse import urlsplit

from rich import box
from rich.console import Console, Group
from rich.live import Live
from rich.panel import Panel
from rich.spinner import Spinner
from rich.table import Table
from rich.text import Text

from client.api import OPEN, ApiError, Data, JobFailed, PochaClient
from client.language import N_, _, current, ngettext, pgettext, speaking
from client.models import CreatedGame

SUITS = {
    "O": ("oros", "yellow"),
    "C": ("copas", "red"),
    "E": ("espadas", "blue"),
    "B": ("bastos", "green"),
}
RANK_NAMES = {1: "as", 10: "sota", 11: "caballo", 12: "rey"}
#: What a player types to leave, in either language.
QUIT_WORDS = ("q", "quit", "exit", "salir")
#: A yes to a y/N question, in either language.
YES_WORDS = ("y", "yes", "s", "si", "sí")

#: Why a move is barred now: the rule's code, as the API's refusal names it in `rule`
#: (asistir, montar, fallar, pisar, dealer_restriction), and the API's sentence.
Reason = tuple[str, str]

#: How often to look for the bots' moves while they think (seconds).
POLL_SECONDS = 0.25
#: How often to look again for a service that stopped answering (seconds).
RETRY_SECONDS = 2.0
#: What a service answers while it restarts or a proxy in front of it cannot reach it:
#: waited out, as a service that does not answer at all.
UNAVAILABLE = (502, 503, 504)

Prompt = Callable[[str], str]

#: A line the player typed within the given seconds (without its newline), or None: how
#: the waiting room and an away seat listen for `s`, `q` or Enter while they watch.
LineReader = Callable[[float], "str | None"]


def stdin_line(timeout: float) -> str | None:
    """A line typed on standard input within `timeout` seconds, or None. Without a
    terminal to listen to (input from a file or a test's runner), it only waits."""
    try:
        ready, _, _ = select.select([sys.stdin], [], [], timeout)
    except (ValueError, OSError, TypeError):  # no file descriptor to wait on
        time.sleep(timeout)
        return None
    if not ready:
        return None
    line = sys.stdin.readline()
    if not line:  # end of input: as if q
        return "q"
    return line.rstrip("\r\n")


class Quit(Exception):
    """The player asked to leave (q, Ctrl-D or Ctrl-C); the game stays on the server."""


class Interrupted(Quit):
    """Ctrl-C at the prompt: at a table in play, asked about before the seat is left."""


class SavedKeyRefused(Exception):
    """The account's key `play` was given opens no account (401 `unknown_account`): it was
    replaced or is wrong. Raised, not printed: the caller knows where the key was kept and
    how its owner gets back in. `game_id`: the game whose seat it left this terminal out of
    (None: refused before any game was made or joined)."""

    def __init__(self, message: str, game_id: str | None = None) -> None:
        super().__init__(message)
        self.game_id = game_id


#: The account's key as saved now, or None when none is saved: read again at each call,
#: since `pocha new-key` in another terminal rewrites the file in the middle of a game.
SavedKey = Callable[[], "str | None"]


class SeatClient(PochaClient):
    """The API acting as one seat: with the seat's token, or with the account's key once
    the token opens nothing. Replacing an account's key (`pocha new-key` elsewhere, the web
    page) makes every seat token handed out under the key before open nothing (401
    `unauthorized`) in its games not finished, while the account's key opens those seats:
    a request refused 401 is sent again with the key saved now, and when that opens the
    seat the terminal goes on with the key, with nothing said. A refused request changed
    nothing on the server, so sending it again is safe, a move too. When the saved key
    opens no account either (replaced where this terminal never saw it), that is
    `SavedKeyRefused`, for the caller to say how to get back in."""

    def __init__(
        self, api: PochaClient, token: str, game_id: str, saved_key: SavedKey | None
    ) -> None:
        super().__init__(api.base_url, token, api.timeout, language=api.language)
        self.game_id = game_id
        self.saved_key = saved_key

    def _request(
        self,
        method: str,
        path: str,
        body: Any = None,
        version: int | None = None,
        timeout: float | None = None,
        headers: Mapping[str, str] | None = None,
        answered: dict[str, str] | None = None,
    ) -> tuple[int, str]:
        try:
            return super()._request(method, path, body, version, timeout, headers, answered)
        except ApiError as refused:
            if refused.status != 401 or self.saved_key is None:
                raise
            key = self.saved_key()
            if key is None:
                raise
            if key == self.token:  # the key in hand is the one saved: nothing else to try
                if refused.error == "unknown_account":
                    raise SavedKeyRefused(refused.message, self.game_id) from refused
                raise
            with_key = PochaClient(self.base_url, key, self.timeout, language=self.language)
            try:
                answer = with_key._request(method, path, body, version, timeout, headers, answered)
            except ApiError as again:
                if again.error == "unknown_account":
                    raise SavedKeyRefused(again.message, self.game_id) from again
                if again.status == 401:
                    # A key the service knows that opens no such seat (the seat was never
                    # the account's): the token's own refusal is the answer.
                    raise refused from None
                self.token = key  # the key opened the seat; the request was refused itself
                raise
            self.token = key
            return answer


def card_name(code: str) -> str:
    """`O1` -> `as de oros`, `B12` -> `rey de bastos`, `C4` -> `4 de copas`."""
    suit, rank = SUITS[code[0]][0], int(code[1:])
    return f"{RANK_NAMES.get(rank, str(rank))} de {suit}"


def names_list(names: list[str], last: str | None = None) -> str:
    """`Ana`, `Ana and Bot 1`, `Ana, Bot 1 and Bot 2`; `last` joins the last two (" and ",
    or " or ", in the terminal's language)."""
    if len(names) == 1:
        return names[0]
    if last is None:
        last = _(" and ")
    return ", ".join(names[:-1]) + last + names[-1]


def styled(template: str, **values: str | Text | tuple[str, str]) -> Text:
    """A translated `template` as Text, each `{name}` put in as `values` has it: a string,
    a Text with its own colours, or a (text, style) pair. The placeholders are found in the
    translation itself, so a language may put them in another order."""
    text = Text()
    for literal, name, _spec, _conversion in Formatter().parse(template):
        text.append(literal)
        if name is None:
            continue
        value = values[name]
        if isinstance(value, tuple):
            text.append(value[0], style=value[1])
        else:
            text.append(value)
    return text


def as_sentence(text: str) -> str:
    """The API's refusals are clauses ("you must follow oros: you hold O4"), written to be
    embedded; said alone they start with a capital and end with a full stop."""
    text = text.strip()
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "!", "?")) else ".")


def card_text(code: str, *, dim: bool = False) -> Text:
    """A card as coloured text: its code and its name."""
    colour = SUITS[code[0]][1]
    return Text(f"{code} ({card_name(code)})", style=f"dim {colour}" if dim else f"bold {colour}")


def refusals(view: Data) -> dict[int | str, Reason]:
    """What the server refuses you now and why: each card code or bid that your view's
    `legal` leaves out, with its rule and sentence (`you.refused`, sent on your turn)."""
    return {
        r["card"] if "card" in r else r["bid"]: (r["rule"], r["message"])
        for r in view["you"].get("refused", [])
    }


def action_words(action: int | str) -> str:
    """`bid 2`, `play O1 (as de oros)`."""
    if isinstance(action, int):
        return _("bid {bid}", bid=action)
    return _("play {card} ({name})", card=action, name=card_name(action))


def hint_text(result: Data, legal: list[Any]) -> Text:
    """A hint job's advice in a player's words: the move, and why. The why is the search's
    own account (`analysis`: per action, the share of the simulated deals in which the bot
    chose it, and the mean points it scored there), or that there was no other choice."""
    action = result["action"]
    bidding = isinstance(action, int)
    line = Text(style="magenta")
    line.append(hint_head(result, action_words(action)), style="bold")
    if len(legal) == 1:
        return line.append(
            _(" — the only bid you may make.") if bidding else _(" — your only legal card.")
        )
    stats = {s["action"]: s for s in result.get("analysis") or []}
    chosen = stats.get(action)
    if chosen is None:  # a level that does not search (heuristic, random): its choice only
        return line.append(".")
    why = (
        _(" — the bot bid it in {share} of {deals}; expected {points} points this hand.")
        if bidding
        else _(" — the bot played it in {share} of {deals}; expected {points} points this hand.")
    )
    line.append(
        why.format(
            share=f"{chosen['share']:.0%}",
            deals=simulated_deals(result.get("iterations")),
            points=signed(chosen["mean_score"]),
        )
    )
    others = sorted(
        (s for a, s in stats.items() if a != action and s.get("visits", 1)),
        key=lambda s: -s["share"],
    )[:3]
    if others:
        said = "; ".join(
            _(
                "{action}, expected {points}",
                action=_("bid {bid}", bid=s["action"]) if bidding else s["action"],
                points=signed(s["mean_score"]),
            )
            for s in others
        )
        line.append("\n  " + _("Other choices: {choices}.", choices=said))
    return line


#: The bots' levels by the names the API gives them (what is typed, `--level hard`), each
#: with the name the terminal shows, in its language: the words the page uses for them.
LEVEL_NAMES = {
    "random": N_("random"),
    "heuristic": N_("heuristic"),
    "easy": N_("easy"),
    "medium": N_("medium"),
    "hard": N_("hard"),
    "expert": N_("expert"),
    "master": N_("master"),
}


#: The named schedules, in the terminal's language (the lobby's "Hands" column).
SCHEDULE_NAMES = {"classic": N_("classic"), "pyramid": N_("pyramid")}


def level_name(level: str) -> str:
    """A bot level's name in the terminal's language (`hard`: `difícil`); a level the
    terminal does not know (a newer server's) by its own name."""
    shown = LEVEL_NAMES.get(level)
    return _(shown) if shown else level


def hint_head(result: Data, words: str) -> str:
    """`Hint (hard): bid 2`: the hint's level and its move (`words`)."""
    level = result.get("level")
    return _("Hint ({level}): {action}", level=level_name(level) if level else "bot", action=words)


def signed(points: float) -> str:
    """`+7.8`, `-1.0`: expected points or chips, with their sign."""
    return f"{points:+.1f}"


def simulated_deals(tries: int | None) -> str:
    """`400 simulated deals`: how many deals a hint's search played, in words."""
    if not tries:
        return _("its simulated deals")
    return ngettext("{n} simulated deal", "{n} simulated deals", tries)


def told_apart(names: Sequence[str | None]) -> list[str]:
    """Each seat's name as the terminal shows it: `(open)` for a seat nobody holds, and a
    name two seats share with its seat number after it (`Ana #1`, `Ana #2`), so that the
    seats table, the trick and the events never leave two people alike."""
    taken = [name for name in names if name]
    return [
        _("(open)") if not name else f"{name} #{seat + 1}" if taken.count(name) > 1 else name
        for seat, name in enumerate(names)
    ]


def fitted(name: str, width: int) -> str:
    """A seat's name cut to `width` columns, keeping what tells it apart at its end (the
    seat number `#2` of a name two seats share, and ` (you)`): `Bernar… #2 (you)`."""
    if len(name) <= width:
        return name
    found = re.search(r"( #\d+)?( \([^()]*\))?$", name)
    number, you = (found.group(1) or "", found.group(2) or "") if found else ("", "")
    head = name[: len(name) - len(number) - len(you)]
    if len(head) + len(number) < width:  # the cut falls in ` (you)`: the number stays
        return name[: width - 1] + "…"
    for tail in (number + you, number):
        if tail and head and width - len(tail) >= 2:
            return head[: width - len(tail) - 1] + "…" + tail
    return name[: max(width - 1, 0)] + "…"


def says_you(name: str) -> bool:
    """Whether a person's name is "you" itself: a person who gives no name sits as You (Tú
    in Spanish: `pocha play --name`'s default in the terminal's language, as the web page
    names them)."""
    return name in ("You", _("You"))


def seat_name(name: str, yours: bool) -> str:
    """A seat's name in the table of seats, ` (you)` after this terminal's own, unless the
    name says it already (`says_you`)."""
    return name + (_(" (you)") if yours and not says_you(name) else "")


@dataclass
class SeatRow:
    """One seat's row in the seats table on your turn, whatever the game: its name (as
    `seat_name` gives it), role, figures (bid, tricks, score; chips, cards, bet), state
    (`TerminalGame.seat_column`), the state `brief` for a narrow terminal, and whether the
    turn is its own."""

    name: str
    role: str
    figures: list[str]
    state: str
    brief: str
    turn: bool


#: The columns a name is given in a compact seats table before anything else, its turn's
#: mark among them: `▶ Ana (you)`, `  Bernardo…`.
NAME_ROOM = 12
#: A figure's column in the seats table: its header, and the short one a narrow terminal
#: shows when the whole one would cut the names (`Tricks`, `Tr`).
Figure = tuple[str, str]


def seats_table(console: Console, rows: Sequence[SeatRow], figures: Sequence[Figure]) -> Table:
    """The seats table on your turn, its figures headed `figures`: laid out wide when it
    fits within a panel in `console` (a panel's border and padding take 4 columns), else
    compact, a row a seat (`compact_seats`). Measured unbounded, as the score sheet is,
    since a table measured within the terminal says it fits, cut."""
    seats = wide_seats(rows, [header for header, _short in figures])
    unbounded = console.options.update_width(1_000_000)
    if console.measure(seats, options=unbounded).maximum > console.width - 4:
        seats = compact_seats(rows, figures, console.width - 4)
    return seats


def wide_seats(rows: Sequence[SeatRow], figures: Sequence[str]) -> Table:
    """The seats table with a column each: the turn's mark, name, role, figures, state."""
    seats = Table(box=None, pad_edge=False)
    for column in ("", _("Player"), ""):
        seats.add_column(column)
    for column in figures:
        seats.add_column(column, justify="right")
    seats.add_column("")
    for row in rows:
        seats.add_row(
            "▶" if row.turn else "",
            Text(row.name),
            row.role,
            *row.figures,
            Text(row.state, style="yellow"),
            style="bold" if row.turn else None,
        )
    return seats


@dataclass(frozen=True)
class _Compact:
    """The columns of a compact seats table under one set of headers."""

    headers: list[str]
    #: Each figure's width.
    widths: list[int]
    #: The name's width, the turn's mark in it.
    named: int
    #: The states' width (0: no column for them).
    stated: int


def _compact(rows: Sequence[SeatRow], headers: Sequence[str], states: Sequence[str],
             width: int) -> _Compact:  # fmt: skip
    widths = [
        max(len(header), *(len(row.figures[i]) for row in rows)) for i, header in enumerate(headers)
    ]
    room = width - sum(widths) - len(widths)  # a space before each figure
    longest = max(len(_("Player")), *(2 + len(row.name) for row in rows))  # "▶ " first
    stating = max((len(state) for state in states), default=0)
    # The name first: the states get a last column (6 columns at least) only beside names
    # given `NAME_ROOM`, or whole.
    if stating:
        named = min(longest, room - 1 - min(stating, 6))
        if named >= min(longest, NAME_ROOM):
            return _Compact(list(headers), widths, named, room - named - 1)
    return _Compact(list(headers), widths, min(longest, room), 0)


def compact_seats(rows: Sequence[SeatRow], figures: Sequence[Figure], width: int) -> Table:
    """The seats table `width` columns wide at most (a 40-column terminal's): the turn's
    mark before the name, the role after the state in the last column, a stand-in's level
    left out, and each column given its width here, the figures theirs in full, so that a
    long name or state ends in `…` (a name keeping its seat number, `fitted`) rather than
    wrapping a row over several lines or squeezing a column out. The figures' short
    headers head them where the whole ones would leave a name fewer than `NAME_ROOM`
    columns, or no column for the states, and the short ones would not (Spanish's headers
    are wide, 32 columns narrow): the names are what the table is for, then the states."""
    states = [" · ".join(part for part in (row.brief, row.role) if part) for row in rows]
    goal = min(max(2 + len(row.name) for row in rows), NAME_ROOM)

    def merit(layout: _Compact) -> tuple[bool, bool, int]:
        # Short of the goal, the more of the names the better.
        met = layout.named >= goal
        return met, layout.stated > 0, 0 if met else layout.named

    layout = _compact(rows, [header for header, _short in figures], states, width)
    short = _compact(rows, [short for _header, short in figures], states, width)
    if merit(short) > merit(layout):
        layout = short
    named = layout.named
    seats = Table(box=None, pad_edge=False, collapse_padding=True)
    seats.add_column(_("Player"), width=max(named, 1), no_wrap=True)
    for header, wide in zip(layout.headers, layout.widths, strict=True):
        seats.add_column(header, justify="right", width=wide, no_wrap=True)
    if layout.stated:
        seats.add_column("", width=layout.stated, no_wrap=True, overflow="ellipsis")
    for row, state in zip(rows, states, strict=True):
        mark = "▶ " if row.turn else "  "
        name = mark + fitted(row.name, named - 2) if named > 2 else mark[:named]
        cells = [Text(name), *(Text(figure) for figure in row.figures)]
        if layout.stated:
            cells.append(Text(state, style="yellow"))
        seats.add_row(*cells, style="bold" if row.turn else None)
    return seats


def seat_state(player: Data, you: bool = False) -> str:
    """A seat's state when it is not simply a person here or a bot: `away` or `left`
    (with the stand-in playing), `offline` (not seen lately; never said of `you`, who are
    here), or an open seat."""
    if player.get("open"):
        return _("open")
    stand_in = player.get("stand_in")
    played = _(" (stand-in: {level})", level=level_name(stand_in)) if stand_in else ""
    if player.get("left"):
        return _("left") + played
    if player.get("away"):
        return _("away") + played
    if player.get("bot") is None and player.get("present") is False and not you:
        return _("offline")
    return ""


def only_this_machine(link: str) -> bool:
    """Whether a link's host reaches only the machine it is opened on (localhost, 127.x,
    ::1): a friend elsewhere cannot open it."""
    host = (urlsplit(link).hostname or "").rstrip(".").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class TerminalGame:
    """One game played at this terminal: against bots, or at a table with people.

    The loop, the tables and the clocks are the same for every game; what is Pocha's own
    (the views' and events' fields, the moves) is in the methods a game's subclass
    overrides (`client.poch_terminal` for Poch)."""

    #: The `game` sent when creating one (None: the server's default, Pocha).
    GAME: str | None = None
    #: The phase of a finished game in this game's views.
    OVER = "finished"

    def __init__(
        self,
        api: PochaClient,
        console: Console,
        ask: Prompt | None = None,
        line: LineReader | None = None,
        saved_key: SavedKey | None = None,
    ) -> None:
        self.api = api
        self.saved_key = saved_key
        self.console = console
        # A prompt is plain text, never markup: Poch's "[pass/1-15]" would read as a tag.
        self.ask: Prompt = ask or (lambda prompt: console.input(Text(prompt)))
        self.line: LineReader = line or stdin_line
        self.me: PochaClient = api
        self.host: PochaClient | None = None  # with the host token, for who made the table
        self.level = "medium"  # the bots the host starts a table early with
        self.game_id = ""
        self.seat = 0
        self.names: list[str] = []
        self.players: list[Data] = []  # each seat as the last view showed it
        self.seen = 0  # seq of the last event narrated
        self.at_table = False  # other people play here: clocks, presence, leaving
        self.started = True  # False while a table waits for people (its deal is held back)
        self.held: list[Data] = []  # the first deal's events, told once the game starts
        self.told_room: list[Any] | None = None  # the waiting room as last shown
        self.told_away = False
        self.told_alone = False  # told that nobody else is at the waiting table
        self.met: set[int] = set()  # the seats someone else was seen at while it waited
        self.status: Live | None = None  # the line refreshed while others play
        self.spinner = Spinner("dots")  # its spinner and text

    # -- the game loop ----------------------------------------------------------------------

    def start(
        self,
        name: str,
        players: int,
        level: str,
        rules: dict[str, Any] | None = None,
        seed: int | None = None,
        *,
        open_seats: int = 0,
        listed: bool = False,
        stand_in: str | None = None,
        rated: bool = False,
    ) -> None:
        """Create the game: you in seat 0, then `open_seats` seats for people to take by
        the table's code, then bots of `level`: one level, or several separated by commas
        (`heuristic,hard`), given to the bots in turn. `rated`: a rated table, the
        client's account in seat 0."""
        if not 0 <= open_seats < players:
            raise ValueError(
                _(
                    "open seats: 0 to {most} beside yours, not {asked}",
                    most=players - 1,
                    asked=open_seats,
                )
            )
        levels = [part.strip() for part in level.split(",") if part.strip()] or [level]
        seats: list[dict[str, Any]] = [{"name": name}]
        seats += [dict(OPEN) for _ in range(open_seats)]
        seats += [
            {"name": f"Bot {i}", "bot": levels[k % len(levels)]}
            for k, i in enumerate(range(1 + open_seats, players))
        ]
        # The command line's words go as typed (`--level`, the rules, the game), unchecked
        # against the document's types: the service refuses an unknown one in the
        # terminal's language, and the terminal says so.
        create: Any = self.api.create_game
        created: CreatedGame = create(
            seats,
            rules,
            seed,
            listed=listed if open_seats else None,
            stand_in_level=stand_in,
            game=self.GAME,
            rated=True if rated else None,
        )
        self.game_id = created["id"]
        self.me = self.seat_client(self.api.seat(created, 0).token)
        self.host = self.api.host(created)
        self.level = levels[0]  # the level a table's early start gives its open seats
        self.names = told_apart([s["name"] for s in created["seats"]])
        if not open_seats:
            bots = seats[1:]
            against = (
                ngettext(
                    "{n} {level} bot", "{n} {level} bots", players - 1, level=level_name(levels[0])
                )
                if len({b["bot"] for b in bots}) == 1
                else names_list([f"{b['name']} ({level_name(b['bot'])})" for b in bots])
            )
            # "you are You" says nothing: a person without a name is told whom they play.
            created_line = (
                _("Game {game} created: you play against {against}. Type ? for a hint, q to quit.")
                if says_you(name)
                else _(
                    "Game {game} created: you are {name}, against {against}. Type ? for "
                    "a hint, q to quit."
                )
            )
            self.console.print(
                styled(created_line, game=(self.game_id, "bold"), name=name, against=against)
            )
            return
        self.at_table, self.started = True, False
        code = str(created["table_code"])
        # The service names the address a friend can open (this machine's network one in
        # place of localhost); an older service names none.
        link = str(created.get("table_link") or f"{self.api.base_url}/t/{code}")
        origin = link.rsplit("/t/", 1)[0]
        here_only = only_this_machine(link)
        told = styled(
            _("Table {code} is waiting for {players}. Share the code{lobby}, or the link {link}"),
            code=(code, "bold"),
            players=ngettext("{n} player", "{n} players", open_seats),
            lobby=_(" (it is in the lobby)") if listed else "",
            link=(link, "underline"),
        )
        if here_only:
            told.append(
                "\n"
                + _(
                    "This link opens only on this machine. For friends on other machines, "
                    "serve the game on the network (pocha serve does, unless given "
                    "--host 127.0.0.1) from a machine they can reach."
                )
                + "\n"
            )
        command = f"pocha play --join {code}" + ("" if here_only else f" --url {origin}")
        told.append("\n" + _("They join with: {command}", command=command) + "\n")
        told.append(
            _(
                "Type s and Enter to start now with {level} bots in the open seats; q to leave.",
                level=level_name(self.level),
            )
        )
        self.console.print(Panel(told, title=_("Your table"), title_align="left"))

    def join(self, code: str, name: str) -> None:
        """Take the first open seat of the table `code`."""
        taken = self.api.join(code, name)
        me = self.api.joined(taken)
        self.sit(taken, name, me.view(taken["game_id"]))

    def sit(self, taken: Data, name: str, view: Data) -> None:
        """Play the seat `join` took (`taken`), whose view is `view`."""
        if taken.get("warning"):
            # The host chose the seed (the API says so in the caller's language).
            self.console.print(Text(str(taken["warning"]), style="bold yellow"))
        self.game_id, self.seat = taken["game_id"], taken["seat"]
        self.me = self.seat_client(str(taken["token"]))
        self.at_table, self.started = True, False
        self.look_at(view)
        self.console.print(
            styled(
                _("You sit at table {code} as {name}, in seat {seat}. Type q to leave."),
                code=(str(taken["table_code"]), "bold"),
                name=name,
                seat=str(self.seat + 1),
            )
        )

    def back_to(self, view: Data, key: str) -> None:
        """Sit again at the account's seat whose view its `key` opened (`pocha play
        --resume`): the game goes on from where it is, what happened before untold."""
        you = view.get("you")
        if you is None:
            raise ValueError(_("you hold no seat in game {game}", game=view["id"]))
        self.game_id, self.seat = str(view["id"]), int(you["seat"])
        self.me = self.seat_client(key)
        self.seen, self.started = int(view["last_event"]), view["phase"] != "waiting"
        self.look_at(view)
        if self.players[self.seat].get("left"):
            raise ValueError(_("you left this game: the stand-in plays your seat to the end"))
        back = (
            _("Back in game {game} as {name}, in seat {seat}. Type ? for a hint, q to leave.")
            if self.at_table
            else _("Back in game {game} as {name}, in seat {seat}. Type ? for a hint, q to quit.")
        )
        self.console.print(
            styled(
                back,
                game=(self.game_id, "bold"),
                name=self.names[self.seat],
                seat=str(self.seat + 1),
            )
        )

    def tell_resume(self) -> None:
        """After quitting a game against bots with an account's key saved: how to play on."""
        if self.saved_key is not None and not self.at_table and self.game_id:
            self.console.print(_("To play on later: pocha play --resume {game}", game=self.game_id))

    def seat_client(self, token: str | None) -> PochaClient:
        """The API acting as this terminal's seat of the game now played, by `token`; with
        a saved account, it goes on with the account's key once the token opens nothing."""
        if token is None:
            raise ValueError("the seat has no token")
        return SeatClient(self.api, token, self.game_id, self.saved_key)

    def run(self) -> int:
        """Play until the game is over (0) or the player quits (also 0: not an error). A
        service that stops answering (restarted, the network) is waited for: the game is
        kept there, and goes on here once it answers again."""
        try:
            while True:
                try:
                    if self.step():
                        return 0
                except (OSError, HTTPException) as exc:
                    self.reconnect(lost_words(exc))
                except ApiError as exc:
                    if exc.status not in UNAVAILABLE:
                        raise
                    self.reconnect(as_sentence(exc.message))
                except (Interrupted, KeyboardInterrupt) as exc:
                    self.idle()
                    if not isinstance(exc, Interrupted):
                        self.console.print()  # off the line where ^C left the cursor
                    if not self.really_leave():
                        continue
                    raise Quit from None
        except (Quit, KeyboardInterrupt):
            self.idle()
            self.leave()
            self.tell_resume()
            return 0
        except ApiError as exc:
            # The game is gone (expired, deleted) or the service refuses us now.
            self.idle()
            if exc.status == 404 and self.at_table and not self.started:
                self.warn(
                    _(
                        "This table is gone (its host deleted it, or it expired): nobody "
                        "will play here. pocha lobby lists the tables waiting for players; "
                        "pocha play --open 1 makes one of your own."
                    )
                )
                return 1
            self.warn(_("The service says: {message}", message=as_sentence(exc.message)))
            return 1
        finally:
            self.idle()

    def really_leave(self) -> bool:
        """Ctrl-C pressed: at a table in play, leaving gives the seat to the stand-in for
        good, so a key pressed by accident is asked about (y leaves; Enter, or anything
        else, plays on; a second Ctrl-C or the end of input leaves). Elsewhere it leaves:
        a waiting table's seat may be taken again by its code, a game against bots stays
        on the server."""
        if not (self.at_table and self.started):
            return True
        try:
            answer = self.ask(_("Leave the game? The stand-in plays your seat to the end (y/N): "))
        except (EOFError, KeyboardInterrupt):
            self.console.print()
            return True
        if answer.strip().lower() in YES_WORDS:
            return True
        self.console.print(Text(_("You play on."), style="green"))
        return False

    def step(self) -> bool:
        """One look at the game: tell what happened, then your turn, the waiting room, or
        a wait for the others. True once the game is over and no rematch follows."""
        self.narrate()
        view = self.me.view(self.game_id)
        self.look_at(view)
        if view["last_event"] > self.seen:
            return False  # more happened since: tell it first
        if view["phase"] != "waiting" and not self.started:
            self.start_told()  # (its game_started told already, in any case)
        if view["phase"] == self.OVER:
            self.idle()
            self.finish(view)
            return not (self.at_table and self.rematch())
        if view["phase"] == "waiting":
            self.waiting_room(view)
        elif self.at_table and view["players"][self.seat].get("away"):
            self.away(view)
        elif view["turn"] == self.seat:
            self.idle()
            self.show_table(view)
            self.take_turn(view)
        elif self.at_table:
            self.wait_for_others(view)
        else:
            time.sleep(POLL_SECONDS)
        return False

    def reconnect(self, why: str) -> None:
        """The service stopped answering (`why`, in words): say so, and look again every
        few seconds until it answers, q leaving. A move being sent when it stopped is
        asked for again (the view then says whether it was made)."""
        self.idle()
        self.warn(
            _(
                "The service at {url} does not answer: {why}. The game is kept there; this "
                "terminal tries again every few seconds (q to leave).",
                url=self.api.base_url,
                why=why,
            )
        )
        waiting = Text(_("Waiting for the service at {url}; q to leave", url=self.api.base_url))
        while True:
            self.show_status(waiting)
            line = self.line(RETRY_SECONDS)
            if line is not None and line.strip().lower() in QUIT_WORDS:
                raise Quit
            try:
                self.me.view(self.game_id)
            except (OSError, HTTPException):
                continue
            except ApiError as exc:
                if exc.status in UNAVAILABLE:
                    continue
                raise
            self.idle()
            self.console.print(Text(_("The service answers again: the game goes on."), "green"))
            return

    def leave(self) -> None:
        """Say goodbye: at a table with people, give the seat up (to whoever comes while
        it waits, to the stand-in in play) so that nobody waits on your clock."""
        if not self.at_table:
            if self.saved_key is not None:  # `tell_resume` says how to play on
                self.console.print(_("Left game {game}.", game=self.game_id))
            else:
                self.console.print(
                    _(
                        "Left game {game}. Only an account plays on in a game left: pocha "
                        "signup makes one, then pocha play --resume.",
                        game=self.game_id,
                    )
                )
            return
        try:
            view = self.me.leave(self.game_id, self.seat)
        except (ApiError, OSError):
            self.console.print(_("Left game {game}.", game=self.game_id))
            return
        if view["phase"] == "waiting":
            self.console.print(_("You left the table: your seat is open for someone else."))
        else:
            self.console.print(_("You left the table: the stand-in plays your seat to the end."))

    def look_at(self, view: Data) -> None:
        """Keep what a view says of the seats (names as they fill, presence, away)."""
        self.players = view.get("players") or self.players
        if self.players:
            self.names = told_apart([p["name"] for p in self.players])
        self.at_table = self.at_table or view.get("table") is not None

    def idle(self) -> None:
        """Stop the refreshed status line (before a prompt, a panel, or the end)."""
        if self.status is not None:
            self.status.stop()
            self.status = None

    def show_status(self, text: Text) -> None:
        """The line refreshed while others play or the table fills (a spinner and `text`)."""
        if self.status is None:
            self.spinner = Spinner("dots", text=text, style="status.spinner")
            self.status = Live(
                self.spinner, console=self.console, refresh_per_second=4, transient=True
            )
            self.status.start()
        elif text != self.spinner.text:
            # Drawn now: left to the next of the 4 refreshes a second, the line would say
            # the turn before for up to a quarter of a second after it changed.
            self.spinner.update(text=text)
            self.status.refresh()

    def listen(self) -> str | None:
        """A line typed while watching (None if none within a poll); q leaves."""
        line = self.line(POLL_SECONDS)
        if line is not None and line.strip().lower() in QUIT_WORDS:
            raise Quit
        return line

    def waiting_room(self, view: Data) -> None:
        """Show the seats as they fill; the host may start now with bots."""
        room = [
            (p["name"], p.get("bot"), seat_state(p, seat == self.seat))
            for seat, p in enumerate(self.players)
        ]
        if room != self.told_room:
            self.idle()
            self.told_room = room
            self.console.print(self.room(view))
        table = view.get("table") or {}
        self.tell_alone(table)
        waiting = ngettext("{n} player", "{n} players", int(table.get("open_seats", 0)))
        start = (
            _(" (s: start now with {level} bots)", level=level_name(self.level))
            if self.host
            else ""
        )
        self.show_status(
            Text(_("Waiting for {players}{start}; q to leave", players=waiting, start=start))
        )
        line = self.listen()
        if line is None or not line.strip():
            return
        if self.host is not None and line.strip().lower() == "s":
            try:
                self.host.start(self.game_id, self.level)
            except ApiError as exc:
                self.warn(as_sentence(exc.message))
            return
        self.warn(_("Type s to start now, or q to leave.") if self.host else _("Type q to leave."))

    def tell_alone(self, table: Data) -> None:
        """A guest left alone at a table that waits (everyone else, its host too, left or
        went offline) is told so once, with what they may do: nobody here can start the
        game early, so it starts only if people take the open seats."""
        others = {
            seat
            for seat, p in enumerate(self.players)
            if seat != self.seat
            and not p.get("open")
            and p.get("bot") is None
            and p.get("present") is not False
        }
        self.met |= others
        if self.host is not None or others:
            self.told_alone = False
            return
        # Only once someone else was seen here: a seat whose person never came (a host
        # that made the table over the API and has not looked at it yet) is not a leaving.
        if self.told_alone or not self.met:
            return
        self.idle()
        self.told_alone = True
        code = str(table.get("code") or "")
        players = ngettext("{n} player", "{n} players", int(table.get("open_seats", 0)))
        self.console.print(
            Panel(
                Text(
                    _(
                        "Nobody else is at table {code} now: the others, the one who made it "
                        "too, have left or gone offline, so no one can start it early. It "
                        "starts only once its open seats are taken ({players} to come). Stay to "
                        "wait (share the code {code}), or type q to leave; pocha play --open 1 "
                        "makes a table of your own.",
                        code=code,
                        players=players,
                    )
                ),
                style="yellow",
            )
        )

    def room(self, view: Data) -> Table:
        """The waiting room: every seat, who has taken it and whether they are here."""
        table = view.get("table") or {}
        code = table.get("code")
        room = Table(
            title=_("Table {code}", code=code) if code else _("The table"), title_justify="left"
        )
        rows: list[tuple[str, Text, str]] = []
        for seat, player in enumerate(self.players):
            if player.get("open"):
                name, state = Text(_("(open)"), style="dim"), _("waiting for someone")
            else:
                name = Text(seat_name(self.names[seat], seat == self.seat))
                state = seat_state(player, seat == self.seat) or _("here")
            rows.append((str(seat + 1), name, state))
        # A row a seat in a narrow terminal too: when the seats are wider than the terminal
        # (its borders and padding take 10 columns), the seat numbers keep theirs, the state
        # at least 8, and a long name ends in `…` but keeps its seat number.
        numbered = len(_("Seat"))
        room_for = self.console.width - 10 - numbered
        longest = max((len(name) for _seat, name, _state in rows), default=0)
        states = max((len(state) for _seat, _name, state in rows), default=0)
        narrow = longest + states > room_for
        named = min(longest, max(8, room_for - min(states, 8))) if narrow else longest
        room.add_column(_("Seat"), justify="right", width=numbered if narrow else None)
        room.add_column(_("Player"), width=named if narrow else None, no_wrap=narrow)
        room.add_column(
            "", width=max(room_for - named, 1) if narrow else None, overflow="ellipsis",
            no_wrap=narrow,
        )  # fmt: skip
        for number, name, state in rows:
            if narrow:
                name = Text(fitted(name.plain, named), style=name.style)
            room.add_row(number, name, state)
        return room

    def start_told(self) -> None:
        """The game has started: tell the deal held back while the table waited."""
        self.started = True
        self.told_room = None
        held, self.held = self.held, []
        for event in held:
            said = self.describe(event)
            if said is not None:
                self.console.print(said)

    def wait_for_others(self, view: Data) -> None:
        """Someone else's turn at a table: the clock of that seat, refreshed; q leaves."""
        self.show_status(self.turn_text(view))
        self.listen()

    def turn_text(self, view: Data) -> Text:
        """Whose turn it is, their clock and the seats not playing for themselves."""
        turn = view["turn"]
        if turn is None:
            return Text("…")
        text = Text(_("{name} to {doing}", name=self.names[turn], doing=self.doing(view)))
        left = view.get("seconds_left")
        if left is not None:
            seconds = f"{left:.0f}"
            text.append(_(" · {seconds} s left", seconds=seconds), style="bold")
        states = [
            f"{self.names[seat]} {state}"
            for seat, player in enumerate(self.players)
            if seat != self.seat and (state := seat_state(player))
        ]
        if states:
            text.append(" · " + "; ".join(states), style="yellow")
        return text

    def doing(self, view: Data) -> str:
        """What the seat whose turn it is does now, after "to": `bid`, `play`."""
        return _("bid") if view["phase"] == "bidding" else _("play")

    def away(self, view: Data) -> None:
        """Your seat is away (your clock ran out twice): the stand-in plays your turns at
        once. Any line typed (a move, or just Enter) brings you back; q leaves."""
        if not self.told_away:
            self.idle()
            self.told_away = True
            stand_in = view["players"][self.seat].get("stand_in")
            told = (
                _(
                    "You are away: your stand-in ({level} bot) plays your turns. Press Enter "
                    "to come back, q to leave the table.",
                    level=level_name(stand_in),
                )
                if stand_in
                else _(
                    "You are away: your stand-in (the bot) plays your turns. Press Enter to "
                    "come back, q to leave the table."
                )
            )
            self.console.print(Text(told, style="yellow"))
        self.show_status(self.turn_text(view))
        if self.listen() is not None:
            self.come_back()

    def come_back(self) -> None:
        self.idle()
        self.me.come_back(self.game_id, self.seat)
        self.told_away = False

    def rematch(self) -> bool:
        """After a game with people: take your seat at the rematch if you want one."""
        try:
            answer = self.ask(_("A rematch, same seats and rules? (y/N): ")).strip().lower()
        except (EOFError, KeyboardInterrupt):
            self.console.print()  # off the prompt's line
            return False
        if answer not in YES_WORDS:
            return False
        try:
            taken = self.me.rematch(self.game_id)
        except ApiError as exc:
            self.warn(_("No rematch: {message}", message=as_sentence(exc.message)))
            return False
        self.game_id, self.seat = taken["game_id"], taken["seat"]
        self.me = self.seat_client(str(taken["token"]))
        made = taken.get("host_token")
        self.host = self.api.with_token(made) if made else None
        self.seen, self.started, self.held, self.told_room = 0, False, [], None
        self.met, self.told_alone = set(), False
        self.look_at(self.me.view(self.game_id))
        told = (
            _(
                "Rematch at table {code}: you keep seat {seat}. It starts when everyone is "
                "back, or when you type s (bots in the seats still open)."
            )
            if made
            else _(
                "Rematch at table {code}: you keep seat {seat}. It starts when everyone is back."
            )
        )
        self.console.print(
            styled(told, code=(str(taken.get("table_code")), "bold"), seat=str(self.seat + 1))
        )
        return True

    def take_turn(self, view: Data) -> None:
        """Ask until the server accepts a bid or a card (or the player quits)."""
        left = view.get("seconds_left")
        seconds = None if left is None else f"{left:.0f}"
        clock = "" if seconds is None else _("{seconds} s left; ", seconds=seconds)
        quit_word = _("leave") if self.at_table else _("quit")
        while True:
            try:
                answer = self.ask(self.prompt(view, clock, quit_word)).strip()
            except (EOFError, KeyboardInterrupt) as exc:
                self.console.print()  # off the prompt's line, where ^C or ^D left the cursor
                raise (Quit if isinstance(exc, EOFError) else Interrupted) from exc
            if answer.lower() in QUIT_WORDS:
                raise Quit
            if answer == "?":
                self.hint(view)
                continue
            action = self.parse(answer, view)
            if action is None:
                continue
            try:
                self.send_on(action, view)
                return
            except ApiError as exc:
                moved_on = exc.error in ("stale_version", "not_your_turn", "conflict")
                if moved_on and self.at_table:
                    self.too_late(exc)
                else:
                    self.warn(as_sentence(exc.message))
                if moved_on:
                    return  # the game moved on: look again

    def prompt(self, view: Data, clock: str, quit_word: str) -> str:
        """The question on your turn: the bids you may make, or a card."""
        if view["phase"] == "bidding":
            options = "/".join(str(b) for b in view["you"]["legal"])
            return _(
                "Your bid [{options}] ({clock}? hint, q {quit}): ",
                options=options,
                clock=clock,
                quit=quit_word,
            )
        return _(
            "Your card ({clock}number or code, ? hint, q {quit}): ", clock=clock, quit=quit_word
        )

    def send_on(self, action: int | str, view: Data) -> None:
        """Make the move on `view`. Refused as stale (412) while nothing happened at the
        table since (no event: the version moved on as a key was replaced or someone came
        back, and it is still this seat's turn in the same phase), the move means what it
        meant: made again on the game's version now."""
        try:
            self.send(action, view["version"])
        except ApiError as exc:
            if exc.error != "stale_version":
                raise
            now = self.me.view(self.game_id)
            same = [now.get(k) for k in ("last_event", "phase", "turn")]
            if same != [view.get(k) for k in ("last_event", "phase", "turn")]:
                raise
            self.send(action, now["version"])

    def send(self, action: int | str, version: int) -> None:
        """Make the move `parse` read, on the view of `version`."""
        self.me.act(self.game_id, action, version=version)

    def too_late(self, exc: ApiError) -> None:
        """A move refused because the game moved on while you thought: at a table, most
        likely your clock ran out and the stand-in played. Typing a move says you are here:
        if your seat had gone away meanwhile, you come back."""
        now = self.me.view(self.game_id)
        if now["players"][self.seat].get("away"):
            self.warn(_("Too late: your stand-in has been playing for you. You are back now."))
            self.come_back()
        elif now["turn"] != self.seat:
            self.warn(_("Too late: your clock ran out, and your stand-in played for you."))
        else:
            self.warn(as_sentence(exc.message))

    def parse(self, answer: str, view: Data) -> int | str | None:
        """The action an answer names, or None (and a message) if it names none. A card
        in hand or a bid in range that is not in `legal` passes too: the server's refusal
        names the rule (and leaves the game as it was)."""
        legal: list[Any] = view["you"]["legal"]
        hand: list[str] = view["you"]["hand"]
        if view["phase"] == "bidding":
            if not answer.isdecimal():
                self.warn(_("Bid a number: {bids}.", bids=", ".join(map(str, legal))))
                return None
            bid = int(answer)
            if bid in legal or bid <= view["cards_per_player"]:
                # In range yet not legal is the dealer's restriction: the server says so.
                return bid
            self.warn(
                _(
                    "Bid from 0 to {most}: you may bid {bids}.",
                    most=view["cards_per_player"],
                    bids=", ".join(map(str, legal)),
                )
            )
            return None
        card = answer.upper()
        if answer.isdecimal() or not answer:
            index = int(answer or 0)
            if not 1 <= index <= len(hand):
                self.warn(
                    _("Type 1, or a card's code.")
                    if len(hand) == 1
                    else _("Pick a card from 1 to {most}, or a card's code.", most=len(hand))
                )
                return None
            card = hand[index - 1]
        if card not in hand:
            self.warn(_("You do not hold {card}: pick a number or a code.", card=answer))
            return None
        return card

    def warn(self, message: str) -> None:
        """Say something went wrong. As Text, never markup: the message may hold what the
        player typed or the server said, and a `[` in it must print as itself."""
        self.console.print(Text(message, style="red"))

    def hint(self, view: Data) -> None:
        self.console.print(_("Asking the bots…"))
        try:
            job = self.me.hint(self.game_id, wait=60)
        except (ApiError, JobFailed, TimeoutError) as exc:
            self.warn(_("No hint: {error}", error=exc))
            return
        if job["result"] is None:  # a finished job has its advice
            self.warn(_("No hint."))
            return
        self.console.print(self.advice(job["result"], view))

    def advice(self, result: Data, view: Data) -> Text:
        """A hint job's result in words."""
        return hint_text(result, view["you"]["legal"])

    # -- what is shown ----------------------------------------------------------------------

    def narrate(self) -> None:
        """Tell every event since the last look, one line each (the first deal of a table
        that waits is told when the game starts)."""
        events = self.new_events()
        if events:
            # The status line says whose turn it was before these events: stopped here,
            # it comes back from the view read next, rather than stay a turn behind.
            self.idle()
        for event in events:
            self.seen = event["seq"]
            kind, seat = event["type"], event.get("seat")
            if kind == "seat_taken" and seat is not None and seat < len(self.names):
                if seat < len(self.players):
                    self.players[seat] = {**self.players[seat], "name": event["name"]}
                    self.names = told_apart([p["name"] for p in self.players])
                else:
                    self.names[seat] = event["name"]
            if self.dealing(event) and not self.started:
                self.held.append(event)
                continue
            line = self.describe(event)
            if kind == "game_started":
                self.idle()
                if line is not None:
                    self.console.print(line)
                self.start_told()
                continue
            if line is not None:
                self.console.print(line)
            self.after(event)

    def new_events(self) -> list[Data]:
        """The events since the last one told."""
        return [*self.api.events(self.game_id, after=self.seen)]

    def dealing(self, event: Data) -> bool:
        """Whether `event` belongs to a deal (held back while a table waits for people)."""
        return bool(event["type"] == "hand_dealt")

    def after(self, event: Data) -> None:
        """What follows an event's line: after each hand, the score sheet."""
        if event["type"] == "hand_scored":
            self.console.print(self.score_sheet(self.api.history(self.game_id)))

    def describe(self, event: Data) -> Text | None:
        kind = event["type"]
        seat = event.get("seat")
        you = seat == self.seat
        who = "You" if you else ""
        if not you and seat is not None and seat < len(self.names):
            who = self.names[seat]
        if kind == "hand_dealt":
            trump = event["trump"]
            dealer = event["dealer"]
            text = Text(
                "\n"
                + _(
                    "Hand {number} of {total}{tiebreak}: {cards} each. {deals}. Trump: ",
                    number=event["hand_number"],
                    total=event["hands_total"],
                    tiebreak=_(" (tiebreak)") if event.get("tiebreak") else "",
                    cards=ngettext("{n} card", "{n} cards", event["cards_per_player"]),
                    deals=self.deals(dealer),
                ),
                style="bold",
            )
            text.append(card_text(trump["card"]))
            if trump["holder"] is not None:
                text.append(
                    _(", held by you")
                    if trump["holder"] == self.seat
                    else _(", held by {name}", name=self.names[trump["holder"]])
                )
            return text.append(".")
        if event.get("by") == "stand_in":
            # The table's stand-in bot played this person's turn (clock out, away or left).
            who, you = (_("Your stand-in") if you else _("{name}'s stand-in", name=who)), False
        if kind == "bid":
            if you:
                return Text(_("You bid {bid}.", bid=event["bid"]))
            return Text(_("{who} bids {bid}.", who=who, bid=event["bid"]))
        if kind == "card_played":
            played = _("You play {card}") if you else _("{who} plays {card}")
            return styled(played, who=who, card=card_text(event["card"]))
        told = self.table_event(kind, event, who, you)
        if told is not None:
            return told
        if kind == "trick_won":
            won = (
                _("You win trick {number}.", number=event["trick_number"])
                if you
                else _("{who} wins trick {number}.", who=who, number=event["trick_number"])
            )
            return Text(won, style="italic")
        if kind == "game_over":
            return None  # `finish` shows the result
        return None  # hand_scored: the score sheet follows

    def table_event(self, kind: str, event: Data, who: str, you: bool) -> Text | None:
        """The comings and goings at a table, in a sentence (None for other events)."""
        seat = event.get("seat")
        where = "" if seat is None else _("seat {number}", number=seat + 1)
        if kind == "seat_taken":
            if you:
                return Text(_("You take {where}.", where=where))
            return Text(_("{name} takes {where}.", name=event["name"], where=where))
        if kind == "seat_bot":
            return Text(
                _("A {level} bot takes {where}.", level=level_name(event["bot"]), where=where)
            )
        if kind == "seat_opened":
            return Text(_("{where} is open again.", where=where.capitalize()))
        if kind == "game_started":
            started = _("The game starts: {names}.", names=names_list(self.names))
            return Text("\n" + started, style="bold")
        if kind == "seat_away":
            if you:
                return Text(_("You are away: your stand-in plays your turns."), style="yellow")
            return Text(_("{who} is away: the stand-in plays their turns.", who=who), "yellow")
        if kind == "seat_back":
            return Text(_("You are back.") if you else _("{who} is back.", who=who), "yellow")
        if kind == "seat_left":
            said = (
                _("You left the table: the stand-in plays that seat to the end.")
                if you
                else _("{who} left the table: the stand-in plays that seat to the end.", who=who)
            )
            return Text(said, "yellow")
        if kind == "rematch":
            return Text(_("A rematch table is set up, with the same seats and rules."))
        return None

    def deals(self, dealer: int) -> str:
        """Who deals, as a sentence: `You deal`, `Ana deals`."""
        if dealer == self.seat:
            return _("You deal")
        return _("{name} deals", name=self.names[dealer])

    def show_table(self, view: Data) -> None:
        self.console.print(self.table(view))

    def seat_column(self, view: Data, players: list[Data], seat: int, brief: bool = False) -> str:
        """A seat's state for the table's last column: its clock while it is to act, and
        whether it is away, left, offline or open (`brief`: without the stand-in's level)."""
        state = seat_state(players[seat], seat == self.seat) if seat < len(players) else ""
        if brief:
            state = state.split(" (", 1)[0]
        left = view.get("seconds_left")
        if view["turn"] == seat and left is not None:
            state = f"⏱ {left:.0f} s" + (f" · {state}" if state else "")
        return state

    def table(self, view: Data) -> Panel:
        """Everything a seat knows now, laid out as the web page does."""
        trump = view["trump"]
        # A tiebreak hand is not one of the hands the game was set to have: say which it is.
        hand = (
            _("Tiebreak {number}", number=view["tiebreak_hand"])
            if view.get("tiebreak_hand")
            else _(
                "Hand {number} of {total}", number=view["hand_number"], total=view["hands_total"]
            )
        )
        cards = ngettext("{n} card", "{n} cards", view["cards_per_player"])
        head = Text(_("{hand} · {cards} each · trump: ", hand=hand, cards=cards))
        head.append(card_text(trump["card"]))
        if trump["holder"] is not None:
            head.append(
                _(" (held by you)")
                if trump["holder"] == self.seat
                else _(" (held by {name})", name=self.names[trump["holder"]])
            )
        seats = seats_table(self.console, self.seat_rows(view), self.figures())
        trick = Text(_("On the table: "))
        if not view["trick"]:
            trick.append(_("nothing yet") if view["phase"] == "playing" else _("(bidding)"))
        for i, played in enumerate(view["trick"]):
            trick.append(", " if i else "").append(f"{self.names[played['seat']]} ")
            trick.append(card_text(played["card"]))
        winning = view.get("winning")
        if winning is not None:
            trick.append(
                _(" — you are winning it")
                if winning == self.seat
                else _(" — {name} is winning it", name=self.names[winning])
            )
        parts: list[Any] = [head, seats, trick]
        # Before this hand's first trick is won, the last trick is an earlier hand's.
        if view["last_trick"] and not view["trick"] and any(view["tricks_won"]):
            last = Text(_("Last trick: "), style="dim")
            for i, played in enumerate(view["last_trick"]):
                last.append(", " if i else "").append(f"{self.names[played['seat']]} ")
                last.append(card_text(played["card"], dim=True))
            parts.append(last)
        parts.append(self.hand_text(view))
        parts.extend(self.barred(view))
        return Panel(Group(*parts), title=self.turn_title(view), title_align="left")

    def figures(self) -> list[Figure]:
        """The headers of the seats table's figures, whole and short (`seats_table`)."""
        return [
            (_("Bid"), pgettext("the seats table's short header for Bid", "Bid")),
            (_("Tricks"), pgettext("the seats table's short header for Tricks", "Trk")),
            (_("Score"), pgettext("the seats table's short header for Score", "Pts")),
        ]

    def seat_rows(self, view: Data) -> list[SeatRow]:
        """Each seat's row in the seats table on your turn: its name, role (dealer, mano),
        bid, tricks won, score and state."""
        players = view.get("players") or []
        rows = []
        for seat, name in enumerate(self.names):
            role = _("dealer") if view["dealer"] == seat else "mano" if view["mano"] == seat else ""
            bid = view["bids"][seat]
            rows.append(
                SeatRow(
                    name=seat_name(name, seat == self.seat),
                    role=role,
                    figures=[
                        "-" if bid is None else str(bid),
                        str(view["tricks_won"][seat]),
                        str(view["scores"][seat]),
                    ],
                    state=self.seat_column(view, players, seat),
                    brief=self.seat_column(view, players, seat, brief=True),
                    turn=view["turn"] == seat,
                )
            )
        return rows

    def turn_title(self, view: Data) -> str:
        """The title of the table on your turn: what you do, and your clock."""
        left = view.get("seconds_left")
        seconds = None if left is None else f"{left:.0f}"
        clock = "" if seconds is None else _(" · {seconds} s on your clock", seconds=seconds)
        return _("Your turn to {doing}{clock}", doing=self.doing(view), clock=clock)

    def hand_text(self, view: Data) -> Text:
        """Your cards, numbered; those the rules bar now are marked ✗ and dimmed (the
        mark is for a terminal without colour)."""
        text = Text(_("Your hand: "))
        refused = refusals(view)
        for i, code in enumerate(view["you"]["hand"], 1):
            barred = code in refused
            text.append(f"  {i}) " + ("✗ " if barred else ""))
            text.append(card_text(code, dim=barred))
        return text

    def barred(self, view: Data) -> list[Text]:
        """One line per reason the server gives against some of your cards or bids now,
        with the rule's name (the Spanish terms are the game's own)."""
        refused = refusals(view)
        lines: list[Text] = []
        if view["phase"] == "bidding":
            for bid in range(view["cards_per_player"] + 1):
                if bid in refused:
                    # The sentence names the bid itself ("as dealer you may not bid 1: ...").
                    reason = refused[bid][1]
                    said = _("✗ {reason}.", reason=reason[:1].upper() + reason[1:])
                    lines.append(Text(said, style="yellow"))
            return lines
        cards: dict[Reason, list[str]] = {}
        for i, code in enumerate(view["you"]["hand"], 1):
            if code in refused:
                cards.setdefault(refused[code], []).append(f"{i}) {code}")
        for (rule, sentence), barred in cards.items():
            said = _(
                "✗ Not {cards}: {reason} ({rule}).",
                cards=", ".join(barred),
                reason=sentence,
                rule=rule,
            )
            lines.append(Text(said, style="yellow"))
        return lines

    def score_sheet(self, history: Data) -> Table:
        """The score sheet as on paper: per hand, each player's bid, tricks and total. When
        that is wider than the terminal (eight players in 80 columns), each cell keeps its
        bid/won over the total, in columns without rules between them."""
        sheet = self.sheet(history, compact=False)
        # Measured unbounded: a table measured within the terminal says it fits, cut.
        unbounded = self.console.options.update_width(1_000_000)
        if self.console.measure(sheet, options=unbounded).maximum > self.console.width:
            sheet = self.sheet(history, compact=True)
        return sheet

    def sheet(self, history: Data, *, compact: bool) -> Table:
        caption = (
            _("bid/won over the total; * tiebreak")
            if compact
            else _("bid/won, points → total; * tiebreak")
        )
        sheet = Table(
            title=_("Score sheet"),
            caption=caption,
            box=box.SIMPLE_HEAD if compact else box.HEAVY_HEAD,
            collapse_padding=compact,
            pad_edge=not compact,
        )
        sheet.add_column(_("Hand"), justify="right")
        sheet.add_column(_("Cards"), justify="right")
        sheet.add_column(_("Trump"))
        for name in self.names:
            sheet.add_column(Text(name), justify="right", no_wrap=not compact, overflow="fold")
        for hand in history["hands"]:
            cells = [
                f"{hand['bids'][s]}/{hand['tricks'][s]}\n{hand['totals'][s]}"
                if compact
                else f"{hand['bids'][s]}/{hand['tricks'][s]} {hand['points'][s]:+d} → "
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

    def finish(self, view: Data) -> None:
        winners = [self.names[s] for s in view["winners"]]
        scores = ", ".join(f"{n} {s}" for n, s in zip(self.names, view["scores"], strict=True))
        said = game_over(winners) + "\n" + _("Final scores: {scores}.", scores=scores)
        self.console.print(Panel(Text(said), style="bold green"))


def game_over(winners: list[str]) -> str:
    """`Game over. Winner: Ana.`, or the winners, or nobody (a Poch game all left)."""
    if len(winners) == 1:
        return _("Game over. Winner: {names}.", names=winners[0])
    return _("Game over. Winners: {names}.", names=names_list(winners) if winners else _("nobody"))


def join_by_a_name(
    api: PochaClient, code: str, name: str, console: Console, ask: Prompt | None = None
) -> tuple[Data, str]:
    """Take a seat at table `code` as `name`, and the name it was taken by: where the
    service refuses the name for looking like one at the table (`name_taken`: two people
    who both kept the default name), the person is asked for another, until a seat is
    taken or they give none (the refusal is raised then). An account sits by its own name,
    which asking cannot change."""
    ask = ask or (lambda prompt: console.input(Text(prompt)))
    while True:
        try:
            return api.join(code, name), name
        except ApiError as exc:
            if exc.error != "name_taken" or api.account_key is not None:
                raise
            refused = exc
        console.print(Text(refusal(refused), "red"))
        try:
            name = ask(_("Another name (Enter to give up): ")).strip()
        except (EOFError, KeyboardInterrupt):
            console.print()  # off the prompt's line
            name = ""
        if not name:
            raise refused


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
            _("schedule: 'classic', 'pyramid' or counts like 1,2,3, not {text}", text=repr(text))
        ) from exc


@speaking
def play(
    url: str,
    players: int,
    level: str,
    name: str = "You",
    schedule: str | None = None,
    seed: int | None = None,
    console: Console | None = None,
    ask: Prompt | None = None,
    *,
    open_seats: int = 0,
    listed: bool = False,
    turn_seconds: int | None = None,
    stand_in: str | None = None,
    join: str | None = None,
    line: LineReader | None = None,
    game_name: str = "pocha",
    poch: dict[str, int | None] | None = None,
    account_key: str | None = None,
    rated: bool = False,
    saved_key: SavedKey | None = None,
    language: str | None = None,
) -> int:
    """`pocha play`: create a game of `game_name` (pocha or poch) at `url` (against bots,
    or at a table with `open_seats` for people) or `join` a table by its code (of either
    game: the seat's view says which), and play it here; exit status. `schedule` (None:
    classic) is Pocha's option, `poch` Poch's (chips, ante, deals; None: the default).
    `account_key`: the account that sits (`pocha signup`); `rated` with it. `saved_key`
    reads the account's key as saved now: the seat goes on with it once its token opens
    nothing (`SeatClient`). A key that opens no account raises `SavedKeyRefused`.
    `language` (en, es; None: English) is the one the terminal speaks and asks the service
    for."""
    console = console or Console()
    # With an account's key, the game made or the seat taken is the account's.
    api = PochaClient(url, account_key=account_key, language=language and current())
    doing = _("join the table") if join else _("create the game")
    try:
        if join is not None:
            held = None
            try:
                taken, name = join_by_a_name(api, join, name, console, ask)
                view = api.joined(taken).view(taken["game_id"])
            except ApiError as exc:
                if account_key is None or exc.error != "one_seat_per_account":
                    raise
                # The account sits there already (the page or another terminal took the
                # seat): its key opens that seat, as `pocha play --resume` opens it.
                held = account_key
                view = api.with_token(held).view(api.table(join)["game_id"])
            game = game_class(str(view.get("game") or "pocha"))(api, console, ask, line, saved_key)
            if held is None:
                game.sit(taken, name, view)
            else:
                game.back_to(view, held)
        else:
            game = game_class(game_name)(api, console, ask, line, saved_key)
            rules = game_rules(game_name, schedule, poch)
            if turn_seconds is not None:
                rules["turn_seconds"] = turn_seconds
            game.start(
                name, players, level, rules, seed,
                open_seats=open_seats, listed=listed, stand_in=stand_in, rated=rated,
            )  # fmt: skip
    except ValueError as exc:
        console.print(Text(_("Cannot {doing}: {error}.", doing=doing, error=exc), style="red"))
        return 2
    except ApiError as exc:
        if account_key is not None and exc.error == "unknown_account":
            raise SavedKeyRefused(exc.message) from exc
        console.print(Text(_("Cannot {doing}: {error}", doing=doing, error=refusal(exc)), "red"))
        return 2
    except OSError as exc:
        console.print(unreachable(url, exc))
        return 2
    return game.run()


@speaking
def resume(
    url: str,
    account: Mapping[str, Any],
    game_id: str | None = None,
    console: Console | None = None,
    ask: Prompt | None = None,
    *,
    line: LineReader | None = None,
    saved_key: SavedKey | None = None,
    language: str | None = None,
) -> int:
    """`pocha play --resume`: play on at `url`, with the saved `account`'s key, game
    `game_id` or, without one, the account's only game in play or the one picked from
    their list; exit status. The key opens the account's seat as its token did. A key
    that opens no account raises `SavedKeyRefused`. In `language`, as `play`."""
    console = console or Console()
    api = PochaClient(url, account_key=str(account["key"]), language=language and current())
    try:
        game_id = game_id or pick_game(api, str(account["id"]), console, ask)
        if game_id is None:
            return 1
        view = api.with_token(str(account["key"])).view(game_id)
        game = game_class(str(view.get("game") or "pocha"))(api, console, ask, line, saved_key)
        game.back_to(view, str(account["key"]))
    except ValueError as exc:
        console.print(Text(_("Cannot resume: {error}.", error=exc), style="red"))
        return 2
    except ApiError as exc:
        if exc.error == "unknown_account":
            raise SavedKeyRefused(exc.message) from exc
        console.print(Text(_("Cannot resume: {error}", error=refusal(exc)), style="red"))
        return 2
    except OSError as exc:
        console.print(unreachable(url, exc))
        return 2
    return game.run()


def pick_game(
    api: PochaClient, account_id: str, console: Console, ask: Prompt | None = None
) -> str | None:
    """The account's game in play to resume: its only one, or the one picked from the
    list (seats it left are not offered: the stand-in plays them); None for none."""
    games = [g for g in api.account_games(account_id)["games"] if not g["left"]]
    if not games:
        console.print(_("You have no game in play here: start one with pocha play."))
        return None
    if len(games) == 1:
        return games[0]["game_id"]
    console.print(games_table(games))
    ask = ask or (lambda prompt: console.input(Text(prompt)))
    while True:
        try:
            answer = ask(_("Which game? [1-{most}, q to quit]: ", most=len(games))).strip().lower()
        except (EOFError, KeyboardInterrupt):
            console.print()  # off the prompt's line
            return None
        if answer in QUIT_WORDS:
            return None
        if answer.isdecimal() and 1 <= int(answer) <= len(games):
            return games[int(answer) - 1]["game_id"]
        console.print(Text(_("Type a number from 1 to {most}, or q.", most=len(games)), "red"))


def games_table(games: Sequence[Data]) -> Table:
    """An account's games in play, numbered to pick one, the latest first."""
    shown = Table(title=_("Your games in play"))
    for column in ("", _("Game"), _("Players"), _("Turn"), _("Last played")):
        shown.add_column(column, justify="right" if not column else "left")
    for i, game in enumerate(games, 1):
        turn = (
            _("waiting") if game["waiting"] else _("yours") if game["your_turn"] else _("others'")
        )
        names = ", ".join(name or _("(open)") for name in game["players"])
        played = time.strftime("%Y-%m-%d %H:%M", time.localtime(game["last_seen"]))
        shown.add_row(str(i), f"{game['game'].capitalize()} {game['game_id']}", Text(names),
                      turn, played)  # fmt: skip
    return shown


def game_class(name: str) -> type[TerminalGame]:
    """The terminal game that plays `name` (a view's `game`)."""
    if name == "pocha":
        return TerminalGame
    if name == "poch":
        # Imported here: client.poch_terminal builds on this module.
        from client.poch_terminal import PochTerminalGame

        return PochTerminalGame
    raise ValueError(_("game: pocha or poch, not {name}", name=repr(name)))


def game_rules(
    name: str, schedule: str | None, poch: dict[str, int | None] | None
) -> dict[str, Any]:
    """The rule options of a new game of `name`; an option of the other game is refused
    (ValueError) rather than silently dropped."""
    given = {k: v for k, v in (poch or {}).items() if v is not None}
    if name == "poch":
        if schedule is not None:
            raise ValueError(_("schedule is Pocha's option; Poch has chips, ante and deals"))
        return dict(given)
    if given:
        raise ValueError(
            _("{options}: Poch's options, not Pocha's", options=", ".join(sorted(given)))
        )
    return {"schedule": parse_schedule(schedule or "classic")}


def lost_words(exc: BaseException) -> str:
    """Why a request got no answer, in the terminal's language (the system's own message
    is English whatever the locale)."""
    if isinstance(exc, ConnectionRefusedError):
        return _("nothing answers at that address")
    if isinstance(exc, socket.gaierror):
        return _("no machine has that name")
    if isinstance(exc, TimeoutError):
        return _("no answer in time")
    if isinstance(exc, (ConnectionError, HTTPException)):
        return _("the connection was cut")
    return _("the connection failed ({error})", error=exc)


def unreachable(url: str, exc: OSError) -> Text:
    return Text(
        _(
            "Cannot reach the Pocha service at {url} ({error}). Start it with `pocha serve`, "
            "or give its address with --url.",
            url=url,
            error=lost_words(exc),
        ),
        style="red",
    )


def lobby_table(tables: Sequence[Data], url: str) -> Table | Text:
    """The lobby: each listed table still waiting, its code, seats and rules."""
    if not tables:
        return Text(_("No table is waiting in the lobby. Make one: pocha play --open 1 --listed"))
    shown = Table(
        title=_("Tables waiting for players"),
        caption=_("Join one: pocha play --join CODE --url {url}", url=url),
    )
    for column, right in (
        (_("Code"), False), (_("Seats"), False), (_("Open"), True), (_("Hands"), False),
        (_("Clock"), False),
    ):  # fmt: skip
        shown.add_column(column, justify="right" if right else "left")
    for table in tables:
        seats = ", ".join(
            _("(open)")
            if p.get("open")
            else p["name"] + (f" ({level_name(p['bot'])})" if p.get("bot") else "")
            for p in table["players"]
        )
        rules = table.get("rules") or {}
        schedule = rules.get("schedule", "classic")
        if isinstance(schedule, str):
            hands = _(SCHEDULE_NAMES[schedule]) if schedule in SCHEDULE_NAMES else schedule
        else:
            hands = ",".join(map(str, schedule))
        if table.get("game") == "poch" or "deals" in rules:  # a Poch table: its deals
            deals = rules.get("deals")
            hands = (
                ngettext("Poch, {n} deal", "Poch, {n} deals", deals)
                if isinstance(deals, int)
                else "Poch"
            )
        clock = rules.get("turn_seconds")
        shown.add_row(
            Text(table["code"], style="bold"),
            Text(seats),
            str(table["open_seats"]),
            hands,
            _("{seconds} s a turn", seconds=clock) if clock else _("none"),
        )
    return shown


@speaking
def lobby(
    url: str,
    console: Console | None = None,
    *,
    language: str | None = None,
    account_key: str | None = None,
) -> int:
    """`pocha lobby`: the listed tables waiting for players at `url`; exit status. In
    `language` (en, es; None: English), as `play`. With `account_key` (the account
    `pocha signup` kept), the account's lobby: without the tables its blocks would refuse
    it a seat at. A key that opens no account raises `SavedKeyRefused`."""
    console = console or Console()
    try:
        tables = PochaClient(url, account_key=account_key, language=language and current()).lobby()
    except ApiError as exc:
        if account_key is not None and exc.error == "unknown_account":
            raise SavedKeyRefused(exc.message) from exc
        console.print(Text(_("No lobby: {error}", error=refusal(exc)), style="red"))
        return 2
    except OSError as exc:
        console.print(unreachable(url, exc))
        return 2
    console.print(lobby_table(tables, url))
    return 0
