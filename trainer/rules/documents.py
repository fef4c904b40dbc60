"""The rule documents the product was built from, as a page shows them.

The documents are kept word for word in ``trainer/rules/texts/`` (``<preset>.<language>.txt``:
the Arabic, Georgian, Hindi and Polish originals of ``shared/rules-sources``, and the
English reading of ``shared/RULES.md`` with its decisions taken out). Their layout is plain
text, read here into blocks a template draws: the first line is the title; a short line
alone without a closing stop is a heading; ``1.`` lines an ordered list; ``•`` lines a
list (indented ones nested in the item before); tab-separated lines a table.

Which document a viewer gets: the one in their language, else English (the language every
preset's document exists in but Arabic-only ones'), with a note saying so
(docs/decisions.md).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

TEXTS = Path(__file__).resolve().parent / "texts"
#: Languages written right to left.
RTL = frozenset({"ar"})
#: A closing stop in any of the documents' scripts: such a line is a sentence, not a heading.
_STOPS = tuple(".!?:;।؟")
_HEADING_LENGTH = 60
_ORDERED = re.compile(r"(\d+)\.\s+(.*)")
_BULLET = "•"


@dataclass(frozen=True)
class Item:
    """A list item, with the items nested under it."""

    text: str
    children: tuple[str, ...] = ()


@dataclass(frozen=True)
class Block:
    """One piece of a document: ``heading``, ``paragraph``, ``ordered``, ``bullets`` or
    ``table`` (its first row the header)."""

    kind: str
    text: str = ""
    items: tuple[Item, ...] = ()
    rows: tuple[tuple[str, ...], ...] = ()


@dataclass(frozen=True)
class Document:
    """A rule document in one language."""

    preset: str
    language: str
    title: str
    blocks: tuple[Block, ...]

    @property
    def direction(self) -> str:
        return "rtl" if self.language in RTL else "ltr"


def languages_of(preset: str) -> tuple[str, ...]:
    """The languages ``preset``'s document exists in, English first."""
    found = sorted(path.suffixes[0][1:] for path in TEXTS.glob(f"{preset}.*.txt"))
    return tuple(sorted(found, key=lambda language: language != "en"))


def choose_language(preset: str, asked: str | None, viewer: str) -> str | None:
    """The document's language to show: ``asked`` if it exists, else the viewer's, else
    English; None when the preset has no document."""
    available = languages_of(preset)
    for language in (asked, viewer, "en"):
        if language in available:
            return language
    return None


@cache
def document(preset: str, language: str) -> Document:
    """The document of ``preset`` in ``language``, read into blocks (once per process)."""
    text = (TEXTS / f"{preset}.{language}.txt").read_text(encoding="utf-8")
    title, *rest = [chunk for chunk in re.split(r"\n\s*\n", text.strip()) if chunk.strip()]
    blocks: list[Block] = []
    for chunk in rest:
        blocks.extend(_blocks(chunk.rstrip().splitlines()))
    return Document(preset, language, title.strip(), tuple(blocks))


def _blocks(lines: list[str]) -> list[Block]:
    if all("\t" in line for line in lines):
        rows = tuple(tuple(cell.strip() for cell in line.split("\t")) for line in lines)
        return [Block("table", rows=rows)]
    if len(lines) == 1 and _is_heading(lines[0]):
        return [Block("heading", text=lines[0].strip())]
    blocks: list[Block] = []
    for line in lines:
        kind, text, nested = _line(line)
        last = blocks[-1] if blocks else None
        if nested and last is not None and last.kind in ("bullets", "ordered") and last.items:
            *before, parent = last.items
            grown = Item(parent.text, (*parent.children, text))
            blocks[-1] = Block(last.kind, items=(*before, grown))
        elif kind in ("bullets", "ordered") and last is not None and last.kind == kind:
            blocks[-1] = Block(kind, items=(*last.items, Item(text)))
        elif kind in ("bullets", "ordered"):
            blocks.append(Block(kind, items=(Item(text),)))
        else:
            blocks.append(Block("paragraph", text=text))
    return blocks


def _line(line: str) -> tuple[str, str, bool]:
    """A line's kind, its text without the list mark, and whether it is nested."""
    nested = line.startswith((" ", "\t"))
    stripped = line.strip()
    if stripped.startswith(_BULLET):
        return "bullets", stripped[len(_BULLET) :].strip(), nested
    ordered = _ORDERED.fullmatch(stripped)
    if ordered:
        return "ordered", ordered.group(2), nested
    return "paragraph", stripped, False


def _is_heading(line: str) -> bool:
    text = line.strip()
    return (
        len(text) <= _HEADING_LENGTH
        and not text.endswith(_STOPS)
        and " · " not in text
        and not text.startswith(_BULLET)
        and _ORDERED.fullmatch(text) is None
    )
