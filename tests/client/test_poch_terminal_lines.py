"""What `pocha play --game poch` says and asks, without a service: the Poch engine stands in
for the API (`EngineApi` answers views and events shaped as the HTTP contract sends them:
the observation with `format`, `seat`, `hand` and `legal_actions` moved into `you`, plus
the envelope), so these tests check the terminal against the engine's own events and legal
actions. Whole games are played through `PochTerminalGame.run` with scripted answers (bad
ones among them); then the board, the narration and the checks on what you type, line by
line. The same client against the real service: tests/client/test_poch_terminal.py."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from rich.console import Console

from client.api import JSON, ApiError, PochaClient
from client.language import speaking
from client.poch_terminal import (
    PLATES,
    PochTerminalGame,
    action_words,
    card_name,
    suit_of_answer,
)
from client.terminal import game_class, game_rules, lobby_table
from engine.errors import IllegalActionError
from engine.poch.actions import action_from_wire
from engine.poch.game import Game
from engine.poch.observation import observe
from engine.poch.rules import Rules
from service.i18n import LANGUAGES, page_strings


def poch_view(game: Game, seat: int | None, version: int = 1, last_event: int = 0) -> JSON:
    """A view as the contract has it: the observation, `you` apart, and the envelope."""
    body = observe(game, seat).to_dict()
    for key in ("format", "seat", "hand", "legal_actions"):
        body.pop(key)
    obs = observe(game, seat).to_dict()
    view: JSON = {
        "game": "poch", "id": "p1", "version": version, "last_event": last_event,
        "seeded": True, "table": None, "deadline": None, "seconds_left": None,
        "players": [
            {"seat": s, "name": n, "bot": None if s == 0 else "random"}
            for s, n in enumerate(["Ana", "Bot 1", "Bot 2", "Bot 3"][: game.players])
        ],
        **body,
    }  # fmt: skip
    if seat is not None:
        view["you"] = {"seat": seat, "hand": obs["hand"], "legal": obs["legal_actions"]}
    return view


class EngineApi(PochaClient):
    """The Poch API as far as a game against bots goes, played by the engine in-process:
    the person is seat 0; the bots (random, from `bots`) move when the person looks."""

    def __init__(self, game: Game, bots: random.Random) -> None:
        super().__init__("http://127.0.0.1:9", token="t0")
        self.game, self.bots = game, bots
        self.log: list[JSON] = []
        self.sent: list[Any] = []
        self.refused: list[Any] = []
        self.record(self._first_events())

    def _first_events(self) -> list[JSON]:
        # Game.new's first deal gave no events back: tell them as the service stores them,
        # from what is public (ante, the counts and trump, the honours collected).
        g = self.game
        counts = {str(s): len(g.hands[s]) for s in g.order}
        first: list[JSON] = [
            {"type": "ante", "deal": 1, "dealer": g.dealer, "each": 8 * g.rules.ante},
            {"type": "deal", "counts": counts, "trump": observe(g, None).trump},
        ]
        first += [{"type": "collect", **e} for e in g.collected]
        return first

    def record(self, events: list[JSON]) -> None:
        for event in events:
            self.log.append({**event, "seq": len(self.log) + 1, "version": len(self.log) + 1})

    def with_token(self, token: str | None) -> EngineApi:
        return self

    def bots_move(self) -> None:
        while not self.game.finished and self.game.turn != 0:
            seat = self.game.turn
            assert seat is not None
            self.record(self.game.apply(seat, self.bots.choice(self.game.legal_actions())))

    def view(self, game_id: str) -> JSON:
        self.bots_move()
        return poch_view(self.game, 0, version=len(self.log), last_event=len(self.log))

    def events(self, game_id: str, after: int = 0) -> list[JSON]:
        return [e for e in self.log if e["seq"] > after]

    def poch_act(self, game_id: str, action: int | str, *, version: int | None = None) -> JSON:
        self.sent.append(action)
        if version is not None and version != len(self.log):
            raise ApiError(412, {"error": "stale_version", "message": "stale"})
        try:
            self.record(self.game.apply(0, action_from_wire(action)))
        except IllegalActionError as exc:
            self.refused.append(action)
            raise ApiError(422, {"error": "illegal_move", "message": str(exc)}) from exc
        return self.view(game_id)


KINDS = ("Your bet", "Your start card", "Next suit")


def person(prompts: list[str], rng: random.Random) -> Any:
    """Answers as a person might: a wrong answer to the first prompt of each kind, then a
    legal one (`hold` or the smallest amount, a start card by number, a suit by name)."""
    wrong = {"Your bet": "hold 999", "Your start card": "9", "Next suit": "x"}

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        kind = next(k for k in KINDS if prompt.startswith(k))
        if kind in wrong:
            return wrong.pop(kind)
        options = re.match(r"[^\[]*\[([^\]]*)\]", prompt)
        assert options is not None, prompt
        choices = options[1].split("/")
        if kind == "Your bet":
            return rng.choice(["p", "pass", "h" if "hold" in choices else "p", choices[-1][:1]])
        if kind == "Your start card":
            return str(rng.randrange(1, len(choices) + 1))
        return {"C": "Kreuz", "S": "spades", "H": "♥", "D": "d"}[rng.choice(choices)]

    return ask


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_whole_games_against_the_engine(seed: int) -> None:
    game = Game.new(Rules(players=3, chips=20, deals=3), seed)
    api = EngineApi(game, random.Random(seed))
    console = Console(record=True, width=160, no_color=True)
    prompts: list[str] = []
    terminal = PochTerminalGame(api, console, ask=person(prompts, random.Random(seed)))
    terminal.game_id, terminal.names = "p1", ["Ana", "Bot 1", "Bot 2"]
    assert terminal.run() == 0
    assert game.finished
    shown = console.export_text()
    # Every deal told, each with its trump and the board on each of Ana's turns.
    for deal in range(1, game.deal_no + 1):
        assert f"Deal {deal} of 3." in shown
    assert "Trump: " in shown and "Board: Ass " in shown and " · Poch " in shown
    assert "pot (Kasse)" in shown
    assert "Your hand:" in shown and "Your turn to bet" in shown
    # The wrong first answer was caught here, never sent; every answer sent was taken.
    assert re.search(r"Type pass(, hold)? or an amount from \d+ to \d+\.", shown)
    assert "hold 999" not in api.sent and api.sent and not api.refused
    result = game.result()
    winners = [["Ana", "Bot 1", "Bot 2"][s] for s in result["winners"]]
    assert re.search(rf"Game over\. Winners?: {re.escape(winners[0])}", shown)
    chips = ", ".join(
        f"{n} {c}" for n, c in zip(["Ana", "Bot 1", "Bot 2"], result["chips"], strict=True)
    )
    assert f"Final chips: {chips}." in shown
    # Every deal's end told from its event, each run of cards on a line.
    assert len(re.findall(r"(has|have) no cards left and wins? deal \d", shown)) == len(
        game.deal_results
    )


def test_a_start_card_and_a_suit_are_asked_and_checked() -> None:
    """Over many seeds, the start and suit prompts come up; wrong answers are told."""
    asked = {"Your start card": 0, "Next suit": 0}
    for seed in range(12):
        game = Game.new(Rules(players=3, chips=20, deals=2), seed)
        api = EngineApi(game, random.Random(seed))
        console = Console(record=True, width=160, no_color=True)
        prompts: list[str] = []
        terminal = PochTerminalGame(api, console, ask=person(prompts, random.Random(seed)))
        terminal.game_id, terminal.names = "p1", ["Ana", "Bot 1", "Bot 2"]
        assert terminal.run() == 0 and game.finished
        shown = console.export_text()
        for kind in asked:
            asked[kind] += sum(p.startswith(kind) for p in prompts)
        if any(p.startswith("Your start card") for p in prompts):
            assert "Pick a start card from 1 to" in shown
            assert "Start with: 1) " in shown
        if any(p.startswith("Next suit") for p in prompts):
            assert "Choose a suit by its letter or name:" in shown
            assert "Suits left: " in shown
    assert asked["Your start card"] > 0 and asked["Next suit"] > 0, asked


# -- line by line -----------------------------------------------------------------------------


def seated() -> tuple[PochTerminalGame, Console]:
    console = Console(record=True, width=160, no_color=True)
    game = PochTerminalGame(PochaClient("http://127.0.0.1:9"), console)
    game.names, game.seat, game.rules = ["Ana", "Bot 1", "Bot 2"], 0, {"deals": 6}
    return game, console


def said(game: PochTerminalGame, **event: Any) -> str:
    told = game.describe({"seq": 1, **event})
    assert told is not None
    return told.plain


def test_the_events_are_told_in_good_english() -> None:
    game, _ = seated()
    assert said(game, type="ante", deal=2, dealer=1, each=8) == (
        "\nDeal 2 of 6. Bot 1 deals. Everyone pays 8 chips onto the board (1 on each plate)."
    )
    assert said(game, type="ante", deal=1, dealer=0, each=16).startswith("\nDeal 1 of 6. You deal.")
    assert said(game, type="deal", counts={"1": 11, "2": 11, "0": 10}, trump="H") == (
        "Trump: ♥ Herz. Cards: Bot 1 11, Bot 2 11, you 10."
    )
    assert said(game, type="collect", seat=2, plate="marriage", cards=["HQ", "HK"], chips=6) == (
        "Bot 2 shows HQ HK and takes the Mariage plate: 6 chips."
    )
    assert said(game, type="collect", seat=0, plate="ace", cards=["HA"], chips=1) == (
        "You show HA and take the Ass plate: 1 chip."
    )
    assert said(game, type="pass", seat=1, amount=0, pot=0) == "Bot 1 passes."
    assert said(game, type="bet", seat=0, amount=3, pot=3) == "You bet 3. Pot: 3."
    assert said(game, type="hold", seat=2, amount=3, pot=6) == "Bot 2 holds at 3. Pot: 6."
    assert said(game, type="raise", seat=1, amount=5, pot=11) == "Bot 1 raises to 5. Pot: 11."
    assert said(game, type="raise", seat=1, amount=5, pot=11, by="stand_in") == (
        "Bot 1's stand-in raises to 5. Pot: 11."
    )
    assert said(game, type="showdown", sets={"0": ["C8", "H8"], "2": ["CK", "HK", "SK"]}) == (
        "Showdown: you a pair (C8 H8); Bot 2 three of a kind (CK HK SK); no set: Bot 1."
    )
    assert said(game, type="bluff", seat=1, paid=22) == (
        "Bot 1 does not hold the best set: pays 22 chips into the pot (twice the pot)."
    )
    assert said(game, type="take_pot", seat=2, pot=33, pocher=3) == (
        "Bot 2 takes the pot (33) and the Poch plate (3): 36 chips."
    )
    assert said(game, type="no_bet", pot=4).startswith("Nobody bets: the pot (4)")
    assert said(game, type="no_set", seat=1, pot=4).startswith("Nobody has a set: the pot (4)")
    assert said(game, type="start", seat=0, direction="down") == (
        "You start the shedding downwards (Ass → 7)."
    )
    assert said(game, type="choose", seat=2, suit="S") == "Bot 2 chooses ♠ Pik."
    assert said(game, type="plays", cards=[[0, "C7"], [2, "C8"]]) == "  C7 you · C8 Bot 2"
    assert said(game, type="deal_won", deal=3, winner=1, paid={"0": 4, "2": 1}) == (
        "Bot 1 has no cards left and wins deal 3: you pay 4, Bot 2 pays 1."
    )
    assert said(game, type="deal_won", deal=1, winner=0, paid={"1": 0, "2": 3}) == (
        "You have no cards left and win deal 1: Bot 1 pays nothing, Bot 2 pays 3."
    )
    assert said(game, type="leave", seat=2, chips=5) == (
        "Bot 2 cannot pay the ante and leaves the game with 5 chips."
    )
    assert said(game, type="seat_taken", seat=1, name="Bea") == "Bea takes seat 2."
    assert game.describe({"seq": 1, "type": "game_over", "chips": [1, 2, 3], "winners": [2]}) is (
        None
    )


def test_a_suits_run_of_cards_is_one_line() -> None:
    class Log(PochaClient):
        def events(self, game_id: str, after: int = 0) -> list[JSON]:
            plays = [("C7", 0), ("C8", 1), ("C9", 1), ("H7", 2), ("H8", 0)]
            return [{"seq": 1, "type": "start", "seat": 0, "direction": "up"}] + [
                {"seq": i + 2, "type": "play", "seat": s, "card": c}
                for i, (c, s) in enumerate(plays)
            ]

    game, console = seated()
    game.api = game.me = Log("http://127.0.0.1:9")
    merged = game.new_events()
    assert [e["type"] for e in merged] == ["start", "plays", "plays"]
    assert merged[1]["cards"] == [[0, "C7"], [1, "C8"], [1, "C9"]] and merged[1]["seq"] == 4
    assert merged[2]["seq"] == 6
    game.narrate()
    assert console.export_text().splitlines()[-2:] == [
        "  C7 you · C8 Bot 1 · C9 Bot 1",
        "  H7 Bot 2 · H8 you",
    ]


def test_the_board_the_seats_and_the_hand() -> None:
    game, console = seated()
    engine = Game.new(Rules(players=3, chips=30, deals=6), 4, dealer=2)
    view = poch_view(engine, 0)
    view["turn"], view["seconds_left"] = 0, 12.4  # as if it were Ana's turn, with a clock
    console.print(game.table(view))
    shown = console.export_text()
    assert f"Deal 1 of 6 · trump: {card_suit(view['trump'])}" in shown
    plates = view["plates"]
    assert (
        f"Board: Ass {plates['ace']} · König {plates['king']} · Dame {plates['queen']} · "
        f"Bube {plates['jack']} · Zehn {plates['ten']} · Mariage {plates['marriage']} · "
        f"Sequenz {plates['sequence']} · Poch {plates['pocher']} · pot (Kasse) 0"
    ) in shown
    assert re.search(r"Ana \(you\) +Vorhand +\d+ +\d+ +- +⏱ 12 s", shown), shown
    assert re.search(r"Bot 2 +dealer", shown)
    for code in view["you"]["hand"]:
        assert code in shown.split("Your hand:")[1]
    assert "Your turn to bet · 12 s on your clock" in shown


@speaking
def narrow_table(width: int, language: str = "en") -> list[str]:
    """The table on Ana's turn in a terminal `width` columns wide speaking `language`: four
    seats, two of one long name, one of them away and raising."""
    console = Console(record=True, width=width, no_color=True)
    game = PochTerminalGame(PochaClient("http://127.0.0.1:9"), console)
    engine = Game.new(Rules(players=4, chips=30, deals=6), 4, dealer=3)
    view = poch_view(engine, 0)
    view["players"][1].update(name="Bernardo Fernández de la Vega", bot=None, away=True)
    view["players"][3]["name"] = "Bernardo Fernández de la Vega"
    game.look_at(view)
    game.rules = {"deals": 6}
    view["turn"], view["seconds_left"] = 0, 12.4
    view["chips"] = [130, 5, 27, 30]
    view["bets"] = [{"seat": 1, "call": "raise", "amount": 12}]
    console.print(game.table(view))
    lines: list[str] = console.export_text().splitlines()
    return lines


@pytest.mark.parametrize(("width", "language"), [(40, "en"), (32, "en"), (40, "es"), (32, "es")])
def test_the_seats_fit_a_narrow_terminal_a_row_a_seat(width: int, language: str) -> None:
    """As Pocha's: a row a seat, the figures whole, a long name cut keeping its number."""
    lines = narrow_table(width, language=language)
    assert all(len(line) <= width for line in lines), lines
    # One line for each seat, its chips, cards and bet whole.
    for chips in ("130", "5", "27", "30"):
        rows = [line for line in lines if re.search(rf"\s{chips}\s+\d\s", line)]
        assert len(rows) == 1, (chips, lines)
    assert any(line.startswith("│ ▶ Ana") for line in lines), lines
    raised = {"en": "raise 12", "es": "sube 12"}[language]
    assert any("… #2" in line and raised in line for line in lines), lines
    assert any("… #4" in line for line in lines), lines


