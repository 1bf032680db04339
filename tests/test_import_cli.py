"""`razz import` as a user runs it: arguments, exit status, progress, summary and `--watch`."""

from __future__ import annotations

import importlib.util
import os
import pty
import select
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from razz.store import db as store_db

_spec = importlib.util.spec_from_file_location("h", Path(__file__).with_name("test_store_hands.py"))
assert _spec is not None and _spec.loader is not None
hands = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(hands)


def razz(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None
         ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "razz", *args], capture_output=True, text=True,
                          timeout=300, cwd=cwd, env=env)


def count(db: Path, sql: str = "SELECT count(*) FROM hands") -> Any:
    with store_db.read_connection(db, retries=400, wait=0.02) as con:
        row = con.execute(sql).fetchone()
    assert row is not None
    return row[0]


def test_the_summary_goes_to_stdout_and_plain_progress_lines_to_stderr(tmp_path: Path) -> None:
    a = tmp_path / "a.txt"
    a.write_text(hands.H1 + hands.H2 + hands.STUD)
    db = tmp_path / "r.duckdb"
    done = razz("import", "--db", str(db), str(a))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"Imported 1 file (1 with new hands, 0 unchanged) into {db} in ")
    assert (
        "2 new hands, 0 duplicates, 1 skipped (other games or rooms not read yet), 0 rejected,"
        " 0 findings" in done.stdout
    )
    assert f"imported {a}" in done.stderr
    again = razz("import", "--db", str(db), str(a))
    assert again.returncode == 0
    assert "(0 with new hands, 1 unchanged)" in again.stdout and "0 new hands" in again.stdout


def test_a_rejected_hand_makes_the_exit_status_1(tmp_path: Path) -> None:
    a = tmp_path / "a.txt"
    a.write_text(hands.H1 + hands.GARBAGE + hands.H2)  # last, it would be held back
    done = razz("import", "--db", str(tmp_path / "r.duckdb"), str(a))
    assert done.returncode == 1
    assert "2 new hands," in done.stdout and "1 rejected" in done.stdout


def test_a_path_that_names_nothing_is_reported_and_the_rest_imported(tmp_path: Path) -> None:
    a = tmp_path / "a.txt"
    a.write_text(hands.H1)
    db = tmp_path / "r.duckdb"
    done = razz("import", "--db", str(db), str(a), str(tmp_path / "missing.txt"))
    assert done.returncode == 2
    assert f"warning: {tmp_path / 'missing.txt'}: no such file or folder" in done.stderr
    assert count(db) == 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((), "give at least one PATH, or --watch DIR"),
        (("x.txt", "--ruleset", "nowhere"), "unknown ruleset 'nowhere'"),
        (("--watch", "not-a-folder"), "--watch needs a folder"),
        (("x.txt", "--watch", "."), "--watch DIR takes no other PATH"),
        (("x.txt", "--batch-hands", "0"), "--batch-hands: must be at least 1, not 0"),
    ],
)
def test_wrong_usage_exits_2_with_a_message(tmp_path: Path, args: tuple[str, ...],
                                            message: str) -> None:
    done = razz("import", "--db", str(tmp_path / "r.duckdb"), *args, cwd=tmp_path)
    assert done.returncode == 2
    assert message in done.stderr
    assert not (tmp_path / "r.duckdb").exists()


def test_the_help_states_the_commit_cadence_the_import_has() -> None:
    from razz.store.importer import Settings

    defaults = Settings()
    done = razz("import", "--help")
    text = " ".join(done.stdout.split())
    assert f"commit every N hands (default {defaults.batch_hands})" in text
    assert f"SECONDS ago (default {defaults.batch_seconds:g})" in text
    assert "at once when no more are coming" in text


def test_the_database_defaults_to_razz_db_then_razz_duckdb_here(tmp_path: Path) -> None:
    a = tmp_path / "a.txt"
    a.write_text(hands.H1)
    env = {k: v for k, v in os.environ.items() if k != "RAZZ_DB"}
    assert razz("import", str(a), cwd=tmp_path, env=env).returncode == 0
    assert count(tmp_path / "razz.duckdb") == 1
    env["RAZZ_DB"] = str(tmp_path / "elsewhere.duckdb")
    assert razz("import", str(a), cwd=tmp_path, env=env).returncode == 0
    assert count(tmp_path / "elsewhere.duckdb") == 1


