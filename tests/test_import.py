"""`razz import`: every hand stored once with its findings, rejects and skipped hands kept,
files that grow read from where they stopped, and the same result in workers or in process."""

from __future__ import annotations

import importlib.util
import zipfile
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from razz.store import db as store_db
from razz.store import ingest
from razz.store.importer import Settings, import_paths
from razz.store.progress import ImportSummary

_spec = importlib.util.spec_from_file_location("h", Path(__file__).with_name("test_store_hands.py"))
assert _spec is not None and _spec.loader is not None
hands = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(hands)

IN_PROCESS = Settings(workers=0)


def run(paths: list[Path], db: Path, settings: Settings = IN_PROCESS) -> ImportSummary:
    return import_paths([str(p) for p in paths], db, settings=settings)


def fetch(db: Path, sql: str, params: list[Any] | None = None) -> list[tuple[Any, ...]]:
    with store_db.read_connection(db) as con:
        return con.execute(sql, params or []).fetchall()


def one(db: Path, sql: str, params: list[Any] | None = None) -> Any:
    (row,) = fetch(db, sql, params)
    return row[0] if len(row) == 1 else row


def write(path: Path, text: str, newline: str = "\n") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.replace("\n", newline).encode("utf-8"))
    return path


def fingerprint(db: Path) -> dict[str, tuple[int, int]]:
    """Row count and an order-free hash of every table (file ids and times left out)."""
    out = {}
    with store_db.read_connection(db) as con:
        for table, excluded in [
            ("hands", "file_id"), ("players", None), ("actions", None), ("cards", None),
            ("pots", None), ("violations", None), ("rejects", "file_id"), ("skipped", "file_id"),
        ]:
            cols = f"* EXCLUDE ({excluded})" if excluded else "*"
            out[table] = con.execute(
                f"SELECT count(*), coalesce(sum(hash(*COLUMNS({cols}))), 0) FROM {table}"
            ).fetchone()
        # The daily sums of the player pages, as their readers add them up (a hand stored
        # again must leave them as if it had been stored once).
        out["player_days"] = con.execute("""
            SELECT count(*), coalesce(sum(hash(*COLUMNS(*))), 0) FROM (
                SELECT player, room, unit, currency, kind, stakes, big_bet, table_name, day,
                       sum(hands), sum(hero_hands), sum(net), round(sum(net_bb), 6),
                       round(sum(rake_paid), 6)
                FROM player_days GROUP BY ALL HAVING sum(hands) <> 0)
            """).fetchone()
    return out


def assert_whole_hands(db: Path) -> None:
    """Every stored hand has all its rows: no partial hand, no orphan row, no repeat."""
    assert one(db, "SELECT count(*) - count(DISTINCT hand_key) FROM hands") == 0
    assert fetch(db, """
        SELECT h.hand_key FROM hands h
        LEFT JOIN (SELECT hand_key, count(*) n FROM players GROUP BY ALL) p USING (hand_key)
        LEFT JOIN (SELECT hand_key, count(*) n FROM violations GROUP BY ALL) v USING (hand_key)
        LEFT JOIN (SELECT hand_key, count(*) n FROM actions GROUP BY ALL) a USING (hand_key)
        WHERE coalesce(p.n, 0) <> h.players OR coalesce(v.n, 0) <> h.findings
           OR coalesce(a.n, 0) = 0
        """) == []
    for child in ("players", "actions", "cards", "pots", "violations"):
        assert one(db, f"SELECT count(*) FROM {child} ANTI JOIN hands USING (hand_key)") == 0


# ------------------------------------------------------------------------------ storing