def card_suit(letter: str) -> str:
    return {"C": "♣ Kreuz", "S": "♠ Pik", "H": "♥ Herz", "D": "♦ Karo"}[letter]


def betting(legal: list[Any], bets: list[JSON], chips: int = 20) -> JSON:
    return {
        "phase": "betting", "bets": bets, "chips": [chips, 20, 20],
        "you": {"seat": 0, "hand": ["C7"], "legal": legal},
    }  # fmt: skip


def test_a_bet_is_checked_against_legal() -> None:
    game, console = seated()
    opening = betting(["pass", *range(1, 21)], [])
    assert game.parse("p", opening) == "pass"
    assert game.parse("5", opening) == 5
    assert game.parse("bet 5", opening) == 5
    assert game.parse("hold", opening) is None
    assert game.parse("21", opening) is None
    assert game.parse("x", opening) is None
    raised = betting(["pass", "hold", *range(4, 21)], [{"seat": 2, "call": "bet", "amount": 3}])
    assert game.parse("h", raised) == "hold"
    assert game.parse("3", raised) == "hold"
    assert game.parse("raise to 7", raised) == 7
    assert game.parse("2", raised) is None
    broke = betting(["pass"], [{"seat": 2, "call": "bet", "amount": 3}], chips=2)
    assert game.parse("hold", broke) is None
    assert game.parse("5", broke) is None
    assert game.parse("PASS", broke) == "pass"
    shown = console.export_text()
    assert "Nobody has bet: there is nothing to hold. Pass or bet an amount." in shown
    assert "You have 20 chips: bet 1-20." in shown
    assert "Type pass or an amount from 1 to 20." in shown
    assert "Too little: a raise is more than 3. You may raise to 4-20 chips." in shown
    assert "Holding costs 3 chips; you cannot pay it. You may only pass." in shown
    assert "You cannot pay more than has been bet: pass." in shown
    # One chip is one chip, in each language.
    one = betting(["pass", 1], [], chips=1)
    held = betting(["pass"], [{"seat": 2, "call": "bet", "amount": 1}], chips=0)
    game.parse("5", one)
    game.parse("hold", held)
    speaking(lambda language: (game.parse("5", one), game.parse("hold", held)))(language="es")
    shown = console.export_text()
    assert "You have 1 chip: bet 1." in shown
    assert "Holding costs 1 chip; you cannot pay it. You may only pass." in shown
    assert "Tienes 1 ficha: apuesta 1." in shown, shown
    assert "Igualar cuesta 1 ficha; no puedes pagarlo. Solo puedes pasar." in shown, shown
    assert game.prompt(raised, "", "quit") == (
        "Your bet [pass/hold/4-20] (hold costs 3; ? hint, q quit): "
    )
    assert game.prompt(opening, "41 s left; ", "leave") == (
        "Your bet [pass/1-20] (41 s left; ? hint, q leave): "
    )


