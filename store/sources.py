"""Where hands come from: files, folders, globs and zip archives, and which of their bytes are new.

`discover` turns command-line arguments into `Source`s. `read_pieces` reads one source from
where the last import stopped (a file that grew is read again from the start of the last hand
read before, once the bytes before are proven unchanged by their SHA-256: that hand may have
been stored short by an older version) and cuts it into `Piece`s that end between two hands,
so workers can parse them independently and the store can remember exactly how far it got.

A hand is complete when the next hand's header follows it, or when it ends the way its room
ends a hand (`Site.complete`). The last hand of a file that can grow is held back, neither
read nor rejected, until it is complete (`Piece.held` says where it starts); a zip member
cannot grow, and `razz parse` and `razz audit` read every hand as it is.

>>> split_point(b"h1\\n\\n\\nPokerStars Hand #2: ...\\n")
5
"""

from __future__ import annotations

import glob
import hashlib
import io
import os
import re
import stat
import zipfile
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import BinaryIO

from razz.parser import sites
from razz.parser.sites.base import RawHand, first_line

# Folders and archives are searched for the files of every site the registry knows; a file
# named on the command line is read whatever its name.
HAND_SUFFIXES = sites.suffixes()
ZIP_SUFFIX = ".zip"
MEMBER_SEP = "!"
BLOCK = 1 << 20
# A hand starts on a line that begins with one of these, after an empty line. Only used to
# find places where a file may be cut; the site's reader decides what a hand really is.
HEADER_STARTS = tuple(b"\n" + start for start in sites.header_bytes())
UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")
SNIFF_BYTES = 64 * 1024  # how much of a file is looked at to tell a hand history


@dataclass(frozen=True, slots=True)
class Limits:
    """Bounds on what one input may cost, each a named setting (environment variable
    `RAZZ_<NAME>`, upper case) with a default that no real hand history comes near."""

    max_file_bytes: int = 4 << 30
    max_member_bytes: int = 1 << 30  # a zip member, uncompressed
    max_zip_ratio: int = 100  # a zip member's size over its compressed size (text: ~10)

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> Limits:
        """The defaults, with any `RAZZ_MAX_…` variable set in `env` (os.environ).

        >>> Limits.from_env({"RAZZ_MAX_ZIP_RATIO": "500"}).max_zip_ratio
        500
        """
        env = dict(os.environ) if env is None else env
        values = {}
        for name in cls.__dataclass_fields__:
            raw = env.get(f"RAZZ_{name.upper()}")
            if raw is not None and raw.strip().isdigit():
                values[name] = int(raw)
        return cls(**values)

    def check(self, source: Source) -> None:
        """Raise `TooLarge` (one line naming the setting) when `source` is over a bound.

        >>> big = Source("/a.zip!x.txt", "/a.zip", "x.txt", 1 << 30, 0, "a.zip!x.txt", 1 << 20)
        >>> try:
        ...     Limits().check(big)
        ... except TooLarge as exc:
        ...     print(exc)
        a.zip!x.txt: not read: a zip member that unpacks 1,024 times its size is over RAZZ_MAX_ZIP_RATIO (100)
        """
        def over(what: str, name: str, limit: int) -> TooLarge:
            return TooLarge(
                f"{source.name}: not read: {what} is over RAZZ_{name.upper()} ({limit:,})"
            )

        if source.member is not None:
            if source.size > self.max_member_bytes:
                raise over(f"a zip member of {source.size:,} bytes", "max_member_bytes",
                           self.max_member_bytes)
            ratio = source.size // max(source.packed, 1)
            if source.size > (1 << 20) and ratio > self.max_zip_ratio:
                raise over(f"a zip member that unpacks {ratio:,} times its size",
                           "max_zip_ratio", self.max_zip_ratio)
        elif source.size > self.max_file_bytes:
            raise over(f"a file of {source.size:,} bytes", "max_file_bytes", self.max_file_bytes)


class TooLarge(ValueError):
    """An input over one of the `Limits`: refused before it is read, the others go on."""


class NoHands(ValueError):
    """A file that holds no hands to read: empty, or not a hand history at all (one line)."""

    def __init__(self, message: str, *, empty: bool = False) -> None:
        super().__init__(message)
        self.empty = empty  # empty (or padding only): nothing wrong, nothing to read


