"""A small typed client of the Pocha HTTP API, on the standard library only: every public
endpoint a front end needs, and `ApiError` carrying the API's machine code.
How it works: docs/clients.md, `client.api`.
"""

from __future__ import annotations

import copy
import http.client
import json
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, overload
from urllib.parse import quote, urlencode, urlsplit

from client.models import (
    Account,
    Analysis,
    BotEvent,
    BotLevel,
    Challenge,
    ChallengeList,
    CreatedGame,
    Event,
    GameRecord,
    GamesInPlay,
    GameView,
    History,
    Job,
    Ladder,
    LobbyTable,
    Match,
    NewAccountAnswer,
    NewKeyAnswer,
    Opponent,
    Player,
    Player2,
    PochEvent,
    PochGameRecord,
    PochGameView,
    PochHistory,
    PochRules,
    RatingHistory,
    RuleBook,
    Rules,
    SeatTaken,
    WebhookRegistered,
    WebhookStatus,
)

#: Any JSON object: a body sent, or an error's.
JSON = dict[str, Any]
#: Any JSON object the API answers with, read only: every typed answer below is one.
Data = Mapping[str, Any]
#: Either game's view (every view and move answers with one): tell it apart by `game`,
#: then by `phase`; then `you["legal"]` has that phase's type.
View = GameView | PochGameView
#: One event of either game.
AnyEvent = Event | PochEvent
#: Either game's score sheet.
ScoreSheet = History | PochHistory
#: One record of a match's game, of either game.
Record = GameRecord | PochGameRecord
#: A finished game's whole record (`game_record()`, and what `analyse()` takes): a JSON
#: object whose format is the JSON Schema at /api/v1/schemas/game-record.json, `game`
#: saying which shape its `rules` and `deals` have. The OpenAPI document gives it inline,
#: as an object of loose fields, not as a schema of its own: client.models has no type of it.
FinishedRecord = dict[str, Any]

DEFAULT_URL = "http://127.0.0.1:8000"

#: A seat left open at creation, for someone to take at the table by its code.
OPEN: Player2 = {"open": True}  # the document's `OpenSeat` form of a `Player`

#: A seat of `create_game`: a name alone (a person), a `Player` (the document's: a named
#: seat, a bot's with its `bot`, a `BotLevel` of the document's), or `OPEN`.
Seat = Player | str

#: The server caps one long poll of a job (JOB_WAIT_MAX, 30 s by default); asking for more
#: is refused, so longer waits are made of several polls.
_MAX_POLL_SECONDS = 30.0

#: How many games' views a client keeps to ask for again with If-None-Match (one a game
#: and token, the least lately read dropped first): enough for a bot at many tables.
HELD_VIEWS = 64


@dataclass(frozen=True)
class _HeldView:
    """A view `view()` got: its ETag, the language it was read in, and when its body came
    (this machine's monotonic clock)."""

    etag: str
    language: str | None
    view: View
    got: float

    def now(self) -> View:
        """A copy of the view as it stands now (a 304 says it stands). Under a strong tag
        the body is as it came. Under a weak one a turn's clock runs, and `seconds_left`
        alone has moved on: the figure held less the time since the body came, by the
        monotonic clock (no wall clock, so no skew with the service's), never below 0 and
        in tenths, as the service gives it."""
        view: View = copy.deepcopy(self.view)
        left = view.get("seconds_left")
        if self.etag.startswith("W/") and isinstance(left, int | float):
            view["seconds_left"] = round(max(0.0, left - (time.monotonic() - self.got)), 1)
        return view


class ApiError(Exception):
    """A 4xx or 5xx answer: `status`, the machine code `error`, and `message` for people.

    `errors` holds per-field messages of a validation error, `rule` the rule a refused move
    breaks (asistir, montar, fallar, pisar, dealer_restriction, ...), `body` everything."""

    def __init__(self, status: int, body: JSON) -> None:
        self.status = status
        self.body = body
        self.error: str = str(body.get("error") or f"http_{status}")
        self.message: str = str(body.get("message") or f"HTTP {status}")
        self.errors: JSON | None = body.get("errors")
        self.rule: str | None = body.get("rule")
        super().__init__(f"{self.status} {self.error}: {self.message}")


class JobFailed(Exception):
    """A hint or AI move the worker could not give; `job` is the job's report."""

    def __init__(self, job: Job) -> None:
        self.job = job
        super().__init__(job.get("error") or "the job failed")


class AnalysisFailed(Exception):
    """An analysis the worker could not finish; `analysis` is its report."""

    def __init__(self, analysis: Analysis) -> None:
        self.analysis = analysis
        super().__init__(analysis.get("error") or "the analysis failed")


