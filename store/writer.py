"""The single writer: loads workers' Arrow tables in large transactions, never a hand twice.

A batch is committed when it holds `batch_hands` hands (5,000), when it is `batch_seconds`
old (5 s, from its first task), or as soon as the input stops (the end of a run: the files
read, a `--watch` poll done), whichever comes first: while hands keep coming a reader sees a
hand 5 s after it was read at the latest (and the commit's own time), and at once when they
stop. Each commit has a fixed cost (the COMMIT, DuckDB's checkpoint, the summaries'
statements), which small batches made under load pay too often.

Each batch is one transaction: the new hands with all their rows, the rejects and skipped
hands, and each file's new end (size, lines, SHA-256). A crash at any instant leaves the
database at the end of the last committed batch, and the next import resumes from the ends
recorded there. Between batches the writer holds no transaction, and it closes the database
whenever a reader asks for it (see `razz.store.db`): a thread looks for a reader's request
every `READER_POLL` seconds and lets the reader in as soon as the commit in progress, if any,
has ended, so `razz stats` and the dashboard answer during an import about as fast as idle.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pyarrow as pa
import pyarrow.compute as pc

from razz.replay.findings import Severity
from razz.store import db as store_db
from razz.store import summaries
from razz.store.rows import HAND_TABLES, SCHEMAS, TABLES, Tables, empty_table
from razz.store.sources import FileState, Piece
from razz.store.work import PartCounts, TaskResult

if TYPE_CHECKING:
    import duckdb

READER_POLL = 0.03
"""Seconds between two looks for a reader waiting for the database."""

_EMPTY_ALLIN_EV = empty_table(SCHEMAS["allin_ev"])
_EMPTY_VIOLATIONS = empty_table(SCHEMAS["violations"])
_SUMMED = ("hands", "players", "allin_ev", "violations")  # the tables the summaries read


@dataclass(frozen=True, slots=True)
class PieceMeta:
    """What the writer must know of a piece once its hands are loaded (its bytes stay behind)."""

    file_id: int
    path: str
    start_lines: int  # lines of the file before the piece
    end: int
    end_lines: int
    end_sha256: str
    first: bool
    reset: bool
    last: bool  # the last piece of this file in this run
    size: int  # bytes in the piece (for progress)

    @classmethod
    def of(cls, piece: Piece, file_id: int, *, last: bool) -> PieceMeta:
        return cls(
            file_id=file_id, path=piece.source.path, start_lines=piece.line_offset,
            end=piece.end, end_lines=piece.end_lines, end_sha256=piece.end_sha256,
            first=piece.first, reset=piece.reset, last=last, size=len(piece.data),
        )


@dataclass(slots=True)
class FileProgress:
    """One file's share of a batch."""

    file_id: int
    path: str
    size: int = 0
    lines: int = 0
    sha256: str = ""
    duplicates: int = 0
    clear_after_line: int | None = None  # rejects/skipped after this line are read again
    reset: bool = False
    done: bool = False  # its last piece is in the batch


@dataclass(frozen=True, slots=True)
class BatchReport:
    """What one committed batch stored."""

    hands_read: int  # Razz hands read
    hands: int  # new hands stored
    duplicates: int
    skipped: int
    rejected: int
    findings: int
    files_done: tuple[str, ...]  # files whose last piece of this run was committed
    seconds: float
    repaired: int = 0  # hands read again whose text had grown: stored short before


@dataclass(slots=True)
class _Batch:
    tables: dict[str, list[pa.Table]] = field(default_factory=lambda: {n: [] for n in TABLES})
    keys: list[pa.Array] = field(default_factory=list)  # hand keys of the batch
    files: dict[int, FileProgress] = field(default_factory=dict)
    hands: int = 0
    skipped: int = 0
    rejected: int = 0
    started: float = 0.0  # when its first task was added (`time.monotonic`)
    # Findings of the cross-hand checks on hands stored by earlier batches.
    late: list[pa.Table] = field(default_factory=list)


