"""Files to hands: decode the bytes, ask the registry whose they are, cut them, read each hand.

Files are streamed: one line at a time is decoded and one hand at a time is kept, so memory
does not grow with the size of the file. The first non-blank line says which site wrote the
file (`razz.parser.sites`); that site cuts it into hands, and each hand is read by the site
its own first line names (the file's site when none does). Bad input never raises: an
unreadable hand becomes a `ParseError` (file, line, column, reason) and the next hand is read
as usual.

>>> from razz.parser.reader import split_text
>>> [(h.first_line, h.text.count("\\n")) for h in split_text("a\\nb\\n\\n\\n\\nc")]
[(1, 2), (6, 1)]
"""

from __future__ import annotations

import gc
import io
import itertools
import os
from collections.abc import Iterable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import BinaryIO

from razz.parser.events import ParseError, ParseResult
from razz.parser.sites import FALLBACK, HandReader, RawHand, Site, recognise
from razz.parser.sites.base import MAX_HAND_LINES, MAX_LINE, detect_encoding, first_line

__all__ = [
    "MAX_HAND_LINES",
    "MAX_LINE",
    "RawHand",
    "Readers",
    "file_site",
    "lines_of",
    "open_text",
    "read_path",
    "read_piece",
    "read_stream",
    "read_text",
    "split_stream",
    "split_text",
]

Lines = Iterator[tuple[str, bool]]


def open_text(stream: BinaryIO) -> io.TextIOWrapper:
    """Decode a byte stream: UTF-8 or UTF-16 (LE or BE), with or without BOM; CRLF / CR to
    LF (`razz.parser.sites.base.detect_encoding`)."""
    head = stream.read(64)
    encoding, skip = detect_encoding(head)
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


CHUNK = 16 * 1024
"""Characters decoded at a time: lines are cut from each chunk in one call, not read one by one."""


def _lines(text: io.TextIOBase) -> Lines:
    """(line, too_long) for each line; an over-long line is cut and the rest of it dropped.

    The text is read a chunk at a time (memory stays flat whatever the file's size) and each
    chunk split at its line ends; the part after its last line end waits for the next one.
    A line of `MAX_LINE` characters or more before its end is too long: its first 200 are
    kept, the rest is dropped as it is read.
    """
    rest = ""  # the start of a line whose end is in a later chunk
    dropping = False  # inside an over-long line, already reported
    while True:
        chunk = text.read(CHUNK)
        if not chunk:
            break
        if dropping:
            end = chunk.find("\n")
            if end < 0:
                continue
            chunk, dropping = chunk[end + 1 :], False
        lines = (rest + chunk).split("\n") if rest else chunk.split("\n")
        rest = lines.pop()
        for line in lines:
            if len(line) >= MAX_LINE:
                yield line[:200] + "…\n", True
            else:
                yield line + "\n", False
        if len(rest) >= MAX_LINE:
            yield rest[:200] + "…\n", True
            rest, dropping = "", True
    if rest:
        yield rest, False


def file_site(lines: Iterable[tuple[str, bool]]) -> tuple[Site, Lines]:
    """The site that wrote a file (from its first non-blank line), and all of its lines."""
    it = iter(lines)
    head: list[tuple[str, bool]] = []
    site = FALLBACK
    for item in it:
        head.append(item)
        if item[0].strip():
            site = recognise(item[0]) or FALLBACK
            break
    return site, itertools.chain(head, it)


def split_lines(lines: Iterable[tuple[str, bool]], source: str) -> Iterator[RawHand]:
    """The hands of a file's lines, cut the way the file's site separates hands."""
    site, lines = file_site(lines)
    return site.cut(lines, source)


def lines_of(stream: BinaryIO) -> Lines:
    """The lines of a byte stream, decoded (`(line, too_long)`, LF ends)."""
    return _lines(open_text(stream))


def split_stream(stream: BinaryIO, source: str) -> Iterator[RawHand]:
    """The hands of a byte stream, unread."""
    return split_lines(lines_of(stream), source)


