"""Hands of several rooms in one store: each hand's room recorded, filtered on, named by
`razz stats`; older stores brought up to date; names that are one person (`razz alias`).

The store holds simulated PokerStars hands, other simulated hands written as PHH (a second
room that is always there), and the real files of every room in ../shared/corpus when
present (read in place).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from razz.parser import sites
from razz.store import aliases, queries
from razz.store import db as store_db
from razz.store.importer import Settings, import_paths

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
CORPUS_ROOMS = {"fulltilt": "Full Tilt Poker", "winamax": "Winamax", "kingsclub": "KingsClub",
                "merge": "Merge Network", "phh": "PHH", "pokerstars": "PokerStars"}


def razz(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "razz", *args], capture_output=True,
                          text=True, check=False, timeout=120)


def fetch(db: Path, sql: str, params: list[Any] | None = None) -> list[tuple[Any, ...]]:
    with store_db.read_connection(db) as con:
        return con.execute(sql, params or []).fetchall()


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from razz.simulate.simulator import simulate, write_files

    folder = tmp_path_factory.mktemp("rooms")
    write_files(simulate(hands=80, seed=21), folder / "stars")
    write_files(simulate(hands=30, seed=22), folder / "to-phh")
    done = razz("export", "--format", "phh", "--out", str(folder / "phh"),
                str(folder / "to-phh"))
    assert done.returncode == 0, done.stderr
    paths = [folder / "stars", folder / "phh"]
    paths += [CORPUS / name for name in CORPUS_ROOMS if (CORPUS / name).is_dir()]
    db = folder / "rooms.duckdb"
    import_paths([str(p) for p in paths], db, settings=Settings(workers=0))
    return db


def test_every_hand_records_its_room_as_its_site_is_titled(store: Path) -> None:
    rows = fetch(store, "SELECT site, room, count(*) FROM hands GROUP BY ALL")
    assert rows and all(room == sites.by_name(site).title for site, room, _ in rows)
    rooms = {room: n for _, room, n in rows}
    assert rooms["PokerStars"] >= 80 and rooms["PHH"] >= 30
    present = {room for name, room in CORPUS_ROOMS.items() if (CORPUS / name).is_dir()}
    assert present <= set(rooms)  # every room of the corpus found on this machine


def test_razz_stats_names_the_rooms_and_filters_by_one(store: Path) -> None:
    (total,) = fetch(store, "SELECT count(*) FROM hands")[0]
    done = razz("stats", "--db", str(store), "--limit", "500")
    assert done.returncode == 0, done.stderr
    counts = dict(fetch(store, "SELECT room, count(*) FROM hands GROUP BY room"))
    rooms_line = done.stdout.splitlines()[1]
    for room, n in counts.items():
        assert f"{room} {n:,} hand" in rooms_line
    assert sum(counts.values()) == total
    header = done.stdout.splitlines()[3]
    assert header.split()[:3] == ["player", "room", "in"]

    only = razz("stats", "--db", str(store), "--room", "phh", "--limit", "500")
    assert only.returncode == 0, only.stderr
    assert "only PHH below" in only.stdout
    table = only.stdout.split("\n\n")[1].splitlines()[2:]
    players = {line.split()[0] for line in table}
    in_phh = {p for (p,) in fetch(store, "SELECT DISTINCT player FROM players JOIN hands "
                                         "USING (hand_key) WHERE room = 'PHH'")}
    assert {p.split()[0] for p in in_phh} == players
    assert all(" PHH " in line for line in table)

    nowhere = razz("stats", "--db", str(store), "--room", "Nowhere")
    assert nowhere.returncode == 2 and "no room 'Nowhere'" in nowhere.stderr


def test_the_room_filter_counts_what_sql_counts(store: Path) -> None:
    with store_db.read_connection(store) as con:
        by_room = dict(con.execute("SELECT room, count(*) FROM hands GROUP BY room").fetchall())
        for room, hands in by_room.items():
            stats = queries.player_stats(con, filters=queries.Filters(room=room))
            dealt = con.execute("SELECT sum(players) FROM hands WHERE room = ?",
                                [room]).fetchone()
            assert dealt is not None
            assert sum(r["hands"] for r in stats) == dealt[0]
            assert {r["rooms"] for r in stats} == {room}
            rules = queries.findings_by_rule(con, queries.Filters(room=room))
            assert all(r["hands_total"] == hands for r in rules)


def test_a_store_from_before_rooms_gets_them_when_first_read(tmp_path: Path, store: Path) -> None:
    old = tmp_path / "old.duckdb"
    con = store_db.connect_writer(old)
    con.execute(f"ATTACH '{store}' AS src (READ_ONLY)")
    con.execute("INSERT INTO hands SELECT * FROM src.hands")
    con.execute("INSERT INTO players SELECT * FROM src.players")
    # What a store of revision 1 was: no room, no revision, macros that knew no room.
    con.execute("DETACH src")
    con.execute("DROP VIEW IF EXISTS player_hands; DROP VIEW IF EXISTS player_stats; "
                "DROP VIEW IF EXISTS sessions; DROP VIEW IF EXISTS findings; "
                "DROP VIEW IF EXISTS findings_by_rule; DROP VIEW IF EXISTS findings_by_file; "
                "DROP VIEW IF EXISTS findings_by_table; DROP VIEW IF EXISTS findings_by_date")
    con.execute("ALTER TABLE hands DROP COLUMN room")
    con.execute("DELETE FROM meta WHERE key <> 'schema_version'")
    con.close()
    with store_db.read_connection(old) as con:
        rooms = dict(con.execute("SELECT room, count(*) FROM hands GROUP BY room").fetchall())
        revision = con.execute("SELECT value FROM meta WHERE key = 'schema_revision'").fetchone()
        stats = queries.player_stats(con, filters=queries.Filters(room="PHH"))
    assert rooms == dict(fetch(store, "SELECT room, count(*) FROM hands GROUP BY room"))
    assert revision == (str(store_db.SCHEMA_REVISION),)
    assert stats and {r["rooms"] for r in stats} == {"PHH"}


# ------------------------------------------------------------------------------ aliases


@pytest.fixture()
def aliased(tmp_path: Path, store: Path) -> Path:
    """A copy of the store, whose alias table a test may change."""
    copy = tmp_path / "aliased.duckdb"
    copy.write_bytes(store.read_bytes())
    return copy


def two_names(db: Path) -> tuple[str, str]:
    """A name seen only at PokerStars, and one seen only in PHH files."""
    (stars,) = fetch(db, """
        SELECT player FROM players JOIN hands USING (hand_key) GROUP BY player
        HAVING bool_and(room = 'PokerStars') ORDER BY count(*) DESC, player LIMIT 1""")[0]
    (phh,) = fetch(db, """
        SELECT player FROM players JOIN hands USING (hand_key) GROUP BY player
        HAVING bool_and(room = 'PHH') ORDER BY count(*) DESC, player LIMIT 1""")[0]
    return stars, phh


def test_two_names_in_two_rooms_are_one_person_in_statistics_and_sessions(
    aliased: Path,
) -> None:
    stars, phh = two_names(aliased)
    assert razz("alias", "add", stars, "--as", "Bob", "--room", "pokerstars", "--db",
                str(aliased)).returncode == 0
    done = razz("alias", "add", phh, "--as", "Bob", "--db", str(aliased))
    assert done.returncode == 0 and f"{phh} stands for Bob in every room" in done.stdout
    with store_db.read_connection(aliased) as con:
        hands_of = {name: con.execute("SELECT count(*) FROM players WHERE player = ?",
                                      [name]).fetchone()[0] for name in (stars, phh)}
        bob = queries.player_stats(con, "Bob")  # a row per money (cash, chips …)
        everyone = {r["player"] for r in queries.player_stats(con)}
        sessions = queries.sessions(con, "Bob")
        only_phh = queries.player_stats(con, "Bob", queries.Filters(room="PHH"))
    assert sum(r["hands"] for r in bob) == hands_of[stars] + hands_of[phh]
    assert {room for r in bob for room in r["rooms"].split(", ")} == {"PHH", "PokerStars"}
    assert {name for r in bob for name in r["names"].split(", ")} == {stars, phh}
    assert "Bob" in everyone and stars not in everyone and phh not in everyone
    assert {s["room"] for s in sessions} == {"PHH", "PokerStars"}
    assert sum(s["hands"] for s in sessions) == hands_of[stars] + hands_of[phh]
    assert sum(r["hands"] for r in only_phh) == hands_of[phh]

    listed = razz("alias", "list", "--db", str(aliased))
    assert listed.returncode == 0
    assert any(line.split()[:3] == ["Bob", stars, "PokerStars"] for line in
               listed.stdout.splitlines())
    detail = razz("stats", "--db", str(aliased), "--player", "Bob")
    assert detail.returncode == 0, detail.stderr
    assert f"rooms                          PokerStars\n  names in the logs              {stars}" \
        in detail.stdout
    assert f"rooms                          PHH\n  names in the logs              {phh}" \
        in detail.stdout

    assert razz("alias", "remove", phh, "--db", str(aliased)).returncode == 0
    again = razz("alias", "remove", phh, "--db", str(aliased))
    assert again.returncode == 1 and "has no alias" in again.stderr
    with store_db.read_connection(aliased) as con:
        bob = queries.player_stats(con, "Bob")
    assert sum(r["hands"] for r in bob) == hands_of[stars]


def test_an_alias_in_one_room_leaves_the_name_alone_in_the_others(aliased: Path) -> None:
    stars, _ = two_names(aliased)
    with store_db.connect_writer(aliased) as con:
        aliases.add(con, stars, "Bob", "PHH")  # the name never played in PHH files
    with store_db.read_connection(aliased) as con:
        assert queries.player_stats(con, "Bob") == []
        assert queries.player_stats(con, stars)


def test_a_room_alias_wins_over_an_every_room_one(aliased: Path) -> None:
    stars, _ = two_names(aliased)
    with store_db.connect_writer(aliased) as con:
        aliases.add(con, stars, "Everywhere")
        aliases.add(con, stars, "AtStars", "PokerStars")
        replaced = aliases.add(con, stars, "AtStars", "PokerStars")
    assert replaced
    with store_db.read_connection(aliased) as con:
        assert queries.player_stats(con, "Everywhere") == []
        rows = queries.player_stats(con, "AtStars")
        (n,) = con.execute("SELECT count(*) FROM players WHERE player = ?", [stars]).fetchone()
    assert sum(r["hands"] for r in rows) == n


def test_alias_mistakes_are_one_line_and_status_2(tmp_path: Path, aliased: Path) -> None:
    missing = razz("alias", "add", "x", "--as", "y", "--db", str(tmp_path / "none.duckdb"))
    assert missing.returncode == 2 and "No database at" in missing.stderr
    assert not (tmp_path / "none.duckdb").exists()
    empty = razz("alias", "add", " ", "--as", "y", "--db", str(aliased))
    assert empty.returncode == 2 and empty.stderr.count("\n") == 1
    room = razz("alias", "add", "x", "--as", "y", "--room", "Nowhere", "--db", str(aliased))
    assert room.returncode == 2 and "no room 'Nowhere'" in room.stderr
    none = razz("alias", "list", "--db", str(aliased))
    assert none.returncode == 0 and "No aliases" in none.stdout


# --------------------------------------------------------------------------- the audit


def test_the_audit_names_each_hand_s_room_in_every_format(store: Path) -> None:
    import csv
    import io
    import json

    folders = [str(store.parent / "stars"), str(store.parent / "phh")]
    with store_db.read_connection(store) as con:
        expected = dict(con.execute(
            "SELECT room, count(*) FROM hands WHERE source LIKE ? OR source LIKE ? "
            "GROUP BY room", [f"{folders[0]}/%", f"{folders[1]}/%"]).fetchall())
    assert set(expected) == {"PokerStars", "PHH"}
    # and a PokerStars hand that breaks a rule, so that findings have a room to name
    broken = Path(__file__).resolve().parents[1] / "sample_histories" / "violations"
    folders.append(str(broken / "BRINGIN-WHO.txt"))
    alone = json.loads(razz("audit", "--format", "json", folders[-1]).stdout.splitlines()[-1])
    expected["PokerStars"] += alone["summary"]["hands_audited"]

    text = razz("audit", *folders)
    assert text.returncode in (0, 1), text.stderr
    ranked = sorted(expected.items(), key=lambda kv: (-kv[1], kv[0]))
    assert "-- rooms: " + ", ".join(f"{r} {n:,}" for r, n in ranked) in text.stdout

    lines = razz("audit", "--format", "json", *folders).stdout.splitlines()
    summary = json.loads(lines[-1])["summary"]
    assert summary["rooms"] == expected
    findings = [json.loads(line) for line in lines[:-1]]
    for f in findings:
        assert f["room"] == ("PHH" if f["file"].endswith(".phh") else "PokerStars")

    rows = list(csv.DictReader(io.StringIO(razz("audit", "--format", "csv", *folders).stdout)))
    assert [r["room"] for r in rows] == [f["room"] for f in findings]

    page = razz("audit", "--format", "html", *folders).stdout
    assert "Rooms<b>" + ", ".join(f"{r} {n:,}" for r, n in ranked) + "</b>" in page
    assert findings and "<th>Room</th>" in page
    assert '<td class="nowrap">PokerStars</td>' in page


def test_every_players_statistics_and_sessions_can_be_asked_for_by_name(store: Path) -> None:
    # DuckDB 2.0 once failed on some names with a too small cast under ORDER BY.
    with store_db.read_connection(store) as con:
        names = [n for (n,) in con.execute("SELECT DISTINCT player FROM players").fetchall()]
        for name in names:
            assert queries.player_stats(con, name)
            assert queries.sessions(con, name)


# ------------------------------------------------------------------ the daily sums


def test_the_daily_sums_add_up_to_the_hands_batch_after_batch(tmp_path: Path, store: Path) -> None:
    """`player_days`, kept by the writer batch by batch, counts what the player rows count;
    a second import of the same files adds nothing to it."""
    from razz.store.summaries import STATS

    db = tmp_path / "batches.duckdb"
    folders = [str(store.parent / "stars"), str(store.parent / "phh")]
    settings = Settings(workers=0, batch_hands=7, batch_seconds=0.0)
    import_paths(folders, db, settings=settings)
    import_paths(folders, db, settings=settings)
    sums = ", ".join(f"sum({s.key}_hits)::BIGINT, sum({s.key}_chances)::BIGINT" for s in STATS)
    raw = ", ".join(
        f"{hits}::BIGINT, {chances}::BIGINT"
        for s in STATS for hits, chances in [s.aggregates()])
    with store_db.read_connection(db) as con:
        (batches,) = con.execute("SELECT count(*) FROM player_days").fetchone()
        kept = con.execute(
            f"SELECT player, room, sum(hands)::BIGINT, sum(net)::BIGINT, {sums} "
            "FROM person_days() GROUP BY ALL ORDER BY ALL").fetchall()
        counted = con.execute(
            f"SELECT player, room, count(*), sum(net)::BIGINT, {raw} "
            "FROM player_hands_for() GROUP BY ALL ORDER BY ALL").fetchall()
        (days,) = con.execute(
            "SELECT count(*) FROM (SELECT DISTINCT player, room, unit, currency, kind, stakes, "
            "table_name, started_at::DATE FROM player_hands_for())").fetchone()
    assert kept == counted and len(kept) > 10
    assert batches >= days
