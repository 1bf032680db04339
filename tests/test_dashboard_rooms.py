"""The dashboard on hands of several rooms: the sidebar's Room filter drives the player pages
and the audit, every list of hands names the room, and names that are one person (aliases)
show as one in the player picker and the statistics.

The store holds simulated PokerStars hands, other simulated hands written as PHH (a second
room that is always there) and the real files of ../shared/corpus when present. Every number
checked is asked of the store in SQL too.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import duckdb
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from razz.dashboard import data
from razz.dashboard import format as fmt

ROOT = Path(__file__).resolve().parent.parent
APP = ROOT / "dashboard" / "app.py"
CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"


@pytest.fixture(scope="module")
def rooms_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from razz.simulate.simulator import simulate, write_files
    from razz.store.importer import Settings, import_paths

    folder = tmp_path_factory.mktemp("dashboard-rooms")
    write_files(simulate(hands=60, seed=31), folder / "stars")
    write_files(simulate(hands=40, seed=32), folder / "to-phh")
    done = subprocess.run([sys.executable, "-m", "razz", "export", "--format", "phh", "--out",
                           str(folder / "phh"), str(folder / "to-phh")],
                          capture_output=True, text=True, check=False, timeout=120)
    assert done.returncode == 0, done.stderr
    paths = [folder / "stars", folder / "phh"]
    paths += [CORPUS / room for room in ("fulltilt", "winamax", "kingsclub", "merge")
              if (CORPUS / room).is_dir()]
    db = folder / "rooms.duckdb"
    import_paths([str(p) for p in paths], db, settings=Settings(workers=0))
    return db


def sql(db: Path, text: str, *params: Any) -> list[tuple[Any, ...]]:
    with duckdb.connect(str(db), read_only=True) as con:
        con.execute("SET TimeZone = 'UTC'")
        return con.execute(text, list(params)).fetchall()


@pytest.fixture
def app(rooms_db: Path, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    monkeypatch.setenv(data.DB_ENV, str(rooms_db))
    monkeypatch.delenv(data.ALLOW_IMPORT_ENV, raising=False)
    return AppTest.from_file(str(APP), default_timeout=90)


def run(at: AppTest) -> AppTest:
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def open_page(at: AppTest, page: str, **query: str) -> AppTest:
    run(at)
    at.switch_page(f"views/{page}.py")
    run(at)
    if query:
        at.query_params.update(query)
        run(at)
    return at


def metrics(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def tables_with(at: AppTest, *columns: str) -> list[pd.DataFrame]:
    values = [d.value for d in at.dataframe]
    values = [v.data if hasattr(v, "data") else v for v in values]
    return [v for v in values if set(columns) <= set(v.columns)]


def the_player(db: Path) -> str:
    """The player with hands in both simulated rooms, most hands first."""
    ((name,),) = sql(db, """
        SELECT player FROM players JOIN hands USING (hand_key) GROUP BY player
        HAVING count(DISTINCT room) FILTER (WHERE room IN ('PokerStars', 'PHH')) = 2
        ORDER BY count(*) DESC, player LIMIT 1""")
    return str(name)


def test_the_room_filter_drives_the_sessions_page_and_says_what_it_hides(
    app: AppTest, rooms_db: Path
) -> None:
    player = the_player(rooms_db)
    at = open_page(app, "sessions")
    at.selectbox(key="player").set_value(player)
    run(at)
    rooms = at.selectbox(key="room").options
    expected = [r for (r,) in sql(rooms_db, """
        SELECT room FROM players JOIN hands USING (hand_key) WHERE player = ?
        GROUP BY room ORDER BY count(*) DESC, room""", player)]
    assert rooms == ["All", *expected]
    at.selectbox(key="room").set_value("PHH")
    run(at)
    ledger = at.selectbox(key="ledger").value
    unit, currency = sql(rooms_db, """
        SELECT unit, currency FROM players JOIN hands USING (hand_key)
        WHERE player = ? AND room = 'PHH' GROUP BY ALL ORDER BY count(*) DESC LIMIT 1""",
                         player)[0]
    ((phh,),) = sql(rooms_db, """
        SELECT count(*) FROM players JOIN hands USING (hand_key)
        WHERE player = ? AND room = 'PHH' AND unit = ?
          AND currency IS NOT DISTINCT FROM ?""", player, unit, currency)
    ((everywhere,),) = sql(rooms_db, "SELECT count(*) FROM players WHERE player = ?", player)
    assert metrics(at)["Hands"] == f"{phh:,}", ledger
    note = next(str(c.value) for c in at.caption if str(c.value).startswith("Showing"))
    assert f"Showing {phh:,} of {everywhere:,} hands" in note
    assert "Room filter" in note


def test_every_list_of_hands_names_the_room(app: AppTest, rooms_db: Path) -> None:
    at = open_page(app, "replayer")
    (latest,) = tables_with(at, "Hand", "Room")
    rooms = dict(sql(rooms_db, "SELECT hand_id, room FROM hands"))
    for link, room in zip(latest["Hand"], latest["Room"], strict=True):
        hand_key = link.split("hand=")[1].replace("%3A", ":")
        assert room == rooms[hand_key.split(":", 1)[1]]

    player = the_player(rooms_db)
    at = open_page(app, "players")
    at.selectbox(key="player").set_value(player)
    run(at)
    at.session_state["stat_sheet"] = {"selection": {"rows": [0], "columns": [], "cells": []}}
    run(at)
    listed = tables_with(at, "Hand", "Room")
    assert listed and set(listed[-1]["Room"]) <= {"PokerStars", "PHH", "Full Tilt Poker",
                                                  "Winamax", "KingsClub", "Merge Network"}


def test_the_replayer_names_the_hands_room(app: AppTest, rooms_db: Path) -> None:
    ((key,),) = sql(rooms_db, "SELECT hand_key FROM hands WHERE room = 'PHH' LIMIT 1")
    at = open_page(app, "replayer", hand=key)
    assert any(s.value.startswith("PHH hand #") for s in at.subheader)


@pytest.fixture(scope="module")
def samples_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The shipped KingsClub and Merge samples: amounts in cents of no currency, Merge's time."""
    from razz.store.importer import Settings, import_paths

    db = tmp_path_factory.mktemp("dashboard-room-samples") / "rooms.duckdb"
    samples = ROOT / "sample_histories" / "rooms"
    import_paths([str(samples / "kingsclub"), str(samples / "merge")], db,
                 settings=Settings(workers=0))
    return db


