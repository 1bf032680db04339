"""The work done in worker processes: parse, audit and turn a task's hands into Arrow rows.

A `Task` holds the bytes of one or more pieces (whole hands of one file each); the result
holds ready-to-load tables and per-piece counts, so the writer's work per hand is tiny.
The cross-hand checks (`razz.replay.tablecheck`) run here too, piece by piece, in file
order: each piece comes with the few hands before it (its context), read again so that the
checks know the table's stacks and amounts where the piece starts.
Nothing here raises on bad input: an unreadable hand becomes a reject with its text, and so
does a hand that the auditor fails to replay.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pyarrow as pa

from razz.parser.events import Hand, ParseError, ParseResult, SkippedHand
from razz.parser.reader import read_piece
from razz.replay.findings import Finding
from razz.replay.results import HandResult
from razz.replay.ruleset import Ruleset, get_ruleset
from razz.replay.tablecheck import TableCheck, with_findings
from razz.store.ingest import ruleset_for
from razz.store.rows import SCHEMAS, RowBuilder, Tables, hand_key

DEFAULT_RULESET: str | None = None
"""None: each hand is audited against its site's rules (`Site.ruleset`)."""


@dataclass(frozen=True, slots=True)
class PartTask:
    """The bytes of one piece, and what a worker needs to know about them."""

    file_id: int
    source: str
    data: bytes
    line_offset: int  # lines of the file before `data`
    tail_line: int | None = None  # file line where an unfinished last hand starts, if any
    context: bytes = b""  # the hands just before `data` (see `Piece.context`)
    context_line_offset: int = 0


@dataclass(frozen=True, slots=True)
class Task:
    parts: tuple[PartTask, ...]
    parse_only: bool = False  # for the benchmark: parse, count, build nothing


@dataclass(frozen=True, slots=True)
class PartCounts:
    hands: int  # Razz hands read, repeats within the task included
    repeats: int  # hands already read earlier in the same task
    skipped: int
    rejected: int
    findings: int
    tail_failed: bool  # the unfinished last hand did not parse: read it again later


@dataclass(frozen=True, slots=True)
class TaskResult:
    tables: Tables | None  # None when parse_only
    parts: tuple[PartCounts, ...]
    seconds: float  # time spent in the worker
    # Findings of the cross-hand checks on context hands (stored before): `violations` rows.
    late: pa.Table | None = None


# The ruleset the user named, or None, set by `init_worker` (the parser is built on first use).
_ruleset_name = DEFAULT_RULESET


def init_worker(ruleset: str | None = DEFAULT_RULESET) -> None:
    """Prepare a worker process: remember the ruleset, build the parser and load the auditor."""
    global _ruleset_name
    _ruleset_name = ruleset
    if ruleset is not None:
        get_ruleset(ruleset)
    _parsers()
    _auditor()
    # What exists now (modules, the parser's tables) lives as long as the process: keep it
    # out of the collector's full passes, which the many objects of each hand set off.
    gc.freeze()


def _parsers() -> None:
    """Build every site's parser now, before the first piece (they are kept per process)."""
    from razz.parser import sites

    for site in sites.SITES:
        site.reader()


def _auditor() -> Callable[[Hand, Ruleset], HandResult]:
    from razz.replay.audit import audit_hand

    return audit_hand


def parse_piece(data: bytes, source: str, line_offset: int) -> Iterator[ParseResult]:
    """Every hand of a piece, numbered with the lines of its file."""
    return read_piece(data, source, line_offset)


def process_task(task: Task) -> TaskResult:
    """Parse, audit, check across hands and tabulate every hand of a task."""
    started = time.perf_counter()
    builder = RowBuilder()
    seen: set[str] = set()
    counts: list[PartCounts] = []
    late: list[tuple[str, Finding]] = []
    for part in task.parts:
        counts.append(_part(part, task.parse_only, builder, seen, late))
    if task.parse_only:
        return TaskResult(None, tuple(counts), time.perf_counter() - started)
    late_rows = pa.Table.from_pylist(
        [
            {"hand_key": key, "rule": f.rule, "severity": f.severity.value, "line": f.line,
             "expected": f.expected, "actual": f.actual, "message": f.message}
            for key, f in late
        ],
        schema=SCHEMAS["violations"],
    ) if late else None
    return TaskResult(builder.tables(), tuple(counts), time.perf_counter() - started, late_rows)


def _part(
    part: PartTask,
    parse_only: bool,
    builder: RowBuilder,
    seen: set[str],
    late: list[tuple[str, Finding]],
) -> PartCounts:
    audit = _auditor()
    hands = repeats = skipped = rejected = 0
    tail_failed = False
    audited: list[tuple[Hand, HandResult]] = []
    for item in parse_piece(part.data, part.source, part.line_offset):
        if isinstance(item, Hand):
            hands += 1
            if parse_only:
                continue
            key = hand_key(item.header.site, item.header.hand_id)
            if key in seen:
                repeats += 1
                continue
            seen.add(key)
            try:
                audited.append((item, audit(item, ruleset_for(item, _ruleset_name))))
            except Exception as exc:  # a bug in the auditor must not lose the hand
                builder.add_audit_failure(item, exc, part.file_id)
                rejected += 1
        elif isinstance(item, SkippedHand):
            skipped += 1
            if not parse_only:
                builder.add_skipped(item, part.file_id)
        elif isinstance(item, ParseError):
            rejected += 1
            if part.tail_line is not None and item.first_line >= part.tail_line:
                tail_failed = True
            if not parse_only:
                builder.add_parse_error(item, part.file_id)
    findings = 0
    for hand, result in _check_tables(part, audited, late):
        builder.add_hand(hand, result, part.file_id)
        findings += len(result.findings)
    return PartCounts(hands, repeats, skipped, rejected, findings, tail_failed)


def _check_tables(
    part: PartTask, audited: list[tuple[Hand, HandResult]], late: list[tuple[str, Finding]]
) -> list[tuple[Hand, HandResult]]:
    """The piece's hands with the findings of the cross-hand checks added.

    Findings on context hands (stored with an earlier piece) go to `late`.
    """
    if not audited:
        return audited
    check = TableCheck()
    context_keys: dict[tuple[str, str], str] = {}
    for hand, result in _audit_context(part):
        h = hand.header
        context_keys[(h.source, h.hand_id)] = hand_key(h.site, h.hand_id)
        check.feed(hand, result)  # its own findings were stored with it
    extra: dict[tuple[str, str], list[Finding]] = {}
    for hand, result in audited:
        for f in check.feed(hand, result):
            extra.setdefault((f.source, f.hand_id or ""), []).append(f)
    for f in check.finish():
        extra.setdefault((f.source, f.hand_id or ""), []).append(f)
    out = []
    for hand, result in audited:
        found = extra.pop((hand.header.source, hand.header.hand_id), None)
        out.append((hand, with_findings(result, found) if found else result))
    for where, found in extra.items():
        key = context_keys.get(where)
        if key is not None:
            late += [(key, f) for f in found]
    return out


def _audit_context(part: PartTask) -> list[tuple[Hand, HandResult]]:
    if not part.context:
        return []
    audit = _auditor()
    out = []
    for item in parse_piece(part.context, part.source, part.context_line_offset):
        if isinstance(item, Hand):
            try:
                out.append((item, audit(item, ruleset_for(item, _ruleset_name))))
            except Exception:  # a hand the auditor cannot replay tells the checks nothing
                continue
    return out