def sniff(head: bytes, name: str) -> None:
    """Raise `NoHands` when the first bytes of a file show it holds no hand history.

    A hand history's first non-blank line opens a hand of a known site; when it does not,
    the file is still read if any line of its start does (a damaged first hand), and
    otherwise it is told apart as binary data or text of another kind, never quoted.

    >>> try:
    ...     sniff(b"\\x89PNG\\r\\n\\x1a\\n\\x00\\x00\\x00\\rIHDR", "a.png")
    ... except NoHands as exc:
    ...     print(exc)
    a.png: not a hand history (binary data, such as an image)
    """
    from razz.parser.sites.base import PADDING, detect_encoding

    encoding, skip = detect_encoding(head)
    text = head[skip : skip + SNIFF_BYTES].decode(encoding, errors="replace")
    if not text.strip(PADDING):
        raise NoHands(f"{name}: empty, no hands", empty=True)
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if len(head) > SNIFF_BYTES:
        lines.pop()  # cut short here
    first = next(line for line in lines if line.strip(PADDING))
    if sites.recognise(first) is not None:
        return
    sample = text[:4096]
    odd = sum(1 for c in sample if (c < " " and c not in "\t\n\r\x0c") or c == "\ufffd")
    if "\x00" in sample.rstrip(PADDING) or odd > len(sample) // 100:
        raise NoHands(f"{name}: not a hand history (binary data, such as an image)")
    if not any(sites.recognise(line) for line in lines if line.strip(PADDING)):
        raise NoHands(f"{name}: not a hand history (no line opens a hand of a known room)")


@dataclass(frozen=True, slots=True)
class Source:
    """One file of hand histories: a file on disk or a member of a zip archive."""

    path: str  # its identity in the store: absolute path, or "/abs/archive.zip!member"
    file: str  # the file on disk (the archive, for a member)
    member: str | None
    size: int  # bytes now (uncompressed, for a member)
    mtime_ns: int  # of the file on disk (the archive, for a member)
    shown: str = ""  # as the user would write it: from the argument it was found under
    packed: int = 0  # a member's compressed size in its archive (0 for a file on disk)

    @property
    def name(self) -> str:
        """The file as reports name it: the path as found (`path` when not known)."""
        return self.shown or self.path


@dataclass(frozen=True, slots=True)
class Discovery:
    sources: tuple[Source, ...]
    problems: tuple[str, ...]  # arguments that named nothing readable, with why


def discover(args: Sequence[str], exclude: Iterable[str | Path] = ()) -> Discovery:
    """Expand files, folders (recursively), globs and zip archives into sources, each once."""
    excluded = {os.path.realpath(p) for p in exclude}
    found: dict[str, Source] = {}
    problems: list[str] = []
    for arg in args:
        if os.path.lexists(arg):
            paths = [arg]
        elif glob.has_magic(arg):
            paths = sorted(glob.glob(arg, recursive=True))
            if not paths:
                problems.append(f"{arg}: no file matches")
        else:
            problems.append(f"{arg}: no such file or folder")
            paths = []
        for path in paths:
            for source in _expand(path, excluded, explicit=(path == arg), problems=problems):
                found.setdefault(source.path, source)
    return Discovery(tuple(found.values()), tuple(problems))


def _expand(
    path: str, excluded: set[str], *, explicit: bool, problems: list[str]
) -> Iterator[Source]:
    real = os.path.realpath(path)
    if os.path.isdir(real):
        for root, dirs, files in os.walk(path):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            for name in sorted(files):
                lower = name.lower()
                if name.startswith(".") or not lower.endswith((*HAND_SUFFIXES, ZIP_SUFFIX)):
                    continue
                yield from _expand(
                    os.path.join(root, name), excluded, explicit=False, problems=problems
                )
        return
    if real in excluded:
        return
    try:
        info = os.stat(real)
    except OSError as exc:
        problems.append(f"{path}: {exc.strerror}")
        return
    if not stat.S_ISREG(info.st_mode):
        if explicit:
            problems.append(f"{path}: not a regular file")
        return
    if real.lower().endswith(ZIP_SUFFIX) or (explicit and zipfile.is_zipfile(real)):
        yield from _members(real, info, problems, path)
    else:
        yield Source(real, real, None, info.st_size, info.st_mtime_ns, path)


