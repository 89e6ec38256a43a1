"""`pocha play` in Spanish: with the user's locale Spanish (LANG=es_ES.UTF-8), a whole
short game of Pocha and one of Poch in a real terminal (a pty) against the real service,
answered as a person would in Spanish (a bid out of range, a hint, a card marked ✗, Poch's
`paso`), with every line checked against the English of the terminal's catalogue and of
the service's: no English sentence is left, and the server's refusal comes back in
Spanish; a game quit and taken up again with `--resume`, and the list it picks from. The
client's requests carry the language (the same wrong move refused in English
and in Spanish); a table's comings and goings, seats and clocks told in Spanish, and in
English again after; `pocha lobby` in Spanish; the bots' levels in the Spanish page's
words; and the terminal's catalogue itself: every sentence marked in the client is in it,
in Spanish, with its placeholders."""

from __future__ import annotations

import ast
import re
import string
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po
from click.testing import CliRunner
from rich.console import Console

from cli.main import pocha
from client.api import ApiError, PochaClient, Seat
from client.language import speaking
from client.terminal import LEVEL_NAMES, games_table, hint_head, level_name, lobby_table, seat_state
from tests.client import test_terminal_resume as resume
from tests.client.test_terminal import PROMPT, Terminal, a_view, answer_prompt, at_table, seated
from tests.live import POCHA, LiveService
from tests.waiting import LONG, scaled

ROOT = Path(__file__).resolve().parents[2]
TERMINAL_POT = ROOT / "client" / "locales" / "terminal.pot"
TERMINAL_ES = ROOT / "client" / "locales" / "es" / "LC_MESSAGES" / "terminal.po"
SERVICE_ES = ROOT / "service" / "locales" / "es" / "LC_MESSAGES" / "messages.po"
#: The locale of a Spanish user, with nothing else asking for another language.
SPANISH = {"LANG": "es_ES.UTF-8", "LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": ""}
POCH_PROMPT = re.compile(
    r"(?:Tu apuesta \[(?P<bets>[^\]]+)\]|Tu carta de salida \[(?P<starts>[^\]]+)\]"
    r"|Próximo palo \[(?P<suits>[^\]]+)\]) \([^)]*\): "
)


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def english_phrases(catalogue: Path, words: int) -> set[str]:
    """Each piece of English between the placeholders of `catalogue`'s sentences that has
    at least `words` words and is not kept as it is in the Spanish (a command such as
    `pocha play --open 1 --listed` is the same in both): a Spanish screen shows none."""
    with catalogue.open("rb") as handle:
        po = read_po(handle)
    found: set[str] = set()
    for entry in po:
        if not entry.id or entry.context == "page":  # the page's entries are keyed by name
            continue
        ids = entry.id if isinstance(entry.id, tuple) else (entry.id,)
        spanish = " ".join(entry.string if isinstance(entry.string, tuple) else [entry.string])
        for msgid in ids:
            for literal, _name, _spec, _conversion in string.Formatter().parse(msgid):
                piece = literal.strip(" .,:;()—·\n")
                if len(re.findall(r"[A-Za-z]+", piece)) >= words and piece not in spanish:
                    found.add(piece)
    return found


def english_left(screen: str) -> list[str]:
    """The lines of `screen` that hold a phrase of the terminal's or the service's
    English (the game's German words and the players' names are neither)."""
    phrases = english_phrases(TERMINAL_ES, 2) | english_phrases(SERVICE_ES, 3)
    return [line for line in screen.splitlines() if any(phrase in line for phrase in phrases)]


def english_levels(screen: str) -> list[str]:
    """The places of `screen` that name a bot's level in English where the terminal shows
    one (`2 bots random`, `Pista (hard)`, `suplente: medium`): a Spanish screen has none."""
    level = "(random|heuristic|easy|medium|hard|expert|master)"
    shown = [rf"\bbots? {level}\b", rf"\({level}\)", rf"suplente: {level}\b", rf"bot {level}\)"]
    return [found.group() for pattern in shown for found in re.finditer(pattern, screen)]