def split_text(text: str, source: str = "<text>") -> Iterator[RawHand]:
    """The hands of a text, unread."""
    return split_lines(_lines(io.StringIO(text, newline=None)), source)


YOUNG_OBJECTS = 200_000
"""Objects the youngest generation of the garbage collector holds before it is collected,
while hands are read (Python's default is 700)."""


def fewer_collections() -> None:
    """Collect garbage less often while hands are read: every hand makes a few hundred
    objects that live on in the caches of lines read, and at Python's default threshold
    the collector went over them again and again (a fifth of the CPU time of reading 5,000
    simulated hands, 1,358 collections; still a tenth at 50,000: 5 collections, each over
    the ~50,000 objects of the caches, that found nothing to free). Reading and auditing
    hands makes no garbage in cycles (none found after 5,000 hands with the collector
    off): what the young generation holds is the open file's caches, freed with the file,
    so at `YOUNG_OBJECTS` a file's caches are seldom gone over at all (no collection in
    20,000 simulated hands). Nothing is lost: any garbage is collected, in fewer, larger
    collections. A threshold set higher than this is kept.

    >>> fewer_collections(); gc.get_threshold()[0] >= YOUNG_OBJECTS
    True
    """
    young, middle, old = gc.get_threshold()
    if young < YOUNG_OBJECTS:
        gc.set_threshold(YOUNG_OBJECTS, middle, old)


class Readers:
    """The hand readers of one file: each hand is read by the site its first line names, else
    by the file's site (whose grammar then says what is wrong)."""

    def __init__(self, site: Site = FALLBACK) -> None:
        fewer_collections()
        self.site = site
        self._readers: dict[Site, HandReader] = {}

    def read(self, raw: RawHand) -> ParseResult:
        """Read one hand cut from the file."""
        if raw.problem is not None:
            return _problem(raw)
        line = first_line(raw.text)
        site = self.site if self.site.recognises(line) else recognise(line) or self.site
        reader = self._readers.get(site)
        if reader is None:
            reader = self._readers[site] = site.reader()
        result = reader.read(raw)
        if isinstance(result, ParseError) and "\x00" in raw.text:
            # A damaged file: say so, rather than what the grammar made of the NULs.
            at = raw.text[: raw.text.index("\x00")].count("\n")
            return _problem(replace(
                raw, problem="the line holds NUL bytes: the file is damaged here",
                problem_line=raw.first_line + at,
            ))
        return result


def _problem(raw: RawHand) -> ParseError:
    lines = raw.text.split("\n")
    index = max(0, min(raw.problem_line - raw.first_line, len(lines) - 1))
    return ParseError(
        source=raw.source,
        line=raw.problem_line,
        column=1,
        line_text=lines[index],
        message=raw.problem or "",
        expected=(),
        hand_id=None,
        first_line=raw.first_line,
        text=raw.text,
    )


def read_lines(lines: Iterable[tuple[str, bool]], source: str) -> Iterator[ParseResult]:
    """Every hand of a file's lines: `Hand`, `SkippedHand` or `ParseError`, in file order."""
    site, rest = file_site(lines)
    readers = Readers(site)
    for raw in site.cut(rest, source):
        yield readers.read(raw)


def read_piece(data: bytes, source: str, line_offset: int = 0) -> Iterator[ParseResult]:
    """Every hand of a piece of a file (bytes that start where a hand starts), numbered with
    the lines of its file: `line_offset` lines come before the piece."""
    site, lines = file_site(lines_of(io.BytesIO(data)))
    readers = Readers(site)
    for raw in site.cut(lines, source):
        if line_offset:
            raw = replace(
                raw,
                first_line=raw.first_line + line_offset,
                problem_line=raw.problem_line + line_offset if raw.problem else 0,
            )
        yield readers.read(raw)


def read_stream(stream: BinaryIO, source: str) -> Iterator[ParseResult]:
    """Every hand of a byte stream: `Hand`, `SkippedHand` or `ParseError`, in file order."""
    return read_lines(lines_of(stream), source)


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
    return read_lines(_lines(io.StringIO(text, newline=None)), source)
