"""The terminal's language and the sentences the terminal commands say in it: the user's
locale (LANGUAGE, LC_ALL, LC_MESSAGES, LANG, as gettext reads them) picks English or
Spanish, and a sentence made with `engine.i18n._` (a command's help text marked with `N_`
too) is translated through the service's catalogues (`service.i18n`), as the API's own
sentences are. Click's own words (Usage, Options, its errors) are translated by Click
itself through the stdlib's gettext, from a catalogue of Click's msgids kept here
(cli/locales/<lang>/LC_MESSAGES/click.po), compiled once into the user's cache and bound
while a command runs.
How it works: docs/development.md, `cli.language`.
"""

from __future__ import annotations

import gettext
import hashlib
import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

from engine.i18n import N_, Message, _

#: The languages the terminal commands speak, the default first: the service's catalogues'
#: (`service.i18n.LANGUAGES`, a test holds them equal). Not imported from there, so that
#: choosing the language (every `pocha` command does, for Click's words) loads no Babel.
LANGUAGES = ("en", "es")
DEFAULT = "en"
#: The gettext domain of Click's own msgids (English is the msgids), and where its
#: catalogues are: `<lang>/LC_MESSAGES/click.po`.
CLICK_DOMAIN = "click"
CLICK_LOCALES = Path(__file__).with_name("locales")
#: The words of Click's usage line that Click writes outside gettext (`[OPTIONS]`, a
#: group's `COMMAND [ARGS]...`): translated as help texts (`cli.spoken`).
USAGE_WORDS = (N_("[OPTIONS]"), N_("COMMAND [ARGS]..."))
#: The name at the table of a person who gives none (`pocha play --name`): the web page's
#: for such a person (its "you": You, Tú), so that they are called the same wherever they
#: sit (a test holds it equal to the page's, and to the word the terminal game tells that
#: seat by, `client.terminal.seat_name`).
DEFAULT_NAME = N_("You")
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
    language = terminal_language()
    if language == DEFAULT:
        return str(message)
    from service.i18n import translate

    return str(translate(message, language))


def default_name() -> str:
    """The name at the table of a person who gives none, in the terminal's language."""
    return say(Message(DEFAULT_NAME))


def help_text(english: str) -> str:
    """A command's or option's help `english` (marked `N_` where it is written) in the
    terminal's language, read when the help is shown. Paragraph by paragraph: Click's mark
    for a paragraph it must not rewrap (a line of its own, `\\b`) stays out of the
    catalogue, so each paragraph is marked on its own and joined by `paragraphs`."""
    if terminal_language() == DEFAULT:
        return english
    said = []
    for paragraph in english.split("\n\n"):
        kept = paragraph.startswith(_VERBATIM)
        text = say(Message(paragraph.removeprefix(_VERBATIM)))
        said.append(_VERBATIM + text if kept else text)
    return "\n\n".join(said)


#: Click's mark of a paragraph it prints as written, line by line.
_VERBATIM = "\b\n"


def paragraphs(*texts: str) -> str:
    """A help text of `texts` (each marked `N_` on its own), one paragraph each."""
    return "\n\n".join(texts)


def verbatim(text: str) -> str:
    """`text` as a paragraph Click prints as written (a table of keys), not rewrapped."""
    return _VERBATIM + text


