"""What an import tells the user while it runs: a bar on a terminal, plain lines otherwise.

Both end with the same summary. Progress goes to stderr, the summary to stdout.

>>> import io
>>> out = io.StringIO()
>>> p = LineProgress(out, every=0)
>>> p.start(files=2, total_bytes=100)
>>> p.advance(nbytes=50, hands=10, rejected=1)
>>> out.getvalue()
'50% · 10 hands read · 1 rejected\\n'
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from typing import Protocol, TextIO


@dataclass(frozen=True, slots=True)
class ImportSummary:
    """What one import did."""

    db: str
    files: int  # sources found
    files_read: int  # sources with new bytes
    hands: int  # new hands stored
    duplicates: int
    skipped: int
    rejected: int
    findings: int
    seconds: float
    problems: tuple[str, ...] = ()
    interrupted: bool = False
    hands_read: int = field(default=0)
    files_failed: int = 0  # sources that could not be read
    rejects: tuple[str, ...] = ()  # `file:line: reason` of each hand rejected (`rejected`)
    rejected_before: int = 0  # rejects read again that an earlier import already recorded
    no_hands: tuple[str, ...] = ()  # files that hold no hands: empty, or not hand histories
    not_histories: int = 0  # of those, files that are not hand histories at all
    # (file, line) of each last hand not finished yet: held back, read at the next import
    held: tuple[tuple[str, int], ...] = ()
    repaired: int = 0  # hands stored short by an earlier import, now stored whole

    @property
    def rate(self) -> float:
        """Hands read per second."""
        return self.hands_read / self.seconds if self.seconds > 0 else 0.0

    def text(self) -> str:
        """The closing summary, one sentence.

        >>> s = ImportSummary("r.duckdb", 3, 2, 1200, 3, 1, 2, 15, 2.0, hands_read=1205)
        >>> print(s.text())  # doctest: +NORMALIZE_WHITESPACE
        Imported 3 files (2 with new hands, 1 unchanged) into r.duckdb in 2.0 s: 1,200 new hands,
        3 duplicates, 1 skipped (other games or rooms not read yet), 2 rejected, 15 findings;
        602 hands/s.
        """
        from razz.text import plural

        empty = len(self.no_hands)
        unchanged = self.files - self.files_read - self.files_failed - empty
        head = "Interrupted: imported" if self.interrupted else "Imported"
        failed = f", {self.files_failed:,} unreadable" if self.files_failed else ""
        failed += f", {empty:,} without hands" if empty else ""
        before = (
            f" ({self.rejected_before:,} more already recorded by an earlier import)"
            if self.rejected_before else ""
        )
        if self.held:
            before += f", {len(self.held):,} held back (not finished yet)"
        if self.repaired:
            before += f", {plural(self.repaired, 'hand')} stored short before now whole"
        return (
            f"{head} {plural(self.files, 'file')} ({self.files_read:,} with new hands, "
            f"{unchanged:,} unchanged{failed}) into {self.db} in {self.seconds:.1f} s: "
            f"{plural(self.hands, 'new hand')}, {plural(self.duplicates, 'duplicate')}, "
            f"{self.skipped:,} skipped (other games or rooms not read yet), {self.rejected:,} rejected{before}, "
            f"{plural(self.findings, 'finding')}; {self.rate:,.0f} hands/s."
        )


def diagnostics(summary: ImportSummary) -> list[str]:
    """The lines that come before the summary: each hand rejected, then each input problem.

    >>> diagnostics(ImportSummary("r.duckdb", 1, 1, 0, 0, 0, 1, 0, 0.1, problems=("x: gone",),
    ...                           rejects=("a.txt:3: the hand ends too early",)))
    ['a.txt:3: the hand ends too early\\n', 'warning: x: gone\\n']
    """
    from razz.text import safe

    held = [
        f"{path}:{line}: the last hand is not finished yet: held back until it is"
        for path, line in summary.held
    ]
    return [f"{safe(line)}\n" for line in (*summary.rejects, *summary.no_hands, *held)] + [
        f"warning: {safe(problem)}\n" for problem in summary.problems
    ]


class Progress(Protocol):
    def start(self, files: int, total_bytes: int) -> None: ...
    def advance(self, nbytes: int, hands: int, rejected: int) -> None: ...
    def file_done(self, path: str, changed: bool) -> None: ...
    def note(self, message: str) -> None: ...
    def finish(self, summary: ImportSummary) -> None: ...


class NoProgress:
    """Says nothing (library use and tests)."""

    def start(self, files: int, total_bytes: int) -> None:
        pass

    def advance(self, nbytes: int, hands: int, rejected: int) -> None:
        pass

    def file_done(self, path: str, changed: bool) -> None:
        pass

    def note(self, message: str) -> None:
        pass

    def finish(self, summary: ImportSummary) -> None:
        pass


class SummaryOnly(NoProgress):
    """Only the closing summary (and problems), on stdout."""

    def __init__(self, out: TextIO | None = None) -> None:
        self.out = out or sys.stdout

    def finish(self, summary: ImportSummary) -> None:
        self.out.writelines(diagnostics(summary))
        self.out.write(summary.text() + "\n")
        self.out.flush()


class _Counter:
    def __init__(self) -> None:
        self.files = self.files_done = 0
        self.total = self.done = 0
        self.hands = self.rejected = 0
        self.started = time.monotonic()

    def start(self, files: int, total_bytes: int) -> None:
        self.files += files
        self.total += total_bytes

    def advance(self, nbytes: int, hands: int, rejected: int) -> None:
        self.done += nbytes
        self.hands += hands
        self.rejected += rejected

    @property
    def share(self) -> float:
        return min(self.done / self.total, 1.0) if self.total else 1.0

    @property
    def rate(self) -> float:
        elapsed = time.monotonic() - self.started
        return self.hands / elapsed if elapsed > 0 else 0.0


class LineProgress(_Counter):
    """Plain lines, for logs and pipes: a line every `every` seconds and one per finished file."""

    def __init__(self, stream: TextIO | None = None, *, every: float = 10.0,
                 out: TextIO | None = None) -> None:
        super().__init__()
        self.stream = stream or sys.stderr
        self.out = out or self.stream
        self.every = every
        self._last = time.monotonic()

    def advance(self, nbytes: int, hands: int, rejected: int) -> None:
        super().advance(nbytes, hands, rejected)
        now = time.monotonic()
        if now - self._last >= self.every:
            self._last = now
            self.stream.write(
                f"{self.share:.0%} · {self.hands:,} hands read · {self.rejected:,} rejected\n"
            )
            self.stream.flush()

    def file_done(self, path: str, changed: bool) -> None:
        self.files_done += 1
        if changed:
            from razz.text import safe

            self.stream.write(f"imported {safe(path)}\n")
            self.stream.flush()

    def note(self, message: str) -> None:
        self.stream.write(f"{message}\n")
        self.stream.flush()

    def finish(self, summary: ImportSummary) -> None:
        self.stream.writelines(diagnostics(summary))
        self.stream.flush()
        self.out.write(summary.text() + "\n")
        self.out.flush()


class BarProgress(_Counter):
    """A one-line bar redrawn in place, for a terminal."""

    WIDTH = 24

    def __init__(self, stream: TextIO | None = None, *, out: TextIO | None = None,
                 interval: float = 0.1) -> None:
        super().__init__()
        self.stream = stream or sys.stderr
        self.out = out or sys.stdout
        self.interval = interval
        self._drawn = 0.0

    def _draw(self, force: bool = False) -> None:
        now = time.monotonic()
        if not force and now - self._drawn < self.interval:
            return
        self._drawn = now
        filled = round(self.share * self.WIDTH)
        bar = "█" * filled + "·" * (self.WIDTH - filled)
        self.stream.write(
            f"\r{bar} {self.share:4.0%}  {self.files_done:,}/{self.files:,} files  "
            f"{self.hands:,} hands  {self.rate:,.0f} hands/s  {self.rejected:,} errors\x1b[K"
        )
        self.stream.flush()

    def start(self, files: int, total_bytes: int) -> None:
        super().start(files, total_bytes)
        self._draw(force=True)

    def advance(self, nbytes: int, hands: int, rejected: int) -> None:
        super().advance(nbytes, hands, rejected)
        self._draw()

    def file_done(self, path: str, changed: bool) -> None:
        self.files_done += 1
        self._draw()

    def note(self, message: str) -> None:
        self.stream.write(f"\r\x1b[K{message}\n")
        self._draw(force=True)

    def finish(self, summary: ImportSummary) -> None:
        self._draw(force=True)  # the bar as it ends stays on screen, above the summary
        self.stream.write("\n")
        self.stream.writelines(diagnostics(summary))
        self.stream.flush()
        self.out.write(summary.text() + "\n")
        self.out.flush()


def for_stream(stream: TextIO | None = None, out: TextIO | None = None) -> Progress:
    """A bar when `stream` is a terminal, plain lines otherwise."""
    stream = stream or sys.stderr
    if stream.isatty():
        return BarProgress(stream, out=out)
    return LineProgress(stream, out=out or sys.stdout)
