"""All-in EV and luck read the same everywhere: the store's SQL, `razz stats` (text and JSON)
and the dashboard's Sessions page (AppTest), on two sample files with many all-ins."""

from __future__ import annotations

import contextlib
import io
import json
import re
from pathlib import Path
from typing import Any

import duckdb
import pytest
from streamlit.testing.v1 import AppTest

from razz.dashboard import data
from razz.dashboard import format as fmt

ROOT = Path(__file__).resolve().parent.parent
APP = ROOT / "dashboard" / "app.py"
FILES = [ROOT / "sample_histories" / "005-razz-cash-0.25-0.50-antares-ii.txt",
         ROOT / "sample_histories" / "008-razz-cash-0.25-0.50-salm-iv.txt"]
PLAYER = "RazzHero"


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from razz.store.importer import import_paths

    path = tmp_path_factory.mktemp("allin_views") / "razz.duckdb"
    import_paths([str(f) for f in FILES], path)
    return path


def sql(db: Path, text: str, *params: Any) -> list[tuple[Any, ...]]:
    with duckdb.connect(str(db), read_only=True) as con:
        return con.execute(text, list(params)).fetchall()


def stats(db: Path, *args: str) -> str:
    from razz.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["stats", "--db", str(db), *args]) == 0
    return out.getvalue()


def test_the_store_has_adjusted_hands_for_the_player(db: Path) -> None:
    ((hands, luck),) = sql(db, "SELECT count(*), sum(luck) FROM player_hands "
                               "WHERE player = ? AND allin_adjusted", PLAYER)
    assert hands >= 10 and abs(luck) > 1  # enough all-ins for the figures to mean something


def test_razz_stats_text_and_json_give_the_stores_ev_and_luck(db: Path) -> None:
    ((net, ev, luck, luck_bb, adjusted),) = sql(db, """
        SELECT sum(net), sum(ev_net), sum(luck), sum(luck_bb),
               count(*) FILTER (WHERE allin_adjusted)
        FROM player_hands WHERE player = ?""", PLAYER)
    report = json.loads(stats(db, "--player", PLAYER, "--format", "json"))
    (row,) = report["players"]
    assert row["net"] == net
    assert row["ev_net"] == pytest.approx(ev)
    assert row["luck"] == pytest.approx(luck) == pytest.approx(net - ev)
    assert row["luck_bb"] == pytest.approx(luck_bb)
    assert row["allin_hands"] == adjusted
    sessions = report["sessions"]
    assert sum(s["luck"] for s in sessions) == pytest.approx(luck)
    assert sum(s["ev_net"] for s in sessions) == pytest.approx(ev)
    text = stats(db, "--player", PLAYER)
    lines = {k: v for k, v in re.findall(r"^  (\S.*?)  +(\S.*)$", text, re.M)}
    assert lines["all-in EV (adjusted net)"] == fmt.money(round(ev), "cent", "USD")
    assert lines["luck (net - all-in EV)"] == (
        f"{fmt.money(round(luck), 'cent', 'USD')} ({luck_bb:+.2f} big bets) over "
        f"{adjusted} all-in hands")


def test_sessions_page_shows_the_same_all_in_ev_and_luck_as_razz_stats(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(data.DB_ENV, str(db))
    monkeypatch.delenv(data.ALLOW_IMPORT_ENV, raising=False)
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.run()
    at.selectbox(key="player").set_value(PLAYER)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    (row,) = json.loads(stats(db, "--player", PLAYER, "--format", "json"))["players"]
    shown = {m.label: m.value for m in at.metric}
    assert shown["All-in EV"] == fmt.money(round(row["ev_net"]), "cent", "USD")
    assert shown["Luck"] == fmt.money(round(row["luck"]), "cent", "USD")
    assert shown["Luck (big bets)"] == f"{row['luck_bb']:+.2f}"
    # The two lucks may differ in sign over several stakes: the page says why.
    helps = {m.label: m.proto.help for m in at.metric}
    assert "own stakes" in helps["Luck (big bets)"] and "sign" in helps["Luck (big bets)"]
    assert shown["All-in EV BB/100"] == f"{100 * row['ev_net_bb'] / row['hands']:+.2f}"
    (table,) = [d.value for d in at.dataframe if d.key == "sessions_table"]
    assert table["All-in EV"].sum() == pytest.approx(row["ev_net"] / 100)
    assert table["Luck"].sum() == pytest.approx(row["luck"] / 100)
    assert table["Luck (BB)"].sum() == pytest.approx(row["luck_bb"])
    data.release()


def test_the_curve_has_an_all_in_ev_line_ending_on_the_total_and_sessions_their_luck() -> None:
    import pandas as pd

    from razz.dashboard import shape

    hands = pd.DataFrame({
        "t": [0, 60_000, 10_000_000], "table_id": [1, 1, 1], "stakes_id": [2, 2, 2],
        "net": [100, -50, 30], "net_bb": [1.0, -0.5, 0.3], "showdown": [True, False, True],
        "rake_paid": [0.0, 0.0, 0.0], "ev_net": [-20.5, -50.0, 30.0],
        "ev_net_bb": [-0.205, -0.5, 0.3],
    })
    curve = shape.cumulative(hands)
    ev = curve[curve["series"] == "All-in EV"]
    assert ev["money"].iloc[-1] == pytest.approx(-40.5)
    assert ev["bb"].iloc[-1] == pytest.approx(-0.405)
    sessions = shape.sessions_of(hands, 30)  # latest first: the 3rd hand, then the first two
    assert sessions["luck"].tolist() == pytest.approx([0.0, 120.5])
    assert sessions["luck_bb"].tolist() == pytest.approx([0.0, 1.205])
    assert sessions["ev_net"].tolist() == pytest.approx([30.0, -70.5])