def play_through(terminal: Terminal, answer: Callable[[Terminal], None]) -> str:
    """Answer `terminal`'s prompts with `answer(terminal)` until the game ends; its screen."""
    deadline = time.monotonic() + scaled(LONG)
    try:
        while terminal.read(0.2):
            assert time.monotonic() < deadline, terminal.screen[-3000:]
            answer(terminal)
        assert terminal.process.wait(timeout=scaled(LONG)) == 0, terminal.screen[-3000:]
    finally:
        terminal.close()
    return terminal.screen


def test_a_short_game_of_pocha_in_spanish(live_service: LiveService) -> None:
    terminal = Terminal(
        [str(POCHA), "play", "--url", live_service.url, "--players", "3", "--level", "random",
         "--schedule", "1,3", "--seed", "11", "--name", "Ana"],
        SPANISH,
    )  # fmt: skip
    asked = {"bids": 0, "barred": False}

    def answer(terminal: Terminal) -> None:
        prompt = PROMPT.search(terminal.screen, terminal.read_to)
        if prompt is None:
            return
        if prompt["bids"] is not None:
            asked["bids"] += 1
            if asked["bids"] <= 2:  # out of range, then a hint: asked again after each
                terminal.read_to = prompt.end()
                terminal.type("9" if asked["bids"] == 1 else "?")
                return
        else:
            barred = re.findall(
                r"(\d+)\) ✗ ", terminal.screen[: prompt.start()].rsplit("Tus cartas:", 1)[-1]
            )
            if barred and not asked["barred"]:
                # The card marked ✗ typed once: the server refuses it, in Spanish.
                asked["barred"] = True
                terminal.read_to = prompt.end()
                terminal.type(barred[0])
                return
        answer_prompt(terminal)

    screen = play_through(terminal, answer)
    game = re.search(r"Partida (\S+) creada: eres Ana, contra 2 bots de nivel al azar\. "
                     r"Escribe \? para una pista, q para salir\.", screen)  # fmt: skip
    assert game, screen[:2000]
    assert re.search(r"Tu apuesta \[[\d/]+\] \(\? pista, q salir\): ", screen)
    assert re.search(r"Tu carta \(número o código, \? pista, q salir\): ", screen)
    assert "Apuesta de 0 a 1: puedes apostar" in screen
    assert re.search(r"Pista \(difícil\): apostar \d", screen), screen
    assert not english_levels(screen), english_levels(screen)
    assert re.search(
        r"Mano 1 de 2: 1 carta cada uno\. (Reparte \w+ \d|Repartes tú)\. Triunfo: ", screen
    )
    assert re.search(r"Mano 2 de 2: 3 cartas cada uno\. ", screen)
    assert "Te toca apostar" in screen and "Te toca jugar" in screen
    assert "Tus cartas:" in screen and "En la mesa:" in screen
    assert "Hoja de puntos" in screen and "Triunfo" in screen
    assert re.search(r"(Ganas|Bot \d gana) la baza \d\.", screen)
    # The card marked ✗ was tried, and the server's refusal came in Spanish, as the
    # reasons beside the marks did (the view's `refused`, read with Accept-Language: es).
    assert asked["barred"], screen
    assert re.search(r"^(Debes .+|No tienes \w+, así que debes .+)\.$", screen, re.M), screen
    assert re.search(r"✗ .+ no: (debes|no tienes) .+ \((asistir|montar|fallar|pisar)\)\.", screen)
    assert re.search(r"Fin de la partida\. Ganan?: .+\.", screen)
    assert re.search(r"Puntos al final: Ana -?\d+, Bot 1 -?\d+, Bot 2 -?\d+\.", screen)
    assert not english_left(screen), english_left(screen)
    assert PochaClient(live_service.url).view(game[1])["phase"] == "finished"


def test_the_terminals_requests_ask_for_its_language(live_service: LiveService) -> None:
    """The client `pocha play` uses sends Accept-Language with each request, a seat's too:
    the same wrong move is refused in English without it and in Spanish with it."""
    url = live_service.url
    bots: list[Seat] = [{"name": "B", "bot": "random"}, {"name": "C", "bot": "random"}]
    game = PochaClient(url).create_game(["Ana", *bots], {"schedule": [1]})
    said: dict[str | None, str] = {}
    for language in (None, "es"):
        me = PochaClient(url, language=language).seat(game, 0)
        with pytest.raises(ApiError) as refused:
            me.play(game["id"], "XX")
        said[language] = refused.value.message
    assert said[None] != said["es"], said
    assert english_left(said[None]) and not english_left(said["es"]), said