def _members(
    real: str, info: os.stat_result, problems: list[str], shown: str
) -> Iterator[Source]:
    try:
        with zipfile.ZipFile(real) as archive:
            members = [
                m
                for m in archive.infolist()
                if not m.is_dir()
                and m.filename.lower().endswith(HAND_SUFFIXES)
                and not m.filename.startswith("__MACOSX/")
                and not os.path.basename(m.filename).startswith(".")
            ]
    except (zipfile.BadZipFile, OSError) as exc:
        problems.append(f"{real}: not a readable zip archive ({exc})")
        return
    for m in sorted(members, key=lambda m: m.filename):
        path = f"{real}{MEMBER_SEP}{m.filename}"
        shown_member = f"{shown}{MEMBER_SEP}{m.filename}"
        yield Source(path, real, m.filename, m.file_size, info.st_mtime_ns, shown_member,
                     m.compress_size)


class Opener:
    """Opens sources for reading, keeping the last zip archive open for its next member."""

    def __init__(self) -> None:
        self._archive: zipfile.ZipFile | None = None
        self._archive_path: str | None = None

    def open(self, source: Source) -> BinaryIO:
        if source.member is None:
            return open(source.file, "rb")
        if self._archive_path != source.file:
            self.close()
            self._archive = zipfile.ZipFile(source.file)
            self._archive_path = source.file
        assert self._archive is not None
        return self._archive.open(source.member)  # type: ignore[return-value]

    def close(self) -> None:
        if self._archive is not None:
            self._archive.close()
        self._archive, self._archive_path = None, None


# ------------------------------------------------------------------------ reading


@dataclass(frozen=True, slots=True)
class FileState:
    """What the store remembers of a file: how far it was imported and the hash of those bytes."""

    file_id: int
    size: int
    lines: int
    sha256: str


@dataclass(frozen=True, slots=True)
class Piece:
    """A run of whole hands of one source, with where the store stands once it is imported."""

    source: Source
    data: bytes
    start: int  # byte offset of `data` in the file
    line_offset: int  # lines of the file before `data`
    end: int  # = start + len(data)
    end_lines: int
    end_sha256: str  # of the file's bytes [0, end)
    first: bool  # the first piece of this source in this run
    reset: bool  # the source was read before, but its old bytes changed: read again from 0
    utf16: bool
    # The file line where an unfinished last hand starts, held back after `data` (a file that
    # may still be written): it is read once it is complete.
    held: int | None = field(default=None)
    # The whole hands just before `data` in the file (at most `CONTEXT_HANDS`), and the lines
    # of the file before them: the cross-hand checks read them again, store nothing from them.
    context: bytes = b""
    context_line_offset: int = 0


def split_point(buf: bytes, lo: int = 0, hi: int | None = None) -> int | None:
    """Offset of the last line in `buf[lo:hi]` that opens a hand after an empty line, if any."""
    hi = len(buf) if hi is None else hi
    best = None
    for start in HEADER_STARTS:
        end = hi
        while (pos := buf.rfind(start, lo, end)) > 0:
            if _blank_before(buf, pos):
                best = max(best or 0, pos + 1)
                break
            end = pos
    return best


def next_split_point(buf: bytes, lo: int) -> int | None:
    """Offset of the first line at or after `lo` that opens a hand after an empty line, if any.

    >>> next_split_point(b"x\\n\\nPokerStars Hand #1\\n\\nPokerStars Hand #2\\n", 5)
    23
    """
    best = None
    for start in HEADER_STARTS:
        pos = lo
        while (pos := buf.find(start, pos)) > 0:
            if _blank_before(buf, pos):
                best = min(best or pos + 1, pos + 1)
                break
            pos += 1
    return best


def _blank_before(buf: bytes, pos: int) -> bool:
    # `pos` is the newline that ends the line before a header: is that line empty?
    return buf[pos - 1 : pos] == b"\n" or buf[pos - 2 : pos] == b"\n\r"


def last_hand(data: bytes, name: str = "") -> tuple[int, RawHand] | None:
    """Where the last hand of `data` starts (its byte offset) and its text as cut by its
    site; None when `data` holds no hand. `data` starts at a line start of a file (its first
    byte when the file is UTF-16); an unended last line of the hand keeps its text as it is.

    >>> at, raw = last_hand(b"PokerStars Hand #1\\n\\n\\nPokerStars Hand #2\\r\\nSeat 1")
    >>> at, raw.first_line, raw.text
    (21, 4, 'PokerStars Hand #2\\nSeat 1')
    """
    found = _tail(data, name)
    return None if found.raw is None else (_line_start(data, found.raw.first_line), found.raw)


