"""`razz import`: read sources, parse and audit in worker processes, load through one writer.

The main process reads each source from where the store stopped, cuts it into pieces of
whole hands and hands them to a pool of workers (one per core); results come back in order
as Arrow tables and the writer commits them in large transactions. Small imports run in
process, since starting workers would cost more than it saves.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> s = import_paths([str(folder / "nothing.txt")], folder / "r.duckdb")
>>> s.hands, s.problems[0].endswith("nothing.txt: no such file or folder")
(0, True)
"""

from __future__ import annotations

import time
import zipfile
import zlib
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from razz.store import db as store_db
from razz.store import ingest
from razz.store.ingest import IN_PROCESS_BYTES, Part, cores, init_worker, submit
from razz.store.progress import ImportSummary, NoProgress, Progress
from razz.store.sources import (
    Discovery,
    FileState,
    NoHands,
    Opener,
    Piece,
    Source,
    TooLarge,
    can_grow,
    discover,
    read_pieces,
)
from razz.store.work import (
    DEFAULT_RULESET,
    Task,
    TaskResult,
    arrow_system_pool,
    process_task,
    worker_setup,
)
from razz.store.writer import BatchReport, PieceMeta, Writer


@dataclass(frozen=True, slots=True)
class Settings:
    """How an import runs; the defaults suit a 2-core machine and keep memory flat."""

    ruleset: str | None = DEFAULT_RULESET  # None: each hand's site's rules
    workers: int | None = None  # None: one per core; 0: in this process
    piece_bytes: int = 256 * 1024
    # A batch is committed at `batch_hands` hands, when `batch_seconds` old, or when the
    # input stops (`razz.store.writer`).
    batch_hands: int = 5000
    batch_seconds: float = 5.0
    open_timeout: float | None = 60.0
    in_process_bytes: int = IN_PROCESS_BYTES
    memory_limit: str = "64MB"  # DuckDB's buffer pool in the writer