def test_a_short_game_of_poch_in_spanish(live_service: LiveService) -> None:
    # No name given: the person sits as Tú, and is told whom they play, not "eres Tú".
    terminal = Terminal(
        [str(POCHA), "play", "--game", "poch", "--url", live_service.url, "--players", "3",
         "--level", "random", "--deals", "2", "--chips", "20", "--seed", "2"],
        SPANISH,
    )  # fmt: skip
    # A bet of more than anyone holds (refused here, asked again), a hint, then the
    # Spanish word for pass; then pass again whenever asked.
    bets = ["9999", "?", "paso"]

    def answer(terminal: Terminal) -> None:
        prompt = POCH_PROMPT.search(terminal.screen, terminal.read_to)
        if prompt is None:
            return
        terminal.read_to = prompt.end()
        if prompt["bets"] is not None:
            terminal.type(bets.pop(0) if bets else "paso")
        elif prompt["starts"] is not None:
            terminal.type("1")
        else:
            terminal.type(prompt["suits"].split("/")[0])

    screen = play_through(terminal, answer)
    assert not bets, "fewer bet prompts than answers"
    assert re.search(r"Partida \S+ creada: juegas contra 2 bots de nivel al azar\.", screen)
    assert re.search(r"Tu apuesta \[paso(/igualo)?(/\d+(-\d+)?)?\] \(", screen), screen
    assert re.search(r"Tienes \d+ fichas: (apuesta|sube a) |No puedes pagar más de lo", screen)
    assert re.search(
        r"Pista \((al azar|reglas|fácil|medio|difícil)\): (pasar|igualar|apostar \d+)", screen
    ), screen
    assert not english_levels(screen), english_levels(screen)
    assert re.search(r"Pasas\.", screen)
    for deal in (1, 2):
        assert f"Reparto {deal} de 2." in screen
    assert re.search(r"Trumpf: [♣♠♥♦] (Kreuz|Pik|Herz|Karo)\. Cartas: ", screen)
    assert re.search(r"Tablero: Ass \d+ · König \d+ .* · bote \(Kasse\) \d+", screen)
    assert "Te toca apostar" in screen and "Tus cartas:" in screen
    assert re.search(r"Bot [12] (pasa|apuesta \d+|iguala a \d+|sube a \d+)\.", screen)
    assert re.search(r"Empieza con: 1\) \w+ \(\w+-(Sieben|Ass)\), hacia (arriba|abajo)", screen)
    assert re.search(r"Empiezas el descarte hacia (arriba|abajo)", screen)
    assert re.search(r"(se queda|Te quedas) sin cartas y gana", screen)
    assert re.search(r"Fin de la partida\. Ganan?: .+\.", screen)
    assert re.search(r"Fichas al final: Tú \d+, Bot 1 \d+, Bot 2 \d+\.", screen)
    assert not english_left(screen), english_left(screen)


def test_the_lobby_in_spanish(live_service: LiveService) -> None:
    result = CliRunner(env={"COLUMNS": "200", **SPANISH}).invoke(
        pocha, ["lobby", "--url", live_service.url]
    )
    assert result.exit_code == 0, result.output
    assert "Mesas que esperan jugadores" in result.output or "Ninguna mesa pública" in (
        result.output
    )
    assert not english_left(result.output), result.output


