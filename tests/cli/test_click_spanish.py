"""The `pocha` command in the terminal's language: with a Spanish locale, Click's own words
(Usage, Options, the help option, its errors and "Try ... for help"), the help of the
commands people play with (play, lobby, signup, new-key) and of the operator's (keys,
accounts, migrate-keys, worker), every command's placeholders (`TEXTO`, `CÓDIGO`,
`LÍMITE`, an argument's `NOMBRE`) and the player's default name (`Tú`, the name they then
get) are Spanish; with an English or C locale, all of it is English. The entry point runs for real,
as a player's shell runs it. Click's catalogue (cli/locales) is held to the installed Click:
a msgid Click dropped or changed, or one it added without Spanish, fails here."""

from __future__ import annotations

import gettext
import os
import re
import resource
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import click
import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po
from click.testing import CliRunner

from cli import language
from cli.main import pocha
from cli.spoken import UNMARKED_CLICK_MSGIDS
from client.api import PochaClient
from tests.client.test_terminal import PROMPT, Terminal
from tests.live import POCHA, LiveService
from tests.waiting import LONG, scaled

CLICK_PO = language.CLICK_LOCALES / "es" / "LC_MESSAGES" / "click.po"
#: The variables gettext reads the locale from: each run names its own.
LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


def flat(text: str) -> str:
    """`text` with its runs of spaces and line breaks as one space: Click wraps the help to
    the terminal's width."""
    return " ".join(text.split())


def _no_files() -> None:
    """In the child: a regular file written past 0 bytes fails (EFBIG), as a full disk
    fails a write, rather than the process being stopped by SIGXFSZ."""
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)