def test_every_hand_is_stored_with_its_rows_its_text_and_its_file(tmp_path: Path) -> None:
    a = write(tmp_path / "a.txt", hands.H1 + hands.H2 + hands.H3)
    db = tmp_path / "r.duckdb"
    summary = run([a], db)
    assert (summary.hands, summary.duplicates, summary.rejected, summary.skipped) == (3, 0, 0, 0)
    assert fetch(db, "SELECT hand_id, source, first_line, players, hero FROM hands ORDER BY 1") == [
        ("1000000001", str(a), 1, 3, "Hero"),
        ("1000000002", str(a), 28, 3, "Hero"),
        ("1000000003", str(a), 77, 3, "Hero"),
    ]
    assert one(db, "SELECT raw_text FROM hands WHERE hand_id = '1000000002'") == hands.H2.rstrip(
        "\n"
    ) + "\n"
    assert fetch(db, "SELECT stakes, unit, currency, kind, table_name, rake, total_pot "
                     "FROM hands WHERE hand_id = '1000000002'") == [
        ("$0.04/$0.08", "cent", "USD", "cash", "Alpha", 3, 65)
    ]
    assert fetch(db, "SELECT player, seat, net FROM players WHERE hand_key = "
                     "'PokerStars:1000000002' ORDER BY seat") == [
        ("Alice", 1, 31), ("Bob", 3, -3), ("Hero", 5, -31),
    ]
    # line numbers are the file's: Hero's first call in H2 is on line 28 + 13
    assert one(db, "SELECT line FROM actions WHERE hand_key = 'PokerStars:1000000002' "
                   "AND player = 'Hero' AND kind = 'call' ORDER BY seq LIMIT 1") == 41
    assert fetch(db, "SELECT path, size, lines, hands, duplicates, skipped, rejected "
                     "FROM files") == [(str(a), a.stat().st_size, 103, 3, 0, 0, 0)]
    assert_whole_hands(db)


def test_the_hands_text_is_stored_compressed_with_zstd(tmp_path: Path) -> None:
    # The bulk of the store (schema.sql says why): left to choose, DuckDB picked DICT_FSST,
    # about twice the size and a slower checkpoint.
    db = tmp_path / "r.duckdb"
    run([write(tmp_path / "a.txt", hands.H1 + hands.H2 + hands.H3)], db)
    assert fetch(db, "SELECT DISTINCT compression FROM pragma_storage_info('hands') "
                     "WHERE column_name = 'raw_text' AND segment_type = 'VARCHAR'") == [("ZSTD",)]


def test_findings_are_stored_with_the_line_that_breaks_the_rule(tmp_path: Path) -> None:
    a = write(tmp_path / "a.txt", hands.H1 + hands.B1)
    db = tmp_path / "r.duckdb"
    summary = run([a], db)
    rows = fetch(db, "SELECT v.rule, v.severity, v.line FROM violations v "
                     "JOIN hands h USING (hand_key) WHERE h.hand_id = '1000000010'")
    assert ("BRINGIN-WHO", "error", 27 + 10) in rows
    assert one(db, "SELECT findings FROM hands WHERE hand_id = '1000000010'") == len(rows)
    assert summary.findings == one(db, "SELECT count(*) FROM violations")


def test_rejected_hands_keep_their_text_and_error_and_other_games_are_counted(
    tmp_path: Path,
) -> None:
    a = write(tmp_path / "a.txt", hands.H1 + hands.STUD + hands.GARBAGE + hands.H3)
    db = tmp_path / "r.duckdb"
    summary = run([a], db)
    assert (summary.hands, summary.skipped, summary.rejected) == (2, 1, 1)
    (reject,) = fetch(db, "SELECT source, hand_id, first_line, line, stage, error, line_text, "
                          "raw_text FROM rejects")
    first = 1 + hands.H1.count("\n") + hands.STUD.count("\n")
    assert reject[:5] == (str(a), "1000000098", first, first + 1, "parse")
    assert reject[5]  # the parser's reason
    assert reject[6] == "this line is not part of any hand history format"
    assert reject[7] == hands.GARBAGE.rstrip("\n") + "\n"
    assert fetch(db, "SELECT hand_id, game, first_line FROM skipped") == [
        ("1000000099", "7 Card Stud", 1 + hands.H1.count("\n"))
    ]
    assert fetch(db, "SELECT hands, skipped, rejected FROM files") == [(2, 1, 1)]