@pytest.mark.parametrize("room", ["KingsClub", "Merge Network"])
def test_the_replayers_header_gives_stakes_time_and_level_as_people_read_them(
    samples_db: Path, monkeypatch: pytest.MonkeyPatch, room: str
) -> None:
    ((key, stakes, started, level),) = sql(samples_db, """
        SELECT hand_key, stakes, timezone('UTC', started_at), level FROM hands
        WHERE room = ? ORDER BY hand_key LIMIT 1""", room)
    # KingsClub's 500/1,000 is stored in cents of no currency (50000/100000): written in units
    wrong = sql(samples_db, """
        SELECT stakes, small_bet, big_bet, currency FROM hands WHERE unit = 'cent'
          AND stakes <> concat(CASE currency WHEN 'USD' THEN '$' WHEN 'EUR' THEN '€' ELSE '' END,
                               small_bet // 100, '/',
                               CASE currency WHEN 'USD' THEN '$' WHEN 'EUR' THEN '€' ELSE '' END,
                               big_bet // 100)
          AND small_bet % 100 = 0 AND big_bet % 100 = 0""")
    assert not wrong, wrong[:3]
    monkeypatch.setenv(data.DB_ENV, str(samples_db))
    monkeypatch.delenv(data.ALLOW_IMPORT_ENV, raising=False)
    at = open_page(AppTest.from_file(str(APP), default_timeout=90), "replayer", hand=key)
    (header,) = [t.value for t in at.text if t.value.startswith("Table ")]
    assert f" {stakes} " in header, header
    assert f"{started:%Y-%m-%d %H:%M:%S} UTC" in header, header
    assert "None" not in header and "nan" not in header, header
    assert (" level " in header) == (level is not None), header


