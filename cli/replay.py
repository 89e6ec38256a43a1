"""`pocha replay FILE`: a game record (docs/records.md, `GET /api/v1/games/{id}/record`) told
in the terminal, deal by deal: the hands as dealt, then each bid, bet and card in order with
each trick's winner (Pocha) or the collecting, betting, showdown and shedding (Poch), then
the scores, then what our bots thought at their decisions where the record keeps it. Decisions
the table's stand-in made are marked with `*`. A match's record of one game (a line of `GET
/api/v1/matches/{id}/records`, which keeps each hand's or deal's results but no decision) is
told as far as it goes; a file of several (the whole JSON lines, or `?format=json`'s array)
is told one game at a time, the one `--game` names.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.i18n import _

#: The record formats this replay reads.
FORMATS = (1,)
#: What a match's record seat says for an outside bot's account: `account:ID`.
ACCOUNT_SEAT = "account:"

Record = dict[str, Any]


@dataclass(frozen=True)
class Found:
    """A document of a file and where it is: its `line` (JSON lines, from 1), its `item` (a
    JSON array's, from 1), or neither (the file's one document)."""

    document: Any
    line: int | None = None
    item: int | None = None

    @property
    def number(self) -> int:
        """An arena's game's number: the line it is on (its item in an array; 1 alone)."""
        return self.item or self.line or 1


class NotARecord(ValueError):
    """A file that is no game record this replay reads (the message says why; a
    `engine.i18n.Message` where it is said in the terminal's language)."""


def load(path: Path) -> Record:
    """The game record in `path`; `NotARecord` for a file that is not JSON or not a
    record (a match's records among them: they keep no decision to weigh)."""
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise NotARecord(f"{path}: not a JSON file ({exc})") from None
    return _checked(path, record)


def read(path: Path, game: int | None = None) -> Found:
    """The record `pocha replay` tells from `path`, and where it is: a game record, or a
    match's or an arena's record of one game (`is_bot_game`), the one numbered `game` in a
    file of several."""
    found = _picked(path, game)
    if is_bot_game(found.document):
        return found
    return Found(_checked(path, found.document), found.line, found.item)


def is_match_game(record: Any) -> bool:
    """Whether `record` is a match's record of one game: its number in the match in
    `game`, the bot (level or account) of each seat in `seats`, and no `format`."""
    return (
        isinstance(record, dict)
        and "format" not in record
        and isinstance(record.get("game"), int)
        and isinstance(record.get("seats"), list)
    )


def is_arena_game(record: Any) -> bool:
    """Whether `record` is an arena's record of one game (a line of `pocha arena --records`
    or `pocha arena-poch --records`): the bot of each seat in `seats`, no `format`, and in
    `game` the game's name (Poch's arena writes `poch`) or nothing, the results telling it:
    Pocha's `hands`, or Poch's `chips`."""
    if not isinstance(record, dict) or "format" in record:
        return False
    if not isinstance(record.get("seats"), list):
        return False
    if "game" in record:
        return record["game"] in TELLERS
    return "hands" in record or "chips" in record


def is_bot_game(record: Any) -> bool:
    """Whether `record` is a match's or an arena's record of one game of bots."""
    return is_match_game(record) or is_arena_game(record)


def is_poch_game(record: Record) -> bool:
    """Whether a match's or an arena's record of one game is of Poch: the game it names, or
    else its chips won and no hands."""
    if isinstance(record.get("game"), str):
        return bool(record["game"] == "poch")
    return "chips" in record and "hands" not in record


def _documents(path: Path) -> list[Found]:
    """The JSON documents in `path`: one, the items of a JSON array (a match's records as
    `?format=json` gives them), or a document a line (JSON lines)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise NotARecord(f"{path}: not a JSON file ({exc})") from None
    try:
        whole = json.loads(text)
    except ValueError as exc:
        try:
            found = [
                Found(json.loads(line), line=number)
                for number, line in enumerate(text.splitlines(), start=1)
                if line.strip()
            ]
        except ValueError:
            raise NotARecord(f"{path}: not a JSON file ({exc})") from None
        if len(found) < 2:  # one broken document: what was wrong with it
            raise NotARecord(f"{path}: not a JSON file ({exc})") from None
        return found
    if isinstance(whole, list) and whole:
        return [Found(item, item=number) for number, item in enumerate(whole, start=1)]
    return [Found(whole)]


def _of_an_arena(path: Path, found: list[Found]) -> bool:
    """Whether the games in `found` are an arena's (numbered by line) rather than a
    match's (numbered in the match); a file of both is refused, their numbers clashing."""
    arena = any(is_arena_game(f.document) for f in found)
    if arena and any(is_match_game(f.document) for f in found):
        raise NotARecord(
            _(
                "{path} mixes a match's records with an arena's: pocha replay reads a file "
                "of one or the other.",
                path=str(path),
            )
        )
    return arena


def _picked(path: Path, game: int | None) -> Found:
    """The one document of `path` to tell: its only one, or the match's record of game
    number `game` among several, or the arena's game on line `game`."""
    found = _documents(path)
    if game is None and len(found) == 1:
        return found[0]
    if _of_an_arena(path, found):
        return _arena_game(path, found, game)
    numbers = [f.document["game"] for f in found if is_match_game(f.document)]
    if game is None:
        raise NotARecord(
            _(
                "{path} holds {count} records (a match's): pocha replay tells one game at a "
                "time. Pick it with --game N, N its number in the match ({numbers}).",
                path=str(path),
                count=len(found),
                numbers=_span(numbers) or "-",
            )
        )
    for one in found:
        if is_match_game(one.document) and one.document["game"] == game:
            return one
    raise NotARecord(
        _(
            "{path} holds no game number {game} of a match; its games: {numbers}.",
            path=str(path),
            game=game,
            numbers=_span(numbers) or "-",
        )
    )


def _arena_game(path: Path, found: list[Found], game: int | None) -> Found:
    """The arena's game numbered `game` (the line it is on, or its item in a JSON array)
    among those of `found`."""
    games = [f for f in found if is_arena_game(f.document)]
    numbers = _span([f.number for f in games]) or "-"
    # An array's games are its items, numbered from 1; JSON lines' are their lines.
    items = found[0].item is not None
    if game is None:
        if items:
            raise NotARecord(
                _(
                    "{path} holds {count} records (an arena's): pocha replay tells one game "
                    "at a time. Pick it with --game N, N its item in the array ({numbers}).",
                    path=str(path),
                    count=len(found),
                    numbers=numbers,
                )
            )
        raise NotARecord(
            _(
                "{path} holds {count} records (an arena's): pocha replay tells one game at a "
                "time. Pick it with --game N, N the line it is on ({numbers}).",
                path=str(path),
                count=len(found),
                numbers=numbers,
            )
        )
    for one in games:
        if one.number == game:
            return one
    if items:
        raise NotARecord(
            _(
                "{path} holds no game of an arena at item {game} of the array; its games are "
                "items {numbers}.",
                path=str(path),
                game=game,
                numbers=numbers,
            )
        )
    raise NotARecord(
        _(
            "{path} holds no game of an arena on line {game}; its games are on lines {numbers}.",
            path=str(path),
            game=game,
            numbers=numbers,
        )
    )


def _span(numbers: list[int]) -> str:
    """`0-3, 5` for [0, 1, 2, 3, 5]."""
    runs: list[list[int]] = []
    for number in sorted(set(numbers)):
        if runs and number == runs[-1][-1] + 1:
            runs[-1].append(number)
        else:
            runs.append([number])
    return ", ".join(str(r[0]) if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs)


def _checked(path: Path, record: Any) -> Record:
    """`record` if it is a game record of a format and game this replay reads."""
    if not isinstance(record, dict) or "format" not in record or "game" not in record:
        raise NotARecord(f"{path}: not a game record (no format or game)")
    if record["format"] not in FORMATS:
        raise NotARecord(f"{path}: record format {record['format']!r}; this replay reads 1")
    if record["game"] not in TELLERS:
        raise NotARecord(f"{path}: a record of {record['game']!r}; this replay reads "
                         f"{', '.join(TELLERS)}")  # fmt: skip
    return record


def lines(found: Found) -> list[str]:
    """The whole record found told as lines of text; `NotARecord` for one with fields
    missing or of the wrong type."""
    record = found.document
    try:
        if is_bot_game(record):
            return list(_match_game(found))
        told = list(_header(record)) + list(TELLERS[record["game"]](record))
        return told + list(_advice(record)) + _end(record)
    except (KeyError, TypeError, IndexError, AttributeError) as exc:
        raise NotARecord(f"the record is incomplete: {exc!r}") from None


def _names(record: Record) -> list[str]:
    return [str(p["name"]) or f"seat {p['seat']}" for p in record["players"]]


def _header(record: Record) -> Iterator[str]:
    title = {"pocha": "Pocha", "poch": "Poch"}[record["game"]]
    yield f"{title} · game {record['id']} · {record.get('created', '')}".rstrip(" ·")
    # A seat without a level is a person's or an outside bot's account (docs/bots-api.md):
    # the record does not say which, so it is given no label rather than a wrong one.
    seats = [
        f"{p['seat']} {p['name']}" + (f" ({p['level']})" if p["level"] else "")
        for p in record["players"]
    ]
    yield "Players: " + " · ".join(seats)
    if record.get("stand_in_level"):
        yield f"Stand-in: {record['stand_in_level']} (its decisions are marked *)"
    rules = ", ".join(f"{k}={json.dumps(v)}" for k, v in record["rules"].items())
    yield f"Rules: {rules}"


def _end(record: Record) -> list[str]:
    names = _names(record)
    scores = " · ".join(f"{names[s]} {v}" for s, v in enumerate(record["scores"]))
    winners = ", ".join(names[s] for s in record["winners"])
    return ["", f"Final: {scores}", f"Won by: {winners}"]


def _signed(score: float | None) -> str:
    return "?" if score is None else f"{score:+.2f}"


def _advice(record: Record) -> Iterator[str]:
    """A line per decision the record has advice for: its number among the decisions, who
    decided at which level, the action and its expected score, and what the search weighed
    most (each action's share of it and expected score)."""
    if not record.get("advice"):
        return
    names = _names(record)
    yield ""
    yield "Advice (the bots' own, as they played; decisions numbered from the first bid or bet):"
    for entry in record["advice"]:
        weighed = ", ".join(
            f"{o['action']} {o['share']:.0%} {_signed(o['score'])}" for o in entry["options"]
        )
        who = f"{names[entry['seat']]} ({entry['level']})"
        expected = _signed(entry["score"])
        yield (f"  {entry['number']:>4}. {who} chose {entry['action']}, expected {expected}; "
               f"weighed {weighed}")  # fmt: skip


def _starred(names: list[str], item: dict[str, Any]) -> str:
    name: str = names[item["seat"]]
    return name + ("*" if item.get("stand_in") else "")


def _per_seat(names: list[str], values: list[Any]) -> str:
    return " · ".join(f"{names[s]} {v}" for s, v in enumerate(values))


def _pocha(record: Record) -> Iterator[str]:
    names = _names(record)
    width = max(len(n) for n in names)
    for deal in record["deals"]:
        trump = deal["trump"]
        turned = (
            f"the dealer's {trump['card']}" if trump["holder"] is not None
            else f"{trump['card']} turned up"
        )  # fmt: skip
        tiebreak = " · tiebreak" if deal["tiebreak"] else ""
        yield ""
        each = "1 card each" if deal["cards"] == 1 else f"{deal['cards']} cards each"
        yield (f"Hand {deal['number']}{tiebreak} · {each} · dealer "
               f"{names[deal['dealer']]} · trumps: {turned}")  # fmt: skip
        for seat, hand in enumerate(deal["hands"]):
            yield f"  {names[seat]:<{width}}  {' '.join(hand)}"
        bids = ", ".join(f"{_starred(names, b)} {b['bid']}" for b in deal["bids"])
        yield f"  Bids: {bids}"
        for number, trick in enumerate(deal["tricks"], start=1):
            cards = ", ".join(f"{_starred(names, c)} {c['card']}" for c in trick["cards"])
            yield f"  Trick {number}: {cards} -> {names[trick['winner']]}"
        yield f"  Tricks won: {_per_seat(names, deal['tricks_won'])}"
        yield f"  Points:     {_per_seat(names, deal['points'])}"
        yield f"  Scores:     {_per_seat(names, deal['scores'])}"


def _poch(record: Record) -> Iterator[str]:
    names = _names(record)
    width = max(len(n) for n in names)
    for deal in record["deals"]:
        yield ""
        for gone in deal["left"]:
            yield f"{names[gone['seat']]} cannot pay the ante and leaves with {gone['chips']} chips"
        trump = deal["trump"]
        yield (f"Deal {deal['number']} · dealer {names[deal['dealer']]} · ante {deal['ante']} "
               f"each · trumps {trump['suit']} (the dealer's {trump['card']})")  # fmt: skip
        for seat in deal["order"]:
            yield f"  {names[seat]:<{width}}  {' '.join(deal['hands'][seat])}"
        for c in deal["collected"]:
            yield (f"  {names[c['seat']]} collects the {c['plate']} plate "
                   f"({' '.join(c['cards'])}): {c['chips']} chips")  # fmt: skip
        calls = ", ".join(
            f"{_starred(names, b)} {b['call']}" + (f" {b['amount']}" if b["amount"] else "")
            for b in deal["betting"]
        )
        yield f"  Betting: {calls}"
        yield from _showdown(names, deal["showdown"])
        yield from _shedding(names, deal["shedding"])
        if deal["winner"] is not None:
            paid = ", ".join(f"{names[int(s)]} {n}" for s, n in deal["paid"].items())
            yield f"  Out first: {names[deal['winner']]}; paid: {paid or 'nothing'}"
        yield f"  Chips: {_per_seat(names, deal['chips'])}"


def _showdown(names: list[str], showdown: dict[str, Any] | None) -> Iterator[str]:
    if showdown is None:
        yield "  Nobody bet: no showdown; the pot stays"
        return
    sets = "; ".join(f"{names[int(s)]} {' '.join(cs)}" for s, cs in showdown["sets"].items())
    yield f"  Showdown: {sets or 'nobody has a set'}"
    if showdown["bluff"] is not None:
        bluff = showdown["bluff"]
        yield f"  {names[bluff['seat']]} bluffed and pays {bluff['paid']}"
    if showdown["pot"] is not None:
        pot = showdown["pot"]
        yield (f"  {names[pot['seat']]} takes the pot ({pot['pot']}) and the pocher plate "
               f"({pot['pocher']})")  # fmt: skip


def _shedding(names: list[str], steps: list[dict[str, Any]]) -> Iterator[str]:
    """The shedding, a line per suit: how it opened (a start, a suit chosen, or the last suit
    running by itself), then its cards in order, a seat's run of cards together."""
    # The line being written: its opening, then its cards.
    opener, cards = "", list[str]()
    suit: str | None = None  # of the cards on this line
    seat: int | None = None  # who played the last card on it
    for step in steps:
        if step["type"] in ("start", "choose"):
            if cards:
                yield f"  {opener}{' · '.join(cards)}"
            what = (
                f"starts {step['direction']}" if step["type"] == "start"
                else f"chooses {step['suit']}"
            )  # fmt: skip
            opener, cards, suit, seat = f"{_starred(names, step)} {what}: ", [], None, None
            continue
        card = step["card"]
        if suit is not None and card[0] != suit:
            yield f"  {opener}{' · '.join(cards)}"
            opener, cards, seat = "the last suit runs: ", [], None
        suit = card[0]
        if seat == step["seat"]:
            cards[-1] += " " + card
        else:
            cards.append(f"{names[step['seat']]} {card}")
        seat = step["seat"]
    if cards:
        yield f"  {opener}{' · '.join(cards)}"


def _bot(label: str) -> str:
    """A match's seat as told: its level (`hard`), or `account ID` for an outside bot's
    account, of a kind the record does not say."""
    return (
        f"account {label.removeprefix(ACCOUNT_SEAT)}" if label.startswith(ACCOUNT_SEAT) else label
    )


def _match_game(found: Found) -> Iterator[str]:
    """A match's or an arena's record of one game: the seats, rules, each hand's bids,
    tricks and points (Pocha) or the deal's chips won (Poch), and the final scores. It keeps
    no card nor decision: the game a match played at a table has its own record, said where."""
    record = found.document
    poch = is_poch_game(record)
    bots = [_bot(str(label)) for label in record["seats"]]
    names = [f"{b} #{s}" if bots.count(b) > 1 else b for s, b in enumerate(bots)]
    title = "Poch" if poch else "Pocha"
    seed = f"seed {record['seed']} · deal {record['deal']}"
    if is_match_game(record):
        yield f"{title} · game {record['game']} of a match · {seed}"
    else:
        at = f"item {found.item}" if found.item else f"line {found.number}"
        yield f"{title} · an arena's game, {at} of the file · {seed}"
    yield "Seats: " + " · ".join(f"{s} {b}" for s, b in enumerate(bots))
    rules = ", ".join(f"{k}={json.dumps(v)}" for k, v in record["rules"].items())
    yield f"Rules: {rules}"
    table = record.get("table")
    whose = "A match's" if is_match_game(record) else "An arena's"
    yield (
        f"A match's record keeps no card or decision: the game's own record has them "
        f"(GET /api/v1/games/{table}/record, while the game is kept)."
        if table
        else f"{whose} record keeps no card or decision, only the results."
    )
    if poch:
        yield ""
        yield f"  Chips won: {_per_seat(names, record['chips'])}"
        winner = record["winner"]
        yield f"  Out first: {'nobody' if winner is None else names[winner]}"
    else:
        for number, hand in enumerate(record["hands"], start=1):
            yield ""
            each = "1 card each" if hand["cards"] == 1 else f"{hand['cards']} cards each"
            yield f"Hand {number} · {each}"
            yield f"  Bids:       {_per_seat(names, hand['bids'])}"
            yield f"  Tricks won: {_per_seat(names, hand['tricks'])}"
            yield f"  Points:     {_per_seat(names, hand['points'])}"
        yield ""
        yield f"Final: {_per_seat(names, record['scores'])}"
        yield f"Won by: {', '.join(names[s] for s in record['winners'])}"
    yield f"Decisions: {_per_seat(names, record['decisions'])}"
    # Seat by seat where the record says (an account may hold several seats); by account
    # in a record made before it did.
    by_seat = record.get("stand_in_decisions_by_seat")
    stood_in = record.get("stand_in_decisions") or {}
    if by_seat:
        accounts = [
            s for s, label in enumerate(record["seats"]) if str(label).startswith(ACCOUNT_SEAT)
        ]
        made = " · ".join(f"{names[s]} {by_seat[s]}" for s in accounts)
        yield f"Made by the stand-in for an account: {made}"
    elif stood_in:
        made = " · ".join(f"{_bot(label)} {n}" for label, n in stood_in.items())
        yield f"Made by the stand-in for an account: {made}"


TELLERS: dict[str, Callable[[Record], Iterator[str]]] = {"pocha": _pocha, "poch": _poch}
