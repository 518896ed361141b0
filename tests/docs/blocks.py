"""The fenced code blocks of the README and the docs, and the registry of the tests that run
them.

A block is *runnable* when it is ``sh``, ``python``, ``scheme`` or ``hy``, or a plain block
that begins with a ``$ `` command (a transcript). Every runnable block is either run by a test
that claims it with :func:`runs`, or marked in the Markdown, on the line just before its
fence, with ``<!-- not run: REASON -->`` saying why it cannot run here (a network, a host
that cannot be driven on this machine). ``test_every_runnable_block_is_run_or_marked`` holds
the pages to that.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RUNNABLE = ("sh", "python", "scheme", "hy")
NOT_RUN = re.compile(r"^<!-- not run: (.*?) -->$")


@dataclass(frozen=True)
class Block:
    """One fenced block: its page (from the repository root), the line of its first line of
    code, its language ("" for a plain fence), its text and the reason it is marked not run
    (None when unmarked)."""

    page: str
    line: int
    language: str
    text: str
    not_run: str | None

    @property
    def where(self) -> str:
        return f"{self.page}:{self.line}"

    @property
    def runnable(self) -> bool:
        return self.language in RUNNABLE or (self.language == "" and self.text.startswith("$ "))


def page_blocks(page: str, text: str) -> list[Block]:
    """The fenced blocks of ``text``, the page called ``page``."""
    found, lines, i = [], text.splitlines(), 0
    while i < len(lines):
        if lines[i].startswith("```"):
            language, start = lines[i][3:].strip(), i + 1
            mark = NOT_RUN.match(lines[i - 1].strip()) if i else None
            i += 1
            while not lines[i].startswith("```"):
                i += 1
            found.append(Block(page, start + 1, language, "\n".join(lines[start:i]) + "\n",
                               mark.group(1) if mark else None))
        i += 1
    return found


def pages() -> dict[str, str]:
    """Every page a user reads: the README and ``docs/**/*.md``, by path from the root."""
    paths = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    return {p.relative_to(ROOT).as_posix(): p.read_text(encoding="utf-8") for p in paths}


def all_blocks() -> list[Block]:
    return [block for name, text in pages().items() for block in page_blocks(name, text)]


def find(page: str, needle: str) -> Block:
    """The one block of ``page`` whose text contains ``needle``."""
    matches = [b for b in all_blocks() if b.page == page and needle in b.text]
    assert len(matches) == 1, f"{page}: {len(matches)} blocks contain {needle!r}"
    return matches[0]


#: (page, needle) of every block a test runs, and the test: filled by @runs at import
CLAIMS: dict[tuple[str, str], str] = {}


def runs(*claims: tuple[str, str]) -> Callable:
    """Mark a test as the one that runs the blocks ``claims`` ((page, needle) each, see
    :func:`find`); it receives them, in that order, as its ``blocks`` argument."""
    def mark(test: Callable) -> Callable:
        for claim in claims:
            CLAIMS[claim] = f"{test.__module__}.{test.__name__}"
        found = [find(page, needle) for page, needle in claims]
        ident = ",".join(b.where for b in found)
        return pytest.mark.parametrize("blocks", [found], ids=[ident])(test)
    return mark


def claimed(block: Block) -> list[str]:
    """The tests that claim ``block``."""
    return [test for (page, needle), test in CLAIMS.items()
            if page == block.page and needle in block.text]


def claims(*claims: tuple[str, str]) -> Callable:
    """Record that a test runs the blocks ``claims`` (as :func:`runs`), for a test that
    finds them itself."""
    def mark(test: Callable) -> Callable:
        for claim in claims:
            find(*claim)
            CLAIMS[claim] = f"{test.__module__}.{test.__name__}"
        return test
    return mark