def unfinished_at(data: bytes, name: str = "") -> int | None:
    """The byte offset in `data` from which it may still be being written: where its last hand
    starts when that hand does not end the way its site ends a hand, or where an unended last
    line outside any hand starts; None when `data` ends where a hand ends (or holds padding).

    >>> from razz.replay.audit import EXAMPLE
    >>> whole = EXAMPLE.encode()
    >>> len(whole), unfinished_at(whole), unfinished_at(whole + b"\\n\\n" + whole[:-30])
    (494, None, 496)
    """
    tail = _tail(data, name)
    raw = tail.raw
    if raw is not None:
        site = sites.recognise(first_line(raw.text)) or _file_site(data)
        # A room whose hands hold no empty line writes the empty lines after a hand once the
        # hand is written: a hand followed by one is whole, even if its summary is odd.
        written = tail.blank_after and tail.in_hand and bool(site.header_bytes)
        if not written and not site.complete(raw.text):
            return _line_start(data, raw.first_line)
    if tail.ended or (raw is not None and tail.in_hand):
        return None
    return _line_start(data, tail.last_line)  # a line still being written, outside any hand


@dataclass(frozen=True, slots=True)
class _Tail:
    raw: RawHand | None  # the last hand
    ended: bool  # the text ends with a line end (padding aside)
    last_line: int  # the number of its last line that is not padding
    in_hand: bool  # that line is the last hand's
    blank_after: bool = False  # an empty line follows it


def _tail(data: bytes, name: str) -> _Tail:
    """The last hand of `data`, read line by line (an over-long line costs no more than the
    reader keeps of it), and how the text ends."""
    from razz.parser.reader import file_site, lines_of
    from razz.parser.sites.base import PADDING

    last_line, ended, blank_after = 0, True, False

    def track(lines: Iterable[tuple[str, bool]]) -> Iterator[tuple[str, bool]]:
        nonlocal last_line, ended, blank_after
        for number, (line, too_long) in enumerate(lines, start=1):
            if line.strip(PADDING):
                last_line, ended, blank_after = number, line.endswith("\n"), False
            elif last_line and line.endswith("\n"):
                blank_after = True
            yield line, too_long

    site, lines = file_site(track(lines_of(io.BytesIO(data))))
    raw = None
    for raw in site.cut(lines, name):  # noqa: B007 (the last one is wanted)
        pass
    in_hand = False
    if raw is not None:
        in_hand = raw.first_line + raw.text.count("\n") - 1 >= last_line
        if in_hand and not ended and raw.text.endswith("\n"):
            raw = replace(raw, text=raw.text[:-1])  # the cutter ends every hand with a line end
    return _Tail(raw, ended, max(last_line, 1), in_hand, blank_after)


def _file_site(data: bytes) -> sites.Site:
    from razz.parser.reader import file_site, lines_of

    return file_site(lines_of(io.BytesIO(data[:SNIFF_BYTES])))[0]


_LINE_END = re.compile(rb"\r\n|\r|\n")


def _line_start(data: bytes, line: int) -> int:
    """The byte offset of the start of `line` (1-based) in `data`, counting line ends as the
    reader does (CR LF, LF, a lone CR); in UTF-16 (a BOM, or zero bytes that tell it) too.

    >>> _line_start(b"a\\r\\nb\\rc\\nd", 4), _line_start("a\\nb".encode("utf-16"), 2)
    (7, 6)
    """
    if line <= 1:
        return 0
    from razz.parser.sites.base import detect_encoding

    codec, skip = detect_encoding(data[:64])
    if not codec.startswith("utf-16"):
        for n, found in enumerate(_LINE_END.finditer(data), start=2):
            if n == line:
                return found.end()
        return len(data)
    if codec == "utf-16":  # with a BOM: its order, and its two bytes
        codec = "utf-16-le" if data.startswith(b"\xff\xfe") else "utf-16-be"
        skip = 2
    text = data[skip:].decode(codec, errors="replace")
    at = 0
    for n, end in enumerate(re.finditer(r"\r\n|\r|\n", text), start=2):
        if n == line:
            at = end.end()
            break
    else:
        return len(data)
    return skip + len(text[:at].encode(codec, errors="replace"))


