"""The repository's pointers to its documents lead somewhere: every Markdown file that code,
tests, the page's modules and the docs name is a file the repository ships, so a reader
who follows a comment's "(docs/poch.md, A deal 5)" finds the rule it cites."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

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
