"""The ingest pipeline that razz parse, razz audit and razz import share.

Its steps, the same for all three commands:

1. find the files: `razz.store.sources.discover` (files, folders, globs, zip members of every
   kind a registered site writes);
2. cut them into pieces of whole hands: `razz.store.sources.read_pieces`;
3. in worker processes (`worker_pool`, results kept in order by `ordered_map`), read each
   piece's hands with the site registry, audit each Razz hand against its rules (the one the
   user named, else its site's) and check the hands of a table across hands
   (`check_part`: each piece comes with the few hands before it, read again so that the
   cross-hand checks know where the table stands);
4. each command turns what a piece came to into its own output: a report (parse, audit) or
   Arrow rows for the store (import, `razz.store.work`).

>>> from razz.replay.audit import EXAMPLE
>>> part = Part(0, "x.txt", EXAMPLE.encode(), 0)
>>> checked = check_part(part)
>>> [type(r).__name__ for r in checked.results], checked.audits[0].findings
(['Hand'], ())
"""

from __future__ import annotations

import gc
import os
import signal
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from razz.parser import sites
from razz.parser.events import Hand, ParseResult
from razz.parser.reader import read_piece
from razz.replay.findings import Finding
from razz.replay.results import HandResult
from razz.replay.ruleset import Ruleset, get_ruleset, site_ruleset
from razz.replay.tablecheck import HandFacts, TableCheck, facts_of, with_findings
from razz.store.sources import Discovery, NoHands, Opener, Source, TooLarge, read_pieces

__all__ = [
    "IN_PROCESS_BYTES",
    "Checked",
    "Part",
    "check_part",
    "cores",
    "hand_key",
    "init_worker",
    "ordered_map",
    "parts_of",
    "ruleset_for",
    "worker_pool",
    "workers_for",
]

R = TypeVar("R")

IN_PROCESS_BYTES = 2 << 20
"""Below this many bytes, worker processes would take longer to start than the work takes."""


def hand_key(site: str, hand_id: str) -> str:
    """The store's identity of a hand.

    >>> hand_key("PokerStars", "35874566077")
    'PokerStars:35874566077'
    """
    return f"{site}:{hand_id}"


def ruleset_for(hand: Hand, name: str | None = None) -> Ruleset:
    """The rules a hand is audited against: the one named, else its site's.

    >>> from razz.replay.audit import EXAMPLE
    >>> hand = next(iter(read_piece(EXAMPLE.encode(), "x.txt")))
    >>> ruleset_for(hand).name, ruleset_for(hand, "cardroom").name
    ('pokerstars', 'cardroom')
    """
    return site_ruleset(hand.header.site) if name is None else get_ruleset(name)


# ------------------------------------------------------------------------ one piece


@dataclass(frozen=True, slots=True)
class Part:
    """The bytes of one piece of a file, and what a worker needs to know about them."""

    file_id: int  # the store's id of the file (0 outside the store)
    source: str
    data: bytes
    line_offset: int  # lines of the file before `data`
    context: bytes = b""  # the hands just before `data` (see `Piece.context`)
    context_line_offset: int = 0


@dataclass(slots=True)
class Checked:
    """What the hands of one piece came to."""

    results: list[ParseResult]  # every hand of the piece, in file order
    # By index in `results`: the audit of a Razz hand, the cross-hand findings included, or
    # the exception the auditor failed with (a bug of ours: the hand is kept, reported).
    audits: dict[int, HandResult | Exception] = field(default_factory=dict)
    repeats: set[int] = field(default_factory=set)  # Razz hands already read (not audited)
    # Cross-hand findings on the context hands, which belong to the piece before: (hand key,
    # finding).
    late: list[tuple[str, Finding]] = field(default_factory=list)
    # With `tables=False`: the facts of every audited hand, for cross-hand checks run by the
    # caller over all pieces at once.
    facts: list[HandFacts] = field(default_factory=list)


