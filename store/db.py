"""Opening the store: where it lives, its schema, and how one writer and many readers share it.

DuckDB lets one process open a database file for writing, or any number of processes open it
read-only, never both at once. The store shares the file this way:

* The importer is the only writer. It never keeps a transaction open while it waits for
  workers, and it gives the file up as soon as a reader asks (see `reader_waiting`).
* A reader (the dashboard, `razz stats`) opens the file read-only for a short while and closes
  it. When the importer holds the file, `connect_read_only` leaves a request beside the
  database (`<db>.wait`), retries with backoff, and raises `StoreBusy` with a message for the
  user if the file stays busy.
* Two imports never run at once: each holds `<db>.import.lock` for its whole run.

>>> default_db_path({"RAZZ_DB": "/data/razz.duckdb"}).as_posix()
'/data/razz.duckdb'
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import re
import time
from collections.abc import Callable, Iterator, Mapping
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from razz.store import summaries

if TYPE_CHECKING:  # duckdb is imported where a connection is made, so commands start fast
    import duckdb

SCHEMA_VERSION = 1
SCHEMA_REVISION = 6
"""Additive changes within a version (new columns and tables): a store of an older revision
is brought up to date the first time this razz opens it (`MIGRATIONS`), readers included."""
DB_ENV = "RAZZ_DB"
DEFAULT_DB = "razz.duckdb"
# A request older than this is from a reader that gave up or died: the writer ignores it.
WAIT_REQUEST_TTL = 10.0

_PID = re.compile(r"\(PID (\d+)\)")


class StoreError(Exception):
    """A problem with the database file that the user must see, in one sentence."""


class StoreBusy(StoreError):
    """The database stayed locked by another process (an import) for longer than allowed."""


class StoreNotFound(StoreError, FileNotFoundError):
    """There is no database file at the given path."""


class StoreVersionError(StoreError):
    """The file was written by another version of the schema."""


def default_db_path(environ: Mapping[str, str] | None = None) -> Path:
    """`$RAZZ_DB`, else `razz.duckdb` in the current folder."""
    env = os.environ if environ is None else environ
    return Path(env.get(DB_ENV) or DEFAULT_DB)


def wait_request_path(db: Path | str) -> Path:
    """The file a blocked reader creates to ask the writer for the database."""
    return Path(f"{db}.wait")


def import_lock_path(db: Path | str) -> Path:
    return Path(f"{db}.import.lock")


DUCKDB_MAGIC = b"DUCK"  # at byte 8 of every DuckDB database file


def check_writable(path: Path | str) -> None:
    """Raise `StoreError` (one sentence) when an import could not write the store at `path`.

    Checked before anything is created, so a wrong `--db` leaves nothing behind.

    >>> try:
    ...     check_writable("/nonexistent/dir/x.duckdb")
    ... except StoreError as exc:
    ...     print(exc)
    cannot create /nonexistent/dir/x.duckdb: the folder /nonexistent/dir does not exist
    """
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    if path.is_dir():
        raise StoreError(f"cannot use {path} as the database: it is a folder")
    if path.exists():
        try:
            with path.open("rb") as handle:
                head = handle.read(12)
        except OSError as exc:
            raise StoreError(f"cannot read {path}: {exc.strerror}") from None
        if head and head[8:12] != DUCKDB_MAGIC:
            raise StoreError(f"{path} is not a DuckDB database (give a new or a razz .duckdb file)")
        if not os.access(path, os.W_OK):
            raise StoreError(f"cannot write {path}: permission denied")
        return
    if not folder.is_dir():
        what = "is not a folder" if folder.exists() else "does not exist"
        raise StoreError(f"cannot create {path}: the folder {folder} {what}")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise StoreError(f"cannot create {path}: the folder {folder} is not writable")


def is_lock_conflict(exc: BaseException) -> bool:
    """True when DuckDB refused to open a file because another process holds it."""
    return "Could not set lock on file" in str(exc) or "Conflicting lock" in str(exc)


def lock_holder(exc: BaseException) -> int | None:
    """The PID DuckDB names in a lock conflict, if any.

    >>> lock_holder(OSError('Conflicting lock is held in /usr/bin/python3 (PID 4242).'))
    4242
    """
    found = _PID.search(str(exc))
    return int(found.group(1)) if found else None


# ------------------------------------------------------------------ the reader's side


def connect_read_only(
    path: Path | str,
    *,
    retries: int = 150,
    wait: float = 0.02,
    max_wait: float = 0.2,
    on_wait: Callable[[str], None] | None = None,
) -> duckdb.DuckDBPyConnection:
    """Open the store read-only, retrying while an import holds it; `StoreBusy` if it stays busy.

    `on_wait` receives a message for the user at the first retry (e.g. to show "data is being
    imported, retrying"). Close the connection soon: while it is open, imports wait.

    >>> try:
    ...     connect_read_only("/nonexistent/razz.duckdb")
    ... except StoreNotFound as exc:
    ...     print(exc)
    No database at /nonexistent/razz.duckdb: run `razz import` first.
    """
    import duckdb

    path = Path(path)
    if not path.exists():
        raise StoreNotFound(f"No database at {path}: run `razz import` first.")
    delay = wait
    started = time.monotonic()
    for attempt in range(retries + 1):
        try:
            con = duckdb.connect(str(path), read_only=True)
        except duckdb.Error as exc:
            if not is_lock_conflict(exc):
                raise StoreError(f"Cannot open {path}: {exc}") from exc
            if attempt == retries:
                _withdraw_request(path)
                pid = lock_holder(exc)
                who = f" (PID {pid})" if pid else ""
                raise StoreBusy(
                    f"{path} is being written by an import{who}; tried for "
                    f"{time.monotonic() - started:.1f} s. Try again in a moment."
                ) from exc
            _request_database(path)
            if attempt == 0 and on_wait is not None:
                on_wait(f"Data is being imported into {path.name}, retrying…")
            time.sleep(delay)
            delay = min(delay * 1.5, max_wait)
        else:
            _withdraw_request(path)
            _check_version(con, path)
            return _upgraded(con, path)
    raise AssertionError("unreachable")  # the loop returns or raises


@contextlib.contextmanager
def read_connection(path: Path | str, **options: object) -> Iterator[duckdb.DuckDBPyConnection]:
    """A read-only connection for one group of queries, closed at the end of the block."""
    con = connect_read_only(path, **options)  # type: ignore[arg-type]
    try:
        yield con
    finally:
        con.close()


def _request_database(path: Path) -> None:
    # Touch, so a request renewed at every retry stays fresh while the reader waits.
    with contextlib.suppress(OSError):
        wait_request_path(path).touch()


def _withdraw_request(path: Path) -> None:
    with contextlib.suppress(OSError):
        wait_request_path(path).unlink()


def _revision(con: duckdb.DuckDBPyConnection) -> int:
    """The store's revision: 1 for a store written before revisions were recorded."""
    row = con.execute("SELECT value FROM meta WHERE key = 'schema_revision'").fetchone()
    return 1 if row is None else int(row[0])


@functools.cache
def analytics_digest() -> str:
    """What identifies this razz's `analytics.sql`: a store whose macros differ gets them anew."""
    return hashlib.sha256(sql_text("analytics.sql").encode()).hexdigest()[:16]


def _current(con: duckdb.DuckDBPyConnection) -> bool:
    if _revision(con) < SCHEMA_REVISION:
        return False
    row = con.execute("SELECT value FROM meta WHERE key = 'analytics'").fetchone()
    return row is not None and row[0] == analytics_digest()


def _upgraded(con: duckdb.DuckDBPyConnection, path: Path) -> duckdb.DuckDBPyConnection:
    """`con` when the store is of the current revision and has this razz's analytics macros;
    else a connection to the store once `migrations` and the macros have been applied (a short
    write: columns added and filled in, macros replaced, nothing removed)."""
    if _current(con):
        return con
    con.close()
    try:
        connect_writer(path, timeout=10.0).close()
    except StoreBusy as exc:
        raise StoreBusy(f"{path} must be brought up to date by one write, but {exc}") from exc
    except Exception as exc:
        raise StoreVersionError(
            f"{path} was written by an older razz and cannot be brought up to date here "
            f"({exc}): run `razz import` into it once where it can be written."
        ) from exc
    import duckdb

    return duckdb.connect(str(path), read_only=True)


def _check_version(con: duckdb.DuckDBPyConnection, path: Path) -> None:
    import duckdb

    try:
        row = con.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    except duckdb.CatalogException:
        row = None
    if row is None and con.execute("SELECT count(*) FROM duckdb_tables()").fetchone() == (0,):
        # Created by an import that has not committed its first transaction yet (or died).
        con.close()
        raise StoreNotFound(f"{path} holds no hands yet: run `razz import`.")
    if row is None or int(row[0]) != SCHEMA_VERSION:
        found = "none" if row is None else row[0]
        con.close()
        raise StoreVersionError(
            f"{path} has schema version {found}, this razz reads version {SCHEMA_VERSION}: "
            "import into a new database file."
        )


# ------------------------------------------------------------------ the writer's side


def reader_waiting(path: Path | str, now: float | None = None) -> bool:
    """True when a reader asked for the database within the last `WAIT_REQUEST_TTL` seconds."""
    try:
        touched = wait_request_path(path).stat().st_mtime
    except OSError:
        return False
    return (time.time() if now is None else now) - touched < WAIT_REQUEST_TTL


def connect_writer(
    path: Path | str,
    *,
    timeout: float | None = 60.0,
    on_wait: Callable[[str], None] | None = None,
    memory_limit: str = "256MB",
    threads: int = 1,
    apply: bool = True,
) -> duckdb.DuckDBPyConnection:
    """Open (or create) the store for writing, waiting while readers hold it; apply the schema."""
    import duckdb

    path = Path(path)
    delay, started, told = 0.02, time.monotonic(), False
    while True:
        try:
            con = duckdb.connect(
                str(path), config={"memory_limit": memory_limit, "threads": threads}
            )
            break
        except duckdb.Error as exc:
            if not is_lock_conflict(exc):
                raise StoreError(f"Cannot open {path} for writing: {exc}") from exc
            waited = time.monotonic() - started
            if timeout is not None and waited >= timeout:
                raise StoreBusy(
                    f"{path} stayed open in another program (PID {lock_holder(exc)}) for "
                    f"{waited:.0f} s; close it (a dashboard keeping a connection?) and retry."
                ) from exc
            if not told and on_wait is not None and waited > 1.0:
                on_wait(f"waiting for {path.name}: it is open in another program")
                told = True
            time.sleep(delay)
            delay = min(delay * 1.5, 0.5)
    if apply:
        try:
            apply_schema(con)
        except BaseException:
            con.close()
            raise
    return con


def apply_schema(con: duckdb.DuckDBPyConnection) -> None:
    """Create missing tables, (re)create the analytics views, and check the schema version."""
    row = None
    has_meta = con.execute(
        "SELECT count(*) FROM duckdb_tables() WHERE table_name = 'meta' AND schema_name = 'main'"
    ).fetchone()
    if has_meta and has_meta[0]:
        row = con.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    if row is not None and int(row[0]) != SCHEMA_VERSION:
        raise StoreVersionError(
            f"the database has schema version {row[0]}; this razz writes version "
            f"{SCHEMA_VERSION}: import into a new database file."
        )
    con.execute("BEGIN")
    try:
        con.execute(sql_text("schema.sql"))
        con.execute(summaries.table_sql())
        # Before the analytics: its views name the columns that migrations add.
        for step in migrations(_revision(con)):
            con.execute(*step)
        con.execute(sql_text("analytics.sql"))
        con.execute(
            "INSERT OR REPLACE INTO meta VALUES ('schema_version', ?)", [str(SCHEMA_VERSION)]
        )
        con.execute(
            "INSERT OR REPLACE INTO meta VALUES ('schema_revision', ?)", [str(SCHEMA_REVISION)]
        )
        con.execute("INSERT OR REPLACE INTO meta VALUES ('analytics', ?)", [analytics_digest()])
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise
    from razz.store import allin_backfill

    # A store made before all-in EV: its old hands' EV, once; the runs sum it: again.
    if allin_backfill.needed(con) and allin_backfill.backfill(con):
        con.execute("BEGIN")
        try:
            summaries.rebuild(con, ("player_runs",))
            con.execute("COMMIT")
        except BaseException:
            con.execute("ROLLBACK")
            raise


Statement = tuple[str, list[object]]


def migrations(revision: int) -> list[Statement]:
    """What brings a store of `revision` up to `SCHEMA_REVISION`: each revision's statements
    (added columns, filled in for the hands already stored), oldest first; `schema.sql`
    already creates the tables a revision adds, and new stores get every column from it.

    >>> [sql.split(" ADD")[0] for sql, _ in migrations(1)][:1]
    ['ALTER TABLE hands']
    >>> migrations(SCHEMA_REVISION)
    []
    """
    steps: list[Statement] = []
    if revision < 2:  # each hand's room, named as its site's registry entry titles it
        from razz.parser import sites

        steps.append(("ALTER TABLE hands ADD COLUMN IF NOT EXISTS room VARCHAR", []))
        names = [site.name for site in sites.SITES]
        titles = [site.title for site in sites.SITES]
        steps.append((
            "UPDATE hands SET room = coalesce(map_from_entries(list_zip(?::VARCHAR[], "
            "?::VARCHAR[]))[site], site) WHERE room IS NULL",
            [names, titles],
        ))
    # The sums of the player pages for the hands already stored: revision 3 the daily sums,
    # revision 4 the starting hands and the runs of hands at a table.
    tables = (("player_days",) if revision < 3 else ()) + (
        ("player_starts", "player_runs") if revision < 4 else ())
    steps += [(sql, []) for sql in summaries.fill_statements(tables)] if tables else []
    if revision < 5:  # which finding a consequence follows from (issue 14: one violation,
        # one finding); the findings already stored were linked to none, and stay violations
        steps.append(("ALTER TABLE violations ADD COLUMN IF NOT EXISTS consequence_of_rule"
                      " VARCHAR", []))
        steps.append(("ALTER TABLE violations ADD COLUMN IF NOT EXISTS consequence_of_line"
                      " INTEGER", []))
    if revision < 6:  # the Audit page's sums of the hands and findings already stored
        steps += [(sql, []) for sql in summaries.fill_statements(("audit_sums",))]
    return steps


def sql_text(name: str) -> str:
    """The text of one of the store's `.sql` files (shipped as package data)."""
    return resources.files("razz.store").joinpath(name).read_text(encoding="utf-8")


# ------------------------------------------------------------------ one import at a time


class ImportLock:
    """An exclusive lock on `<db>.import.lock` for the length of an import (freed if it dies)."""

    def __init__(self, db: Path | str) -> None:
        self.db = Path(db)
        self.path = import_lock_path(db)
        self._file: TextIO | None = None

    def acquire(self, *, wait: bool = True, on_wait: Callable[[str], None] | None = None) -> None:
        import fcntl

        told = False
        while True:
            try:
                handle = open(self.path, "a+", encoding="utf-8")  # noqa: SIM115 - kept open
            except OSError as exc:
                raise StoreError(f"cannot create {self.path}: {exc.strerror}") from None
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                if not wait:
                    handle.close()
                    raise StoreBusy(f"another import into {self.db.name} is running") from None
                if on_wait is not None and not told:
                    on_wait("another import into this database is running: waiting for it to end")
                    told = True
                fcntl.flock(handle, fcntl.LOCK_EX)
            # The holder before us removes the file as it ends (see `release`): a lock on a
            # file no longer at the path locks nothing, so take the one now there.
            try:
                same = os.path.samestat(os.fstat(handle.fileno()), os.stat(self.path))
            except OSError:
                same = False
            if same:
                self._file = handle
                return
            handle.close()

    def release(self) -> None:
        """End the lock and remove its file (removed while held, so no one takes it meanwhile)."""
        if self._file is not None:
            with contextlib.suppress(OSError):
                self.path.unlink()
            self._file.close()  # closing the descriptor drops the flock
            self._file = None

    def __enter__(self) -> ImportLock:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()
