"""Files to hands: decode the bytes, split the text into hands, parse each hand.

Files are streamed: one line at a time is decoded and one hand at a time is kept, so memory
does not grow with the size of the file. Bad input never raises: an unreadable hand becomes
a `ParseError` (file, line, column, reason) and the next hand is read as usual.

>>> from razz.parser.reader import split_text
>>> [(h.first_line, h.text.count("\\n")) for h in split_text("a\\nb\\n\\n\\n\\nc")]
[(1, 2), (6, 1)]
"""

from __future__ import annotations

import codecs
import io
import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import BinaryIO

from razz.parser.events import ParseError, ParseResult
from razz.parser.pokerstars import PokerStarsParser, unsupported

MAX_LINE = 64 * 1024  # characters; real lines are under 200
MAX_HAND_LINES = 5000  # real hands have under 200 lines
# A hand starts at a header line even when no blank line comes before it.
_HEADER = re.compile(r"PokerStars (?:Home Game |Zoom )?(?:Hand|Game) #")


@dataclass(frozen=True, slots=True)
class RawHand:
    """The text of one hand, cut from a file, not yet parsed."""

    source: str
    first_line: int
    text: str  # LF line ends, ends with "\n"
    problem: str | None = None  # why the text cannot be a hand (a line or the hand too long)
    problem_line: int = 0


def open_text(stream: BinaryIO) -> io.TextIOWrapper:
    """Decode a byte stream: UTF-8 with or without BOM, UTF-16 with BOM; CRLF / CR to LF."""
    head = stream.read(4)
    encoding = "utf-8"
    skip = 0
    if head.startswith(codecs.BOM_UTF8):
        encoding, skip = "utf-8", 3
    elif head.startswith(codecs.BOM_UTF16_LE) or head.startswith(codecs.BOM_UTF16_BE):
        encoding, skip = "utf-16", 0  # the codec reads the BOM itself
    elif len(head) == 4 and head[1] == 0 and head[3] == 0 and head[0] and head[2]:
        encoding = "utf-16-le"  # UTF-16 without a BOM (some exports)
    rest = head[skip:]
    joined = _Prefixed(rest, stream)
    return io.TextIOWrapper(
        io.BufferedReader(joined), encoding=encoding, errors="replace", newline=None
    )


class _Prefixed(io.RawIOBase):
    """A read-only stream: `prefix`, then the rest of `stream`."""

    def __init__(self, prefix: bytes, stream: BinaryIO) -> None:
        self._prefix = prefix
        self._stream = stream

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        view = memoryview(buffer).cast("B")
        if self._prefix:
            n = min(len(view), len(self._prefix))
            view[:n] = self._prefix[:n]
            self._prefix = self._prefix[n:]
            return n
        data = self._stream.read(len(view))
        if not data:
            return 0
        view[: len(data)] = data
        return len(data)


def _lines(text: io.TextIOBase) -> Iterator[tuple[str, bool]]:
    """(line, too_long) for each line; an over-long line is cut and the rest of it dropped."""
    while True:
        line = text.readline(MAX_LINE)
        if not line:
            return
        if len(line) >= MAX_LINE and not line.endswith("\n"):
            while True:  # drop the rest of the line without keeping it in memory
                more = text.readline(MAX_LINE)
                if not more or more.endswith("\n"):
                    break
            yield line[:200] + "…\n", True
        else:
            yield line, False


def split_lines(lines: Iterable[tuple[str, bool]], source: str) -> Iterator[RawHand]:
    """Group lines into hands: blank lines separate hands, and so does a new header line."""
    block: list[str] = []
    first = 0
    problem: str | None = None
    problem_line = 0
    number = 0

    def flush() -> RawHand:
        text = "".join(block)
        if not text.endswith("\n"):
            text += "\n"
        return RawHand(source, first, text, problem, problem_line)

    for number, (line, too_long) in enumerate(lines, start=1):
        if not line.strip():
            if block:
                yield flush()
                block, problem = [], None
            continue
        if block and _HEADER.match(line):
            yield flush()
            block, problem = [], None
        if not block:
            first = number
        if too_long and problem is None:
            problem, problem_line = f"line longer than {MAX_LINE} characters", number
        if len(block) >= MAX_HAND_LINES:
            if problem is None:
                problem, problem_line = f"hand longer than {MAX_HAND_LINES} lines", number
            continue  # keep memory flat: the hand is reported, its extra lines dropped
        block.append(line)
    if block:
        yield flush()


def split_stream(stream: BinaryIO, source: str) -> Iterator[RawHand]:
    """The hands of a byte stream, unparsed."""
    return split_lines(_lines(open_text(stream)), source)


def split_text(text: str, source: str = "<text>") -> Iterator[RawHand]:
    """The hands of a text, unparsed."""
    return split_lines(_lines(io.StringIO(text, newline=None)), source)


@lru_cache(maxsize=1)
def default_parser() -> PokerStarsParser:
    """One parser per process: building the LALR tables takes a moment."""
    return PokerStarsParser()


def parse_raw(raw: RawHand, parser: PokerStarsParser | None = None) -> ParseResult:
    """Parse one hand cut from a file."""
    if raw.problem is not None:
        skipped = unsupported(raw.source, raw.first_line, raw.text)
        if skipped is not None:  # e.g. a whole XML file, read as one long "hand"
            return skipped
        lines = raw.text.split("\n")
        index = max(0, min(raw.problem_line - raw.first_line, len(lines) - 1))
        return ParseError(
            source=raw.source,
            line=raw.problem_line,
            column=1,
            line_text=lines[index],
            message=raw.problem,
            expected=(),
            hand_id=None,
            first_line=raw.first_line,
            text=raw.text,
        )
    return (parser or default_parser()).parse(raw.text, raw.source, raw.first_line)


def read_stream(stream: BinaryIO, source: str) -> Iterator[ParseResult]:
    """Every hand of a byte stream: `Hand`, `SkippedHand` or `ParseError`, in file order."""
    parser = default_parser()
    for raw in split_stream(stream, source):
        yield parse_raw(raw, parser)


def read_path(path: str | os.PathLike[str]) -> Iterator[ParseResult]:
    """Every hand of a file.

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "empty.txt"
    >>> _ = p.write_bytes(b"")
    >>> list(read_path(p))
    []
    """
    with Path(path).open("rb") as stream:
        yield from read_stream(stream, str(path))


def read_text(text: str, source: str = "<text>") -> Iterator[ParseResult]:
    """Every hand of a text."""
    parser = default_parser()
    for raw in split_text(text, source):
        yield parse_raw(raw, parser)