# The ruleset the user named (None: each hand's site's), set by `init_worker`.
_ruleset_name: str | None = None


def init_worker(ruleset: str | None = None) -> None:
    """Prepare a process for `check_part`: the ruleset named, every site's parser, the auditor."""
    global _ruleset_name
    _ruleset_name = ruleset
    if ruleset is not None:
        get_ruleset(ruleset)
    for site in sites.SITES:
        site.reader()  # builds the site's parser now, once per process
    _auditor()
    # What exists now (modules, the parsers' tables) lives as long as the process: keep it
    # out of the collector's full passes, which the many objects of each hand set off.
    gc.freeze()


def _auditor() -> Callable[[Hand, Ruleset], HandResult]:
    from razz.replay import audit  # looked up at each call: tests replace it

    return audit.audit_hand


def check_part(
    part: Part, *, audit: bool = True, seen: set[str] | None = None, tables: bool = True
) -> Checked:
    """Read every hand of a piece; audit each Razz hand and check them across hands.

    `seen` holds the keys of hands already read in this run: a hand read again is marked a
    repeat and not audited again. With `tables=False` the cross-hand checks are left to the
    caller, who gets each audited hand's facts (`Checked.facts`) to check every piece at once,
    whatever their order. Never raises on bad input.
    """
    checked = Checked(list(read_piece(part.data, part.source, part.line_offset)))
    if not audit:
        return checked
    audit_hand, name = _auditor(), _ruleset_name
    audited: list[tuple[int, Hand, HandResult, Ruleset]] = []
    for k, item in enumerate(checked.results):
        if not isinstance(item, Hand):
            continue
        if seen is not None:
            key = hand_key(item.header.site, item.header.hand_id)
            if key in seen:
                checked.repeats.add(k)
                continue
            seen.add(key)
        ruleset = ruleset_for(item, name)
        try:
            result = audit_hand(item, ruleset)
        except Exception as exc:  # a bug in the auditor must not lose the hand
            checked.audits[k] = exc
            continue
        audited.append((k, item, result, ruleset))
    if not tables:
        for k, item, result, ruleset in audited:
            checked.audits[k] = with_findings(result, encoding_findings(checked.results[k]))
            checked.facts.append(facts_of(item, result, ruleset=ruleset))
        return checked
    for k, result in _check_tables(part, audited, checked.late):
        checked.audits[k] = with_findings(result, encoding_findings(checked.results[k]))
    return checked


def encoding_findings(hand: ParseResult) -> list[Finding]:
    """A warning at the first line of a hand that held bytes that are not valid text (decoded
    as U+FFFD): a name or a table may then read wrong, and the auditor should know where.

    >>> from razz.replay.audit import EXAMPLE
    >>> hand = next(iter(read_piece(EXAMPLE.replace("bob", "b\\xffb").encode("latin-1"), "x")))
    >>> [(f.rule, f.severity.value, f.line, f.actual) for f in encoding_findings(hand)]
    [('PARSE', 'warning', 4, 'Seat 2: b\ufffdb ($1.00 in chips)')]
    """
    if not isinstance(hand, Hand) or "\ufffd" not in hand.text:
        return []
    from razz.replay.findings import Severity

    h = hand.header
    bad = [(n, line) for n, line in enumerate(hand.text.split("\n")) if "\ufffd" in line]
    n, line = bad[0]
    more = f" (and {len(bad) - 1} more of this hand)" if len(bad) > 1 else ""
    return [Finding(
        rule="PARSE", severity=Severity.WARNING, source=h.source, hand_id=h.hand_id,
        line=h.first_line + n, expected="text in UTF-8 or UTF-16", actual=line,
        message=f"This line{more} holds bytes that are not valid text (shown as \ufffd): a name"
        " or a table on it may read wrong.",
    )]


