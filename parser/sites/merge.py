"""Merge Network XML (FORMATS.md §4): one `<game>` element per hand, read with the standard
library's XML parser (expat, for the line of every element) into neutral events.

A file holds one `<game>` element per hand; the lines of each are one hand, the rest of the
file (`<description>`, session tags) is not. The game is the `<game>` tag's: Razz is game type
46, 47 or 49, and in a mixed-game file the game's own type is its `multigametype`; other games
are skipped with their type. Players are named by seat; a round's `<cards>` follow its
actions in the file, so each street is its deal first, then its actions. `RAISE` gives the
street total, `CALL` and `ALL_IN` the chips put in; a `<winner>` is a pot paid (or, marked
`uncalled`, a bet returned). The stakes are not in the `<game>`: the file's `<description
stakes="Limit $0.50/$1"/>` before it states them (cash tables); a tournament's says only
`stakes="Limit"`, and the reader then takes the small bet from the completion or a
3rd/4th-street bet, the big bet from a later one, else twice the small bet.

>>> game_of('<game id="43618199-14" starttime="20111115223628" gametype="47">')
('43618199-14', 'Razz')
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace

from razz.parser.events import ParseResult, SkippedHand
from razz.parser.sites.base import (
    HAND_TOO_LONG,
    LINE_TOO_LONG,
    MAX_HAND_LINES,
    NO_LOG_LINES,
    RAZZ,
    RawHand,
    Site,
)
from razz.parser.sites.merge_xml import read_game

_HEADER = re.compile(r"\s*<(?:\?xml|description|game|session)\b")
_GAME_OPEN = re.compile(r"\s*<game\b")
_GAME_CLOSE = re.compile(r"\s*</game>")
_DESCRIPTION = re.compile(r"\s*<description\b")
_STAKES = re.compile(r'\bstakes="([^"]*)"')
_ID = re.compile(r'\bid="([^"]*)"')
_TYPE = re.compile(r'\b(multigametype|gametype)="(\d+)"')
RAZZ_TYPES = frozenset(("46", "47", "49"))


def game_of(text: str) -> tuple[str | None, str | None]:
    """(hand id, game) of a `<game>` element: "Razz", or "Merge game type N"."""
    end = text.find("\n")  # the opening tag's line, not a copy of it
    end = len(text) if end < 0 else end
    found = dict(_TYPE.findall(text, 0, end))
    kind = found.get("multigametype") or found.get("gametype")
    m = _ID.search(text, 0, end)
    if kind is None:
        return (m.group(1) if m else None), None
    return (m.group(1) if m else None), RAZZ if kind in RAZZ_TYPES else f"Merge game type {kind}"


def _joined(lines: list[str]) -> str:
    """The lines of a hand as one text, each ended by a line end (the last of a file may
    have none). A line holds one line end at most, at its end, as the reader gives it: as
    many line ends as lines then means each has its own."""
    text = "".join(lines)
    if text.count("\n") == len(lines) and text.endswith("\n"):
        return text
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines)


@dataclass(frozen=True, slots=True)
class MergeGame(RawHand):
    """A `<game>` element's text, with the `stakes` of the file's `<description>` before it
    (`"Limit $0.50/$1"`; None: no description came before it in what was read)."""

    stakes: str | None = None


def description_stakes(line: str) -> str | None:
    """The `stakes` attribute of a `<description>` line.

    >>> description_stakes('<description type="Razz" stakes="Limit $0.50/$1"/>')
    'Limit $0.50/$1'
    """
    m = _STAKES.search(line)
    return m.group(1) if m else None


class _Reader:
    def read(self, raw: RawHand) -> ParseResult:
        hand_id, game = game_of(raw.text)
        if game is None:
            return SkippedHand(raw.source, raw.first_line, hand_id, "Merge Network", "no game type")
        if game != RAZZ:
            return SkippedHand(raw.source, raw.first_line, hand_id, game, f"{game} is not Razz")
        return read_game(raw, raw.stakes if isinstance(raw, MergeGame) else None)


class Merge(Site):
    name = "Merge Network"
    title = "Merge Network"
    ruleset = "merge"
    suffixes = (".xml", ".txt")
    # XML events, not log lines (§4): nothing beyond the events but the ALL_IN event type.
    # A tournament's games state no stakes (`HandHeader.stakes_stated` says which hands).
    dialect = replace(NO_LOG_LINES, all_in_marked=True)

    def recognises(self, line: str) -> bool:
        return _HEADER.match(line) is not None

    def starts_hand(self, line: str) -> bool:
        return _GAME_OPEN.match(line) is not None

    def cut(self, lines: Iterable[tuple[str, bool]], source: str) -> Iterator[RawHand]:
        """Each `<game>` element, from its opening line to its closing one, with the stakes of
        the last `<description>` before it."""
        numbered = enumerate(lines, start=1)
        stakes: str | None = None
        opening: tuple[int, str, bool] | None = None  # a game's first line, read already
        while True:
            if opening is None:
                for number, (line, too_long) in numbered:  # noqa: B007 (kept at the break)
                    if "<game" in line and _GAME_OPEN.match(line):
                        break
                    if _DESCRIPTION.match(line):  # outside any game: description, session tags
                        stakes = description_stakes(line)
                else:
                    return
            else:
                number, line, too_long = opening
                opening = None
            first, block = number, [line]
            append = block.append
            problem, problem_line = (LINE_TOO_LONG, number) if too_long else (None, 0)
            past = first + MAX_HAND_LINES  # the first line beyond the longest hand kept
            for number, (line, too_long) in numbered:
                # Most lines of a file are inside a game, neither opening nor closing one,
                # nor too long: one test of each line tells them (`game` is in both tags).
                if not ("game" in line or too_long or number >= past):
                    append(line)
                    continue
                if "<game" in line and _GAME_OPEN.match(line):
                    opening = number, line, too_long  # a game that never closed: the next
                    break
                if too_long and problem is None:
                    problem, problem_line = LINE_TOO_LONG, number
                if number < past:
                    append(line)
                elif problem is None:
                    problem, problem_line = HAND_TOO_LONG, number
                if "</game>" in line and _GAME_CLOSE.match(line):
                    break
            yield MergeGame(source, first, _joined(block), problem, problem_line, stakes)

    def reader(self) -> _Reader:
        return _Reader()

    def complete(self, text: str) -> bool:
        """The `<game>` element is closed."""
        return any(_GAME_CLOSE.match(line) for line in text.splitlines()[-3:])


SITE = Merge()