def test_a_file_that_is_not_a_database_is_an_error_not_a_traceback(tmp_path: Path) -> None:
    a = tmp_path / "a.txt"
    a.write_text(hands.H1)
    db = tmp_path / "r.duckdb"
    db.write_text("not a database")
    done = razz("import", "--db", str(db), str(a))
    assert done.returncode == 2
    assert done.stderr == (
        f"razz import: {db} is not a DuckDB database (give a new or a razz .duckdb file)\n"
    )
    assert db.read_text() == "not a database"


def _run_on_a_terminal(args: list[str]) -> tuple[int, str]:
    """Run a command with a pseudo-terminal as stdout and stderr; return its status and output."""
    leader, follower = pty.openpty()
    proc = subprocess.Popen(args, stdout=follower, stderr=follower, stdin=subprocess.DEVNULL)
    os.close(follower)
    chunks = []
    while True:
        ready, _, _ = select.select([leader], [], [], 60)
        if not ready:
            break
        try:
            data = os.read(leader, 65536)
        except OSError:  # the terminal closed with the process
            break
        if not data:
            break
        chunks.append(data)
    os.close(leader)
    return proc.wait(timeout=60), b"".join(chunks).decode()


def test_on_a_terminal_a_progress_bar_is_redrawn_in_place(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    for i in range(3):
        (folder / f"{i}.txt").write_text(hands.many_hands(40, first_id=10_000 + 100 * i))
    status, out = _run_on_a_terminal(
        [sys.executable, "-m", "razz", "import", "--db", str(tmp_path / "r.duckdb"), str(folder)]
    )
    assert status == 0
    bar = [part for part in out.split("\r") if "errors" in part]
    assert bar, out
    assert "3/3 files" in bar[-1] and "120 hands" in bar[-1] and "hands/s" in bar[-1]
    assert "imported " not in out  # no plain lines on a terminal
    assert "120 new hands" in out


# ------------------------------------------------------------------------ --watch


def _wait_for(condition: Any, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.1)
    raise AssertionError("timed out")


def like_a_terminal() -> None:
    """Start a child as a terminal would, so that SIGINT is Ctrl-C: a shell without job
    control (CI, a script in the background) starts its children with SIGINT ignored, and a
    child keeps an ignored signal ignored."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_watch_imports_hands_as_a_client_appends_them_until_interrupted(tmp_path: Path) -> None:
    folder = tmp_path / "histories"
    folder.mkdir()
    db = tmp_path / "r.duckdb"
    session = folder / "Alpha.txt"
    session.write_text(hands.H1)
    proc = subprocess.Popen(
        [sys.executable, "-m", "razz", "import", "--db", str(db), "--watch", str(folder),
         "--interval", "0.1", "--progress", "lines"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=like_a_terminal,
    )
    try:
        _wait_for(lambda: db.exists() and count(db) == 1)
        # the client writes the next hand in two steps: half of it, then the rest
        half = len(hands.H2) // 2
        with session.open("a") as f:
            f.write(hands.H2[:half])
        time.sleep(0.5)
        with session.open("a") as f:
            f.write(hands.H2[half:])
        _wait_for(lambda: count(db) == 2)
        with session.open("a") as f:
            f.write(hands.H3)
        (folder / "tourney.txt").write_text(hands.T1)
        _wait_for(lambda: count(db) == 4)
        assert count(db, "SELECT count(*) FROM rejects") == 0
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            out, err = proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:  # never leave the watcher behind
            proc.kill()
            proc.communicate()
            raise
    assert proc.returncode == 0, err
    assert "4 new hands" in out and "0 rejected" in out
    assert f"watching {folder}" in err
    assert count(db, "SELECT hands FROM files WHERE path LIKE '%Alpha.txt'") == 3
