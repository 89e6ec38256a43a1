"""The repository's pointers to its documents lead somewhere: every Markdown file that code,
tests, the page's modules and the docs name is a file the repository ships, so a reader
who follows a comment's "(docs/poch.md, A deal 5)" finds the rule it cites; and every
`pocha` command the README and the docs show exists, with the options shown."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

import click

from cli.main import pocha

ROOT = Path(__file__).resolve().parents[2]

# A document named in text: a path of word characters, dots, slashes and dashes, ending .md.
REFERENCE = re.compile(r"[\w./-]*\w\.md\b")

# docs/poch.md names the rule book it copies, which lives beside the repository (in the
# project's shared folder), not in it.
OUTSIDE = ("docs/poch.md", "../shared/")


def shipped_text_files() -> list[str]:
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard",
         "*.py", "*.md", "*.js", "*.html"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout.split()  # fmt: skip
    return [name for name in listed if (ROOT / name).is_file()]


def resolves(source: str, reference: str) -> bool:
    """A reference is read from the repository's root, from the folder of the file that
    makes it, or (a bare name) from docs/."""
    bases = (ROOT, (ROOT / source).parent, ROOT / "docs")
    return any((base / reference).is_file() for base in bases)


def test_every_document_named_is_in_the_repository() -> None:
    missing = []
    for source in shipped_text_files():
        text = (ROOT / source).read_text(errors="replace")
        for number, line in enumerate(text.splitlines(), 1):
            for reference in REFERENCE.findall(line):
                outside = source == OUTSIDE[0] and reference.startswith(OUTSIDE[1])
                if not outside and not resolves(source, reference):
                    missing.append(f"{source}:{number}: {reference}")
    assert not missing, "documents named but not shipped:\n" + "\n".join(missing)


def test_the_poch_rules_have_the_sections_cited() -> None:
    """The sections the code cites as (docs/poch.md, SECTION) are in docs/poch.md."""
    poch = (ROOT / "docs" / "poch.md").read_text()
    headings = set(re.findall(r"^#+ (.+)$", poch, re.MULTILINE))
    for section in ("Material", "A deal", "The game", "What each seat knows", "Decisions"):
        assert section in headings, section
    steps = re.findall(r"^(\d)\. \*\*(\w+)", poch.split("### A deal", 1)[1], re.MULTILINE)
    assert [n for n, _ in steps][:6] == ["1", "2", "3", "4", "5", "6"], steps
    assert dict(steps)["5"] == "Betting" and dict(steps)["6"] == "Shedding", steps


# A `pocha` command in an inline code span, as `pocha`, `scripts/pocha` or `.venv/bin/pocha`:
# its words up to a comment, a pipe, a redirection or the shell's next command.
SPAN_CALL = re.compile(r"(?:^|[\s(])(?:[\w./-]*/)?pocha ([a-z][\w-]*(?: [^#|>;&`]*)?)")
# The same as a line of a code block, after a prompt (`$ `) and variables set for it.
BLOCK_CALL = re.compile(
    r"^\s*(?:\$ )?(?:[A-Z_]+=\S* +)*(?:[\w./-]*/)?pocha ([a-z][\w-]*(?: [^#|>;&]*)?)"
)


def pocha_calls(text: str) -> Iterator[tuple[int, str]]:
    """Each `pocha ...` shown as something to type (in code, not in prose): its line and
    its words after `pocha`."""
    in_block = False
    for number, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith("```"):
            in_block = not in_block
        elif in_block:
            if found := BLOCK_CALL.match(line):
                yield number, found.group(1)
        else:
            for span in re.findall(r"`([^`]+)`", line):
                for found in SPAN_CALL.finditer(span):
                    yield number, found.group(1)


def test_every_pocha_command_the_docs_show_exists_with_its_options() -> None:
    wrong, shown = [], 0
    for document in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for number, call in pocha_calls(document.read_text()):
            shown += 1
            where = f"{document.relative_to(ROOT)}:{number}: pocha {call}"
            command: click.Command | None = pocha
            words = [word for word in call.split() if word != "..."]
            while isinstance(command, click.Group) and words and words[0][0] != "-":
                command = command.commands.get(words.pop(0))
            if command is None:
                wrong.append(f"{where}: no such command")
                continue
            options = {"--help", "-h"} | {
                name for param in command.params for name in (*param.opts, *param.secondary_opts)
            }
            for word in words:
                option = word.split("=")[0]
                if re.fullmatch(r"--?[a-z][\w-]*", option) and option not in options:
                    wrong.append(f"{where}: no option {option}")
    assert shown > 100, shown  # the docs' commands were found
    assert not wrong, "commands the docs show that `pocha` does not have:\n" + "\n".join(wrong)
