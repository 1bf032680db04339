"""What the line-grammar rooms (Full Tilt, Winamax, KingsClub) share: reading a hand's lines
with the room's grammar, checking their order, and naming the first thing wrong.

A room gives its grammar (`grammar/<room>.lark`, the same two layers as PokerStars': `line`
and `hand`, see `razz.parser.lines`), a transformer of its lines into `Record`s, and a
`Builder`: the header record's game, and the records turned into a `HandHeader` and events.
`TextParser.parse` does the rest, as `PokerStarsParser.parse` does for PokerStars: the game is
decided from the header before the body is read (a hand of another game is skipped with that
reason), then a line that does not read or that comes out of order is one `ParseError` at its
line, and an amount that is not one in the hand's unit is one too. It never raises on bad
input.

>>> from razz.parser.sites.fulltilt import SITE
>>> reader = SITE.reader()
>>> skipped = reader.read(RawHand("x.txt", 1, "Full Tilt Poker Game #1: Table T - $1/$2 "
...     "Ante $0.10 - Limit Stud Hi - 1:00:00 ET - 2010/01/01\\n"))
>>> skipped.reason
'Stud Hi is not Razz'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, Protocol

from lark.exceptions import LarkError

from razz.parser import events as ev
from razz.parser.amounts import AmountError
from razz.parser.lines import FileLines, LineGrammar, LineRecords, Record
from razz.parser.sites.base import RawHand, action_tail


class LineProblem(ValueError):
    """A line that reads but cannot be what it says where it is (the builder's finding): a
    PARSE error at `line`, `column` of the hand (1-based)."""

    def __init__(self, message: str, line: int, column: int = 1) -> None:
        super().__init__(message)
        self.line, self.column = line, column


class PlayerActions(LineRecords):
    """The action lines Full Tilt and KingsClub write alike, name first: `NAME brings in for
    A`, `bets A`, `calls A`, `raises to A`, `checks`, `folds`, an amount followed by the
    site's all-in words (`all_in`) when the player is all in."""

    all_in: str  # the site's all-in words, e.g. ", and is all in"

    def _tail(self, token: object, prefix: int) -> tuple[str, bool]:
        return action_tail(token, prefix, self.all_in)

    def bring_in(self, c: list[Any]) -> Record:
        return self.record("bring_in", (str(c[0]), *self._tail(c[1], 15)), c[0])  # " brings in for "

    def bet(self, c: list[Any]) -> Record:
        return self.record("bet", (str(c[0]), *self._tail(c[1], 6)), c[0])  # " bets "

    def call(self, c: list[Any]) -> Record:
        return self.record("call", (str(c[0]), *self._tail(c[1], 7)), c[0])  # " calls "

    def raise_to(self, c: list[Any]) -> Record:
        return self.record("raise_to", (str(c[0]), *self._tail(c[1], 11)), c[0])  # " raises to "

    def check(self, c: list[Any]) -> Record:
        return self.record("check", (str(c[0]),), c[0])

    def fold(self, c: list[Any]) -> Record:
        return self.record("fold", (str(c[0]),), c[0])


class Builder(Protocol):
    """A room's part of reading a hand: its game, and its records as events."""

    def game(self, header: Any) -> tuple[str, str]:
        """(hand id, game as written) of the header record's payload."""
        ...

    def is_razz(self, game: str) -> bool:
        """Whether the game as written is Razz (seven-card stud, ace-to-five low)."""
        ...

    def build(
        self, records: Sequence[Record], texts: Sequence[str], source: str, first_line: int
    ) -> tuple[ev.HandHeader, list[ev.Event]]:
        """The hand's header and events; raises `AmountError` (with `line`, `column` in the
        hand) for an amount that is not one in the hand's unit, `LineProblem` for a line
        that cannot be what it says where it is."""
        ...


class TextParser:
    """Reads one room's hands with its line grammar; one per room and process."""

    def __init__(
        self,
        grammar: str,
        transformer: Callable[..., LineRecords],
        builder: Builder,
        unseated_kinds: frozenset[str] = frozenset(),
    ) -> None:
        self.grammar = LineGrammar(grammar, transformer)
        self.builder = builder
        self._unseated = unseated_kinds
        self._lines = self.lines()

    def lines(self) -> FileLines:
        """A new cache of lines, for one file."""
        return FileLines(self.grammar, "seat_line", self._unseated)

    def parse(
        self, text: str, source: str, first_line: int, lines: FileLines | None = None
    ) -> ev.ParseResult:
        """Read the text of one hand (LF line ends, ending with a newline)."""
        texts = text.splitlines(keepends=True)
        records = (lines or self._lines).records(texts)
        head = records[0] if records else None
        hand_id: str | None = None
        if head is not None and head.kind == "header_line":
            hand_id, game = self.builder.game(head.payload)
            if not self.builder.is_razz(game):
                return ev.SkippedHand(source, first_line, hand_id, game, f"{game} is not Razz")
        bad = next((i for i, r in enumerate(records) if r is None), len(records))
        kinds = [r.kind for r in records[:bad]]  # type: ignore[union-attr]
        order = self.grammar.order
        if bad < len(records) or not order.check(kinds):
            index, message = order.error(kinds)
            if index < len(kinds) or bad == len(records):
                return order_error(texts, index, message, text, source, first_line, hand_id)
            return self._line_error(texts, records, bad, text, source, first_line, hand_id)
        try:
            header, events = self.builder.build(records, texts, source, first_line)  # type: ignore[arg-type]
        except (AmountError, LineProblem) as exc:
            index = (exc.line or 1) - 1
            return ev.ParseError(
                source, first_line + index, exc.column or 1, texts[index].rstrip("\n"),
                str(exc), (), hand_id, first_line, text,
            )  # fmt: skip
        except ValueError as exc:  # read by the grammar, refused by the calendar: month 00
            return ev.ParseError(
                source, first_line, 1, texts[0].rstrip("\n"), str(exc), (), hand_id,
                first_line, text,
            )  # fmt: skip
        return ev.Hand(header, tuple(events), text)

    def _line_error(
        self,
        texts: list[str],
        records: list[Record | None],
        index: int,
        text: str,
        source: str,
        first_line: int,
        hand_id: str | None,
    ) -> ev.ParseError:
        """The first line that does not read, with what the grammar expected there."""
        names = [n for n in (seated(r) for r in records if r is not None) if n]
        try:
            self.grammar.read(texts[index], "line", names)
        except (LarkError, ValueError) as exc:
            error = self.grammar.line_error(exc, texts[index], source, first_line + index, hand_id)
            if error.column == 1:  # no line type begins so: say which lines may come here
                kinds = [r.kind for r in records[:index] if r is not None]
                here = self.grammar.order.expected(kinds)
                if here:
                    error = replace(error, message=f"{error.message}; expected here {here}")
            return replace(error, first_line=first_line, text=text)
        return order_error(  # pragma: no cover - a line that did not read, read
            texts, index, "the line does not read", text, source, first_line, hand_id
        )


def seated(record: Record) -> str | None:
    """The name a seat line gives (every room's seat line record starts with the name)."""
    return record.payload[0] if record.kind == "seat_line" else None


def order_error(
    texts: list[str],
    index: int,
    message: str,
    text: str,
    source: str,
    first_line: int,
    hand_id: str | None,
) -> ev.ParseError:
    """A hand whose lines come out of order: the error at the first line out of place (at
    the end of the last line when the hand ends too early)."""
    if not texts:
        return ev.ParseError(source, first_line, 1, "", message, (), hand_id, first_line, text)
    if index >= len(texts):
        index = len(texts) - 1
        column = len(texts[index].rstrip("\n")) + 1
    else:
        column = 1
    return ev.ParseError(
        source, first_line + index, column, texts[index].rstrip("\n"), message, (), hand_id,
        first_line, text,
    )  # fmt: skip


class Amounts:
    """Amount texts of one hand to integers in its unit, with the line of an amount that is
    not one (`AmountError.line`, `.column` in the hand)."""

    def __init__(self, scale: int, texts: Sequence[str], convert: Callable[[str, int], int]):
        self.scale = scale
        self.texts = texts
        self.convert = convert
        self.index = 0  # the line being built

    def __call__(self, text: str) -> int:
        try:
            return self.convert(text, self.scale)
        except (AmountError, ValueError) as exc:
            error = exc if isinstance(exc, AmountError) else AmountError(str(exc))
            error.line = self.index + 1
            error.column = self.texts[self.index].find(text) + 1
            raise error from None

    def optional(self, text: str | None) -> int | None:
        return None if text is None else self(text)


class Reader:
    """Reads the hands of one file, remembering the lines it read."""

    def __init__(self, parser: TextParser) -> None:
        self.parser = parser
        self.lines = parser.lines()

    def read(self, raw: RawHand) -> ev.ParseResult:
        return self.parser.parse(raw.text, raw.source, raw.first_line, self.lines)
