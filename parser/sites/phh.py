"""PHH, the open Poker Hand History standard (TOML; ../docs/phh-std): recognised, not read yet.

A `.phh` file is one hand; a `.phhs` file holds several, one TOML table (`[1]`, `[2]` …)
each. Each hand is skipped with its game: `variant = 'FR'` is fixed-limit Razz.

>>> SITE.reader().header("variant = 'FR'\\nhand = 20\\n")
('20', 'Razz')
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Iterator

from razz.parser.sites.base import (
    MAX_HAND_LINES,
    MAX_LINE,
    NO_LOG_LINES,
    RAZZ,
    HeaderOnly,
    RawHand,
    Site,
)

# What a TOML file can start with: a key, a table, a comment.
_HEADER = re.compile(r"(?:[A-Za-z_][\w-]*\s*=|\[[^\[\]'\",=]+\]\s*$|#)")
_TABLE = re.compile(r"\[[^\[\]'\",=]+\]\s*$")
_VARIANT = re.compile(r"^\s*variant\s*=\s*['\"]([^'\"]*)['\"]", re.M)
_HAND = re.compile(r"^\s*hand\s*=\s*['\"]?([^'\"\s#]+)", re.M)
REQUIRED = frozenset(
    ("variant", "antes", "bring_in", "small_bet", "big_bet", "starting_stacks", "actions")
)
VARIANTS = {"FR": RAZZ, "F7S": "Seven Card Stud", "F7S/8": "Seven Card Stud Hi/Lo"}


def game_of(text: str) -> tuple[str | None, str | None]:
    """(hand number, game) of one PHH hand."""
    variant = _VARIANT.search(text)
    hand = _HAND.search(text)
    game = None
    if variant is not None:
        game = VARIANTS.get(variant.group(1), f"PHH variant {variant.group(1)}")
    return (hand.group(1) if hand else None), game


class Phh(Site):
    name = "PHH"
    title = "PHH"
    suffixes = (".phh", ".phhs")
    dialect = NO_LOG_LINES  # the actions only: no summary, no all-in mark, no descriptions

    def recognises(self, line: str) -> bool:
        return _HEADER.match(line) is not None

    def starts_hand(self, line: str) -> bool:
        return _TABLE.match(line) is not None

    def cut(self, lines: Iterable[tuple[str, bool]], source: str) -> Iterator[RawHand]:
        """The whole file, or one hand per table of a `.phhs` file (empty lines are TOML's)."""
        block: list[str] = []
        first, problem, problem_line = 1, None, 0
        for number, (line, too_long) in enumerate(lines, start=1):
            if _TABLE.match(line) and any(x.strip() for x in block):
                yield RawHand(source, first, "".join(block), problem, problem_line)
                block, problem = [], None
            if not block:
                if not line.strip():
                    continue
                first = number
            if too_long and problem is None:
                problem, problem_line = f"line longer than {MAX_LINE} characters", number
            if len(block) < MAX_HAND_LINES:
                block.append(line if line.endswith("\n") else line + "\n")
            elif problem is None:
                problem, problem_line = f"hand longer than {MAX_HAND_LINES} lines", number
        if any(x.strip() for x in block):
            yield RawHand(source, first, "".join(block), problem, problem_line)

    def reader(self) -> HeaderOnly:
        return HeaderOnly(self, game_of)

    def complete(self, text: str) -> bool:
        """The TOML reads, and the hand has every field the standard requires of a stud game
        (optional fields, such as the finishing stacks, may follow them)."""
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError:
            return False
        tables = [data, *(v for v in data.values() if isinstance(v, dict))]
        return any(t.keys() >= REQUIRED for t in tables)


SITE = Phh()