def test_the_audit_page_filters_by_room(app: AppTest, rooms_db: Path) -> None:
    at = open_page(app, "audit")
    assert at.selectbox(key="audit_room").options == [
        "All", *[r for (r,) in sql(rooms_db, "SELECT DISTINCT room FROM hands ORDER BY room")]]
    for room in ("PokerStars", "PHH"):
        at.selectbox(key="audit_room").set_value(room)
        run(at)
        ((hands, findings),) = sql(rooms_db, """
            SELECT count(*), coalesce(sum(findings), 0) FROM hands WHERE room = ?""", room)
        shown = metrics(at)
        assert shown["Hands"] == f"{hands:,}" and shown["Findings"] == f"{findings:,}"
        assert at.query_params["room"] in (room, [room])


# ------------------------------------------------------------------------------ aliases


@pytest.fixture
def writable(app: AppTest, rooms_db: Path, tmp_path: Path,
             monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the store, and the dashboard on it with its writes allowed."""
    copy = tmp_path / "copy.duckdb"
    shutil.copy(rooms_db, copy)
    monkeypatch.setenv(data.DB_ENV, str(copy))
    monkeypatch.setenv(data.ALLOW_IMPORT_ENV, "1")
    return copy


def names_only_in(db: Path, room: str) -> str:
    ((name,),) = sql(db, """
        SELECT player FROM players JOIN hands USING (hand_key) GROUP BY player
        HAVING bool_and(room = ?) ORDER BY count(*) DESC, player LIMIT 1""", room)
    return str(name)


def test_the_alias_control_makes_two_names_one_person_everywhere(
    app: AppTest, writable: Path
) -> None:
    stars, phh = names_only_in(writable, "PokerStars"), names_only_in(writable, "PHH")
    at = open_page(app, "players")
    for name, room in ((stars, "PokerStars"), (phh, "every room")):
        at.selectbox(key="alias_name").set_value(name)
        at.text_input(key="alias_person").set_value("Bob")
        at.selectbox(key="alias_room").set_value(room)
        next(b for b in at.button if b.label == "Add").click()
        run(at)
        assert [m.value for m in at.success] == [
            fmt.markdown_literal(f"{name} now stands for Bob in {room}.")]
    assert sql(writable, "SELECT name, room, person FROM aliases ORDER BY name") == sorted(
        [(stars, "PokerStars", "Bob"), (phh, "", "Bob")])
    picker = at.selectbox(key="player").options
    assert "Bob" in picker and stars not in picker and phh not in picker
    ((hands,),) = sql(writable, "SELECT count(*) FROM players WHERE player IN (?, ?)",
                      stars, phh)
    at.selectbox(key="player").set_value("Bob")
    run(at)
    everyone = tables_with(at, "Player", "Hands")[0]
    shown = everyone[everyone["Player"] == "Bob"]["Hands"]
    # The table is one money at a time: the person's hands over every money add up.
    ledgers = at.selectbox(key="ledger").options
    total = 0
    for ledger in ledgers:
        at.selectbox(key="ledger").set_value(ledger)
        run(at)
        table = tables_with(at, "Player", "Hands")[0]
        total += int(table[table["Player"] == "Bob"]["Hands"].sum())
    assert not shown.empty and total == hands

    at = open_page(app, "sessions")
    at.selectbox(key="player").set_value("Bob")
    run(at)
    assert at.selectbox(key="room").options[1:] == sorted(
        ["PokerStars", "PHH"], key=lambda r: -int(sql(writable, """
            SELECT count(*) FROM players JOIN hands USING (hand_key)
            WHERE player IN (?, ?) AND room = ?""", stars, phh, r)[0][0]))

    at = open_page(app, "players")
    at.selectbox(key="alias_drop").set_value(0)
    next(b for b in at.button if b.label == "Remove").click()
    run(at)
    assert len(sql(writable, "SELECT * FROM aliases")) == 1


def test_without_allow_import_the_aliases_are_shown_not_edited(
    app: AppTest, rooms_db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    copy = tmp_path / "copy.duckdb"
    shutil.copy(rooms_db, copy)
    with duckdb.connect(str(copy)) as con:
        con.execute("INSERT INTO aliases VALUES ('x', '', 'Y')")
    monkeypatch.setenv(data.DB_ENV, str(copy))
    at = open_page(app, "players")
    (aliases,) = tables_with(at, "Person", "Name in the logs", "Room")
    assert aliases.values.tolist() == [["Y", "x", "every room"]]
    assert not [b for b in at.button if b.label in ("Add", "Remove")]
    assert any("--allow-import" in str(c.value) for c in at.caption)