@contextmanager
def click_speaking(language: str) -> Iterator[None]:
    """Click's own words (Usage, Options, "No such option", "Try ... for help") in
    `language` while the block runs, English after it. Click asks the stdlib's gettext
    (`gettext.gettext`, the process's current domain): the domain is bound to Click's
    catalogue here, and LANGUAGE set to `language`: Python's gettext picks a catalogue's
    language from the environment by a reading of its own (LANGUAGE alone when it is set,
    under a C locale too), and `terminal_language` is the one that decides. English when
    the catalogue cannot be made (no Spanish is better than no command)."""
    directory = None if language == DEFAULT else _click_catalogue(language)
    if directory is None:
        yield
        return
    language_before = os.environ.get("LANGUAGE")
    domain_before = gettext.textdomain()
    directory_before = gettext.bindtextdomain(CLICK_DOMAIN)
    try:
        os.environ["LANGUAGE"] = language
        gettext.bindtextdomain(CLICK_DOMAIN, str(directory))
        gettext.textdomain(CLICK_DOMAIN)
        yield
    finally:
        if language_before is None:
            os.environ.pop("LANGUAGE", None)
        else:
            os.environ["LANGUAGE"] = language_before
        gettext.textdomain(domain_before)
        gettext.bindtextdomain(CLICK_DOMAIN, directory_before)


def _click_catalogue(language: str) -> Path | None:
    """The directory gettext reads Click's catalogue for `language` from
    (`<lang>/LC_MESSAGES/click.mo`): made by Babel from the .po once, in the user's cache
    under a name of the .po's contents (a new catalogue gets a directory of its own, so
    nothing is ever stale or to clean up), and read as it is by every later run. None when
    it cannot be made."""
    source = CLICK_LOCALES / language / "LC_MESSAGES" / f"{CLICK_DOMAIN}.po"
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "pocha"
    partial = None
    try:
        po = source.read_bytes()
        directory = cache / f"click-{hashlib.sha256(po).hexdigest()[:16]}"
        compiled = directory / language / "LC_MESSAGES" / f"{CLICK_DOMAIN}.mo"
        if not compiled.is_file():
            from client.language import compiled_catalogue

            mo = compiled_catalogue(po, language)
            compiled.parent.mkdir(parents=True, exist_ok=True)
            # Whole or not at all, whatever another run does at the same moment.
            partial = compiled.with_name(f".{os.getpid()}.{compiled.name}")
            partial.write_bytes(mo)
            os.replace(partial, compiled)
    except Exception:
        # Babel's errors too: no Spanish is better than no command.
        if partial is not None:
            partial.unlink(missing_ok=True)
        return None
    return directory


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


def account_made(made: Mapping[str, str], path: Path) -> str:
    """What `pocha signup` did: the account `made`, its key kept in `path`, and why that
    file matters, in the terminal's language."""
    return say(
        _(
            "Account {name} ({id}) made; its key is kept in {path}.\nThe key is the account's "
            "only way in and cannot be shown again: keep a copy of that file somewhere safe.",
            name=made["name"],
            id=made["id"],
            path=str(path),
        )
    )


def no_account_kept(url: str) -> str:
    """Why `pocha new-key` has no key to replace for `url`, in the terminal's language."""
    return say(_("no account is kept for {url}: run `pocha signup --name NAME` first", url=url))


def new_key_kept(account: Mapping[str, str], path: Path) -> str:
    """What `pocha new-key` did for `account`, the new key kept in `path`, in the
    terminal's language."""
    return say(
        _(
            "Account {name} ({id}) has a new key, kept in {path}. The old key no longer "
            "works, wherever it was copied to.",
            name=account["name"],
            id=account["id"],
            path=str(path),
        )
    )


def new_key_not_kept(path: Path, error: OSError) -> str:
    """Why `pocha new-key` shows the new key (it could not be written to `path`), in the
    terminal's language."""
    return say(
        _(
            "The account's key was replaced, but the new key could not be kept in {path} "
            "({error}). The old key no longer works; here is the new one, shown this once: "
            "keep it somewhere safe.",
            path=str(path),
            error=str(error),
        )
    )


def unreachable(url: str, error: OSError) -> str:
    """Why a command got no answer from the service at `url`, in the terminal's language."""
    return say(_("cannot reach {url}: {error}", url=url, error=str(error)))


def address_refused(url: str) -> str:
    """Why `--url` is not a service's address, in the terminal's language."""
    return say(_("{url} is not an http:// or https:// address with a host", url=repr(url)))


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