def test_a_start_card_and_a_suit_are_checked_against_legal() -> None:
    game, console = seated()
    start = {"phase": "starting", "you": {"seat": 0, "hand": ["C7", "C8", "HA"],
                                          "legal": ["C7", "HA"]}}  # fmt: skip
    assert game.parse("2", start) == "HA"
    assert game.parse("c7", start) == "C7"
    assert game.parse("C8", start) is None
    assert game.parse("3", start) is None
    assert game.parse("SA", start) is None
    choose = {"phase": "choosing", "you": {"seat": 0, "hand": ["D9"], "legal": ["S", "D"]}}
    assert game.parse("pik", choose) == "S"
    assert game.parse("diamonds", choose) == "D"
    assert game.parse("♦", choose) == "D"
    assert game.parse("h", choose) is None
    assert game.parse("x", choose) is None
    shown = console.export_text()
    assert "The shedding starts with a 7 or an ace: C7, HA." in shown
    assert "Pick a start card from 1 to 2, or its code." in shown
    assert "You do not hold SA: start with C7, HA." in shown
    assert "Herz has been played: choose S (Pik), D (Karo)." in shown
    assert "Choose a suit by its letter or name: S (Pik), D (Karo)." in shown
    assert game.prompt(start, "", "quit") == (
        "Your start card [C7/HA] (number or code, ? hint, q quit): "
    )
    assert game.prompt(choose, "", "quit") == ("Next suit [S/D] (letter or name, ? hint, q quit): ")