def read_pieces(
    source: Source,
    state: FileState | None,
    opener: Opener,
    *,
    final: bool = True,
    piece_bytes: int = 512 * 1024,
    hold_back: bool = False,
) -> Iterator[Piece]:
    """Yield the new hands of a source in pieces of about `piece_bytes`, each ending between hands.

    Nothing is yielded when the source is unchanged since `state`. With `hold_back` (a file
    that may still be written: `can_grow`), a last hand that is not complete is left out
    (`Piece.held`); `final` false (a file written a moment ago) only spares a file whose first
    bytes do not show a hand history yet from being called not one.
    """
    if state is not None and state.size == source.size == 0:
        return
    Limits.from_env().check(source)
    if source.size == 0:
        if final:
            raise NoHands(f"{source.name}: empty, no hands", empty=True)
        return
    with opener.open(source) as stream:
        head = stream.read(min(BLOCK, source.size))
        utf16 = _utf16(head)
        if state is None:
            # A file being written may not show what it is yet: its first line unended.
            if (final or len(head) >= SNIFF_BYTES) and not (hold_back and _one_line(head)):
                sniff(head, source.name)
            cutter = _Cutter(source, hashlib.sha256(), 0, 0, reset=False, utf16=utf16,
                             context=b"")
            yield from _cut(stream, head, cutter, hold_back=hold_back, piece_bytes=piece_bytes)
            return
        # A UTF-16 file is read whole, so only an unchanged one is left alone.
        known = state.size if not utf16 else source.size if state.size == source.size else 0
        if 0 < known <= source.size:
            base, at, window, carry = _hash_prefix(stream, head, known)
            whole = base.copy()
            whole.update(window)
            if whole.hexdigest() == state.sha256:
                if known == source.size:
                    return
                if hold_back and source.size - known <= BLOCK:
                    carry += stream.read(source.size - known - len(carry))
                    if _only_unfinished(carry, source.name):  # held back before, still is
                        cutter = _Cutter(source, whole, known, state.lines, reset=False,
                                         utf16=utf16, context=b"")
                        yield cutter.piece(b"", held=True)
                        return
                # Read again from the start of the last hand read before: if it was stored
                # short (cut off while it was written, by a version that did not hold such a
                # hand back), the store replaces it with what the file holds now.
                back = _last_hand_start(window, source.name)
                base.update(window[:back])
                context = last_hands(window[:back], starts_whole=at == 0)
                lines = state.lines - _count_lines(window[back:], utf16)
                cutter = _Cutter(source, base, at + back, lines, reset=False, utf16=utf16,
                                 context=context)
                yield from _cut(stream, window[back:] + carry, cutter, hold_back=hold_back,
                                piece_bytes=piece_bytes)
                return
    # The bytes read last time changed (or the file shrank): read it all again.
    with opener.open(source) as stream:
        head = stream.read(min(BLOCK, source.size))
        sniff(head, source.name)
        cutter = _Cutter(source, hashlib.sha256(), 0, 0, reset=True, utf16=utf16, context=b"")
        yield from _cut(stream, head, cutter, hold_back=hold_back, piece_bytes=piece_bytes)


def _last_hand_start(data: bytes, name: str) -> int:
    """Where the last hand of `data` starts (`len(data)` when none starts in it)."""
    at = split_point(data)  # quick, for the sites that name how their hands begin
    if at is None:
        found = last_hand(data, name)
        at = len(data) if found is None else found[0]
    return at


def _one_line(head: bytes) -> bool:
    """Whether the first bytes of a file hold no whole line yet (padding aside)."""
    text = head.strip(b"\r\n\x00 \t")
    return b"\n" not in text and b"\r" not in text


def _only_unfinished(data: bytes, name: str) -> bool:
    """Whether `data` is one hand, from its header on (at a site that names how its hands
    begin), that does not end yet."""
    if not data.startswith(tuple(h[1:] for h in HEADER_STARTS)):
        return False
    found = last_hand(data, name)
    if found is None or found[0] != 0:
        return False
    raw = found[1]
    site = sites.recognise(first_line(raw.text))
    return site is not None and not site.complete(raw.text)


def can_grow(source: Source) -> bool:
    """Whether a source may still be written: a file on disk may, a zip member may not."""
    return source.member is None


def _utf16(head: bytes) -> bool:
    from razz.parser.sites.base import detect_encoding

    return detect_encoding(head)[0].startswith("utf-16")


