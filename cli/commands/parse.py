"""`razz parse PATH...`: read hand histories and say what parsed, what was skipped and why.

Per file it prints the hands parsed, the hands skipped with their reasons, and every error as
`file:line: message`. `--json` writes one JSON object per hand per line to standard output
(the per-file report then goes to standard error). Exit code: 0 when every hand parsed
(skipped hands of other games are fine), 1 when some hand had an error, 2 for usage or I/O
errors. Files are read in pieces by worker processes, one per core.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

EXIT_OK, EXIT_FOUND, EXIT_USAGE = 0, 1, 2

T = TypeVar("T")
R = TypeVar("R")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "paths",
        nargs="+",
        metavar="PATH",
        help="hand-history files, folders (searched recursively), globs or .zip archives",
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help="write one JSON object per hand per line (header and events) to standard output",
    )
    parser.add_argument(
        "-j",
        "--jobs",
        type=int,
        default=0,
        help="worker processes (default: one per core; 1 reads in this process)",
    )


@dataclass(slots=True)
class PieceReport:
    """What the hands of one piece of a file came to."""

    parsed: int = 0
    skipped: Counter[str] = field(default_factory=Counter)
    errors: list[str] = field(default_factory=list)
    json_lines: list[str] = field(default_factory=list)


def parse_piece(data: bytes, source: str, line_offset: int, want_json: bool) -> PieceReport:
    """Parse the hands of one piece of a file (runs in a worker process)."""
    from razz.parser.events import Hand, ParseError, SkippedHand
    from razz.parser.reader import read_piece
    from razz.parser.serialize import result_to_dict

    report = PieceReport()
    for result in read_piece(data, source, line_offset):
        if isinstance(result, Hand):
            report.parsed += 1
        elif isinstance(result, SkippedHand):
            report.skipped[result.reason] += 1
        elif isinstance(result, ParseError):
            report.errors.append(str(result))
        if want_json:
            report.json_lines.append(json.dumps(result_to_dict(result), ensure_ascii=False))
    return report


def ordered_map(
    executor: Executor | None,
    fn: Callable[..., R],
    items: Iterable[tuple[Any, ...]],
    window: int,
) -> Iterator[R]:
    """`fn(*item)` for each item, in order, with at most `window` items in flight."""
    if executor is None:
        for item in items:
            yield fn(*item)
        return
    pending: list[Future[R]] = []
    for item in items:
        pending.append(executor.submit(fn, *item))
        if len(pending) >= window:
            yield pending.pop(0).result()
    for future in pending:
        yield future.result()


def run(args: argparse.Namespace) -> int:
    from razz.store.sources import Opener, discover, read_pieces

    discovery = discover(args.paths)
    status = EXIT_OK
    for problem in discovery.problems:
        print(f"razz parse: {problem}", file=sys.stderr)
        status = EXIT_USAGE
    jobs = args.jobs or os.cpu_count() or 1
    report_to = sys.stderr if args.json else sys.stdout
    opener = Opener()
    io_errors: list[str] = []

    def pieces() -> Iterator[tuple[str, bytes, str, int, bool]]:
        for source in discovery.sources:
            try:
                for piece in read_pieces(source, None, opener):
                    yield source.path, piece.data, source.path, piece.line_offset, args.json
            except OSError as exc:
                io_errors.append(f"razz parse: {source.path}: {exc.strerror or exc}")

    executor = ProcessPoolExecutor(jobs) if jobs > 1 else None
    totals = PieceReport()
    per_file: dict[str, PieceReport] = {}
    try:
        for path, report in ordered_map(executor, _work, pieces(), window=2 * jobs):
            for line in report.json_lines:
                print(line)
            total = per_file.setdefault(path, PieceReport())
            _add(total, report)
            _add(totals, report)
    finally:
        if executor is not None:
            executor.shutdown(cancel_futures=True)
        opener.close()
    for path, report in per_file.items():
        print(_summary(path, report), file=report_to)
        for error in report.errors:
            print(f"  {error}", file=report_to)
    if len(per_file) > 1:
        print(_summary(f"total ({len(per_file)} files)", totals), file=report_to)
    for error in io_errors:
        print(error, file=sys.stderr)
    if io_errors:
        status = EXIT_USAGE
    if status == EXIT_OK and totals.errors:
        status = EXIT_FOUND
    return status


def _work(path: str, data: bytes, source: str, offset: int, want: bool) -> tuple[str, PieceReport]:
    return path, parse_piece(data, source, offset, want)


def _add(total: PieceReport, report: PieceReport) -> None:
    total.parsed += report.parsed
    total.skipped.update(report.skipped)
    total.errors.extend(report.errors)


def _summary(label: str, report: PieceReport) -> str:
    skipped = sum(report.skipped.values())
    reasons = ", ".join(f"{reason}: {n}" for reason, n in report.skipped.most_common())
    text = f"{label}: {report.parsed} hands parsed, {skipped} skipped"
    if reasons:
        text += f" ({reasons})"
    return text + f", {len(report.errors)} errors"