class Writer:
    """The only process that writes the store; see the module docstring for its guarantees."""

    def __init__(
        self,
        path: Path | str,
        *,
        batch_hands: int = 5000,
        batch_seconds: float = 5.0,
        on_wait: Callable[[str], None] | None = None,
        open_timeout: float | None = 60.0,
        threads: int = 1,
        memory_limit: str = "128MB",
    ) -> None:
        self.path = Path(path)
        self.batch_hands = batch_hands
        self.batch_seconds = batch_seconds
        self._on_wait = on_wait
        self._threads = threads
        self._memory_limit = memory_limit
        self._con: duckdb.DuckDBPyConnection | None = store_db.connect_writer(
            self.path, timeout=open_timeout, on_wait=on_wait, threads=threads,
            memory_limit=memory_limit,
        )
        self._batch = _Batch()
        # Commits run in this thread (DuckDB lets go of the GIL while it works).
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="razz-writer")
        self._pending: Future[BatchReport] | None = None
        # Held by whoever uses the connection (a commit, a look-up) and by a reader's turn.
        self._db_lock = threading.RLock()
        self._stopping = threading.Event()
        self._readers = threading.Thread(
            target=self._let_readers_in, name="razz-readers", daemon=True
        )
        self._readers.start()

    # -------------------------------------------------------------- connection

    @property
    def con(self) -> duckdb.DuckDBPyConnection:
        """The connection, reopened if it was given up to a reader."""
        if self._con is None:
            self._con = store_db.connect_writer(
                self.path, timeout=None, on_wait=self._on_wait, threads=self._threads,
                memory_limit=self._memory_limit, apply=False,
            )
        return self._con

    def execute(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """Run one query on the store between commits; its rows."""
        with self._db_lock:
            return self.con.execute(sql, list(params)).fetchall()

    def yield_to_readers(self, patience: float = 2.0) -> bool:
        """Close the database while a reader that asked for it gets in (at most `patience` s).

        Never during a commit: the reader waits for its end. Called by the writer's own
        thread every `READER_POLL` seconds; safe from any thread.
        """
        if not store_db.reader_waiting(self.path):
            return False
        with self._db_lock:
            if self._con is None:
                return False
            self._con.close()
            self._con = None
            deadline = time.monotonic() + patience
            while store_db.reader_waiting(self.path) and time.monotonic() < deadline:
                time.sleep(0.01)
        return True

    def _let_readers_in(self) -> None:
        while not self._stopping.wait(READER_POLL):
            try:
                self.yield_to_readers()
            except Exception:  # a reader's turn is a courtesy: never stop the import for it
                continue

    def release(self) -> None:
        """Wait for the commit in progress, then let go of the database until it is needed."""
        try:
            self._wait()
        finally:
            with self._db_lock:
                if self._con is not None:
                    self._con.close()
                    self._con = None

    def close(self) -> None:
        """Release the database for good."""
        self._stopping.set()
        self._readers.join()
        try:
            self.release()
        finally:
            self._thread.shutdown()

    # -------------------------------------------------------------- what is stored

    def file_states(self, paths: Sequence[str]) -> dict[str, FileState]:
        """What the store remembers of each of these files (absent: never imported)."""
        if not paths:
            return {}
        assert self._pending is None, "read the files' state between imports only"
        rows = self.execute(
            "SELECT f.path, f.file_id, f.size, f.lines, f.sha256 FROM files AS f "
            "SEMI JOIN (SELECT unnest(?::VARCHAR[]) AS path) USING (path)",
            [list(paths)],
        )
        return {path: FileState(fid, size, lines, sha) for path, fid, size, lines, sha in rows}

    def new_file_ids(self, count: int) -> list[int]:
        """Fresh file ids (a crash before commit only leaves a gap in the numbering)."""
        if count <= 0:
            return []
        rows = self.execute("SELECT nextval('file_ids') FROM range(?)", [count])
        return [r[0] for r in rows]

    # -------------------------------------------------------------- batches

    def add(self, result: TaskResult, metas: Sequence[PieceMeta]) -> None:
        """Take the rows of one task (its pieces in file order) into the current batch."""
        batch = self._batch
        assert result.tables is not None, "parse-only results are not stored"
        if not batch.files:  # its first task: the batch's age counts from now
            batch.started = time.monotonic()
        tables = result.tables
        keys = tables["hands"].column("hand_key")
        repeated, repeated_in = None, []
        if batch.keys and len(keys):
            # The same hand in two files of this batch: keep the first. (Arrow compute all
            # along: building Arrow arrays from Python objects would load pandas here.)
            mask = pc.is_in(keys, value_set=pa.concat_arrays(batch.keys))
            if pc.any(mask).as_py():
                repeated = keys.filter(mask)
                repeated_in = tables["hands"].filter(mask).column("file_id").to_pylist()
                tables = _without(tables, repeated)
        batch.keys.extend(keys.chunks)
        for name in TABLES:
            if tables[name].num_rows:
                batch.tables[name].append(tables[name])
        for meta, counts in zip(metas, result.parts, strict=True):
            self._track(meta, counts)
        for fid in repeated_in:
            batch.files[fid].duplicates += 1
        if result.late is not None:
            batch.late.append(result.late)
        batch.hands += sum(c.hands for c in result.parts)
        batch.skipped += sum(c.skipped for c in result.parts)
        batch.rejected += sum(c.rejected for c in result.parts)

    def _track(self, meta: PieceMeta, counts: PartCounts) -> None:
        files = self._batch.files
        fp = files.get(meta.file_id)
        if fp is None:
            fp = files[meta.file_id] = FileProgress(meta.file_id, meta.path)
        if meta.first:
            fp.clear_after_line = meta.start_lines
            fp.reset = meta.reset
        fp.size, fp.lines, fp.sha256 = meta.end, meta.end_lines, meta.end_sha256
        fp.duplicates += counts.repeats
        fp.done = fp.done or meta.last

    def ready(self) -> bool:
        """True when the batch is big enough (`batch_hands`), or old enough (`batch_seconds`
        since its first task was added), to be committed. The importer also commits whatever
        the batch holds as soon as no work is left in flight (`flush`)."""
        b = self._batch
        if not b.files:
            return False
        return b.hands >= self.batch_hands or time.monotonic() - b.started >= self.batch_seconds

    def commit(self) -> list[BatchReport]:
        """Start committing the batch in the background; the reports of commits now finished.

        One commit runs at a time: the next one first waits for it, so at most two batches are
        in memory, while the main thread goes on feeding the workers.
        """
        done = self._wait()
        batch = self._batch
        if batch.files:
            self._batch = _Batch()
            self._pending = self._thread.submit(self._commit, batch)
        return done

    def flush(self) -> list[BatchReport]:
        """Commit the batch now, after any commit in progress; the reports of both."""
        done = self.commit()
        return done + self._wait()

    def finished(self) -> list[BatchReport]:
        """The report of the commit in progress, if it has finished (without waiting)."""
        if self._pending is not None and self._pending.done():
            return self._wait()
        return []

    def _wait(self) -> list[BatchReport]:
        if self._pending is None:
            return []
        pending, self._pending = self._pending, None
        return [pending.result()]

    def _commit(self, batch: _Batch) -> BatchReport:
        """Write one batch in one transaction (in the writer thread)."""
        started = time.perf_counter()
        tables = {
            name: pa.concat_tables(parts) if parts else None
            for name, parts in batch.tables.items()
        }
        # The thread's work item holds `batch` until this returns: its rows are in `tables`
        # now, each let go as soon as DuckDB holds them (`_load_hands`).
        batch.tables.clear()
        with self._db_lock:
            con = self.con
            con.execute("BEGIN TRANSACTION")
            try:
                stored, duplicates_by_file, again, repaired = self._load_hands(con, tables)
                self._load_rejects(con, tables, batch.files.values())
                late = self._load_late_findings(con, batch.late)
                self._update_files(con, batch.files.values(), duplicates_by_file)
                con.execute("COMMIT")
            except BaseException:
                con.execute("ROLLBACK")
                raise
        hands_table = stored.get("hands")
        new_hands = findings = 0
        if hands_table is not None:
            new_hands = hands_table.num_rows - again
            findings = int(pc.sum(hands_table.column("findings")).as_py() or 0)
        report = BatchReport(
            hands_read=batch.hands,
            hands=new_hands,
            duplicates=batch.hands - new_hands - again - _audit_rejects(tables),
            skipped=batch.skipped,
            rejected=batch.rejected,
            findings=findings + late,
            files_done=tuple(f.path for f in batch.files.values() if f.done),
            seconds=time.perf_counter() - started,
            repaired=repaired,
        )
        batch.keys.clear()
        batch.late.clear()
        del tables, stored, batch
        _give_back_memory()
        return report

    def _load_hands(
        self, con: duckdb.DuckDBPyConnection, tables: dict[str, pa.Table | None]
    ) -> tuple[dict[str, pa.Table], dict[int, int], int, int]:
        """Insert the hands not stored yet; replace those read again where they were read
        before (same file, same line: the last hand of a grown file, or a file read again
        whole), whose text may have grown since. The stored tables the summaries read
        (`_SUMMED`, the hands without their text), the duplicates by file, how many hands were
        read again, and how many of those had grown. `tables`' hand tables are let go (None):
        each is held no longer than DuckDB needs it."""
        hands = tables["hands"]
        if hands is None:
            return {}, {}, 0, 0
        # A relation, not a registered view, which would hold the hands' text until the COMMIT
        # (see `_insert`): each query below names it `batch_keys` for itself.
        batch_keys = con.from_arrow(
            hands.select(["hand_key", "file_id", "first_line", "raw_text"])
        )
        # Hands stored from the same line of the same file, read again: replaced by what the
        # file holds there now. A hand stored short has more lines now, and maybe another id
        # (PHH names a hand by fields that may come late); a hand of another id whose text
        # does not go on from the stored one is another hand (the file was rewritten).
        again_rows = _select_keys(
            batch_keys,
            """
            SELECT h.hand_key, b.hand_key AS new_key,
                   h.raw_text <> b.raw_text OR h.hand_key <> b.hand_key AS changed
            FROM batch_keys AS b JOIN hands AS h
                ON h.file_id = b.file_id AND h.first_line = b.first_line
            WHERE h.file_id IN (SELECT DISTINCT file_id FROM batch_keys)
              AND (h.hand_key = b.hand_key
                   OR starts_with(b.raw_text, rtrim(h.raw_text, chr(10))))
            """,
        )
        again = again_rows.num_rows
        repaired = int(pc.sum(again_rows.column("changed")).as_py() or 0) if again else 0
        if again:
            con.register("again_keys", again_rows.select(["hand_key"]))
            summaries.subtract_sums(con, "again_keys")  # their daily sums go with them
            for name in HAND_TABLES:  # the store's own table names, never user input
                con.execute(
                    f"DELETE FROM {name} WHERE hand_key IN (SELECT hand_key FROM again_keys)"
                )
            con.unregister("again_keys")
        existing = _one_array(_select_keys(
            batch_keys, "SELECT hand_key FROM batch_keys SEMI JOIN hands USING (hand_key)"
        ).column("hand_key"))
        del batch_keys
        if again:  # read again and stored again: not new (unless now a duplicate: not stored)
            again = int(pc.sum(pc.invert(
                pc.is_in(again_rows.column("new_key"), value_set=existing))).as_py() or 0)
        stored: dict[str, pa.Table] = {}
        duplicates: dict[int, int] = {}
        if len(existing):
            gone = pc.is_in(hands.column("hand_key"), value_set=existing)
            for fid in hands.filter(gone).column("file_id").to_pylist():
                duplicates[fid] = duplicates.get(fid, 0) + 1
        del hands
        for name in HAND_TABLES:
            table, tables[name] = tables[name], None
            if table is None:
                continue
            if len(existing):
                table = table.filter(
                    pc.invert(pc.is_in(table.column("hand_key"), value_set=existing))
                )
            if table.num_rows:
                _insert(con, name, table)
                if name == "hands":  # not summed: its text (most of its bytes) can go
                    table = table.drop_columns(["raw_text"])
                if name in _SUMMED:
                    stored[name] = table
            del table
        if "players" in stored:  # the daily sums of the dashboard's player pages
            con.register("batch_players", stored["players"])
            con.register("batch_hands", stored["hands"])
            # The batch's all-in EV rows are all its hands have (those read again lost theirs
            # above): joined alone, not with every row of the store's `allin_ev`.
            con.register("batch_allin_ev", stored.get("allin_ev", _EMPTY_ALLIN_EV))
            # Their findings, likewise, are the batch's rows (the Audit page's sums count
            # them; the cross-hand checks' late findings are counted after, by
            # `recount_findings`), not a scan of every finding the store holds at each commit.
            violations = stored.get("violations", _EMPTY_VIOLATIONS)
            con.register("batch_violations", violations)
            summaries.add_sums(con, "batch_players", "batch_hands", "batch_allin_ev",
                               "batch_violations", findings=violations.num_rows > 0)
            con.unregister("batch_players")
            con.unregister("batch_hands")
            con.unregister("batch_allin_ev")
            con.unregister("batch_violations")
        return stored, duplicates, again, repaired

    def _load_late_findings(self, con: duckdb.DuckDBPyConnection, late: list[pa.Table]) -> int:
        """Add the cross-hand findings on hands stored before, mark those hands' findings that
        follow from them, and count the hands' findings again; how many findings were new.

        A late row with a cause (`consequence_of_rule`) is a finding the hand has already: one
        the table check found to follow from the ante it settled. Its row gets the cause, in
        one UPDATE for the batch; the other late rows are new findings.
        """
        if not late:
            return 0
        con.register("late_findings", pa.concat_tables(late))
        # A hand checked again (as context of more pieces) must not get a finding twice.
        added = con.execute(
            """
            INSERT INTO violations BY NAME
            SELECT DISTINCT t.* FROM late_findings AS t SEMI JOIN hands USING (hand_key)
            ANTI JOIN violations AS v
                ON v.hand_key = t.hand_key AND v.rule = t.rule AND v.line = t.line
                AND v.message = t.message
            WHERE t.consequence_of_rule IS NULL
            """
        ).fetchone()
        con.execute(
            """
            UPDATE violations
            SET consequence_of_rule = t.consequence_of_rule,
                consequence_of_line = t.consequence_of_line
            FROM (SELECT DISTINCT hand_key, rule, line, message, consequence_of_rule,
                         consequence_of_line
                  FROM late_findings WHERE consequence_of_rule IS NOT NULL) AS t
            WHERE violations.hand_key = t.hand_key AND violations.rule = t.rule
              AND violations.line = t.line AND violations.message = t.message
            """
        )
        con.execute(
            """
            UPDATE hands SET findings = c.findings, errors = c.errors
            FROM (
                SELECT hand_key, count(*) AS findings,
                       count(*) FILTER (WHERE severity = ?) AS errors
                FROM violations SEMI JOIN late_findings USING (hand_key)
                WHERE consequence_of_rule IS NULL  -- the counts are of violations
                GROUP BY hand_key
            ) AS c
            WHERE hands.hand_key = c.hand_key
            """,
            [Severity.ERROR.value],
        )
        # Their files (maybe read in an earlier run) are counted again too.
        con.execute(
            """
            UPDATE files SET findings = c.findings
            FROM (
                SELECT file_id, sum(findings) AS findings FROM hands
                WHERE file_id IN (SELECT file_id FROM hands SEMI JOIN late_findings
                                  USING (hand_key))
                GROUP BY file_id
            ) AS c
            WHERE files.file_id = c.file_id
            """
        )
        summaries.recount_findings(con, "late_findings")  # the Audit page's sums
        con.unregister("late_findings")
        return int(added[0]) if added else 0

    def _load_rejects(
        self,
        con: duckdb.DuckDBPyConnection,
        tables: dict[str, pa.Table | None],
        files: Iterable[FileProgress],
    ) -> None:
        # What was recorded beyond where this run started reading is read again now.
        clear = [(f.file_id, f.clear_after_line) for f in files if f.clear_after_line is not None]
        for name in ("rejects", "skipped"):
            if clear:
                con.executemany(
                    f"DELETE FROM {name} WHERE file_id = ? AND first_line > ?", clear
                )
            table = tables[name]
            if table is not None and table.num_rows:
                _insert(con, name, table)

    def _update_files(
        self,
        con: duckdb.DuckDBPyConnection,
        files: Iterable[FileProgress],
        duplicates_by_file: dict[int, int],
    ) -> None:
        files = list(files)
        reset = [(f.file_id,) for f in files if f.reset]
        if reset:
            con.executemany("UPDATE files SET duplicates = 0 WHERE file_id = ?", reset)
        # Lists bound as parameters, unnested by DuckDB: no row-by-row statements.
        con.execute(
            """
            CREATE OR REPLACE TEMP TABLE file_update AS
            SELECT unnest(?::BIGINT[]) AS file_id, unnest(?::VARCHAR[]) AS path,
                   unnest(?::BIGINT[]) AS size, unnest(?::BIGINT[]) AS lines,
                   unnest(?::VARCHAR[]) AS sha256, unnest(?::INTEGER[]) AS duplicates
            """,
            [
                [f.file_id for f in files], [f.path for f in files], [f.size for f in files],
                [f.lines for f in files], [f.sha256 for f in files],
                [f.duplicates + duplicates_by_file.get(f.file_id, 0) for f in files],
            ],
        )
        con.execute(
            """
            INSERT INTO files BY NAME
            SELECT *, current_timestamp AS imported_at,
                   0 AS hands, 0 AS skipped, 0 AS rejected, 0 AS findings
            FROM file_update
            ON CONFLICT (file_id) DO UPDATE SET
                size = excluded.size, lines = excluded.lines, sha256 = excluded.sha256,
                imported_at = excluded.imported_at,
                duplicates = files.duplicates + excluded.duplicates
            """
        )
        # Counts are recounted from the rows, so that what is read again is not counted twice.
        con.execute(
            """
            UPDATE files SET
                hands = coalesce(h.hands, 0), findings = coalesce(h.findings, 0),
                rejected = coalesce(r.rejected, 0), skipped = coalesce(s.skipped, 0)
            FROM file_update AS u
            LEFT JOIN (
                SELECT file_id, count(*) AS hands, sum(findings) AS findings FROM hands
                WHERE file_id IN (SELECT file_id FROM file_update) GROUP BY file_id
            ) AS h USING (file_id)
            LEFT JOIN (
                SELECT file_id, count(*) AS rejected FROM rejects
                WHERE file_id IN (SELECT file_id FROM file_update) GROUP BY file_id
            ) AS r USING (file_id)
            LEFT JOIN (
                SELECT file_id, count(*) AS skipped FROM skipped
                WHERE file_id IN (SELECT file_id FROM file_update) GROUP BY file_id
            ) AS s USING (file_id)
            WHERE files.file_id = u.file_id
            """
        )
        con.execute("DROP TABLE file_update")


def _insert(con: duckdb.DuckDBPyConnection, name: str, table: pa.Table) -> None:
    """Insert the rows of `table` into the store's table `name` (one of its own names, never
    user input), by column name.

    Through a relation that names the rows for this statement only, not `register`: a view
    registered in a transaction, even once unregistered, keeps its Arrow table alive until
    the transaction ends (DuckDB keeps the dropped view for it), so the batch's actions,
    cards and pots were held twice, in Arrow and in DuckDB, until after the COMMIT.
    """
    rows = con.from_arrow(table)
    rows.query("batch_rows", f"INSERT INTO {name} BY NAME SELECT * FROM batch_rows")


def _select_keys(keys: duckdb.DuckDBPyRelation, sql: str) -> pa.Table:
    """The rows of the SELECT `sql`, in which `keys` is named `batch_keys` (for it only)."""
    result = keys.query("batch_keys", sql)
    assert result is not None, "a SELECT has rows"
    return result.to_arrow_table()


def _give_back_memory() -> None:
    """Hand the memory of a committed batch back to the system, so the writer stays lean."""
    pa.default_memory_pool().release_unused()
    if _libc is not None:
        _libc.malloc_trim(0)


def _load_libc() -> Any:
    import ctypes
    import ctypes.util

    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name) if name else None
    except OSError:
        return None
    return libc if libc is not None and hasattr(libc, "malloc_trim") else None


_libc = _load_libc()  # glibc's malloc_trim, where there is one


def _one_array(column: pa.ChunkedArray) -> pa.Array:
    """`column.combine_chunks()`, which makes pyarrow load pandas (about 50 MB) when the
    column has no chunks at all; the importer never needs pandas otherwise."""
    return pa.concat_arrays(column.chunks) if column.num_chunks else pa.nulls(0, column.type)


def _without(tables: Tables, keys: pa.Array) -> Tables:
    out = dict(tables)
    for name in HAND_TABLES:
        t = tables[name]
        if t.num_rows:
            out[name] = t.filter(pc.invert(pc.is_in(t.column("hand_key"), value_set=keys)))
    return out


def _audit_rejects(tables: dict[str, pa.Table | None]) -> int:
    rejects = tables["rejects"]
    if rejects is None:
        return 0
    # (a few rows: counted in Python, since a scalar made from "audit" would load pandas)
    return rejects.column("stage").to_pylist().count("audit")
