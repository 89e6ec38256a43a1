"""The terminal's language and the sentences the terminal commands say in it: the user's
locale (LANGUAGE, LC_ALL, LC_MESSAGES, LANG, as gettext reads them) picks English or
Spanish, and a sentence made with `engine.i18n._` is translated through the service's
catalogues (`service.i18n`), as the API's own sentences are.
How it works: docs/development.md, `cli.language`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from engine.i18n import Message, _
from service.i18n import DEFAULT, LANGUAGES, translate

#: The locales that ask for no language (gettext's untranslated ones).
_NO_LANGUAGE = ("", "C", "POSIX")


def terminal_language(environ: Mapping[str, str] | None = None) -> str:
    """The language of the terminal's user: the first of gettext's choices we have
    sentences in. The locale is LC_ALL's, else LC_MESSAGES', else LANG's (`es_ES.UTF-8`);
    LANGUAGE's list (`es:en`) comes before it unless the locale is C, which asks for the
    untranslated sentences, as gettext does. English when none is ours."""
    environ = os.environ if environ is None else environ
    locale = next(
        (environ[name] for name in ("LC_ALL", "LC_MESSAGES", "LANG") if environ.get(name)), ""
    )
    if locale.split(".")[0] in _NO_LANGUAGE:
        return DEFAULT
    for asked in [*(environ.get("LANGUAGE") or "").split(":"), locale]:
        language = asked.split("_")[0].split(".")[0].split("@")[0].split("-")[0].lower()
        if language in LANGUAGES:
            return language
    return DEFAULT


def say(message: Message) -> str:
    """`message` in the terminal's language."""
    return str(translate(message, terminal_language()))


def saved_key_refused(url: str, path: Path) -> str:
    """Why the service refused the account's key saved for `url` in `path` (401
    `unknown_account`), and how its owner gets back in, in the terminal's language."""
    return say(
        _(
            "The service at {url} knows no account by the key saved in {path}: it was "
            "replaced (on the web page, by pocha new-key elsewhere, or by the service's "
            "operator) or is wrong. Sign up again with another name (pocha signup --name "
            "NAME), or ask the operator for a new key and put it in that file.",
            url=url,
            path=str(path),
        )
    )


def seat_key_refused(url: str, path: Path, game_id: str) -> str:
    """Why this terminal lost its seat in `game_id` in the middle of the game (the seat's
    token and the key saved for `url` in `path` both refused: the account's key was
    replaced where this terminal never saw it), and how its owner gets back in, in the
    terminal's language."""
    return say(
        _(
            "Your seat in game {game} no longer opens: the account's key was replaced (on "
            "the web page or by the service's operator), and the key saved in {path} for "
            "{url} is the one before. pocha new-key cannot help without the current key: "
            "put it in that file (the web page showed it when it made it; the operator can "
            "make another), or sign up again with another name (pocha signup --name NAME). "
            "The game stays on the server.",
            game=game_id,
            path=str(path),
            url=url,
        )
    )


def rated_needs_account() -> str:
    """Why `pocha play --rated` cannot start without an account, in the terminal's
    language."""
    return say(_("--rated needs an account: run `pocha signup --name NAME` first"))


def resume_needs_account() -> str:
    """Why `pocha play --resume` cannot start without an account, in the terminal's
    language."""
    return say(_("--resume plays on as your account: run `pocha signup --name NAME` first"))


def resume_or_join() -> str:
    """Why `pocha play` takes --resume or --join, not both, in the terminal's language."""
    return say(_("--resume and --join: one or the other"))


def resume_as_made(options: list[str]) -> str:
    """Why `pocha play --resume` takes none of the options that make a new game, in the
    terminal's language."""
    return say(
        _(
            "--resume plays on in a game as it was made: leave out {options}",
            options=", ".join(options),
        )
    )
