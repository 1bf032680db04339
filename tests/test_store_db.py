"""The store's file: its schema, and how one writer and its readers share it."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time
from pathlib import Path

import duckdb
import pytest

from razz.store import db as store_db
from razz.store.rows import SCHEMAS
from razz.store.writer import Writer

PY = sys.executable


def _reader(db: Path, retries: int, wait: float) -> subprocess.Popen[str]:
    """A separate process that opens the store read-only (DuckDB locks per process)."""
    code = textwrap.dedent(
        f"""
        from razz.store import db
        try:
            with db.read_connection({str(db)!r}, retries={retries}, wait={wait},
                                    on_wait=lambda m: print("WAIT", m, flush=True)) as con:
                print("OK", con.execute("SELECT count(*) FROM files").fetchone()[0], flush=True)
        except db.StoreBusy as exc:
            print("BUSY", exc, flush=True)
        """
    )
    return subprocess.Popen([PY, "-c", code], stdout=subprocess.PIPE, text=True)


def test_every_arrow_table_matches_its_sql_table_column_for_column(tmp_path: Path) -> None:
    con = store_db.connect_writer(tmp_path / "s.duckdb")
    for name, schema in SCHEMAS.items():
        described = con.execute(f"DESCRIBE {name}").fetchall()
        assert [row[0] for row in described] == schema.names, name
        # an empty Arrow table of that schema loads without a cast error
        empty = schema.empty_table()  # noqa: F841 - read by the query
        con.execute(f"INSERT INTO {name} BY NAME SELECT * FROM empty")
    con.close()


def test_the_schema_is_applied_once_and_versioned(tmp_path: Path) -> None:
    path = tmp_path / "s.duckdb"
    store_db.connect_writer(path).close()
    store_db.connect_writer(path).close()  # again: nothing changes, nothing fails
    with store_db.read_connection(path) as con:
        # The version, the revision, the analytics' digest, and that the all-in EV of stored
        # hands is computed (none to compute).
        assert dict(con.execute("SELECT key, value FROM meta").fetchall()) == {
            "schema_version": str(store_db.SCHEMA_VERSION),
            "schema_revision": str(store_db.SCHEMA_REVISION),
            "analytics": store_db.analytics_digest(), "allin_ev": "1",
        }
        views = {r[0] for r in con.execute("SELECT view_name FROM duckdb_views()").fetchall()}
        assert {"player_stats", "sessions", "findings_by_rule", "findings_by_file"} <= views


def test_a_database_of_another_schema_version_is_refused_with_a_clear_error(
    tmp_path: Path,
) -> None:
    path = tmp_path / "s.duckdb"
    con = store_db.connect_writer(path)
    con.execute("UPDATE meta SET value = '99' WHERE key = 'schema_version'")
    con.close()
    with pytest.raises(store_db.StoreVersionError, match="schema version 99"):
        store_db.connect_writer(path)
    with pytest.raises(store_db.StoreVersionError, match="schema version 99"):
        store_db.connect_read_only(path)


def test_a_file_that_is_not_a_database_is_a_store_error_not_a_crash(tmp_path: Path) -> None:
    path = tmp_path / "s.duckdb"
    path.write_text("PokerStars Hand #1: this is a hand history, not a database\n" * 100)
    with pytest.raises(store_db.StoreError):
        store_db.connect_read_only(path)
    with pytest.raises(store_db.StoreError):
        store_db.connect_writer(path)


def test_an_empty_database_file_says_there_are_no_hands_yet(tmp_path: Path) -> None:
    path = tmp_path / "s.duckdb"
    duckdb.connect(str(path)).close()  # what an import killed before its first commit leaves
    with pytest.raises(store_db.StoreNotFound, match="holds no hands yet"):
        store_db.connect_read_only(path)
    other = tmp_path / "other.duckdb"
    con = duckdb.connect(str(other))
    con.execute("CREATE TABLE something_else (x INTEGER)")
    con.close()
    with pytest.raises(store_db.StoreVersionError, match="schema version none"):
        store_db.connect_read_only(other)


def test_the_default_database_is_razz_duckdb_unless_razz_db_is_set() -> None:
    assert store_db.default_db_path({}) == Path("razz.duckdb")
    assert store_db.default_db_path({"RAZZ_DB": "/x/y.duckdb"}) == Path("/x/y.duckdb")


def test_a_reader_gives_up_with_store_busy_while_a_writer_will_not_yield(tmp_path: Path) -> None:
    path = tmp_path / "s.duckdb"
    con = store_db.connect_writer(path)
    try:
        reader = _reader(path, retries=5, wait=0.02)
        out, _ = reader.communicate(timeout=60)
    finally:
        con.close()
    assert out.startswith("WAIT Data is being imported into s.duckdb, retrying")
    assert "BUSY" in out and "is being written by an import" in out
    # a reader that gives up withdraws its request
    assert not store_db.wait_request_path(path).exists()


def test_the_writer_lets_a_waiting_reader_in_then_takes_the_file_back(tmp_path: Path) -> None:
    path = tmp_path / "s.duckdb"
    writer = Writer(path)
    writer.file_states(["nothing"])  # the writer holds the file
    reader = _reader(path, retries=200, wait=0.02)
    # nobody calls the writer: its own thread sees the request and lets the reader in
    out, _ = reader.communicate(timeout=60)
    assert out.splitlines()[0].startswith("WAIT")  # it did have to ask
    assert out.splitlines()[-1] == "OK 0"
    # the writer works again after it gave the file away
    assert writer.file_states(["nothing"]) == {}
    writer.close()


def test_a_stale_request_does_not_make_the_writer_yield(tmp_path: Path) -> None:
    path = tmp_path / "s.duckdb"
    writer = Writer(path)
    request = store_db.wait_request_path(path)
    request.touch()
    assert store_db.reader_waiting(path)
    old = time.time() - store_db.WAIT_REQUEST_TTL - 1
    import os

    os.utime(request, (old, old))
    assert not writer.yield_to_readers()
    writer.close()


def test_a_writer_waits_for_a_reader_to_close_the_file(tmp_path: Path) -> None:
    path = tmp_path / "s.duckdb"
    store_db.connect_writer(path).close()
    holder = subprocess.Popen(
        [PY, "-c", textwrap.dedent(f"""
            import time, duckdb
            con = duckdb.connect({str(path)!r}, read_only=True)
            print("open", flush=True)
            time.sleep(1.5)
            con.close()
            """)],
        stdout=subprocess.PIPE, text=True,
    )
    assert holder.stdout is not None and holder.stdout.readline() == "open\n"
    started = time.monotonic()
    messages: list[str] = []
    con = store_db.connect_writer(path, timeout=30, on_wait=messages.append)
    waited = time.monotonic() - started
    con.close()
    holder.wait(timeout=10)
    assert waited > 0.5
    assert messages == ["waiting for s.duckdb: it is open in another program"]


def test_a_writer_that_waits_too_long_says_who_holds_the_file(tmp_path: Path) -> None:
    path = tmp_path / "s.duckdb"
    store_db.connect_writer(path).close()
    holder = subprocess.Popen(
        [PY, "-c", textwrap.dedent(f"""
            import time, duckdb
            con = duckdb.connect({str(path)!r}, read_only=True)
            print("open", flush=True)
            time.sleep(30)
            """)],
        stdout=subprocess.PIPE, text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "open\n"
        with pytest.raises(store_db.StoreBusy, match=f"PID {holder.pid}"):
            store_db.connect_writer(path, timeout=0.3)
    finally:
        holder.kill()
        holder.wait()


def test_two_imports_never_run_at_once(tmp_path: Path) -> None:
    path = tmp_path / "s.duckdb"
    first = store_db.ImportLock(path)
    first.acquire()
    code = textwrap.dedent(f"""
        from razz.store import db
        try:
            db.ImportLock({str(path)!r}).acquire(wait=False)
            print("acquired")
        except db.StoreBusy as exc:
            print("busy:", exc)
        """)
    out = subprocess.run([PY, "-c", code], capture_output=True, text=True, timeout=60).stdout
    assert out.startswith("busy: another import into s.duckdb is running")
    first.release()
    out = subprocess.run([PY, "-c", code], capture_output=True, text=True, timeout=60).stdout
    assert out == "acquired\n"


def test_read_only_connections_cannot_change_the_store(tmp_path: Path) -> None:
    path = tmp_path / "s.duckdb"
    store_db.connect_writer(path).close()
    with store_db.read_connection(path) as con, pytest.raises(duckdb.Error):
        con.execute("DELETE FROM files")
