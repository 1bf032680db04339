"""The work done in worker processes for `razz import`: a task's hands as Arrow rows.

A `Task` holds the bytes of one or more pieces (whole hands of one file each). Each piece goes
through the pipeline every command shares (`razz.store.ingest.check_part`: read, audit, check
across hands); what it came to becomes ready-to-load tables and per-piece counts, so the
writer's work per hand is tiny. Nothing here raises on bad input: an unreadable hand becomes
a reject with its text, and so does a hand that the auditor fails to replay.
"""

from __future__ import annotations

import importlib.abc
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from types import ModuleType

import pyarrow as pa

from razz.parser.events import Hand, ParseError, ParseResult, SkippedHand
from razz.parser.reader import read_piece
from razz.replay.findings import Finding
from razz.store.ingest import Part, check_part, init_worker
from razz.store.rows import SCHEMAS, RowBuilder, Tables

__all__ = [
    "DEFAULT_RULESET",
    "PartCounts",
    "PartTask",
    "RejectNote",
    "Task",
    "TaskResult",
    "arrow_system_pool",
    "arrow_without_pandas",
    "init_worker",
    "parse_piece",
    "process_task",
    "worker_setup",
]

DEFAULT_RULESET: str | None = None
"""None: each hand is audited against its site's rules (`Site.ruleset`)."""

PartTask = Part
"""A piece of a file to import (`razz.store.ingest.Part`)."""


@dataclass(frozen=True, slots=True)
class Task:
    parts: tuple[Part, ...]
    parse_only: bool = False  # for the benchmark: parse, count, build nothing


@dataclass(frozen=True, slots=True)
class PartCounts:
    hands: int  # Razz hands read, repeats within the task included
    repeats: int  # hands already read earlier in the same task
    skipped: int
    rejected: int
    findings: int
    rejects: tuple[RejectNote, ...] = ()  # every hand rejected, for the user


@dataclass(frozen=True, slots=True)
class RejectNote:
    """A rejected hand as the user is told of it, and as the store's `rejects` row keys it."""

    first_line: int
    line: int
    error: str  # `rejects.error`
    text: str  # `file:line: reason`, the way `razz audit` and `razz parse` say it


@dataclass(frozen=True, slots=True)
class TaskResult:
    tables: Tables | None  # None when parse_only
    parts: tuple[PartCounts, ...]
    seconds: float  # time spent in the worker
    # Findings of the cross-hand checks on context hands (stored before): `violations` rows.
    late: pa.Table | None = None


def parse_piece(data: bytes, source: str, line_offset: int) -> Iterator[ParseResult]:
    """Every hand of a piece, numbered with the lines of its file."""
    return read_piece(data, source, line_offset)


def arrow_without_pandas() -> None:
    """Have pyarrow in this process take pandas for not installed: it then never imports it.

    pyarrow imports pandas the first time it turns Python objects into an array (`pa.array`
    of a list, as `RowBuilder.tables` does), only to ask whether they are pandas objects; it
    asks once per process and remembers the answer. The workers never hand it pandas objects,
    and pandas costs each of them (and the fork server that preloaded it) about 50 MB of RSS
    (the server's peak PSS in `benchmarks/import.py`, 20,000 hands: 83 MiB with it, 39
    without): asked here while pandas cannot be imported, pyarrow remembers that it is not
    there. Nothing changes where pandas is loaded already; an explicit conversion
    (`to_pandas`) still imports it. For worker processes only: pyarrow would treat pandas
    objects as plain sequences.
    """
    if "pandas" in sys.modules:
        return
    blocker = _NoPandas()
    sys.meta_path.insert(0, blocker)
    try:
        pa.lib._pandas_api.have_pandas  # noqa: B018 (the question pyarrow remembers)
    except AttributeError:  # another pyarrow: it may load pandas, which costs only memory
        pass
    finally:
        sys.meta_path.remove(blocker)


def arrow_system_pool() -> None:
    """Have pyarrow in this process allocate with the C library's malloc, not its bundled
    mimalloc, which keeps the memory of freed buffers for reuse instead of handing it back.

    A worker builds a few MB of Arrow rows per task and frees them once they are sent.
    Measured with `benchmarks/import.py`'s sampler, 20,000 hands, 2 workers: a worker's peak
    PSS 148-150 MiB (two runs) -> 137-138 (two runs); a worker's CPU per hand the same within
    the machine's noise (1.36-1.48 ms against 1.27-1.49, in process, 4,483 hands). The
    importer uses it too: at 20,000 hands it showed no gain there (its peak 199-201 MiB either
    way), but over 100,000 hands the kernel fills mimalloc's huge pages in, and with malloc
    the importer's peak PSS is 307 -> 266 MiB (`Importer`).
    """
    pa.set_memory_pool(pa.system_memory_pool())


def worker_setup() -> None:
    """What an import's worker does once it is ready (`ingest.worker_pool`'s `setup`)."""
    arrow_without_pandas()
    arrow_system_pool()


class _NoPandas(importlib.abc.MetaPathFinder):
    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> None:
        if fullname == "pandas":
            raise ModuleNotFoundError("pandas is not used by this process", name=fullname)
        return None


def process_task(task: Task) -> TaskResult:
    """Read, audit, check across hands and tabulate every hand of a task."""
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
             "expected": f.expected, "actual": f.actual, "message": f.message,
             # a cross-hand finding is a violation; a finding of the hand stored before that
             # follows from its ante the table settled says so (the writer marks its row)
             "consequence_of_rule": None if f.consequence_of is None else f.consequence_of.rule,
             "consequence_of_line": None if f.consequence_of is None else f.consequence_of.line}
            for key, f in late
        ],
        schema=SCHEMAS["violations"],
    ) if late else None
    return TaskResult(builder.tables(), tuple(counts), time.perf_counter() - started, late_rows)


def _part(
    part: Part,
    parse_only: bool,
    builder: RowBuilder,
    seen: set[str],
    late: list[tuple[str, Finding]],
) -> PartCounts:
    checked = check_part(part, audit=not parse_only, seen=seen)
    hands = repeats = skipped = rejected = findings = 0
    notes: list[RejectNote] = []
    for k, item in enumerate(checked.results):
        if isinstance(item, Hand):
            hands += 1
            if parse_only:
                continue
            if k in checked.repeats:
                repeats += 1
                continue
            outcome = checked.audits[k]
            if isinstance(outcome, Exception):
                builder.add_audit_failure(item, outcome, part.file_id)
                rejected += 1
                h = item.header
                error = f"the audit failed: {type(outcome).__name__}: {outcome}"
                notes.append(RejectNote(
                    h.first_line, h.first_line, error, f"{part.source}:{h.first_line}: {error}"
                ))
            else:
                builder.add_hand(item, outcome, part.file_id)
                findings += len(outcome.findings)
        elif isinstance(item, SkippedHand):
            skipped += 1
            if not parse_only:
                builder.add_skipped(item, part.file_id)
        elif isinstance(item, ParseError):
            rejected += 1
            notes.append(RejectNote(
                item.first_line, item.line, item.message,
                f"{part.source}:{item.line}: {item.message}",
            ))
            if not parse_only:
                builder.add_parse_error(item, part.file_id)
    late += checked.late
    return PartCounts(
        hands, repeats, skipped, rejected, findings, tuple(notes)
    )