def run(
    tmp_path: Path, *args: str, writes: bool = True, **locale: str
) -> subprocess.CompletedProcess[str]:
    """`pocha ARGS` in a shell whose locale is `locale` (nothing else of the caller's), its
    files writable unless `writes` is False."""
    env = {k: v for k, v in os.environ.items() if k not in LOCALE_VARIABLES and k != "POCHA_URL"}
    env.update(XDG_CONFIG_HOME=str(tmp_path), XDG_CACHE_HOME=str(tmp_path / "cache"), **locale)
    return subprocess.run(
        [str(POCHA), *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=scaled(60),
        check=False,
        preexec_fn=None if writes else _no_files,
    )


SPANISH = {"LANG": "es_ES.UTF-8"}
ENGLISH = [{"LANG": "C.UTF-8"}, {"LANG": "en_US.UTF-8"}, {}]


def test_play_help_is_in_spanish_for_a_spanish_locale(tmp_path: Path) -> None:
    shown = run(tmp_path, "play", "--help", **SPANISH)
    assert shown.returncode == 0, shown.stderr
    said = flat(shown.stdout)
    for words in (
        "Uso: pocha play [OPCIONES]",
        "Juega en este terminal a través de la API HTTP",
        "En tu turno, escribe:",
        "Opciones:",
        "Tu nombre en la mesa. [por defecto: Tú]",
        "[por defecto: 4; 3<=x<=8]",
        "[variable de entorno: POCHA_URL; por defecto: http://127.0.0.1:8000]",
        "-h, --help Muestra esta ayuda y sale.",
    ):
        assert words in said, (words, said)
    for english in ("Usage:", "Options:", "Show this message", "default:", "Your name"):
        assert english not in said, (english, said)
    keys = {line.split()[0]: line for line in shown.stdout.splitlines() if line.strip()}
    assert "pista" in keys["?"] and "irte" in keys["q"], said


@pytest.mark.parametrize("locale", ENGLISH)
def test_play_help_is_english_otherwise(tmp_path: Path, locale: dict[str, str]) -> None:
    shown = run(tmp_path, "play", "--help", **locale)
    assert shown.returncode == 0, shown.stderr
    for words in (
        "Usage: pocha play [OPTIONS]",
        "Play in this terminal over the HTTP API",
        "Options:",
        "Your name at the table. [default: You]",
        "-h, --help Show this message and exit.",
    ):
        assert words in flat(shown.stdout), (words, shown.stdout)
    assert "Uso:" not in shown.stdout and "Opciones" not in shown.stdout


#: A mistake typed, and the last line Click says of it in Spanish and in English.
MISTAKES = [
    (
        ["play", "--bogus"],
        "Error: No existe la opción '--bogus'.",
        "Error: No such option '--bogus'.",
    ),
    (
        ["play", "--players", "9"],
        "Error: Valor no válido para '--players': 9 no está en el rango 3<=x<=8.",
        "Error: Invalid value for '--players': 9 is not in the range 3<=x<=8.",
    ),
    (
        ["play", "--game", "chess"],
        "Error: Valor no válido para '--game': 'chess' no es ninguno de estos valores: "
        "'pocha', 'poch'.",
        "Error: Invalid value for '--game': 'chess' is not one of 'pocha', 'poch'.",
    ),
    (
        ["play", "--seed", "many"],
        "Error: Valor no válido para '--seed': 'many' no es un número válido (entero).",
        "Error: Invalid value for '--seed': 'many' is not a valid integer.",
    ),
    (
        ["play", "--open", "some"],
        "Error: Valor no válido para '--open': 'some' no es un número válido (entero en rango).",
        "Error: Invalid value for '--open': 'some' is not a valid integer range.",
    ),
    (["play", "--seed"], "Error: La opción '--seed' necesita un valor.", None),
    (["signup"], "Error: Falta la opción '--name'.", "Error: Missing option '--name'."),
    (
        ["lobby", "--url", "ftp://example.org"],
        "Error: Valor no válido para '--url' (variable de entorno: 'POCHA_URL'): "
        "'ftp://example.org' no es una dirección http:// o https:// con un host",
        "Error: Invalid value for '--url' (env var: 'POCHA_URL'): 'ftp://example.org' is "
        "not an http:// or https:// address with a host",
    ),
    (
        ["plya"],
        "Error: No existe el comando 'plya'. (¿Querías decir alguno de estos: 'play', 'replay'?)",
        "Error: No such command 'plya'. (Did you mean one of: 'play', 'replay'?)",
    ),
]


@pytest.mark.parametrize(("args", "spanish", "english"), MISTAKES)
def test_a_mistake_is_said_in_the_terminals_language(
    tmp_path: Path, args: list[str], spanish: str, english: str | None
) -> None:
    spanish_run = run(tmp_path, *args, **SPANISH)
    english_run = run(tmp_path, *args, LANG="C.UTF-8")
    assert spanish_run.returncode == english_run.returncode == 2, spanish_run.stderr
    said, english_said = spanish_run.stderr.splitlines(), english_run.stderr.splitlines()
    assert said[-1] == spanish, spanish_run.stderr
    assert english is None or english_said[-1] == english, english_run.stderr
    # The usage line and the way to the help, where Click gives them (not for a value
    # missing at the end of the line).
    assert len(said) == len(english_said), (said, english_said)
    if len(said) > 1:
        command = "pocha" if args == ["plya"] else f"pocha {args[0]}"
        assert said[0].startswith(f"Uso: {command} [OPCIONES]"), said
        assert said[1] == f"Prueba '{command} --help' para ver la ayuda.", said
        assert english_said[0].startswith(f"Usage: {command} [OPTIONS]"), english_said
        assert english_said[1] == f"Try '{command} --help' for help.", english_said
    assert "Usage" not in spanish_run.stderr and "Try" not in spanish_run.stderr


#: The placeholders of an option's value (Click's type names, and our own), English and
#: Spanish; a flag has none.
TEXT = ("TEXT", "TEXTO")
INTEGER = ("INTEGER", "ENTERO")
RANGE = ("INTEGER RANGE", "ENTERO EN RANGO")
FLAG = (None, None)
#: Each command people play with: its options and their placeholders in either language.
PLACEHOLDERS: dict[str, dict[str, tuple[str | None, str | None]]] = {
    "play": {
        "--url": TEXT, "--game": ("[pocha|poch]", "[pocha|poch]"), "--players": RANGE,
        "--level": TEXT, "--name": TEXT, "--schedule": TEXT, "--chips": RANGE,
        "--ante": RANGE, "--deals": RANGE, "--seed": INTEGER, "--open": RANGE,
        "--listed": FLAG, "--turn-seconds": RANGE, "--stand-in": TEXT,
        "--join": ("CODE", "CÓDIGO"), "--rated": FLAG, "--resume": ("GAME", "PARTIDA"),
        "-h, --help": FLAG,
    },
    "lobby": {"--url": TEXT, "-h, --help": FLAG},
    "signup": {"--url": TEXT, "--name": TEXT, "-h, --help": FLAG},
    "new-key": {"--url": TEXT, "-h, --help": FLAG},
}  # fmt: skip
#: An option's row in a help: its spellings, then its placeholder (words one space apart),
#: then two spaces and its help, or the end of the line.
OPTION_ROW = re.compile(
    r"^  (?P<opts>-[\w-]+(?:, -[\w-]+)*)(?: (?P<metavar>\S+(?: \S+)*?))?(?:  |$)", re.M
)


@pytest.mark.parametrize("command", PLACEHOLDERS)
def test_the_options_placeholders_are_in_the_terminals_language(
    tmp_path: Path, command: str
) -> None:
    for locale, spanish in [(SPANISH, True), *((english, False) for english in ENGLISH)]:
        shown = run(tmp_path, command, "--help", **locale)
        assert shown.returncode == 0, shown.stderr
        rows = {row["opts"]: row["metavar"] for row in OPTION_ROW.finditer(shown.stdout)}
        wanted = {option: said[spanish] for option, said in PLACEHOLDERS[command].items()}
        assert rows == wanted, (locale, shown.stdout)


def test_the_help_says_the_placeholders_it_shows(tmp_path: Path) -> None:
    # The help's sentences name the placeholders the options show (`--join CÓDIGO`).
    play = flat(run(tmp_path, "play", "--help", **SPANISH).stdout)
    assert "--join CÓDIGO para sentarte en una" in play
    assert "(necesita `pocha signup`): PARTIDA, o sin ella la única" in play
    lobby = flat(run(tmp_path, "lobby", "--help", **SPANISH).stdout)
    assert "`pocha play --join CÓDIGO`" in lobby
    for shown in (play, lobby):
        assert not re.search(r"\b(CODE|GAME|TEXT|INTEGER)\b", shown), shown


#: Click's names of its types as it writes them, upper-cased, as an option's placeholder.
CLICK_TYPE_NAMES = re.compile(
    r"\b(TEXT|INTEGER|FLOAT|RANGE|PATH|FILE|FILENAME|DIRECTORY|BOOLEAN|CHOICE|UUID|DATETIME)\b"
)


def _commands(group: click.Group, path: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    """Every command under `group`, as the words that name it."""
    for name, command in group.commands.items():
        yield (*path, name)
        if isinstance(command, click.Group):
            yield from _commands(command, (*path, name))


def test_no_commands_spanish_help_shows_clicks_english_placeholders(tmp_path: Path) -> None:
    # The tools' help stays English; the placeholders of every command's options that are
    # Click's type names are said in the terminal's language, as the players' commands' are.
    environ: dict[str, str | None] = {
        **dict.fromkeys(LOCALE_VARIABLES), **SPANISH, "XDG_CACHE_HOME": str(tmp_path),
    }  # fmt: skip
    shown_by: dict[str, set[str]] = {}
    commands = list(_commands(pocha))
    assert len(commands) > 30 and ("keys", "create") in commands, commands
    for words in commands:
        shown = CliRunner().invoke(pocha, [*words, "--help"], env=environ, prog_name="pocha")
        assert shown.exit_code == 0, (words, shown.output)
        assert "Opciones:" in shown.output, (words, shown.output)
        for row in OPTION_ROW.finditer(shown.output):
            if row["metavar"]:
                shown_by.setdefault(row["metavar"], set()).add(" ".join(words))
    english = {said: where for said, where in shown_by.items() if CLICK_TYPE_NAMES.search(said)}
    assert english == {}, english
    for spanish in ("TEXTO", "ENTERO", "ENTERO EN RANGO", "DECIMAL", "DECIMAL EN RANGO",
                    "FICHERO"):  # fmt: skip
        assert spanish in shown_by, sorted(shown_by)
    assert "bench engine" in shown_by["DECIMAL"] and "bench move-path" in shown_by["FICHERO"]


def _helps(words: tuple[str, ...]) -> tuple[str, str]:
    """The help of the command `words`, in English and in Spanish."""
    said = []
    for locale in ({"LANG": "C.UTF-8"}, SPANISH):
        environ: dict[str, str | None] = {**dict.fromkeys(LOCALE_VARIABLES), **locale}
        shown = CliRunner().invoke(pocha, [*words, "--help"], env=environ, prog_name="pocha")
        assert shown.exit_code == 0, (words, shown.output)
        said.append(shown.output)
    return said[0], said[1]


#: The usage line's words after the command's name: `[OPTIONS] NAME`, `[OPCIONES] NOMBRE`.
USAGE = re.compile(r"^(?:Usage|Uso): pocha(?: [\w-]+)* (?P<rest>\[.*)$", re.M)


def test_no_commands_spanish_help_shows_a_placeholder_of_ours_in_english() -> None:
    # Every placeholder the help shows, an option's (`--moves LÍMITE`) or an argument's in
    # the usage line (`ID_CUENTA NOMBRE`), is said in Spanish, ours as Click's; a choice's
    # values (`[text|json]`), typed as they are, alone stay the same.
    english_left: dict[str, set[str]] = {}
    for words in _commands(pocha):
        english, spanish = _helps(words)
        rows = [
            {row["opts"]: row["metavar"] for row in OPTION_ROW.finditer(options)}
            for options in (english.split("\nOptions:")[1], spanish.split("\nOpciones:")[1])
        ]
        assert rows[0].keys() == rows[1].keys(), (words, english, spanish)
        usages = [USAGE.search(said) for said in (english, spanish)]
        assert usages[0] and usages[1], (words, english, spanish)
        shown = [
            (usages[0]["rest"], usages[1]["rest"]),
            *((rows[0][option], rows[1][option]) for option in rows[0]),
        ]
        for placeholder, said in shown:
            kept = set((placeholder or "").split()) & set((said or "").split())
            for word in kept:
                # A flag's other spelling (`--fork / --no-fork`) is no placeholder.
                if not word.startswith(("[", "-", "/")):
                    english_left.setdefault(word, set()).add(" ".join(words))
    assert english_left == {}, english_left


#: The operator commands, which work on the service's store: their help is the operator's
#: language, as their refusals are.
OPERATOR_COMMANDS = [
    ("keys",), ("keys", "create"), ("keys", "list"), ("keys", "revoke"), ("accounts",),
    ("accounts", "list"), ("accounts", "disable"), ("accounts", "rotate-key"),
    ("accounts", "rename"), ("accounts", "count"), ("accounts", "keep"), ("accounts", "sweep"),
    ("migrate-keys",), ("worker",),
]  # fmt: skip


@pytest.mark.parametrize("words", OPERATOR_COMMANDS, ids=" ".join)
def test_the_operator_commands_help_is_in_spanish(words: tuple[str, ...]) -> None:
    english, spanish = _helps(words)
    said = flat(spanish)
    # Each paragraph of the command's help, and the first line of each option's help and
    # of each subcommand's: none is left in English.
    paragraphs = [
        flat(text) for text in english.split("\nOptions:")[0].split("\n\n")[1:] if flat(text)
    ]
    rows = [
        row
        for row in re.findall(r"^  [-a-z].*?  +(\S.*)$", english, re.M)
        if not row.startswith("Show this message")
    ]
    assert paragraphs, english
    for text in [*paragraphs, *rows]:
        assert text[:30] not in said, (text, spanish)
    assert "Opciones:" in spanish and "Options:" not in spanish


@pytest.mark.parametrize(
    ("locale", "default", "name"),
    [(SPANISH, "[por defecto: Tú]", "Tú"), ({"LANG": "C.UTF-8"}, "[default: You]", "You")],
)
def test_a_player_who_gives_no_name_sits_with_the_name_the_help_shows(
    live_service: LiveService, tmp_path: Path, locale: dict[str, str], default: str, name: str
) -> None:
    assert default in flat(run(tmp_path, "play", "--help", **locale).stdout)
    # No account kept (its name would sit instead), nothing of the caller's locale.
    environ = {
        **dict.fromkeys(LOCALE_VARIABLES, ""), **locale,
        "XDG_CONFIG_HOME": str(tmp_path), "XDG_CACHE_HOME": str(tmp_path / "cache"),
    }  # fmt: skip
    terminal = Terminal(
        [str(POCHA), "play", "--url", live_service.url, "--players", "3", "--level", "random",
         "--schedule", "1", "--seed", "11"],
        environ,
    )  # fmt: skip
    deadline = time.monotonic() + scaled(LONG)
    try:
        while not PROMPT.search(terminal.screen):
            assert terminal.read(0.2), terminal.screen[-3000:]
            assert time.monotonic() < deadline, terminal.screen[-3000:]
        terminal.type("q")
        terminal.process.wait(timeout=scaled(LONG))
        while terminal.read(0.2):
            pass
    finally:
        terminal.close()
    # The default name is not repeated in the opening line ("you play against ..."): the
    # game's first seat holds it.
    made = re.search(r"(?:Game|Partida) (\S+) (?:created|creada): (?:you play|juegas) ",
                     terminal.screen)  # fmt: skip
    assert made, terminal.screen[-3000:]
    assert PochaClient(live_service.url).view(made[1])["players"][0]["name"] == name
    # The table of seats names the seat once: not `Tú (tú)`.
    assert f"{name} ({name.lower()})" not in terminal.screen, terminal.screen[-3000:]


def test_the_default_name_is_the_web_pages_and_the_terminal_games(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from client.language import _ as terminal_says
    from client.language import speaking
    from service.i18n import page_strings

    @speaking
    def terminal_name(*, language: str) -> str:
        return terminal_says("You")

    for name in LOCALE_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    for locale, lang, name in (("C.UTF-8", "en", "You"), ("es_ES.UTF-8", "es", "Tú")):
        monkeypatch.setenv("LANG", locale)
        assert language.default_name() == name
        # The page's name for a person who gives none; the terminal game's word for a seat
        # named so (which it does not tell "(you)" again).
        assert page_strings(lang)["you"] == name
        assert terminal_name(language=lang) == name


def test_the_players_commands_speak_spanish_and_the_tools_stay_english(
    tmp_path: Path,
) -> None:
    listed = run(tmp_path, "--help", **SPANISH)
    assert listed.returncode == 0, listed.stderr
    rows = {
        line.split()[0]: line
        for line in listed.stdout.splitlines()
        if line.startswith("  ") and not line.startswith("   ")
    }
    assert "Uso: pocha [OPCIONES] COMANDO [ARGUMENTOS]..." in listed.stdout
    assert "Pocha: el juego de cartas español" in listed.stdout
    assert "Comandos:" in listed.stdout
    assert "Muestra las mesas públicas" in rows["lobby"]
    assert "Crea la cuenta de una persona" in rows["signup"]
    assert "Reemplaza la clave" in rows["new-key"]
    assert "Juega en este terminal" in rows["play"]
    # The tools (benches, the service, training) keep their English help, in Click's
    # Spanish frame.
    assert "Measure the speed of one layer" in rows["bench"]
    signup = flat(run(tmp_path, "signup", "--help", **SPANISH).stdout)
    assert "El nombre de la cuenta, único en el servicio. [obligatoria]" in signup
    lobby = flat(run(tmp_path, "lobby", "--help", **SPANISH).stdout)
    assert "Muestra las mesas públicas que esperan jugadores" in lobby
    new_key = flat(run(tmp_path, "new-key", "--help", **SPANISH).stdout)
    assert "Reemplaza la clave de la cuenta" in new_key
    refused = run(tmp_path, "new-key", "--url", "http://127.0.0.1:9", **SPANISH)
    assert refused.returncode == 2
    assert "no hay ninguna cuenta guardada para http://127.0.0.1:9" in flat(refused.stderr)


@pytest.mark.parametrize(
    ("locale", "spanish"),
    [
        # A C locale asks for the untranslated words, LANGUAGE or not (gettext's rule;
        # Python's gettext alone would read LANGUAGE).
        ({"LANGUAGE": "es", "LC_ALL": "C"}, False),
        ({"LANGUAGE": "es"}, False),
        # LANGUAGE's list is read before the locale, each language in turn.
        ({"LANGUAGE": "fr:es", "LANG": "en_GB.UTF-8"}, True),
        ({"LANGUAGE": "fr", "LANG": "es_ES.UTF-8"}, True),
        ({"LC_ALL": "en_US.UTF-8", "LANG": "es_ES.UTF-8"}, False),
    ],
)
def test_the_terminal_language_decides_for_click_too(
    tmp_path: Path, locale: dict[str, str], spanish: bool
) -> None:
    said = run(tmp_path, "play", "--bogus", **locale)
    assert ("No existe la opción" in said.stderr) is spanish, said.stderr
    assert ("No such option" in said.stderr) is not spanish, said.stderr
    assert language.terminal_language(locale) == ("es" if spanish else "en")


def test_without_a_file_for_clicks_catalogue_click_says_its_english(tmp_path: Path) -> None:
    # The catalogue gettext reads is written to the user's cache by the first run: a full
    # disk leaves Click's words in English, nothing half written, and the command works on.
    said = run(tmp_path, "play", "--bogus", writes=False, **SPANISH)
    assert said.returncode == 2, said.stderr
    assert said.stderr.splitlines()[-1] == "Error: No such option '--bogus'.", said.stderr
    assert "Traceback" not in said.stderr
    assert [p for p in (tmp_path / "cache").rglob("*") if p.is_file()] == []


def test_clicks_catalogue_is_made_once_in_the_cache_and_read_by_later_runs(
    tmp_path: Path,
) -> None:
    first = run(tmp_path, "play", "--bogus", **SPANISH)
    assert first.stderr.splitlines()[-1] == "Error: No existe la opción '--bogus'.", first.stderr
    made = [p for p in (tmp_path / "cache").rglob("*") if p.is_file()]
    assert [p.relative_to(tmp_path / "cache").parts[-3:] for p in made] == [
        ("es", "LC_MESSAGES", "click.mo")
    ]
    stamp = made[0].stat().st_mtime_ns
    again = run(tmp_path, "lobby", "--bogus", **SPANISH)
    assert again.stderr.splitlines()[-1] == "Error: No existe la opción '--bogus'.", again.stderr
    assert [p for p in (tmp_path / "cache").rglob("*") if p.is_file()] == made
    assert made[0].stat().st_mtime_ns == stamp


def test_each_run_speaks_its_own_language_and_leaves_gettext_as_it_was(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in LOCALE_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    domain = gettext.textdomain()
    for locale, help_option, usage in [
        ("es_ES.UTF-8", "Muestra esta ayuda y sale.", "Uso: pocha lobby [OPCIONES]"),
        ("C.UTF-8", "Show this message and exit.", "Usage: pocha lobby [OPTIONS]"),
        ("es_ES.UTF-8", "Muestra esta ayuda y sale.", "Uso: pocha lobby [OPCIONES]"),
    ]:
        monkeypatch.setenv("LANG", locale)
        shown = CliRunner().invoke(pocha, ["lobby", "--help"])
        assert shown.exit_code == 0, shown.output
        # The help option Click made on the first run does not keep that run's language.
        assert help_option in shown.output and usage in shown.output, shown.output
        assert "LANGUAGE" not in os.environ and gettext.textdomain() == domain
        assert gettext.gettext("Usage:") == "Usage:"


def _placeholders(text: str) -> set[str]:
    return set(re.findall(r"\{[^{}]*\}|%\(\w+\)s", text))


def test_the_click_catalogue_is_the_installed_clicks_msgids_all_in_spanish() -> None:
    clicks = {
        message[2] if isinstance(message[2], str) else message[2][0]
        for message in extract_from_dir(Path(click.__file__).parent)
    }
    with CLICK_PO.open("rb") as handle:
        po = read_po(handle, locale="es")
    entries = {(m.id if isinstance(m.id, str) else m.id[0]): m for m in po if m.id and not m.fuzzy}
    # A msgid Click no longer says (an upgrade changed it) would silently stay English:
    # scripts/i18n drops it and asks for the new one.
    gone = sorted(set(entries) - clicks - set(UNMARKED_CLICK_MSGIDS))
    assert not gone, f"msgids the installed Click no longer has (run scripts/i18n): {gone}"
    missing = sorted(clicks - set(entries))
    assert not missing, f"Click's msgids not in click.po (run scripts/i18n): {missing}"
    for msgid, entry in entries.items():
        ids = [entry.id] if isinstance(entry.id, str) else list(entry.id)
        strings = [entry.string] if isinstance(entry.string, str) else list(entry.string or ())
        assert strings and all(strings), f"no Spanish for {msgid!r}"
        wanted = set().union(*map(_placeholders, ids))
        for said in strings:
            assert _placeholders(said) <= wanted, (msgid, said)
        assert _placeholders(strings[-1]) == _placeholders(ids[-1]), (msgid, strings)


def test_gettext_says_every_spanish_entry_while_a_command_runs_and_english_after() -> None:
    with CLICK_PO.open("rb") as handle:
        po = read_po(handle, locale="es")
    entries = [m for m in po if m.id and not m.fuzzy]
    with language.click_speaking("es"):
        for entry in entries:
            if isinstance(entry.id, str):
                assert gettext.gettext(entry.id) == entry.string, entry.id
            else:
                one, many = entry.string[0], entry.string[-1]  # type: ignore[index]
                assert gettext.ngettext(entry.id[0], entry.id[1], 1) == one, entry.id
                assert gettext.ngettext(entry.id[0], entry.id[1], 2) == many, entry.id
    assert gettext.gettext("Usage:") == "Usage:"
    assert gettext.ngettext("Option {name!r} requires an argument.", "x", 1).startswith("Option")


def test_the_terminal_has_the_services_and_the_terminal_games_languages() -> None:
    from client import language as client_language
    from service import i18n

    assert language.LANGUAGES == i18n.LANGUAGES == client_language.LANGUAGES
    assert language.DEFAULT == i18n.DEFAULT == client_language.DEFAULT
