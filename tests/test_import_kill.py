"""`kill -9` at any instant of an import leaves whole hands only, and the next run completes.

The import runs as a user runs it (`python -m razz import`, workers included) and is killed
at random moments, several times over; after every kill the database must open, hold no
partial hand and no repeat, and a last run must end with exactly what a clean import stores.
Meanwhile readers must always find whole batches.
"""

from __future__ import annotations

import importlib.util
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from razz.store import db as store_db

_here = Path(__file__).parent
_spec = importlib.util.spec_from_file_location("h", _here / "test_store_hands.py")
assert _spec is not None and _spec.loader is not None
hands = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(hands)
_spec = importlib.util.spec_from_file_location("ti", _here / "test_import.py")
assert _spec is not None and _spec.loader is not None
checks = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(checks)

pytestmark = pytest.mark.slow


def _histories(folder: Path) -> Path:
    """Six files, one of them overlapping another, with a rejected and a skipped hand."""
    folder.mkdir()
    for i in range(5):
        template = hands.H1 if i % 2 else hands.H3
        (folder / f"table{i}.txt").write_text(
            hands.many_hands(180, first_id=5_000_000 + 1000 * i, template=template)
        )
    (folder / "overlap.txt").write_text(
        hands.many_hands(60, first_id=5_002_150, template=hands.H3)  # 30 repeat table2.txt
        + hands.STUD + hands.GARBAGE + hands.H2
    )
    return folder


def _import(db: Path, folder: Path) -> subprocess.Popen[str]:
    # Batches of 200 of the 961 hands: several commits, whatever the machine's speed (the
    # default, 5,000 hands or 5 s, may commit these all at once), for the kills to fall
    # between and the readers to see one by one.
    return subprocess.Popen(
        [sys.executable, "-m", "razz", "import", "--db", str(db), "--progress", "none",
         "--batch-hands", "200", str(folder)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )


def test_kill_9_at_random_moments_never_leaves_a_partial_hand(tmp_path: Path) -> None:
    folder = _histories(tmp_path / "in")
    clean = tmp_path / "clean.duckdb"
    started = time.monotonic()
    proc = _import(clean, folder)
    _, err = proc.communicate(timeout=600)
    took = time.monotonic() - started
    assert proc.returncode == 1, err  # the garbage hand is rejected
    expected = checks.fingerprint(clean)
    assert expected["hands"][0] == 5 * 180 + 30 + 1

    db = tmp_path / "killed.duckdb"
    rng = random.Random(20260)
    seen: list[int] = []
    for _ in range(6):
        proc = _import(db, folder)
        time.sleep(rng.uniform(0.1, took * 0.9))
        proc.kill()  # SIGKILL: no cleanup of any kind
        proc.wait(timeout=60)
        try:
            checks.assert_whole_hands(db)
        except store_db.StoreNotFound:  # killed before the first commit
            continue
        seen.append(checks.one(db, "SELECT count(*) FROM hands"))
        # the files table never claims more than what is stored
        for path, size in checks.fetch(db, "SELECT path, size FROM files"):
            assert size <= Path(path).stat().st_size
    assert seen == sorted(seen)  # kills never lose committed hands
    proc = _import(db, folder)
    _, err = proc.communicate(timeout=600)
    assert proc.returncode in (0, 1), err  # 1 if the rejected hand was not read before
    checks.assert_whole_hands(db)
    assert checks.fingerprint(db) == expected
    assert checks.fetch(db, "SELECT count(*), sum(hands), sum(rejected), sum(skipped) FROM files"
                        ) == checks.fetch(clean, "SELECT count(*), sum(hands), sum(rejected), "
                                                 "sum(skipped) FROM files")


def test_readers_during_an_import_see_whole_batches_and_never_fail(tmp_path: Path) -> None:
    folder = _histories(tmp_path / "in")
    db = tmp_path / "r.duckdb"
    proc = _import(db, folder)
    counts: list[int] = []
    busy = 0
    waits: list[str] = []
    while proc.poll() is None:
        if not db.exists():
            time.sleep(0.05)
            continue
        try:
            with store_db.read_connection(db, retries=400, wait=0.02,
                                          on_wait=waits.append) as con:
                n, partial = _consistent_counts(con)
        except store_db.StoreBusy:
            busy += 1
            continue
        except store_db.StoreNotFound:
            continue  # the very first instant: the file exists, its schema not yet
        assert partial == 0
        counts.append(n)
        time.sleep(0.05)
    assert proc.returncode == 1, proc.stderr.read() if proc.stderr else ""
    assert counts == sorted(counts)
    assert len(set(counts)) >= 2  # the reader saw the import progress, batch by batch
    assert busy == 0
    with store_db.read_connection(db) as con:
        assert _consistent_counts(con) == (5 * 180 + 30 + 1, 0)


def _consistent_counts(con: Any) -> tuple[int, int]:
    """Hands stored, and hands whose player rows are not all there."""
    row = con.execute(
        """
        SELECT (SELECT count(*) FROM hands),
               (SELECT count(*) FROM hands h LEFT JOIN
                   (SELECT hand_key, count(*) n FROM players GROUP BY ALL) p USING (hand_key)
                WHERE coalesce(p.n, 0) <> h.players)
        """
    ).fetchone()
    return row[0], row[1]