def _check_tables(
    part: Part,
    audited: list[tuple[int, Hand, HandResult, Ruleset]],
    late: list[tuple[str, Finding]],
) -> list[tuple[int, HandResult]]:
    """The piece's audits with the findings of the cross-hand checks added, and their own
    findings that follow from an ante the table settled marked as its consequences.

    Findings on context hands (the piece before has them) go to `late`; so do their own
    findings that the table check marked as consequences (the store marks its rows).
    """
    if not audited:
        return []
    check = TableCheck()
    context_keys: dict[tuple[str, str], str] = {}
    context_own: dict[tuple[str, str], tuple[Finding, ...]] = {}
    for hand, result in _audit_context(part):
        h = hand.header
        context_keys[(h.source, h.hand_id)] = hand_key(h.site, h.hand_id)
        context_own[(h.source, h.hand_id)] = result.findings
        # its own findings were reported with it
        check.feed(hand, result, ruleset=ruleset_for(hand, _ruleset_name))
    for _, hand, result, ruleset in audited:
        check.feed(hand, result, ruleset=ruleset)
    extra: dict[tuple[str, str], list[Finding]] = {}
    for f in check.finish():
        extra.setdefault((f.source, f.hand_id or ""), []).append(f)
    out = []
    for k, hand, result, _ in audited:
        where = (hand.header.source, hand.header.hand_id)
        own = check.relinked.get(where)
        if own is not None:
            result = replace(result, findings=own)
        found = extra.pop(where, None)
        out.append((k, with_findings(result, found) if found else result))
    for where, own in check.relinked.items():
        key = context_keys.get(where)
        if key is not None:  # stored before: only the links of its rows change
            before = context_own[where]
            late += [(key, f) for f, was in zip(own, before, strict=True) if f != was]
    for where, found in extra.items():
        key = context_keys.get(where)
        if key is not None:
            late += [(key, f) for f in found]
    return out


def _audit_context(part: Part) -> list[tuple[Hand, HandResult]]:
    if not part.context:
        return []
    audit_hand, out = _auditor(), []
    for item in read_piece(part.context, part.source, part.context_line_offset):
        if isinstance(item, Hand):
            try:
                out.append((item, audit_hand(item, ruleset_for(item, _ruleset_name))))
            except Exception:  # a hand the auditor cannot replay tells the checks nothing
                continue
    return out


# ------------------------------------------------------------------------ many pieces


def parts_of(
    discovery: Discovery, problems: list[str], notes: list[NoHands] | None = None
) -> Iterator[Part]:
    """Every piece of every file found, read whole (no store: nothing was read before), each
    named as the user found it (`Source.name`).

    A file that cannot be read goes to `problems`, one that holds no hands (empty, not a hand
    history: `NoHands`) to `notes` (to `problems` without it), and the others are read.
    """
    opener = Opener()
    try:
        for source in discovery.sources:
            yield from _parts(source, opener, problems, notes)
    finally:
        opener.close()


def _parts(
    source: Source, opener: Opener, problems: list[str], notes: list[NoHands] | None
) -> Iterator[Part]:
    import zipfile
    import zlib

    try:
        for piece in read_pieces(source, None, opener):
            yield Part(
                0, source.name, piece.data, piece.line_offset, piece.context,
                piece.context_line_offset,
            )  # fmt: skip
    except TooLarge as exc:
        problems.append(str(exc))
    except NoHands as exc:
        if notes is None:
            problems.append(str(exc))
        else:
            notes.append(exc)
    except (OSError, ValueError, EOFError, zipfile.BadZipFile, zlib.error) as exc:
        # vanished, unreadable, a damaged zip member: the other files go on
        problems.append(f"{source.name}: cannot be read ({getattr(exc, 'strerror', None) or exc})")
        opener.close()


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def worker_pool(
    workers: int,
    ruleset: str | None = None,
    preload: Iterable[str] = (),
    setup: Callable[[], None] | None = None,
) -> ProcessPoolExecutor:
    """Worker processes ready for `check_part` with `ruleset` (None: each hand's site's), each
    of which calls `setup` (a module-level function) once it is ready.

    forkserver: workers start from a clean process, never a fork of one that holds DuckDB's
    threads; the server imports once what every worker needs (`preload`), and the workers
    share those pages.
    """
    import multiprocessing

    context = multiprocessing.get_context("forkserver")
    # razz.store.orphans first: the server ends with this process even if it is killed.
    # razz.parser.sites.preload builds every site's parser in the server, and the auditor
    # (`init_worker` imports it) is imported there: the workers inherit them.
    context.set_forkserver_preload([
        "razz.store.orphans", "razz.store.ingest", "razz.parser.sites.preload",
        "razz.replay.audit", *preload,
    ])  # fmt: skip
    return ProcessPoolExecutor(
        max_workers=workers, mp_context=context, initializer=_worker_start,
        initargs=(ruleset, os.getpid(), setup),
    )