def test_names_hints_and_options() -> None:
    assert card_name("HA") == "Herz-Ass" and card_name("S10") == "Pik-Zehn"
    assert card_name("DQ") == "Karo-Dame" and card_name("CK") == "Kreuz-König"
    assert suit_of_answer("Karo") == "D" and suit_of_answer("club") == "C"
    assert suit_of_answer("Q") is None
    assert action_words(3) == "bet 3" and action_words("hold") == "hold"
    assert action_words("C7") == "start with C7 (Kreuz-Sieben)"
    assert action_words("H") == "choose ♥ Herz"
    game, _ = seated()
    view = betting(["pass", 1, 2], [])
    advice = {
        "action": 2, "level": "hard", "iterations": 400,
        "analysis": [{"action": 2, "visits": 300, "share": 0.75, "mean_chips": 2.25},
                     {"action": "pass", "visits": 100, "share": 0.25, "mean_chips": -1.0}],
    }  # fmt: skip
    assert game.advice(advice, view).plain == (
        "Hint (hard): bet 2 — the bot chose it in 75% of 400 simulated deals; expected +2.2 chips."
        "\n  Other choices: pass, expected -1.0."
    )
    assert game.advice({"action": "pass", "level": "heuristic"}, view).plain == (
        "Hint (heuristic): pass."
    )
    assert game_class("poch") is PochTerminalGame
    with pytest.raises(ValueError, match="game: pocha or poch"):
        game_class("skat")
    assert game_rules("poch", None, {"chips": 30, "ante": None, "deals": 2}) == {
        "chips": 30,
        "deals": 2,
    }
    with pytest.raises(ValueError, match="schedule is Pocha's option"):
        game_rules("poch", "1,2", None)
    with pytest.raises(ValueError, match="chips: Poch's options"):
        game_rules("pocha", None, {"chips": 30})
    assert game_rules("pocha", None, None) == {"schedule": "classic"}