class PochaClient:
    """The API at `base_url`, acting with `token` (a seat's, or the host's) when given.

    Each call opens its own connection, so one client may be shared between threads.
    """

    def __init__(
        self,
        base_url: str = DEFAULT_URL,
        token: str | None = None,
        timeout: float = 15.0,
        *,
        account_key: str | None = None,
        language: str | None = None,
        integrator_key: str | None = None,
    ) -> None:
        parts = urlsplit(base_url if "://" in base_url else f"http://{base_url}")
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"not an http(s) URL: {base_url!r}")
        self.base_url = f"{parts.scheme}://{parts.netloc}{parts.path.rstrip('/')}"
        self._scheme = parts.scheme
        self._host = parts.hostname
        self._port = parts.port
        self._prefix = parts.path.rstrip("/")
        self.token = token
        self.timeout = timeout
        #: An account's key (`create_account`), sent in X-Pocha-Account when making a game
        #: or taking a seat, so that the account sits there (and may play rated), and when
        #: reading the lobby, so that it leaves out the tables the account would be refused at.
        self.account_key = account_key
        #: The language asked for in Accept-Language (`en`, `es`), so that the service's
        #: sentences (refusals, hints' reasons) come in it; None asks for none (English).
        self.language = language
        #: A server-side integrator's key (`pk_...`, the operator's `pocha keys create`),
        #: sent in X-Pocha-Key on every request, so that the operations limited per client
        #: count against the key instead of the address (docs/api.md, "Keys for server-side
        #: integrators"); the clients made from this one for a seat or the host keep it.
        self.integrator_key = integrator_key
        # The views `view()` got, by game and token, to ask again with If-None-Match.
        self._held: OrderedDict[tuple[str, str | None], _HeldView] = OrderedDict()
        self._held_lock = threading.Lock()

    def with_token(self, token: str | None) -> PochaClient:
        """The same API and the same account, acting with another token: in the same
        language, with the same integrator's key and account key. The account key goes
        only where an account acts (`_account_headers()`: making games and matches, taking
        a seat, the lobby, challenges, the account's own calls), so a seat's or host's client of an
        account still reads and moves by its token, and reaches the account's calls too."""
        return self._acting(token, self.account_key)

    def seat(self, created: Mapping[str, Any], seat: int) -> PochaClient:
        """A client acting as `seat` of a game just created (its token is only there).
        It keeps this client's account key for the account's own seat (the answer's
        `account`) only: another seat is a guest's, who is not the account."""
        taken = created["seats"][seat]
        token = taken.get("token")
        if token is None:
            what = "an open seat" if taken.get("open") else "a bot"
            raise ValueError(f"seat {seat} is {what}: it has no token")
        return self._acting(token, self.account_key if taken.get("account") else None)

    def host(self, created: Mapping[str, Any]) -> PochaClient:
        """A client acting as the host of a game just created (or a rematch's maker), with
        this client's account key: the host is whoever made it."""
        return self.with_token(str(created["host_token"]))

    def joined(self, taken: Mapping[str, Any]) -> PochaClient:
        """A client acting as the seat `join` (or `rematch`) just took, with this client's
        account key: `join` sent it, so the seat is the account's."""
        return self.with_token(str(taken["token"]))

    def _acting(self, token: str | None, account_key: str | None) -> PochaClient:
        return PochaClient(
            self.base_url,
            token,
            self.timeout,
            account_key=account_key,
            language=self.language,
            integrator_key=self.integrator_key,
        )

    # -- games ------------------------------------------------------------------------------

    @overload
    def create_game(
        self,
        players: Sequence[Seat],
        rules: Rules | None = None,
        seed: int | None = None,
        *,
        listed: bool | None = None,
        stand_in_level: BotLevel | None = None,
        game: Literal["pocha"] | None = None,
        rated: bool | None = None,
    ) -> CreatedGame: ...
    @overload
    def create_game(
        self,
        players: Sequence[Seat],
        rules: PochRules | None = None,
        seed: int | None = None,
        *,
        listed: bool | None = None,
        stand_in_level: BotLevel | None = None,
        game: Literal["poch"],
        rated: bool | None = None,
    ) -> CreatedGame: ...

    def create_game(
        self,
        players: Sequence[Seat],
        rules: Rules | PochRules | None = None,
        seed: int | None = None,
        *,
        listed: bool | None = None,
        stand_in_level: BotLevel | None = None,
        game: Literal["pocha", "poch"] | None = None,
        rated: bool | None = None,
    ) -> CreatedGame:
        """A new game; `players` in playing order, each `{"name", "bot"?}`, just a name
        (a person), or `OPEN` (`{"open": true}`: a seat for someone to take at the table).
        The answer has the game's `id`, the `host_token` and each person's seat `token`,
        shown only this once, and with open seats the `table_code` to share. `listed`
        puts the waiting table in the lobby; `stand_in_level` is the bot that plays for a
        person whose clock (`rules["turn_seconds"]`) runs out, who is away or who left.
        `game` names the game: "pocha" (the server's default when not given), whose
        `rules` are `Rules`, or "poch", whose `rules` are `PochRules` (chips, ante, deals,
        turn_seconds) and whose bots are its own levels (random, heuristic, easy, medium,
        hard). A seat's `bot` and `stand_in_level` are the document's `BotLevel`, Pocha's
        levels, Poch's among them: a level Poch has not is refused at run time (422).
        `rated` (with `account_key`): the result changes the players' ratings."""
        body: JSON = {"players": [{"name": p} if isinstance(p, str) else dict(p) for p in players]}
        if game is not None:
            body["game"] = game
        if rules is not None:
            body["rules"] = dict(rules)
        if seed is not None:
            body["seed"] = seed
        if listed is not None:
            body["listed"] = listed
        if stand_in_level is not None:
            body["stand_in_level"] = stand_in_level
        if rated is not None:
            body["rated"] = rated
        answer: CreatedGame = self._json(
            "POST", "/api/v1/games", body, headers=self._account_headers()
        )
        return answer

    def view(self, game_id: str) -> View:
        """The game as this client's seat sees it (with `you`), or as a spectator.

        Read again (same game, token and language), it is asked for with the ETag of the
        view got last as If-None-Match: while the game is unchanged the service answers
        304 with no body and this is a copy of the view held. While a turn's clock runs
        (a weak ETag) its `seconds_left` is the clock as it is now: counted down from the
        figure held by the time since that body came, never below 0, in tenths. The last
        `HELD_VIEWS` games read (by token) are held; this client may be shared by threads."""
        key = (game_id, self.token)
        with self._held_lock:
            held = self._held.get(key)
        if held is not None and held.language != self.language:
            # The view held has its sentences (`you.refused`) in another language: not
            # this one's to answer with, whatever tag the service matches.
            held = None
        ask = {} if held is None else {"If-None-Match": held.etag}
        seen: dict[str, str] = {}
        status, text = self._request(
            "GET", f"/api/v1/games/{_q(game_id)}", headers=ask, answered=seen
        )
        came = time.monotonic()
        if status == 304 and held is not None:
            with self._held_lock:
                if key in self._held:  # read lately: the last to be dropped
                    self._held.move_to_end(key)
            return held.now()
        answer: View = _object(text)
        etag = seen.get("etag")
        with self._held_lock:
            if etag:
                self._held[key] = _HeldView(etag, self.language, copy.deepcopy(answer), came)
                self._held.move_to_end(key)
                while len(self._held) > HELD_VIEWS:
                    self._held.popitem(last=False)
            else:
                self._held.pop(key, None)
        return answer

    def bid(self, game_id: str, bid: int, *, version: int | None = None) -> View:
        """Bid on this seat's turn; its new view. With `version`, refused (412
        `stale_version`) if the game has moved on since the view it was decided on."""
        path = f"/api/v1/games/{_q(game_id)}/bids"
        answer: View = self._json("POST", path, {"bid": bid}, version)
        return answer

    def play(self, game_id: str, card: str, *, version: int | None = None) -> View:
        """Play a card (a code such as "O1") on this seat's turn; its new view. In Poch, the
        card (a 7 or an ace, such as "C7" or "HA") that starts the shedding."""
        path = f"/api/v1/games/{_q(game_id)}/plays"
        answer: View = self._json("POST", path, {"card": card}, version)
        return answer

    def bet(self, game_id: str, bet: int | str, *, version: int | None = None) -> View:
        """Poch's betting round, on this seat's turn: "pass", "hold" (pay the highest amount
        so far) or an amount (a bet, or a raise to that amount); the seat's new view."""
        if isinstance(bet, bool) or not isinstance(bet, int | str):
            raise TypeError('a bet is "pass", "hold" or an amount (int)')
        path = f"/api/v1/games/{_q(game_id)}/bets"
        answer: View = self._json("POST", path, {"bet": bet}, version)
        return answer

    def choose_suit(self, game_id: str, suit: str, *, version: int | None = None) -> View:
        """Poch's shedding, when this seat played a suit's last card: the next suit to shed
        ("C", "S", "H" or "D", one not played yet); the seat's new view."""
        path = f"/api/v1/games/{_q(game_id)}/suits"
        answer: View = self._json("POST", path, {"suit": suit}, version)
        return answer

    def poch_act(self, game_id: str, action: int | str, *, version: int | None = None) -> View:
        """Any entry of a Poch view's `you.legal`, as it is: "pass", "hold" or an amount
        (a bet), a suit letter (the next suit), or a card code (the start card)."""
        if isinstance(action, bool):
            raise TypeError("a Poch action is an amount (int) or a string")
        if isinstance(action, int) or action in ("pass", "hold"):
            return self.bet(game_id, action, version=version)
        if len(action) == 1:  # the wire forms never collide: a card code has two letters
            return self.choose_suit(game_id, action, version=version)
        return self.play(game_id, action, version=version)

    def act(self, game_id: str, action: int | str, *, version: int | None = None) -> View:
        """Bid (an int) or play (a card code): an entry of `you.legal` as it is."""
        if isinstance(action, bool):
            raise TypeError("an action is a bid (int) or a card code (str)")
        if isinstance(action, int):
            return self.bid(game_id, action, version=version)
        return self.play(game_id, action, version=version)

    def events(self, game_id: str, after: int = 0) -> list[AnyEvent]:
        """Every event with `seq` greater than `after`, in order."""
        path = f"/api/v1/games/{_q(game_id)}/events?{urlencode({'after': after})}"
        events: list[AnyEvent] = json.loads(self._request("GET", path)[1])
        return events

    def follow(self, game_id: str, after: int = 0, timeout: float = 70.0) -> Iterator[AnyEvent]:
        """The events after `after` as they happen (Server-Sent Events), until the game is
        over or the server ends the stream (about a minute); call again with the last `seq`
        to go on. `timeout` bounds the wait for any one line (keepalives come every 15 s)."""
        path = f"/api/v1/games/{_q(game_id)}/events"
        yield from self._stream(path, {"Last-Event-ID": str(after)}, timeout)

    def _stream(self, path: str, headers: Mapping[str, str], timeout: float) -> Iterator[Any]:
        """Each `data:` of the Server-Sent Events at `path`, decoded, until the stream ends."""
        connection = self._connection(timeout)
        try:
            sent = {**self._headers(), **headers, "Accept": "text/event-stream"}
            connection.request("GET", self._prefix + path, headers=sent)
            response = connection.getresponse()
            if response.status >= 400:
                raise ApiError(response.status, _decode_error(response.read()))
            data: list[str] = []
            for raw in response:
                line = raw.decode("utf-8").rstrip("\r\n")
                if line.startswith("data:"):
                    data.append(line[5:].removeprefix(" "))
                elif not line and data:
                    # A blank line ends a message; `id:` and `event:` repeat what its data says.
                    yield json.loads("\n".join(data))
                    data = []
        finally:
            connection.close()

    def history(self, game_id: str) -> ScoreSheet:
        """The score sheet: every finished hand as dealt, bid, won and scored, and totals."""
        answer: ScoreSheet = self._json("GET", f"/api/v1/games/{_q(game_id)}/history")
        return answer

    def game_record(self, game_id: str) -> FinishedRecord:
        """A finished game's record: its seats, rules, every deal as dealt and every
        decision in order, the scores, and what the bots thought (`advice`); `ApiError`
        409 `game_not_over` while it is played. Kept as a file, read by `pocha replay`, or
        sent to `analyse()`."""
        answer: FinishedRecord = self._json("GET", f"/api/v1/games/{_q(game_id)}/record")
        return answer

    def analyse(
        self,
        record: Mapping[str, Any],
        *,
        level: str | None = None,
        seed: int | None = None,
        wait: float | None = 60.0,
    ) -> Analysis:
        """Have a bot of `level` (the server's default: hard) weigh every decision of a
        finished game's `record` (`game_record()`), from each seat's view alone. The
        record is checked at once (`ApiError` 422 saying why); with `wait` (seconds;
        None: don't), waits for the analysis and returns it finished, its `result` every
        decision weighed; `AnalysisFailed` if the worker could not finish it,
        `TimeoutError` after `wait`. The same record, level and `seed` give the same one."""
        body: JSON = {"record": dict(record)}
        if level is not None:
            body["level"] = level
        if seed is not None:
            body["seed"] = seed
        made: Analysis = self._json("POST", "/api/v1/analyses", body)
        return made if wait is None else self.wait_analysis(made, wait)

    def analysis(self, analysis: str | Mapping[str, Any], wait: float = 0.0) -> Analysis:
        """An analysis by id, URL or report (kept 10 minutes); `wait` long-polls
        (server-capped)."""
        answer: Analysis = self._report("analyses", analysis, wait)
        return answer

    def wait_analysis(self, analysis: str | Analysis, timeout: float = 60.0) -> Analysis:
        """The analysis once finished (raises `AnalysisFailed` if it failed, `TimeoutError`)."""
        report: Analysis = self._until_done(
            analysis, lambda ref, wait: self.analysis(ref, wait), "analysis", timeout
        )
        if report["status"] == "failed":
            raise AnalysisFailed(report)
        return report

    def _report(self, collection: str, ref: str | Mapping[str, Any], wait: float) -> Any:
        """A report of `collection` (jobs, analyses) by id, URL or report; `wait` long-polls
        (server-capped)."""
        if isinstance(ref, Mapping):
            ref = str(ref["id"])
        path = f"/api/v1/{collection}/{_q(ref.rstrip('/').rsplit('/', 1)[-1])}"
        if wait > 0:
            path += "?" + urlencode({"wait": f"{wait:g}"})
        return self._json("GET", path, timeout=self.timeout + wait)

    def _until_done(
        self,
        ref: str | Mapping[str, Any],
        read: Callable[[str, float], Any],
        what: str,
        timeout: float,
    ) -> Any:
        """The report `read` gives once finished or failed, long-polling within `timeout`
        (`TimeoutError` after it)."""
        deadline = time.monotonic() + timeout
        report = read(ref, 0.0) if isinstance(ref, str) else ref
        while report.get("status") not in ("finished", "failed"):
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"{what} {report.get('id')} not done after {timeout:g} s")
            report = read(report["id"], min(remaining, _MAX_POLL_SECONDS))
        return report

    def delete(self, game_id: str) -> None:
        """Delete the game (this client must hold the host token)."""
        self._request("DELETE", f"/api/v1/games/{_q(game_id)}")

    def rules(self) -> RuleBook:
        """Every rule option with its default, and the bot levels."""
        answer: RuleBook = self._json("GET", "/api/v1/rules")
        return answer

    # -- tables ----------------------------------------------------------------------------

    def lobby(self) -> list[LobbyTable]:
        """The listed tables still waiting for people, newest first: their code, seats,
        names and rules (never a token). With `account_key`, the account's lobby: without
        the tables where an account (their maker, or one seated) blocks this one or this
        one blocks it, since a seat there would be refused (`ApiError` 401
        `unknown_account` for a key that opens no account, 403 `account_disabled`)."""
        # (`?listed=true`, the only value allowed, is the default: nothing to send.)
        answer: list[LobbyTable] = self._json_list(
            "GET", "/api/v1/tables", headers=self._account_headers()
        )
        return answer

    def table(self, code: str) -> LobbyTable:
        """The table a code finds (listed or not), as the lobby shows it; `ApiError` 404
        `table_not_found` otherwise. The code in any case, with or without its dash."""
        answer: LobbyTable = self._json("GET", f"/api/v1/tables/{_q(code)}")
        return answer

    def join(self, code: str, name: str) -> SeatTaken:
        """Take the first open seat of the table `code`: `{game_id, seat, token,
        table_code, seeded}` and, at a table whose host chose the seed, a `warning` to show,
        the token shown only here (`joined()` gives a client acting with it).
        `ApiError` 409 `table_full` when no seat is left."""
        answer: SeatTaken = self._json(
            "POST",
            f"/api/v1/tables/{_q(code)}/seats",
            {"name": name},
            headers=self._account_headers(),
        )
        return answer

    # -- accounts ---------------------------------------------------------------------------

    def create_account(
        self, name: str, kind: Literal["person", "bot"] = "person"
    ) -> NewAccountAnswer:
        """A new account, `{id, name, kind, key, created}`: the key is shown only here
        (`PochaClient(url, account_key=key)` acts as the account)."""
        answer: NewAccountAnswer = self._json(
            "POST", "/api/v1/accounts", {"name": name, "kind": kind}
        )
        return answer

    def replace_account_key(self, account_id: str) -> NewKeyAnswer:
        """A new key for the account whose key this client holds, `{id, key,
        webhook_removed}`, shown only here: the client sends it from now on, and the key
        before opens nothing (a bot's webhook is removed with it: register it again)."""
        answer: NewKeyAnswer = self._json(
            "POST", f"/api/v1/accounts/{_q(account_id)}/key", headers=self._account_headers()
        )
        self.account_key = answer["key"]
        return answer

    def account(self, account_id: str) -> Account:
        """An account as anyone sees it: its name, kind, ratings (`ratings`, one per game
        played rated) and, for a bot, its webhook's figures."""
        answer: Account = self._json("GET", f"/api/v1/accounts/{_q(account_id)}")
        return answer

    def open_to_matches(self, account_id: str, opened: bool = True) -> Account:
        """Open the bot account whose key this client holds to anyone's unrated matches
        (`account:ID` among their seats), or close it again; the account as shown."""
        answer: Account = self._json(
            "PATCH",
            f"/api/v1/accounts/{_q(account_id)}",
            {"open_to_matches": opened},
            headers=self._account_headers(),
        )
        return answer

    def rating_history(
        self, account_id: str, game: Literal["pocha", "poch"] | None = None
    ) -> RatingHistory:
        """How each rated game of `game` (the server's default: pocha) changed the
        account's rating, the latest first, with a rated match's `match_id` and
        `match_game`."""
        query = "" if game is None else "?" + urlencode({"game": game})
        answer: RatingHistory = self._json(
            "GET", f"/api/v1/accounts/{_q(account_id)}/history{query}"
        )
        return answer

    def ladder(
        self,
        game: Literal["pocha", "poch"] | None = None,
        kind: Literal["person", "bot"] | None = None,
        *,
        offset: int | None = None,
        limit: int | None = None,
    ) -> Ladder:
        """A page of a ladder: the people's (`kind`'s default) or the bots' of `game`,
        `limit` entries (50 by default, at most 100) from place `offset` (0-based)."""
        asked = {"game": game, "kind": kind, "offset": offset, "limit": limit}
        query = urlencode({k: v for k, v in asked.items() if v is not None})
        answer: Ladder = self._json("GET", "/api/v1/ladder" + (f"?{query}" if query else ""))
        return answer

    def own_account(self) -> Account:
        """The account whose key this client holds, as anyone sees it (`{id, name, kind,
        ...}`): a program given a key alone learns its account's id here."""
        answer: Account = self._json("GET", "/api/v1/account", headers=self._account_headers())
        return answer

    def account_games(self, account_id: str) -> GamesInPlay:
        """The games not finished of the account whose key this client holds, `{games}`,
        the one it sat down in last first: each game's id, its seat, whether it is that
        seat's turn, the players. The key opens each seat (`with_token(key).view(id)`)."""
        answer: GamesInPlay = self._json(
            "GET", f"/api/v1/accounts/{_q(account_id)}/games", headers=self._account_headers()
        )
        return answer

    # -- a bot account's webhook (docs/bots-api.md) ---------------------------------------

    def set_webhook(self, account_id: str, url: str) -> WebhookRegistered:
        """Register (or replace) the webhook of the bot account whose key this client
        holds: the workers POST it the seat's view at each of its turns. The answer holds
        the `secret` the calls are signed with, shown only here; a paused bot resumes."""
        answer: WebhookRegistered = self._json(
            "PUT", self._webhook(account_id), {"url": url}, headers=self._account_headers()
        )
        return answer

    def webhook(self, account_id: str) -> WebhookStatus:
        """The webhook's URL, whether it is `paused`, its decisions and failures."""
        answer: WebhookStatus = self._json(
            "GET", self._webhook(account_id), headers=self._account_headers()
        )
        return answer

    def resume_webhook(self, account_id: str) -> WebhookStatus:
        """Call a webhook paused after its failures again."""
        answer: WebhookStatus = self._json(
            "POST", self._webhook(account_id) + "/resume", headers=self._account_headers()
        )
        return answer

    def delete_webhook(self, account_id: str) -> None:
        """Remove the webhook: the account moves with its key from then on."""
        self._request("DELETE", self._webhook(account_id), headers=self._account_headers())

    @staticmethod
    def _webhook(account_id: str) -> str:
        return f"/api/v1/accounts/{_q(account_id)}/webhook"

    # -- challenges and the account's event stream (docs/bots-api.md) ----------------------

    def challenge(
        self,
        opponents: Sequence[Opponent],
        rules: Mapping[str, Any] | None = None,
        *,
        game: Literal["pocha", "poch"] | None = None,
        rated: bool | None = None,
    ) -> Challenge:
        """Challenge accounts (`{"account": id or name}`) beside our levels (`{"bot":
        "hard"}`), the seats in playing order after this client's account, which makes it
        with its key. The game starts once every account named accepted."""
        body: JSON = {"opponents": [dict(o) for o in opponents]}
        if rules is not None:
            body["rules"] = dict(rules)
        if game is not None:
            body["game"] = game
        if rated is not None:
            body["rated"] = rated
        answer: Challenge = self._json(
            "POST", "/api/v1/challenges", body, headers=self._account_headers()
        )
        return answer

    def challenges(self) -> ChallengeList:
        """The challenges this client's account made or was named in, open or ended within
        the hour, oldest first."""
        answer: ChallengeList = self._json(
            "GET", "/api/v1/challenges", headers=self._account_headers()
        )
        return answer

    def find_challenge(self, challenge_id: str) -> Challenge:
        """A challenge by its id: its seats, `status` and, once accepted, its `game_id`."""
        answer: Challenge = self._json("GET", f"/api/v1/challenges/{_q(challenge_id)}")
        return answer

    def accept_challenge(self, challenge_id: str) -> Challenge:
        """Accept a challenge that names this client's account; the last acceptance makes
        the game (`game_id`) and starts it."""
        return self._answer_challenge(challenge_id, "accept")

    def decline_challenge(self, challenge_id: str) -> Challenge:
        """Decline a challenge that names this client's account: it ends."""
        return self._answer_challenge(challenge_id, "decline")

    def cancel_challenge(self, challenge_id: str) -> Challenge:
        """Take back a challenge this client's account made, while it is open."""
        answer: Challenge = self._json(
            "DELETE", f"/api/v1/challenges/{_q(challenge_id)}", headers=self._account_headers()
        )
        return answer

    def _answer_challenge(self, challenge_id: str, answer: str) -> Challenge:
        path = f"/api/v1/challenges/{_q(challenge_id)}/{answer}"
        found: Challenge = self._json("POST", path, headers=self._account_headers())
        return found

    def bot_events(self, timeout: float = 70.0) -> Iterator[BotEvent]:
        """The account's events as they come (its key's; Server-Sent Events): what is
        pending first, then `game_started`, `your_turn`, `game_finished` and `challenge`,
        until the server ends the stream (about a minute: call again, nothing is lost),
        `replaced` by another stream of the account, or `closed`. Told apart by `type`."""
        yield from self._stream("/api/v1/bot/events", self._account_headers(), timeout)

    def _account_headers(self) -> dict[str, str]:
        return {"X-Pocha-Account": self.account_key} if self.account_key else {}

    def start(self, game_id: str, bots: str | None = None) -> View:
        """Start a waiting game now (host token), bots of level `bots` (the server's
        default: medium) in the seats still open; the spectator's view."""
        body: JSON = {} if bots is None else {"bots": bots}
        answer: View = self._json("POST", f"/api/v1/games/{_q(game_id)}/start", body)
        return answer

    def seat_to_bot(self, game_id: str, seat: int, level: str) -> View:
        """Give an open seat of a waiting game to a bot of `level` (host token); the game
        starts if it was the last open seat. The spectator's view."""
        path = f"/api/v1/games/{_q(game_id)}/seats/{int(seat)}/bot"
        answer: View = self._json("POST", path, {"level": level})
        return answer

    def come_back(self, game_id: str, seat: int) -> View:
        """This seat is back (its token): the stand-in stops playing its turns. Its view."""
        answer: View = self._json("POST", f"/api/v1/games/{_q(game_id)}/seats/{int(seat)}/return")
        return answer

    def leave(self, game_id: str, seat: int) -> View:
        """Leave this seat (its token): a waiting table opens it again for someone else; in
        play the stand-in plays it to the end. The spectator's view."""
        answer: View = self._json("POST", f"/api/v1/games/{_q(game_id)}/seats/{int(seat)}/leave")
        return answer

    def rematch(self, game_id: str) -> SeatTaken:
        """Take this seat's place at the rematch of finished game `game_id` (with the token
        it was played with): `{game_id, seat, token, table_code}` of the new table, and
        `host_token` for whoever asked first (who made it)."""
        answer: SeatTaken = self._json("POST", f"/api/v1/games/{_q(game_id)}/rematch")
        return answer

    # -- AI on demand -----------------------------------------------------------------------

    def hint(
        self,
        game_id: str,
        *,
        level: str | None = None,
        iterations: int | None = None,
        milliseconds: int | None = None,
        wait: float | None = 60.0,
    ) -> Job:
        """Ask what a bot would do in this seat's place, on its turn. With `wait` (seconds;
        None: don't), waits for the answer and returns the finished job, whose `result` has
        the suggested `action` and the `analysis` per legal action; raises `JobFailed` if
        the worker could not answer, `TimeoutError` if it took longer than `wait`."""
        body = _thinking(level, iterations, milliseconds)
        job: Job = self._json("POST", f"/api/v1/games/{_q(game_id)}/hint", body)
        return job if wait is None else self.wait_job(job, wait)

    def ai_move(
        self,
        position: Mapping[str, Any],
        *,
        level: str | None = None,
        iterations: int | None = None,
        milliseconds: int | None = None,
        wait: float | None = 60.0,
    ) -> Job:
        """A move for a position a front end keeps itself (rules, seat, hand, trump,
        dealer, bids, plays: see the OpenAPI document); the finished job as for `hint`.
        An impossible position raises `ApiError` 422 `invalid_position` saying why."""
        body = {**dict(position), **_thinking(level, iterations, milliseconds)}
        job: Job = self._json("POST", "/api/v1/ai/move", body)
        return job if wait is None else self.wait_job(job, wait)

    def job(self, job: str | Mapping[str, Any], wait: float = 0.0) -> Job:
        """A job's report by id, URL or report; `wait` long-polls (server-capped)."""
        answer: Job = self._report("jobs", job, wait)
        return answer

    def wait_job(self, job: str | Job, timeout: float = 60.0) -> Job:
        """The job once finished (raises `JobFailed` if it failed, `TimeoutError`)."""
        report: Job = self._until_done(job, lambda ref, wait: self.job(ref, wait), "job", timeout)
        if report["status"] == "failed":
            raise JobFailed(report)
        return report

    # -- matches ----------------------------------------------------------------------------

    def create_match(
        self,
        seats: Sequence[str],
        games: int,
        rules: Mapping[str, Any] | None = None,
        seed: int | None = None,
        duplicate: bool = False,
        game: str | None = None,
        *,
        rated: bool | None = None,
    ) -> Match:
        """Start bots against bots (`seats`: a level, a bot, `ismcts:2000`, or an account,
        `account:ID`, sent with its key) over `games` games of Pocha, or of `game`
        (`"poch"`); the match's report, with `done` of `games` and statistics per bot.
        `rated` (one bot account beside levels, asked with its key): each game changes its
        rating."""
        body: JSON = {"seats": list(seats), "games": games, "duplicate": duplicate}
        if game is not None:
            body["game"] = game
        if rules is not None:
            body["rules"] = dict(rules)
        if seed is not None:
            body["seed"] = seed
        if rated is not None:
            body["rated"] = rated
        answer: Match = self._json("POST", "/api/v1/matches", body, headers=self._account_headers())
        return answer

    def cancel_match(self, match_id: str) -> None:
        """Cancel a match (a rated one with its bot's key only)."""
        self._request("DELETE", f"/api/v1/matches/{_q(match_id)}", headers=self._account_headers())

    def match(self, match_id: str) -> Match:
        """A match's progress and statistics per bot."""
        answer: Match = self._json("GET", f"/api/v1/matches/{_q(match_id)}")
        return answer

    @overload
    def match_records(self, match_id: str) -> list[Record]: ...
    @overload
    def match_records(self, match_id: str, game: Literal["pocha"]) -> list[GameRecord]: ...
    @overload
    def match_records(self, match_id: str, game: Literal["poch"]) -> list[PochGameRecord]: ...

    def match_records(self, match_id: str, game: str | None = None) -> list[Any]:
        """The records of the games played so far (the JSON lines, decoded). A record does
        not say its game (its `game` is its number in the match): name it (the match
        report's `game`) to have them typed as that game's, `ValueError` if they are not."""
        text = self._request("GET", f"/api/v1/matches/{_q(match_id)}/records")[1]
        records = [json.loads(line) for line in text.splitlines() if line.strip()]
        # Pocha's records keep scores, Poch's chips: what tells them apart on the wire.
        field = {"pocha": "scores", "poch": "chips", None: None}[game]
        if field is not None and not all(field in record for record in records):
            raise ValueError(f"match {match_id} is not a game of {game}")
        return records

    def wait_match(self, match_id: str, timeout: float = 300.0, poll: float = 0.5) -> Match:
        """The match's report once every game is played (`TimeoutError` after `timeout`)."""
        deadline = time.monotonic() + timeout
        while True:
            report = self.match(match_id)
            if report.get("status") == "finished":
                return report
            if time.monotonic() > deadline:
                raise TimeoutError(f"match {match_id} not finished after {timeout:g} s")
            time.sleep(poll)

    # -- plumbing ---------------------------------------------------------------------------

    def _connection(self, timeout: float) -> http.client.HTTPConnection:
        if self._scheme == "https":
            return http.client.HTTPSConnection(self._host, self._port, timeout=timeout)
        return http.client.HTTPConnection(self._host, self._port, timeout=timeout)

    def _headers(self) -> dict[str, str]:
        headers = {"Accept": "application/json"}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        if self.language is not None:
            headers["Accept-Language"] = self.language
        if self.integrator_key:
            headers["X-Pocha-Key"] = self.integrator_key
        return headers

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
        """The answer's status and body; its headers (names in lower case) go in
        `answered` when given. A 4xx or 5xx raises `ApiError`."""
        headers = {**self._headers(), **(headers or {})}
        payload = None
        if body is not None:
            payload = json.dumps(body).encode("utf-8")
            headers["Content-Type"] = "application/json"
        if version is not None:
            headers["If-Match"] = f'"{version}"'
        connection = self._connection(self.timeout if timeout is None else timeout)
        try:
            connection.request(method, self._prefix + path, body=payload, headers=headers)
            response = connection.getresponse()
            raw = response.read()
        finally:
            connection.close()
        if answered is not None:
            answered.update((name.lower(), value) for name, value in response.getheaders())
        if response.status >= 400:
            raise ApiError(response.status, _decode_error(raw))
        return response.status, raw.decode("utf-8")

    def _json(
        self,
        method: str,
        path: str,
        body: Any = None,
        version: int | None = None,
        timeout: float | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> Any:
        """The JSON object an endpoint answers with (the document says which, and the
        caller's annotation names it)."""
        return _object(self._request(method, path, body, version, timeout, headers)[1])

    def _json_list(
        self, method: str, path: str, headers: Mapping[str, str] | None = None
    ) -> list[Any]:
        """The JSON array of objects an endpoint answers with."""
        found = json.loads(self._request(method, path, headers=headers)[1])
        if not isinstance(found, list):
            raise ApiError(502, {"error": "bad_response", "message": f"not a list: {found!r}"})
        return found


def _q(segment: str) -> str:
    """An id as one path segment (ids are URL-safe; this keeps a stray '/' from escaping)."""
    return quote(segment, safe="")


def _object(text: str) -> Any:
    """The JSON object an answer's body holds; anything else is a bad answer."""
    found = json.loads(text)
    if not isinstance(found, dict):
        raise ApiError(502, {"error": "bad_response", "message": f"not an object: {found!r}"})
    return found


def _thinking(level: str | None, iterations: int | None, milliseconds: int | None) -> JSON:
    body: JSON = {}
    if level is not None:
        body["level"] = level
    if iterations is not None:
        body["iterations"] = iterations
    if milliseconds is not None:
        body["milliseconds"] = milliseconds
    return body


def _decode_error(raw: bytes) -> JSON:
    """The API's error body; a proxy's HTML page or an empty body still gives an ApiError."""
    try:
        body = json.loads(raw)
    except ValueError:
        return {"message": raw.decode("utf-8", "replace")[:200].strip() or None}
    return body if isinstance(body, dict) else {"message": str(body)}