def _worker_start(
    ruleset: str | None, owner: int | None = None, setup: Callable[[], None] | None = None
) -> None:
    import signal

    from razz.store.orphans import watch_parent

    # Ctrl-C and SIGTERM are the main process's to handle: it stops the pool and keeps what is
    # done. If it dies without doing so (kill -9), the worker ends on its own.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if owner is not None:
        watch_parent(owner)
    init_worker(ruleset)
    if setup is not None:
        setup()


def workers_for(
    jobs: int | None, size: int, ruleset: str | None = None, preload: Iterable[str] = ()
) -> ProcessPoolExecutor | None:
    """The worker processes that read `size` bytes: `jobs` of them, or one per core when
    `jobs` is None or 0 and the input is large enough to be worth starting them. None: this
    process reads (it is then made ready for `check_part`)."""
    if not jobs:
        jobs = cores() if size >= IN_PROCESS_BYTES else 1
    if jobs <= 1:
        init_worker(ruleset)
        return None
    return worker_pool(jobs, ruleset, preload)


_STOP_SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)


@contextmanager
def stop_signals_deferred() -> Iterator[None]:
    """Ctrl-C, SIGTERM and SIGHUP arriving in the block take effect when it ends.

    Their handlers raise KeyboardInterrupt wherever the main thread is. Inside
    `ProcessPoolExecutor.submit`, which starts workers as work arrives, that can fall between
    a worker's `p.start()` and the pool noting it (`_processes[p.pid] = p`): the pool then
    hands out one stop sentinel too few and `shutdown(wait=True)` waits for ever (an importer
    sent SIGTERM under load was still there a minute later). Handlers that are not Python
    functions (ignored, default) are left as they are.
    """
    if threading.current_thread() is not threading.main_thread():
        yield  # signal handlers run in the main thread only, and only it may set them
        return
    arrived: list[int] = []
    saved: dict[int, Callable[[int, Any], Any]] = {}
    for signum in _STOP_SIGNALS:
        handler = signal.getsignal(signum)
        if callable(handler):
            saved[signum] = handler
            signal.signal(signum, lambda n, _frame: arrived.append(n))
    try:
        yield
    finally:
        for signum, handler in saved.items():
            signal.signal(signum, handler)
        if arrived:
            saved[arrived[0]](arrived[0], None)


def submit(executor: Executor, fn: Callable[..., R], *args: Any) -> Future[R]:
    """`executor.submit(fn, *args)`, a stop signal held until it returns: it may be starting a
    worker (`stop_signals_deferred`)."""
    with stop_signals_deferred():
        return executor.submit(fn, *args)


def ordered_map(
    executor: Executor | None, fn: Callable[..., R], items: Iterable[tuple[Any, ...]], window: int
) -> Iterator[R]:
    """`fn(*item)` for each item, in order, with at most `window` items in flight (in this
    process when `executor` is None)."""
    if executor is None:
        for item in items:
            yield fn(*item)
        return
    pending: deque[Future[R]] = deque()
    for item in items:
        pending.append(submit(executor, fn, *item))
        if len(pending) >= window:
            yield pending.popleft().result()
    while pending:
        yield pending.popleft().result()
