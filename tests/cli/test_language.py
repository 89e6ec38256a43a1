"""The terminal's language from the user's locale, as gettext reads it: LC_ALL, then
LC_MESSAGES, then LANG, LANGUAGE's list before them unless the locale is C."""

from __future__ import annotations

import pytest

from cli.language import terminal_language


@pytest.mark.parametrize(
    ("environ", "language"),
    [
        ({}, "en"),
        ({"LANG": "es_ES.UTF-8"}, "es"),
        ({"LANG": "es_AR"}, "es"),
        ({"LANG": "fr_FR.UTF-8"}, "en"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LC_ALL": "C", "LANG": "es_ES.UTF-8"}, "en"),
        ({"LC_MESSAGES": "es_ES.UTF-8", "LANG": "en_GB.UTF-8"}, "es"),
        ({"LC_ALL": "en_US.UTF-8", "LC_MESSAGES": "es_ES.UTF-8"}, "en"),
        ({"LANGUAGE": "es:en", "LANG": "en_GB.UTF-8"}, "es"),
        ({"LANGUAGE": "fr:es", "LANG": "en_GB.UTF-8"}, "es"),
        ({"LANGUAGE": "es", "LANG": "C.UTF-8"}, "en"),
        ({"LANGUAGE": "es"}, "en"),
    ],
)
def test_the_terminal_language_is_the_locales(environ: dict[str, str], language: str) -> None:
    assert terminal_language(environ) == language