def store_unreachable(url: str, error: Exception) -> str:
    """Why an operator command (`pocha keys`, `pocha accounts`, `pocha migrate-keys`,
    `pocha worker`) could not work on the store: no Redis answered at `url`, in the
    terminal's language."""
    return say(
        _(
            "no Redis answers at {url} ({error}): give the store's address with --redis-url "
            "(or REDIS_URL), or the data dir of the pocha serve on this machine with "
            "--data-dir",
            url=url,
            error=str(error),
        )
    )


def no_serve_store(data: Path, socket: str) -> str:
    """Why an operator command given `--data-dir` found no `pocha serve`'s Redis there (no
    socket at `socket`), in the terminal's language."""
    return say(
        _(
            "no pocha serve keeps its Redis in {data} (there is no socket {socket}): start "
            "pocha serve --data-dir {data}, or give the store's address with --redis-url",
            data=str(data),
            socket=socket,
        )
    )


def serve_is_no_cluster(data: Path) -> str:
    """Why an operator command refuses `--data-dir` with POCHA_REDIS_CLUSTER on, in the
    terminal's language."""
    return say(
        _(
            "POCHA_REDIS_CLUSTER is on: the store is a Redis Cluster, and the Redis of the "
            "pocha serve of {data} is not one: give a node of the cluster with --redis-url "
            "(or REDIS_URL), or leave POCHA_REDIS_CLUSTER out",
            data=str(data),
        )
    )


def queue_unreachable(url: str, error: Exception) -> str:
    """Why `pocha worker` could not start: its queue Redis, apart from the store, did not
    answer at `url`, in the terminal's language."""
    return say(
        _(
            "the queue Redis at {url} does not answer ({error}): check POCHA_QUEUE_REDIS_URL "
            "and --queue-group",
            url=url,
            error=str(error),
        )
    )


def cluster_unreachable(url: str, error: BaseException) -> str:
    """Why an operator command could not work on a Redis Cluster store: no node answered
    from `url`, in the terminal's language."""
    return say(
        _(
            "no node of the Redis Cluster answers at {url} ({error}): give the address of "
            "one of its nodes with --redis-url (or REDIS_URL)",
            url=url,
            error=str(error),
        )
    )


def field_refusals(messages: object) -> str:
    """marshmallow's refusals of a field's value (its `ValidationError.messages`, ours and
    its own sentences), one after another in the terminal's language."""
    language = terminal_language()
    said = messages if isinstance(messages, list) else [messages]
    if language != DEFAULT:
        from service.i18n import translate_tree

        said = translate_tree(said, language)
    return " ".join(str(message) for message in said)


def not_a_cluster_node(url: str) -> str:
    """Why an operator command could not work on a Redis Cluster store: the Redis at `url`
    answers, but is not a node of a cluster, in the terminal's language."""
    return say(
        _(
            "the Redis at {url} answers, but is not a node of a Redis Cluster: give a node of "
            "the cluster with --redis-url (or REDIS_URL), or leave POCHA_REDIS_CLUSTER out",
            url=url,
        )
    )


def cluster_refused(url: str, error: BaseException) -> str:
    """Why an operator command could not work on the Redis Cluster reached from `url`: it
    answered with `error` (its slots not all served, say), in the terminal's language."""
    return say(
        _(
            "the Redis Cluster reached at {url} cannot serve the store: {error}",
            url=url,
            error=str(error),
        )
    )


def redis_setup_refused(message: Message) -> str:
    """Why the Redis settings cannot work (`core.store.redises.RedisSetupError`'s
    `message`), in the terminal's language."""
    return say(message)


def no_migration_on_cluster() -> str:
    """Why `pocha migrate-keys` refuses a Redis Cluster, in the terminal's language."""
    return say(
        _(
            "pocha migrate-keys works on one Redis, not on a Redis Cluster: a cluster holds "
            "this version's key names from the start, and has nothing to migrate"
        )
    )