@speaking
def told_at_a_table(*, language: str | None = None) -> str:
    """Everything the terminal says of a table's seats and comings and goings, and of the
    table on a turn with a clock, in `language`."""
    game, console = seated(["Ana", "Bea", "Carla"], seat=1)
    events: list[dict[str, Any]] = [
        {"type": "bid", "seat": 0, "bid": 1, "by": "stand_in"},
        {"type": "card_played", "seat": 1, "card": "O1", "by": "stand_in"},
        {"type": "bid", "seat": 1, "bid": 0},
        {"type": "seat_taken", "seat": 2, "name": "Carla"},
        {"type": "seat_taken", "seat": 1, "name": "Bea"},
        {"type": "seat_bot", "seat": 2, "bot": "hard"},
        {"type": "seat_opened", "seat": 2},
        {"type": "game_started"},
        {"type": "seat_away", "seat": 0},
        {"type": "seat_away", "seat": 1},
        {"type": "seat_back", "seat": 0},
        {"type": "seat_back", "seat": 1},
        {"type": "seat_left", "seat": 2},
        {"type": "seat_left", "seat": 1},
        {"type": "rematch"},
        {"type": "trick_won", "seat": 0, "trick_number": 2},
    ]
    for event in events:
        told = game.describe({"seq": 1, **event})
        assert told is not None, event
        console.print(told)
    game.players = at_table(
        ["Ana", "Bea", "Carla"], s0={"away": True, "stand_in": "medium"}, s2={"left": True}
    )
    console.print(game.table(a_view(players=game.players, turn=1, seconds_left=41.6)))
    console.print(game.turn_text(a_view(turn=0, phase="bidding", seconds_left=7.2)))
    console.print(game.room(a_view(table={"code": "K7QM-3XHP", "open_seats": 1})))
    return console.export_text()


def test_a_tables_comings_and_goings_in_spanish() -> None:
    shown = told_at_a_table(language="es")
    assert not english_left(shown), english_left(shown)
    for said in (
        "El suplente de Ana apuesta 1.",
        "Tu suplente juega O1 (as de oros)",
        "Apuestas 0.",
        "Carla se sienta en el asiento 3.",
        "Te sientas en el asiento 2.",
        "Un bot de nivel difícil ocupa el asiento 3.",
        "El asiento 3 vuelve a estar libre.",
        "Empieza la partida: Ana, Bea y Carla.",
        "Ana está ausente: el suplente juega sus turnos.",
        "Estás ausente: tu suplente juega tus turnos.",
        "Ana ha vuelto.",
        "Has vuelto.",
        "Carla ha dejado la mesa: el suplente juega ese asiento hasta el final.",
        "Hay una mesa de revancha, con los mismos asientos y reglas.",
        "Ana gana la baza 2.",
        "Te toca jugar · 42 s en tu reloj",
        "ausente (suplente: medio)",
        "Turno de Ana: apostar · quedan 7 s",
        "Mesa K7QM-3XHP",
    ):
        assert said in shown, (said, shown)
    assert not english_levels(shown), english_levels(shown)
    # English stays English, whatever language a game before spoke.
    english = told_at_a_table()
    assert "Ana's stand-in bids 1." in english
    assert "A hard bot takes seat 3." in english and "away (stand-in: medium)" in english


@speaking
def seats_shown(names: list[str], *, language: str | None = None) -> str:
    """The table of seats a terminal speaking `language` shows, seat 0 its own."""
    game, console = seated(names)
    console.print(game.table(a_view()))
    return console.export_text()


@speaking
def room_shown(names: list[str], *, language: str | None = None) -> str:
    """The waiting room a terminal speaking `language` shows, seat 0 its own."""
    game, console = seated(names)
    table = {"code": "K7QM-3XHP", "listed": False, "waiting": True, "open_seats": 0}
    view = a_view(phase="waiting", turn=None, players=at_table(names), table=table)
    game.look_at(view)
    console.print(game.room(view))
    return console.export_text()


@pytest.mark.parametrize(
    ("language", "default", "you"), [("es", "Tú", " (tú)"), (None, "You", " (you)")]
)
def test_a_seat_named_by_the_default_name_is_not_told_you_again(
    language: str | None, default: str, you: str
) -> None:
    # A person who gives no name sits as `pocha play --name`'s default in the terminal's
    # language: their own seat is not "Tú (tú)", at the table nor in the waiting room.
    shown = seats_shown([default, "Bot 1", "Bot 2"], language=language)
    assert re.search(rf"▶ +{default} ", shown) and f"{default}{you}" not in shown, shown
    assert f"Ana{you}" in seats_shown(["Ana", "Bot 1", "Bot 2"], language=language)
    room = room_shown([default, "Bea", "Bot 1"], language=language)
    assert re.search(rf"1 │ {default} +│", room) and f"{default}{you}" not in room, room
    assert f"Ana{you}" in room_shown(["Ana", "Bea", "Bot 1"], language=language)


