"""The `pocha` command's Click classes, which say its help in the terminal's language: the
root group binds Click's own words (Usage, Options, its errors) to the terminal's language
for the run (`cli.language.click_speaking`), and a command's or option's help text is
translated when the help is shown (`cli.language.help_text`), not when the module is
imported: the help of the commands people play with (`pocha play`, `pocha lobby`,
`pocha signup`, `pocha new-key`) and of the operator's (`pocha keys`, `pocha accounts`,
`pocha migrate-keys`, `pocha worker`) is in the catalogues; the tools' stays English. Every
command's placeholders (`TEXT`, `CODE`, an argument's `NAME`, which Click writes outside
gettext) are said in the terminal's language.
How it works: docs/development.md, `cli.spoken`.
"""

from __future__ import annotations

import functools
from gettext import gettext
from typing import Any

import click

from cli.language import click_speaking, help_text, terminal_language


def click_msgid(msgid: str) -> str:
    """Mark `msgid` for Click's catalogue (scripts/i18n extracts this module with Click's
    source): a sentence Click passes to gettext from a variable, which Babel cannot see."""
    return msgid


#: Click's help option's text (a msgid of Click's): read again at each run, since Click
#: makes that option once per command and keeps it, with the language of its first run.
_HELP_OPTION_HELP = "Show this message and exit."
#: Click's msgid for an option's environment variable in its help (`[env var: NAME]`).
_ENV_VAR = "env var: {var}"


class _Spoken:
    """An attribute Click sets in English (a msgid of our catalogue: a help, a placeholder)
    and reads, when it writes a help or a refusal, in the terminal's language."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.kept = f"_english_{name}"

    def __get__(self, instance: object, owner: type | None = None) -> Any:
        if instance is None:
            return self
        english = getattr(instance, self.kept, None)
        return None if english is None else help_text(english)

    def __set__(self, instance: object, english: str | None) -> None:
        setattr(instance, self.kept, english)


class _SpokenHelp:
    """A help text kept in English, read in the terminal's language."""

    help = _Spoken()


class _SpokenCommand(_SpokenHelp):
    """A command's help and usage line (`[OPTIONS]`, which Click writes in English words
    of its own, outside gettext: in our catalogue) read in the terminal's language."""

    options_metavar = _Spoken()


def _said(help_option: click.Option | None) -> click.Option | None:
    """The help option with its text in this run's language."""
    if help_option is not None:
        help_option.help = gettext(_HELP_OPTION_HELP)
    return help_option


class SpokenCommand(_SpokenCommand, click.Command):
    """A command whose help, and its help option's, are said in the terminal's language."""

    def get_help_option(self, ctx: click.Context) -> click.Option | None:
        return _said(super().get_help_option(ctx))


class SpokenGroup(_SpokenCommand, click.Group):
    """The root group: its run speaks the terminal's language, Click's words included, and
    the commands made on it (and on its groups) are `SpokenCommand`s and `SpokenGroup`s."""

    command_class = SpokenCommand
    group_class = type

    subcommand_metavar = _Spoken()

    def get_help_option(self, ctx: click.Context) -> click.Option | None:
        return _said(super().get_help_option(ctx))

    def add_command(self, cmd: click.Command, name: str | None = None) -> None:
        # Every command, those made elsewhere (the AI's tools) too, shows its options'
        # placeholders in the terminal's language.
        _speak_placeholders(cmd)
        super().add_command(cmd, name)

    def main(self, *args: Any, **kwargs: Any) -> Any:
        with click_speaking(terminal_language()):
            return super().main(*args, **kwargs)


class _SpokenName:
    """A Click type whose name is said in the run's language, from Click's catalogue (as
    the names Click does translate, `path`, `file`, are): Click writes it outside gettext,
    upper-cased as an option's placeholder (`--seed INTEGER`) and in the sentence refusing
    a value (`'many' is not a valid integer`)."""

    english_name: str

    @property
    def name(self) -> str:
        return gettext(self.english_name)

    @name.setter
    def name(self, english: str) -> None:
        self.english_name = english


class Text(_SpokenName, click.types.StringParamType):
    """Click's `str` type (`TEXT`), its name in the run's language."""

    english_name = click_msgid("text")


class Integer(_SpokenName, click.types.IntParamType):
    """Click's `int` type (`INTEGER`), its name in the run's language."""

    english_name = click_msgid("integer")


class IntegerRange(_SpokenName, click.IntRange):
    """Click's `IntRange` (`INTEGER RANGE`), its name in the run's language."""

    english_name = click_msgid("integer range")