def _hash_prefix(
    stream: BinaryIO, head: bytes, size: int
) -> tuple[hashlib._Hash, int, bytes, bytes]:
    """The first `size` bytes of a stream (`head` already read) as: the hash of all but their
    last `BLOCK` to `2 * BLOCK` bytes, where those last bytes start, those bytes (where the
    last hands read are), and the bytes read past `size`."""
    base = hashlib.sha256()
    window, carry, at = head[:size], head[size:], 0
    have = len(window)
    while have < size:
        block = stream.read(min(BLOCK, size - have))
        if not block:
            break
        have += len(block)
        window += block
        if len(window) > 2 * BLOCK:
            drop = len(window) - BLOCK
            base.update(window[:drop])
            window, at = window[drop:], at + drop
    return base, at, window, carry


CONTEXT_HANDS = 3
"""Hands read again before a piece, so the cross-hand checks know how its table stood."""


class _Cutter:
    """Cuts one source into pieces, keeping the running hash, line count and context."""

    def __init__(self, source: Source, hasher: hashlib._Hash, start: int, lines: int, *,
                 reset: bool, utf16: bool, context: bytes) -> None:
        self.source, self.hasher, self.start, self.lines = source, hasher, start, lines
        self.reset, self.utf16, self.first = reset, utf16, True
        self.context = context

    def piece(self, data: bytes, *, held: bool = False) -> Piece:
        self.hasher.update(data)
        newlines = _count_lines(data, self.utf16)
        context = self.context
        self.context = b"" if self.utf16 else last_hands(data, starts_whole=True)
        piece = Piece(
            source=self.source, data=data, start=self.start, line_offset=self.lines,
            end=self.start + len(data), end_lines=self.lines + newlines,
            end_sha256=self.hasher.hexdigest(), first=self.first, reset=self.reset,
            utf16=self.utf16, held=self.lines + newlines + 1 if held else None,
            context=context, context_line_offset=self.lines - _count_lines(context, self.utf16),
        )
        self.start, self.lines, self.first = piece.end, piece.end_lines, False
        return piece


def last_hands(data: bytes, count: int = CONTEXT_HANDS, *, starts_whole: bool = False) -> bytes:
    """The last `count` whole hands of `data` (all of it if it has fewer and `starts_whole`).

    >>> last_hands(b"x\\n\\nPokerStars Hand #1\\n\\nPokerStars Hand #2\\n", 1)
    b'PokerStars Hand #2\\n'
    """
    at = len(data)
    for _ in range(count):
        found = split_point(data, hi=max(at - 1, 0))
        if found is None:
            return data if starts_whole else data[at:]
        at = found
    return data[at:]


def _cut(
    stream: BinaryIO, carry: bytes, cutter: _Cutter, *, hold_back: bool, piece_bytes: int
) -> Iterator[Piece]:
    # Read at most the size seen at discovery, so the hash covers exactly what was read.
    budget = cutter.source.size - cutter.start - len(carry)
    buf, scanned, utf16 = carry, 0, cutter.utf16
    eof = budget <= 0
    while True:
        while not eof and (utf16 or len(buf) < piece_bytes):
            block = stream.read(min(BLOCK, budget))
            budget -= len(block)
            eof = not block or budget <= 0
            buf += block
        if utf16 or len(buf) < piece_bytes:  # the end of the file: see below
            break
        # The last hand to start within `piece_bytes`, else the first one after (a huge hand).
        cut = split_point(buf, hi=piece_bytes) or next_split_point(
            buf, max(scanned, piece_bytes) - 64
        )
        if cut is None:
            if eof:
                break
            scanned = len(buf)
            block = stream.read(min(BLOCK, budget))
            budget -= len(block)
            eof = not block or budget <= 0
            buf += block
            continue
        piece, buf, scanned = buf[:cut], buf[cut:], 0
        yield cutter.piece(piece)
    if not buf:
        return
    if hold_back:
        lo = 0 if utf16 else (split_point(buf) or 0)
        at = unfinished_at(buf[lo:], cutter.source.name)
        if at is not None:  # the last hand may still be being written: not yet
            yield cutter.piece(buf[: lo + at], held=True)
            return
    yield cutter.piece(buf)


def _count_lines(data: bytes, utf16: bool) -> int:
    """Lines as the parser counts them: it reads CR LF, LF and a lone CR as one line end."""
    if utf16:
        from razz.parser.reader import open_text

        return open_text(io.BytesIO(data)).read().count("\n")
    return data.count(b"\n") + data.count(b"\r") - data.count(b"\r\n")
