"""Merge Network XML (FORMATS.md §4): recognised, not read yet (the rooms issue adds its reader).

A file holds one `<game>` element per hand; the lines of each are one hand, the rest of the
file (`<description>`, session tags) is not. Each hand is skipped with its game, read from
the `<game>` tag: Razz is game type 46, 47 or 49, and in a mixed-game file the game's own type
is its `multigametype`.

>>> SITE.reader().header('<game id="43618199-14" starttime="20111115223628" gametype="47">')
('43618199-14', 'Razz')
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import replace

from razz.parser.sites.base import (
    MAX_HAND_LINES,
    MAX_LINE,
    NO_LOG_LINES,
    RAZZ,
    HeaderOnly,
    RawHand,
    Site,
    first_line,
)

_HEADER = re.compile(r"\s*<(?:\?xml|description|game|session)\b")
_GAME_OPEN = re.compile(r"\s*<game\b")
_GAME_CLOSE = re.compile(r"\s*</game>")
_ID = re.compile(r'\bid="([^"]*)"')
_TYPE = re.compile(r'\b(multigametype|gametype)="(\d+)"')
RAZZ_TYPES = frozenset(("46", "47", "49"))


def game_of(text: str) -> tuple[str | None, str | None]:
    """(hand id, game) of a `<game>` element: "Razz", or "Merge game type N"."""
    tag = first_line(text)
    found = dict(_TYPE.findall(tag))
    kind = found.get("multigametype") or found.get("gametype")
    m = _ID.search(tag)
    if kind is None:
        return (m.group(1) if m else None), None
    return (m.group(1) if m else None), RAZZ if kind in RAZZ_TYPES else f"Merge game type {kind}"


class Merge(Site):
    name = "Merge Network"
    title = "Merge Network"
    suffixes = (".xml", ".txt")
    # XML events, not log lines (§4): nothing beyond the events but the ALL_IN event type.
    dialect = replace(NO_LOG_LINES, all_in_marked=True)

    def recognises(self, line: str) -> bool:
        return _HEADER.match(line) is not None

    def starts_hand(self, line: str) -> bool:
        return _GAME_OPEN.match(line) is not None

    def cut(self, lines: Iterable[tuple[str, bool]], source: str) -> Iterator[RawHand]:
        """Each `<game>` element, from its opening line to its closing one."""
        block: list[str] = []
        first, problem, problem_line = 0, None, 0
        for number, (line, too_long) in enumerate(lines, start=1):
            if _GAME_OPEN.match(line):
                if block:  # a game that never closed
                    yield RawHand(source, first, "".join(block), problem, problem_line)
                block, first, problem = [], number, None
            elif not block:
                continue  # outside any game: the description, session tags
            if too_long and problem is None:
                problem, problem_line = f"line longer than {MAX_LINE} characters", number
            if len(block) < MAX_HAND_LINES:
                block.append(line if line.endswith("\n") else line + "\n")
            elif problem is None:
                problem, problem_line = f"hand longer than {MAX_HAND_LINES} lines", number
            if _GAME_CLOSE.match(line):
                yield RawHand(source, first, "".join(block), problem, problem_line)
                block = []
        if block:
            yield RawHand(source, first, "".join(block), problem, problem_line)

    def reader(self) -> HeaderOnly:
        return HeaderOnly(self, game_of)

    def complete(self, text: str) -> bool:
        """The `<game>` element is closed."""
        return any(_GAME_CLOSE.match(line) for line in text.splitlines()[-3:])


SITE = Merge()