def test_the_lobby_says_a_poch_tables_game_and_deals() -> None:
    console = Console(record=True, width=160, no_color=True)
    table = {
        "code": "K7QM-3XHP", "game": "poch", "open_seats": 1,
        "players": [{"name": "Ana"}, {"open": True}, {"name": "Bot", "bot": "easy"}],
        "rules": {"players": 3, "chips": 50, "ante": 1, "deals": 6, "turn_seconds": 60},
    }  # fmt: skip
    console.print(lobby_table([table], "http://127.0.0.1:8000"))
    shown = console.export_text()
    assert re.search(r"K7QM-3XHP .* Ana, \(open\), Bot \(easy\) .* Poch, 6 deals .* 60 s", shown)
    for deals, english, spanish in ((1, "Poch, 1 deal ", "Poch, 1 reparto "),
                                    (2, "Poch, 2 deals", "Poch, 2 repartos")):  # fmt: skip
        one = {**table, "rules": {**table["rules"], "deals": deals}}
        console.print(lobby_table([one], "http://127.0.0.1:8000"))
        speaking(lambda language, one=one: console.print(lobby_table([one], "http://x")))(
            language="es"
        )
        shown = console.export_text()
        assert english in shown and spanish in shown, shown


def test_the_bots_levels_are_given_in_turn() -> None:
    class Creates(PochaClient):
        def __init__(self) -> None:
            super().__init__("http://127.0.0.1:9")
            self.asked: list[JSON] = []

        def create_game(self, players: Any, rules: Any = None, seed: Any = None,
                        **options: Any) -> JSON:  # fmt: skip
            self.asked.append({"players": players, "rules": rules, **options})
            seats = [{"seat": i, "token": f"t{i}", **p} for i, p in enumerate(players)]
            return {"id": "p1", "host_token": "h", "seats": seats, "table_code": None}

    api = Creates()
    console = Console(record=True, width=160, no_color=True)
    game = PochTerminalGame(api, console)
    game.start("Ana", 4, "heuristic,hard", {"deals": 2}, 7)
    asked = api.asked[0]
    assert asked["game"] == "poch" and asked["rules"] == {"deals": 2}
    assert [p.get("bot") for p in asked["players"]] == [None, "heuristic", "hard", "heuristic"]
    assert "against Bot 1 (heuristic), Bot 2 (hard) and Bot 3 (heuristic)." in (
        console.export_text()
    )
    game.start("Ana", 3, "easy", None, None)
    assert [p.get("bot") for p in api.asked[1]["players"]] == [None, "easy", "easy"]
    assert "against 2 easy bots." in console.export_text()
    # One bot is one bot, in each language (its catalogue's plural forms).
    game.start("Ana", 2, "easy", None, None)
    assert "against 1 easy bot." in console.export_text()
    for players, said in ((2, "1 bot de nivel fácil"), (3, "2 bots de nivel fácil")):
        speaking(lambda language, n=players: game.start("Ana", n, "easy", None, None))(
            language="es"
        )
        assert said in console.export_text(), said


def test_the_plates_have_the_names_the_page_gives_them_in_every_language() -> None:
    """A plate is called the same at the terminal and on the web page (its German name,
    docs/poch.md, The plates' names): "Ass", in English and in Spanish alike."""
    assert dict(PLATES)["ace"] == "Ass"
    for lang in LANGUAGES:
        page = page_strings(lang)
        assert {plate: page[f"poch.plate.{plate}"] for plate, _ in PLATES} == dict(PLATES), lang


def test_a_digit_that_is_no_number_is_asked_again() -> None:
    # `²` is a digit to str.isdigit but no number to int(): asked again, not a traceback.
    game, _ = seated()
    assert game.parse("²", betting(["pass", *range(1, 21)], [])) is None
    starting = {"phase": "starting", "you": {"seat": 0, "hand": ["C7"], "legal": ["C7"]}}
    assert game.parse("²", starting) is None