class Importer:
    """One writer and (when worth it) one pool of workers, for one import or a watch."""

    def __init__(
        self, db: Path | str, settings: Settings = Settings(), progress: Progress | None = None
    ) -> None:
        from razz.replay.ruleset import get_ruleset

        if settings.ruleset is not None:
            get_ruleset(settings.ruleset)  # an unknown name fails here, before any work
        # pyarrow's bundled mimalloc asks the kernel for transparent huge pages, which the
        # kernel fills in over a long import (2 MiB at a time): the importer's peak PSS at
        # 100,000 hands 307 -> 266 MiB with malloc (AnonHugePages 68 -> 2 MiB); at 20,000
        # hands, before the kernel has done it, the same (234-239). CPU per hand the same
        # within noise (0.25 against 0.26 ms, medians of 3 runs of 20,000 hands).
        arrow_system_pool()
        self.db = Path(db)
        self.settings = settings
        self.progress: Progress = progress or NoProgress()
        self._lock = store_db.ImportLock(self.db)
        self._lock.acquire(on_wait=self.progress.note)
        try:
            self.writer = Writer(
                self.db, batch_hands=settings.batch_hands, batch_seconds=settings.batch_seconds,
                on_wait=self.progress.note, open_timeout=settings.open_timeout,
                memory_limit=settings.memory_limit,
            )
        except BaseException:
            self._lock.release()
            raise
        self._pool: ProcessPoolExecutor | None = None
        self._in_process_ready = False
        self.files_read: set[str] = set()  # sources with new bytes, over every run

    def close(self) -> None:
        """Stop the workers, let go of the database, end the import's lock."""
        try:
            self._stop_pool()
            self.writer.close()
        finally:
            self._lock.release()

    def __enter__(self) -> Importer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ one pass

    def run(
        self,
        discovery: Discovery,
        *,
        settled: Callable[[Source], bool] | None = None,
    ) -> ImportSummary:
        """Import the new hands of every source.

        `settled(source)` false means the source may still be written: an unfinished last hand
        is then left for a later run. Without it every source is read to its end.
        """
        started = time.monotonic()
        sources = discovery.sources
        states = self.writer.file_states([s.path for s in sources])
        new_ids = iter(self.writer.new_file_ids(sum(1 for s in sources if s.path not in states)))
        ids = {
            s.path: states[s.path].file_id if s.path in states else next(new_ids) for s in sources
        }
        known = self._known_rejects([state.file_id for state in states.values()])
        todo = sum(_new_bytes(s, states.get(s.path)) for s in sources)
        self.progress.start(files=len(sources), total_bytes=todo)
        totals = _Totals()
        read_files: set[str] = set()
        tasks = _tasks(
            sources, states, ids, settled, self.settings.piece_bytes, read_files, totals.problems,
            totals.no_hands, totals.held,
        )
        interrupted = False
        try:
            for result, metas in self._results(tasks, todo):
                self.writer.add(result, metas)
                totals.note_rejects(result, metas, known)
                self.progress.advance(
                    nbytes=sum(m.size for m in metas),
                    hands=sum(c.hands for c in result.parts),
                    rejected=sum(c.rejected for c in result.parts),
                )
                totals.add(self.writer.commit() if self.writer.ready() else [], self.progress)
                totals.add(self.writer.finished(), self.progress)
        except KeyboardInterrupt:
            interrupted = True
            self._stop_pool()
        totals.add(self.writer.flush(), self.progress)
        self.files_read |= read_files
        for source in sources:
            if source.path not in read_files:
                self.progress.file_done(source.path, changed=False)
        summary = ImportSummary(
            db=str(self.db), files=len(sources), files_read=len(read_files), hands=totals.hands,
            duplicates=totals.duplicates, skipped=totals.skipped, rejected=len(totals.rejects),
            findings=totals.findings, seconds=time.monotonic() - started,
            problems=discovery.problems + tuple(totals.problems), interrupted=interrupted,
            files_failed=len(totals.problems),
            hands_read=totals.hands_read, rejects=tuple(totals.rejects),
            rejected_before=totals.rejected_before, no_hands=tuple(map(str, totals.no_hands)),
            not_histories=sum(1 for n in totals.no_hands if not n.empty),
            held=tuple(totals.held), repaired=totals.repaired,
        )
        if interrupted:
            raise ImportInterrupted(summary)
        return summary

    def _known_rejects(self, file_ids: list[int]) -> set[tuple[int, int, int, str]]:
        """The rejects the store already holds for these files: read again unchanged (the
        last hand of a file is read again until it parses), they are not news."""
        if not file_ids:
            return set()
        rows = self.writer.execute(
            "SELECT file_id, first_line, line, error FROM rejects WHERE list_contains(?, file_id)",
            [file_ids],
        )
        return {(f, first, line, error) for f, first, line, error in rows}

    def _results(self, tasks: Iterator[tuple[Task, list[PieceMeta]]], todo: int
                 ) -> Iterator[tuple[TaskResult, list[PieceMeta]]]:
        workers = cores() if self.settings.workers is None else self.settings.workers
        if workers <= 0 or (self._pool is None and todo < self.settings.in_process_bytes):
            for task, metas in tasks:
                self._ensure_in_process()
                yield process_task(task), metas
            return
        pool = self._ensure_pool(workers)
        window: deque[tuple[Future[TaskResult], list[PieceMeta]]] = deque()
        for task, metas in tasks:
            window.append((submit(pool, process_task, task), metas))
            # Enough queued work that the workers never wait for this thread.
            if len(window) >= 4 * workers + 4:
                future, done = window.popleft()
                yield future.result(), done
        while window:
            future, done = window.popleft()
            yield future.result(), done

    def _ensure_in_process(self) -> None:
        if not self._in_process_ready:
            init_worker(self.settings.ruleset)
            self._in_process_ready = True

    def _ensure_pool(self, workers: int) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = worker_pool(workers, self.settings.ruleset)
        return self._pool

    def _stop_pool(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


def worker_pool(workers: int, ruleset: str | None = DEFAULT_RULESET) -> ProcessPoolExecutor:
    """Worker processes that read, audit and tabulate with `ruleset` (None: each hand's
    site's), that never load pandas (`arrow_without_pandas`) and allocate Arrow buffers with
    malloc (`arrow_system_pool`)."""
    return ingest.worker_pool(workers, ruleset, preload=("razz.store.work",), setup=worker_setup)


class ImportInterrupted(KeyboardInterrupt):
    """Ctrl-C during an import; what was read before it is committed, and summarised here."""

    def __init__(self, summary: ImportSummary) -> None:
        super().__init__(summary.text())
        self.summary = summary


class _Totals:
    def __init__(self) -> None:
        self.hands = self.duplicates = self.skipped = self.rejected = self.findings = 0
        self.repaired = 0
        self.hands_read = 0
        self.problems: list[str] = []
        self.rejects: list[str] = []  # hands rejected for the first time, as the user sees them
        self.rejected_before = 0  # rejects read again as the store already had them
        self.no_hands: list[NoHands] = []  # files empty or not hand histories
        self.held: list[tuple[str, int]] = []  # (file, line) of last hands not finished yet

    def note_rejects(
        self, result: TaskResult, metas: Sequence[PieceMeta], known: set[tuple[int, int, int, str]]
    ) -> None:
        for counts, meta in zip(result.parts, metas, strict=True):
            for note in counts.rejects:
                if (meta.file_id, note.first_line, note.line, note.error) in known:
                    self.rejected_before += 1
                else:
                    self.rejects.append(note.text)

    def add(self, reports: list[BatchReport], progress: Progress) -> None:
        for report in reports:
            self._add(report, progress)

    def _add(self, report: BatchReport, progress: Progress) -> None:
        self.hands += report.hands
        self.duplicates += report.duplicates
        self.skipped += report.skipped
        self.rejected += report.rejected
        self.findings += report.findings
        self.hands_read += report.hands_read
        self.repaired += report.repaired
        for path in report.files_done:
            progress.file_done(path, changed=True)


def _new_bytes(source: Source, state: FileState | None) -> int:
    if state is not None and state.size <= source.size:
        return source.size - state.size
    return source.size


def _tasks(
    sources: Sequence[Source],
    states: dict[str, FileState],
    ids: dict[str, int],
    settled: Callable[[Source], bool] | None,
    piece_bytes: int,
    read_files: set[str],
    problems: list[str],
    notes: list[NoHands],
    held: list[tuple[str, int]],
) -> Iterator[tuple[Task, list[PieceMeta]]]:
    """Pieces of all sources, packed into tasks of about `piece_bytes` (small files together)."""
    parts: list[Part] = []
    metas: list[PieceMeta] = []
    size = 0
    for piece, last in _pieces(sources, states, settled, piece_bytes, problems, notes, held):
        fid = ids[piece.source.path]
        read_files.add(piece.source.path)
        parts.append(
            Part(
                fid, piece.source.path, piece.data, piece.line_offset, piece.context,
                piece.context_line_offset,
            )
        )
        metas.append(PieceMeta.of(piece, fid, last=last))
        size += len(piece.data)
        if size >= piece_bytes:
            yield Task(tuple(parts)), metas
            parts, metas, size = [], [], 0
    if parts:
        yield Task(tuple(parts)), metas


def _pieces(
    sources: Sequence[Source],
    states: dict[str, FileState],
    settled: Callable[[Source], bool] | None,
    piece_bytes: int,
    problems: list[str],
    notes: list[NoHands],
    held: list[tuple[str, int]],
) -> Iterator[tuple[Piece, bool]]:
    """Every new piece and whether it ends its source; unreadable sources go to `problems`,
    those that hold no hands (`NoHands`) to `notes`, and where a last hand not finished yet
    starts to `held` (file, line)."""
    opener = Opener()
    try:
        for source in sources:
            final = settled is None or settled(source)
            previous: Piece | None = None
            try:
                for piece in read_pieces(
                    source, states.get(source.path), opener, final=final,
                    piece_bytes=piece_bytes, hold_back=can_grow(source),
                ):
                    if piece.held is not None:
                        held.append((source.name, piece.held))
                    if not piece.data:
                        continue  # only the hand held back: nothing to store yet
                    if previous is not None:
                        yield previous, False
                    previous = piece
            except NoHands as exc:
                notes.append(exc)
            except TooLarge as exc:
                problems.append(str(exc))
            except (OSError, ValueError, EOFError, zipfile.BadZipFile, zlib.error) as exc:
                # vanished, unreadable, a damaged zip member: the other files go on
                problems.append(f"{source.path}: cannot be read ({exc})")
                opener.close()
            if previous is not None:
                yield previous, True
    finally:
        opener.close()


def import_paths(
    paths: Sequence[str],
    db: Path | str,
    *,
    settings: Settings = Settings(),
    progress: Progress | None = None,
) -> ImportSummary:
    """Import files, folders, globs and zip archives into the store at `db`."""
    db = Path(db)
    discovery = discover(paths, exclude=own_files(db))
    with Importer(db, settings, progress) as importer:
        summary = importer.run(discovery)
    (progress or NoProgress()).finish(summary)
    return summary


def own_files(db: Path) -> list[str]:
    """The store's own files, never to be read as hand histories."""
    base = str(db)
    return [base, f"{base}.wal", str(store_db.wait_request_path(db)),
            str(store_db.import_lock_path(db))]