class Float(_SpokenName, click.types.FloatParamType):
    """Click's `float` type (`FLOAT`), its name in the run's language."""

    english_name = click_msgid("float")


class FloatRange(_SpokenName, click.FloatRange):
    """Click's `FloatRange` (`FLOAT RANGE`), its name in the run's language."""

    english_name = click_msgid("float range")


class Path(_SpokenName, click.Path):
    """Click's `Path` (`FILE`, `DIRECTORY` or `PATH`, by what it takes), its name in the
    run's language: Click translates it when the type is made, at import, before the run
    has chosen a language."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.file_okay and not self.dir_okay:
            self.english_name = "file"
        elif self.dir_okay and not self.file_okay:
            self.english_name = "directory"
        else:
            self.english_name = "path"


#: The entries of Click's catalogue that Babel cannot find in Click's source (marked
#: `click_msgid` here): the msgid Click says through `gettext(variable)`, an option's
#: `[required]` (`Option.get_help_record`), and the names of its types, which Click says
#: untranslated and `_SpokenName` says through gettext (a path's are in Click's source).
UNMARKED_CLICK_MSGIDS = (
    click_msgid("required"),
    *(kind.english_name for kind in (Text, Integer, IntegerRange, Float, FloatRange)),
)


def _spoken_type(kind: click.ParamType) -> click.ParamType:
    """`kind`, one of Click's types an option takes, as the same type with its name in the
    terminal's language; any other type as it is (a choice's placeholder is its values,
    which are typed as they are)."""
    if isinstance(kind, _SpokenName):
        return kind
    if isinstance(kind, click.IntRange):
        return IntegerRange(kind.min, kind.max, kind.min_open, kind.max_open, kind.clamp)
    if isinstance(kind, click.FloatRange):
        return FloatRange(kind.min, kind.max, kind.min_open, kind.max_open, kind.clamp)
    if type(kind) is click.types.IntParamType:
        return Integer()
    if type(kind) is click.types.FloatParamType:
        return Float()
    if type(kind) is click.types.StringParamType:
        return Text()
    if type(kind) is click.Path:
        return Path(
            exists=kind.exists, file_okay=kind.file_okay, dir_okay=kind.dir_okay,
            writable=kind.writable, readable=kind.readable, resolve_path=kind.resolve_path,
            allow_dash=kind.allow_dash, path_type=kind.type, executable=kind.executable,
        )  # fmt: skip
    return kind


def _speak_placeholders(command: click.Command) -> None:
    """Give each option of `command` its type with the name in the terminal's language
    (`_spoken_type`): its placeholder in the help, and the sentence refusing a value."""
    for param in command.params:
        if isinstance(param, click.Option):
            param.type = _spoken_type(param.type)


class SpokenOption(_SpokenHelp, click.Option):
    """An option whose help, placeholder (its own, `CODE`, or its type's, `TEXT`), its
    type's name in the sentence refusing a value, and the hint naming it in an error, are
    said in the terminal's language. A default made by a function (a word of the terminal's
    language: the player's name) is shown in the help as what it makes, which is what the
    command gets, rather than as Click's `(dynamic)`."""

    metavar = _Spoken()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.type = _spoken_type(self.type)

    def get_default(self, ctx: click.Context, call: bool = True) -> Any:
        # The help asks with `call=False` and shows a function as `(dynamic)`: a shown
        # default must be the value, which depends on the language of the run.
        return super().get_default(ctx, call=call or self.show_default is True)

    def get_error_hint(self, ctx: click.Context | None) -> str:
        hint = super().get_error_hint(ctx)
        if not (self.show_envvar and self.envvar):
            return hint
        # Click adds the option's environment variable to the hint in English words of its
        # own, outside gettext: said again with its msgid for the same words in the help.
        envvars = [self.envvar] if isinstance(self.envvar, str) else self.envvar
        named = ", ".join(f"'{var}'" for var in envvars)
        english = f" (env var: {named})"
        if not hint.endswith(english):
            return hint
        return f"{hint.removesuffix(english)} ({gettext(_ENV_VAR).format(var=named)})"


#: `click.option` for the options of the commands people play with.
option = functools.partial(click.option, cls=SpokenOption)


class SpokenArgument(click.Argument):
    """An argument whose placeholder of ours (`metavar=N_("NAME")`: in the usage line, and
    in Click's refusal of a missing one) is said in the terminal's language."""

    metavar = _Spoken()


#: `click.argument` for the arguments whose placeholder is said in the terminal's language.
argument = functools.partial(click.argument, cls=SpokenArgument)