def test_an_audit_that_fails_keeps_the_hand_as_a_reject(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = ingest._auditor()

    def flaky(hand: Any, ruleset: Any) -> Any:
        if hand.header.hand_id == "1000000002":
            raise ZeroDivisionError("boom")
        return real(hand, ruleset)

    monkeypatch.setattr(ingest, "_auditor", lambda: flaky)
    a = write(tmp_path / "a.txt", hands.H1 + hands.H2 + hands.H3)
    db = tmp_path / "r.duckdb"
    summary = run([a], db)
    assert (summary.hands, summary.rejected) == (2, 1)
    assert fetch(db, "SELECT hand_id, stage, error, first_line FROM rejects") == [
        ("1000000002", "audit", "the audit failed: ZeroDivisionError: boom", 28)
    ]
    assert one(db, "SELECT raw_text FROM rejects") == hands.H2.rstrip("\n") + "\n"


# ------------------------------------------------------------------------ never twice


def test_importing_the_same_file_twice_adds_nothing(tmp_path: Path) -> None:
    a = write(tmp_path / "a.txt", hands.H1 + hands.H2 + hands.STUD + hands.GARBAGE)
    db = tmp_path / "r.duckdb"
    run([a], db)
    before = fingerprint(db)
    again = run([a], db)
    assert (again.files, again.files_read, again.hands, again.duplicates) == (1, 0, 0, 0)
    assert fingerprint(db) == before
    assert one(db, "SELECT count(*) FROM files") == 1


def test_overlapping_files_store_each_hand_once(tmp_path: Path) -> None:
    a = write(tmp_path / "a.txt", hands.H1 + hands.H2)
    b = write(tmp_path / "b.txt", hands.H2 + hands.H3)
    db = tmp_path / "r.duckdb"
    run([a], db)
    summary = run([b], db)
    assert (summary.hands, summary.duplicates) == (1, 1)
    assert one(db, "SELECT count(*) FROM hands") == 3
    assert fetch(db, "SELECT path, hands, duplicates FROM files ORDER BY path") == [
        (str(a), 2, 0), (str(b), 1, 1),
    ]
    # the hand belongs to the file it was first read from
    assert one(db, "SELECT source FROM hands WHERE hand_id = '1000000002'") == str(a)
    assert_whole_hands(db)


def test_the_same_hand_twice_in_one_import_is_stored_once(tmp_path: Path) -> None:
    a = write(tmp_path / "a.txt", hands.H1 + hands.H2 + hands.H1)
    b = write(tmp_path / "b.txt", hands.H2 + hands.H3)
    db = tmp_path / "r.duckdb"
    summary = run([a, b], db)
    assert (summary.hands, summary.duplicates) == (3, 2)
    assert fetch(db, "SELECT path, hands, duplicates FROM files ORDER BY path") == [
        (str(a), 2, 1), (str(b), 1, 1),
    ]
    assert_whole_hands(db)


def test_a_grown_file_imports_only_its_new_hands(tmp_path: Path) -> None:
    a = write(tmp_path / "a.txt", hands.H1 + hands.H2, newline="\r\n")
    db = tmp_path / "r.duckdb"
    run([a], db)
    with a.open("ab") as f:
        f.write(hands.H3.replace("\n", "\r\n").encode())
    summary = run([a], db)
    # the last hand read before is read again (it might have been stored short): not news
    assert (summary.hands_read, summary.hands, summary.duplicates, summary.repaired) == (
        2, 1, 0, 0)
    assert one(db, "SELECT first_line FROM hands WHERE hand_id = '1000000003'") == 77
    assert fetch(db, "SELECT size, lines, hands FROM files") == [(a.stat().st_size, 103, 3)]


def test_a_rewritten_file_is_read_again_and_adds_only_hands_it_did_not_have(
    tmp_path: Path,
) -> None:
    a = write(tmp_path / "a.txt", hands.H1 + hands.H2 + hands.GARBAGE + hands.STUD)
    db = tmp_path / "r.duckdb"
    run([a], db)
    # same file name, other bytes first
    write(a, hands.H3 + hands.H1 + hands.H2 + hands.GARBAGE + hands.STUD)
    summary = run([a], db)
    assert (summary.hands_read, summary.hands, summary.duplicates) == (3, 1, 2)
    assert fetch(db, "SELECT hands, duplicates, rejected, skipped, size FROM files") == [
        (3, 2, 1, 1, a.stat().st_size)
    ]
    # the reject and the skipped hand are recorded once, where they are now
    assert one(db, "SELECT first_line FROM rejects") == 1 + (hands.H3 + hands.H1 + hands.H2).count(
        "\n")
    assert one(db, "SELECT count(*) FROM skipped") == 1


def test_a_hand_cut_short_is_held_back_until_the_file_is_complete(tmp_path: Path) -> None:
    partial = hands.H2[: len(hands.H2) // 2]
    a = write(tmp_path / "a.txt", hands.H1 + partial)
    db = tmp_path / "r.duckdb"
    first = run([a], db)
    # the unfinished hand is neither stored nor rejected, but the user is told where it is
    assert (first.hands, first.rejected, first.held) == (1, 0, ((str(a), 28),))
    assert one(db, "SELECT count(*) FROM rejects") == 0
    assert one(db, "SELECT size FROM files") == len(hands.H1.encode())
    again = run([a], db)  # nothing new: nothing read, still held back
    assert (again.files_read, again.hands_read, again.held) == (0, 0, ((str(a), 28),))
    write(a, hands.H1 + hands.H2 + hands.H3)
    second = run([a], db)
    assert (second.hands, second.rejected) == (2, 0)
    assert one(db, "SELECT count(*) FROM rejects") == 0
    assert fetch(db, "SELECT hands, rejected, size FROM files") == [(3, 0, a.stat().st_size)]
    assert_whole_hands(db)


def test_a_broken_last_hand_is_held_back_in_a_file_and_rejected_in_a_zip(
    tmp_path: Path,
) -> None:
    # A file on disk may still be written: its broken last hand, with no empty line after it
    # yet, may be a hand half written.
    a = write(tmp_path / "a.txt", hands.H1 + hands.GARBAGE.rstrip("\n"))
    db = tmp_path / "r.duckdb"
    for _ in range(2):
        summary = run([a], db)
        assert (summary.rejected, summary.held) == (0, ((str(a), 28),))
    assert one(db, "SELECT count(*) FROM rejects") == 0
    # Followed by a hand, it is what it is: rejected, once.
    write(a, hands.H1 + hands.GARBAGE + hands.H2)
    assert (run([a], db).rejected, run([a], db).rejected) == (1, 0)
    # A zip member never grows: its broken last hand is rejected.
    archive = tmp_path / "z.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("b.txt", hands.H3 + hands.GARBAGE)
    summary = run([archive], db)
    assert (summary.rejected, summary.held) == (1, ())
    assert one(db, "SELECT count(*) FROM rejects") == 2


# ------------------------------------------------------------------------ sources


def test_folders_globs_and_zip_archives_are_imported(tmp_path: Path) -> None:
    write(tmp_path / "in" / "a.txt", hands.H1)
    write(tmp_path / "in" / "sub" / "b.txt", hands.H2)
    write(tmp_path / "g1.txt", hands.H3)
    archive = tmp_path / "z.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("t/t1.txt", hands.T1)
        z.writestr("t/b1.txt", hands.B1)
    db = tmp_path / "r.duckdb"
    summary = import_paths(
        [str(tmp_path / "in"), str(tmp_path / "g*.txt"), str(archive)], db, settings=IN_PROCESS
    )
    assert (summary.files, summary.hands) == (5, 5)
    assert one(db, "SELECT source FROM hands WHERE hand_id = '2000000001'") == f"{archive}!t/t1.txt"
    again = run([archive], db)
    assert (again.files_read, again.hands) == (0, 0)


def test_workers_store_exactly_what_a_single_process_stores(tmp_path: Path) -> None:
    from razz.simulate.simulator import simulate, write_files

    folder = tmp_path / "sim"
    write_files(simulate(hands=300, seed=11), folder)
    write(folder / "extra.txt", hands.H1 + hands.STUD + hands.GARBAGE + hands.H1)
    alone, pooled = tmp_path / "alone.duckdb", tmp_path / "pooled.duckdb"
    run([folder], alone)
    summary = run(
        [folder], pooled,
        Settings(workers=2, in_process_bytes=0, piece_bytes=16 * 1024, batch_hands=100),
    )
    assert summary.hands == 301
    assert fingerprint(pooled) == fingerprint(alone)
    assert_whole_hands(pooled)


def test_the_importer_and_its_workers_never_load_pandas(tmp_path: Path) -> None:
    """pyarrow would load it (about 50 MB in each process) only to ask whether the rows it
    converts are pandas objects; they never are."""
    import subprocess
    import sys

    source = write(tmp_path / "in" / "h.txt", hands.H1 + hands.GARBAGE + hands.STUD)
    code = (
        "import sys\n"
        "from razz.store.importer import Settings, import_paths, worker_pool\n"
        "from razz.store.work import PartTask, Task, process_task\n"
        f"s = import_paths([{str(source)!r}], {str(tmp_path / 'p.duckdb')!r},\n"
        "                  settings=Settings(workers=1, in_process_bytes=0))\n"
        "pool = worker_pool(1)\n"
        f"done = pool.submit(process_task, Task((PartTask(0, 'h.txt', {hands.H1.encode()!r}, 0),)))\n"
        "in_worker = pool.submit(eval, \"'pandas' in __import__('sys').modules\").result()\n"
        "print(s.hands, done.result().tables['hands'].num_rows, in_worker, 'pandas' in sys.modules)\n"
        "pool.shutdown()\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["1", "1", "False", "False"]


def test_an_empty_or_blank_file_is_recorded_without_hands(tmp_path: Path) -> None:
    a = write(tmp_path / "blank.txt", "\n\n\n")
    b = write(tmp_path / "empty.txt", "")
    db = tmp_path / "r.duckdb"
    summary = run([a, b], db)
    assert (summary.files, summary.hands, summary.rejected) == (2, 0, 0)
    assert one(db, "SELECT count(*) FROM hands") == 0


# ------------------------------------------------------------------- across hands


def test_a_batch_is_ready_at_its_size_or_when_its_first_task_is_old_enough(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from types import SimpleNamespace

    from razz.store import writer as writer_module
    from razz.store.rows import empty_tables
    from razz.store.work import PartCounts, TaskResult

    now = [1000.0]
    clock = SimpleNamespace(
        monotonic=lambda: now[0], perf_counter=writer_module.time.perf_counter,
        sleep=writer_module.time.sleep,
    )
    monkeypatch.setattr(writer_module, "time", clock)  # the writer's clock only

    def task(hands: int) -> tuple[TaskResult, list[writer_module.PieceMeta]]:
        meta = writer_module.PieceMeta(
            file_id=1, path="a.txt", start_lines=0, end=10, end_lines=1, end_sha256="",
            first=False, reset=False, last=False, size=10,
        )
        return TaskResult(empty_tables(), (PartCounts(hands, 0, 0, 0, 0),), 0.0), [meta]

    w = writer_module.Writer(tmp_path / "s.duckdb", batch_hands=10, batch_seconds=5.0)
    try:
        assert not w.ready()  # nothing to commit
        now[0] += 60.0  # idle for a minute (a watch between polls): the batch is not old yet
        w.add(*task(2))
        assert not w.ready()
        now[0] += 4.9
        w.add(*task(3))
        assert not w.ready()
        now[0] += 0.1  # 5 s after its first task
        assert w.ready()
        w.commit()
        w.add(*task(4))  # a new batch, its own age
        assert not w.ready()
        w.add(*task(6))
        assert w.ready()  # 10 hands
    finally:
        w.close()


def test_cross_hand_checks_run_across_pieces_and_batches(tmp_path: Path) -> None:
    # Every copy of H1 seats Hero with $2, but he ended the previous hand with $2.04.
    a = write(tmp_path / "a.txt", hands.many_hands(12))
    db = tmp_path / "r.duckdb"
    summary = run([a], db, Settings(workers=0, piece_bytes=2000, batch_hands=3))
    rows = fetch(db, "SELECT h.hand_id, v.line - h.first_line FROM violations v "
                     "JOIN hands h USING (hand_key) WHERE v.rule = 'LOG-CONTINUITY' ORDER BY 1")
    assert rows == [(str(3_000_000_000 + i), 4) for i in range(1, 12)]  # Hero's seat line
    assert summary.findings == 11
    assert one(db, "SELECT sum(findings) FROM hands") == 11
    assert one(db, "SELECT findings FROM files") == 11
    assert_whole_hands(db)


def test_a_resumed_file_is_checked_against_the_hands_stored_before(tmp_path: Path) -> None:
    text = hands.many_hands(3)
    cut = text.index("PokerStars Game #3000000002")
    a = write(tmp_path / "a.txt", text[:cut])
    db = tmp_path / "r.duckdb"
    run([a], db)
    with a.open("a") as f:
        f.write(text[cut:])
    run([a], db)
    assert fetch(db, "SELECT hand_id FROM violations JOIN hands USING (hand_key) "
                     "WHERE rule = 'LOG-CONTINUITY' ORDER BY 1") == [
        ("3000000001",), ("3000000002",),
    ]
    # the hands seen again for context are not flagged twice
    assert one(db, "SELECT count(*) FROM violations") == 2


def test_a_finding_on_a_hand_stored_in_an_earlier_run_is_added_to_it(tmp_path: Path) -> None:
    # stakes the PokerStars stakes table does not know: the ante is inferred from the table
    h1 = hands.H1.replace("($0.04/$0.08 USD)", "($0.05/$0.10 USD)")
    odd = h1.replace("posts the ante $0.01", "posts the ante $0.02")
    first = hands.numbered(odd, 7_000_000, datetime(2021, 3, 1, 12, 0))
    rest = "".join(
        hands.numbered(h1, 7_000_001 + i, datetime(2021, 3, 1, 12, 1 + i)) for i in range(3)
    )
    a = write(tmp_path / "a.txt", first)
    db = tmp_path / "r.duckdb"
    run([a], db)
    assert one(db, "SELECT count(*) FROM violations WHERE rule = 'STRUCT-ANTE'") == 0
    with a.open("a") as f:
        f.write(rest)
    run([a], db)
    # three hands agree on a $0.01 ante and none differs: the first hand, stored last time, is
    # an error now
    assert fetch(db, "SELECT h.hand_id, v.severity FROM violations v JOIN hands h "
                     "USING (hand_key) WHERE v.rule = 'STRUCT-ANTE'") == [("7000000", "error")]
    # its bring-in ($0.02, no more than its $0.02 ante) and its pot (which holds the $0.01
    # antes the log adds up) only follow from that ante: the rows stored last time say so now
    assert fetch(db, "SELECT v.rule, v.consequence_of_rule, v.consequence_of_line - h.first_line"
                     " FROM violations v JOIN hands h USING (hand_key) WHERE h.hand_id = '7000000'"
                     " ORDER BY v.line") == [
        ("STRUCT-ANTE", None, None), ("STRUCT-BRINGIN-SIZE", "STRUCT-ANTE", 5),
        ("ACT-COMPLETE", None, None), ("POT-RAKE", "STRUCT-ANTE", 5),
    ]
    # the counts are of violations, the consequences apart
    violations = "count(v.rule) FILTER (WHERE v.consequence_of_rule IS NULL)"
    assert fetch(db, f"SELECT h.findings = {violations} FROM hands h LEFT JOIN violations v "
                     "USING (hand_key) GROUP BY h.hand_key, h.findings") == [(True,)] * 4
    assert one(db, "SELECT findings FROM files") == one(
        db, "SELECT count(*) FROM violations WHERE consequence_of_rule IS NULL")
    # the same rows as one import of the whole file
    whole = write(tmp_path / "b" / "a.txt", first + rest)
    run([whole], tmp_path / "whole.duckdb")
    assert fingerprint(tmp_path / "whole.duckdb")["violations"] == fingerprint(db)["violations"]


def test_a_damaged_zip_member_is_reported_and_the_other_members_imported(
    tmp_path: Path,
) -> None:
    archive = tmp_path / "a.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("one.txt", hands.H1 * 3)
        z.writestr("two.txt", hands.H2)
    data = bytearray(archive.read_bytes())
    at = data.find(b"one.txt") + 40  # inside the compressed bytes of the first member
    data[at : at + 20] = bytes(20)
    archive.write_bytes(bytes(data))
    db = tmp_path / "r.duckdb"
    summary = run([archive], db)
    assert (summary.files, summary.files_failed, summary.hands) == (2, 1, 1)
    assert summary.problems[0].startswith(f"{archive}!one.txt: cannot be read")
    assert "1 unreadable" in summary.text()
    assert one(db, "SELECT hand_id FROM hands") == "1000000002"