def test_a_game_quit_and_resumed_in_spanish(
    live_service: LiveService, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`pocha play --resume` in Spanish: the way back said as a game is quit, the game
    taken up again and played to its end, every line Spanish."""
    url, config = live_service.url, tmp_path / "config"
    kept = resume.signed_up(url, config, monkeypatch)
    env = {"XDG_CONFIG_HOME": str(config), **SPANISH}
    first = Terminal([str(POCHA), "play", "--url", url, "--players", "3", "--level", "random",
                      "--schedule", "1,2"], env)  # fmt: skip
    try:
        game_id = resume.wait_for(first, r"Partida (\S+) creada")[1]
        resume.wait_for(first, PROMPT)
        first.type("salir")
        while first.read(0.2):
            pass
        assert first.process.wait(timeout=scaled(LONG)) == 0, first.screen[-3000:]
    finally:
        first.close()
    assert f"Para seguir más tarde: pocha play --resume {game_id}" in first.screen
    again = Terminal([str(POCHA), "play", "--url", url, "--resume"], env)
    screen = play_through(again, answer_prompt)
    assert (
        f"De vuelta en la partida {game_id} como {kept['name']}, en el asiento 1. Escribe ? "
        "para una pista, q para salir." in screen
    ), screen[:2000]
    assert re.search(r"Fin de la partida\. Ganan?: .+\.", screen), screen[-3000:]
    assert not english_left(first.screen + screen), english_left(first.screen + screen)
    # Finished, it is in play no more: said in Spanish too.
    none = CliRunner(env={"COLUMNS": "200", **SPANISH}).invoke(
        pocha, ["play", "--url", url, "--resume"]
    )
    assert none.exit_code == 1, none.output
    assert "No tienes ninguna partida en juego aquí" in none.output, none.output


@speaking
def games_listed(*, language: str | None = None) -> str:
    """The list `pocha play --resume` picks from, in `language`."""
    console = Console(record=True, width=140, no_color=True)
    game = {"game": "poch", "game_id": "g1", "players": ["Ana", None], "last_seen": 0.0}
    console.print(
        games_table(
            [
                {**game, "waiting": True, "your_turn": False},
                {**game, "waiting": False, "your_turn": True},
                {**game, "waiting": False, "your_turn": False},
            ]
        )
    )
    return console.export_text()


def test_the_games_to_resume_are_listed_in_spanish() -> None:
    shown = games_listed(language="es")
    assert not english_left(shown), shown
    for said in ("Tus partidas en juego", "Partida", "Jugadores", "Turno", "Última jugada",
                 "Ana, (libre)", "esperando", "tuyo", "de otro"):  # fmt: skip
        assert said in shown, (said, shown)
    assert "Your games in play" in games_listed()


@speaking
def level_names(levels: list[str], *, language: str | None = None) -> dict[str, str]:
    """Each of `levels` as the terminal shows it in `language`."""
    return {level: level_name(level) for level in levels}


@speaking
def lobby_listed(*, language: str | None = None) -> str:
    """`pocha lobby`'s list of one table with a bot seated, in `language`."""
    console = Console(record=True, width=140, no_color=True)
    players = [{"name": "Ana"}, {"name": "Bot 1", "bot": "hard"}, {"open": True}]
    table = {"code": "K7QM-3XHP", "players": players, "open_seats": 1, "rules": {}}
    console.print(lobby_table([table], "http://pocha.example"))
    return console.export_text()


@speaking
def said_of_levels(*, language: str | None = None) -> tuple[str, str]:
    """A seat left to a random stand-in, and a heuristic bot's hint, in `language`."""
    left = at_table(["Ana", "Bea"], s1={"left": True, "stand_in": "random"})[1]
    return seat_state(left), hint_head({"level": "heuristic"}, "O1")


def test_the_bots_levels_are_shown_in_the_pages_spanish_words() -> None:
    """The terminal names each bot level with the Spanish page's word for it (its `level.*`
    entries), English as the API names them; a level it does not know, by its own name."""
    with SERVICE_ES.open("rb") as handle:
        page = {
            m.id.removeprefix("level."): m.string
            for m in read_po(handle, locale="es")
            if m.context == "page" and isinstance(m.id, str) and m.id.startswith("level.")
        }
    assert page.keys() == LEVEL_NAMES.keys()  # every level the page names, the terminal too
    assert level_names(list(page), language="es") == page
    assert level_names([*page, "ismcts:300"]) == {level: level for level in [*page, "ismcts:300"]}
    assert level_names(["ismcts:300"], language="es") == {"ismcts:300": "ismcts:300"}
    # Where the terminal shows a level: the lobby's seats, a stand-in, a hint.
    listed = lobby_listed(language="es")
    assert "Bot 1 (difícil)" in listed and not english_levels(listed), listed
    assert "Bot 1 (hard)" in lobby_listed()
    assert said_of_levels(language="es") == ("se fue (suplente: al azar)", "Pista (reglas): O1")
    assert said_of_levels() == ("left (stand-in: random)", "Hint (heuristic): O1")


# -- the terminal's catalogue ---------------------------------------------------------------


def extracted() -> set[tuple[str | None, str]]:
    """Every (context, msgid) Babel extracts from client/, as scripts/i18n does."""
    return {
        (context, message if isinstance(message, str) else message[0])
        for _file, _line, message, _comments, context in extract_from_dir(str(ROOT / "client"))
    }


def marked_in_source() -> set[tuple[str | None, str]]:
    """Every literal of a `_`, `N_`, `ngettext` or `pgettext` call in client/, found by
    Python's own parser (Babel's extractor reads tokens: a call it missed would be said in
    English with no other test noticing)."""
    found: set[tuple[str | None, str]] = set()
    for path in (ROOT / "client").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            texts = [a.value for a in node.args if isinstance(a, ast.Constant)]
            if node.func.id in ("_", "N_", "ngettext") and texts:
                found.add((None, texts[0]))
            elif node.func.id == "pgettext" and len(texts) >= 2:
                found.add((texts[0], texts[1]))
    return found


def test_every_sentence_of_the_terminal_is_in_its_catalogue_in_spanish() -> None:
    source = extracted()
    assert (None, "Score sheet") in source  # sanity: the terminal's sentences are seen
    assert marked_in_source() <= source, sorted(marked_in_source() - source)
    with TERMINAL_POT.open("rb") as handle:
        template = {
            (m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in read_po(handle) if m.id
        }
    with TERMINAL_ES.open("rb") as handle:
        spanish = [m for m in read_po(handle, locale="es") if m.id]
    # Nothing missing (run scripts/i18n) and nothing stale.
    assert template == source
    assert {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in spanish} == source
    for entry in spanish:
        ids = entry.id if isinstance(entry.id, tuple) else (entry.id,)
        strings = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        assert all(strings), f"no Spanish for {entry.id!r}"
        assert not entry.fuzzy, entry.id
        # The same values go back in: a placeholder lost or invented breaks the sentence.
        for said in strings:
            assert placeholders(said) == placeholders(ids[-1]), entry.id


def test_the_lobby_names_the_schedules_in_spanish() -> None:
    """The lobby's "Manos" column says "pirámide" and "clásica", as the page's lobby does,
    not the API's "pyramid" and "classic"; card counts stay counts."""
    console = Console(record=True, width=160, no_color=True)
    tables = [
        {"code": f"K7QM-3XH{i}", "open_seats": 1,
         "players": [{"name": "Ana"}, {"open": True}, {"name": "Bot", "bot": "easy"}],
         "rules": {"players": 3, "schedule": schedule, "turn_seconds": 60}}
        for i, schedule in enumerate(("pyramid", "classic", [1, 2, 3]))
    ]  # fmt: skip
    console.print(lobby_table(tables, "http://x"))
    english = console.export_text()
    speaking(lambda language: console.print(lobby_table(tables, "http://x")))(language="es")
    spanish = console.export_text()
    assert "pyramid" in english and "classic" in english and "1,2,3" in english, english
    assert "pirámide" in spanish and "clásica" in spanish and "1,2,3" in spanish, spanish
    assert "pyramid" not in spanish and "classic" not in spanish, spanish
