"""Analytics in SQL and `razz stats`, on hand-written hands whose figures were worked out by hand.

The hands are in test_store_hands.py, each with a comment giving what it should count. Over
H1, H2, H3 (cash, table Alpha), T1 (tournament) and B1 (cash, table Beta):

Hero, USD: 3 hands. VPIP 2/3 (H1 completes, H2 calls; H3 only posts the bring-in). Completes
or raises on 3rd 1/3. Had the bring-in once (H3): posted it, then folded to Bob's completion.
One steal (H1), won. Saw 4th to 7th once (H2), went to showdown and lost it. Aggression:
3rd 1 completion / 1 call, 4th 0/1, 5th 1 bet / 1 call, 6th 0/1, river 0/0. Net +4 - 31 - 3
= -30 cents = -3.75 big bets over 3 hands: -125 big bets per 100 hands.
Alice, USD: 4 hands (H1, H2, H3, B1); net -3 + 31 - 1 - 1 = +26; paid H2's whole rake, 3.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from razz.store import db as store_db
from razz.store import queries
from razz.store.importer import Settings, import_paths

_spec = importlib.util.spec_from_file_location("h", Path(__file__).with_name("test_store_hands.py"))
assert _spec is not None and _spec.loader is not None
hands = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(hands)


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("stats")
    (folder / "alpha.txt").write_text(hands.H1 + hands.H2 + hands.H3)
    (folder / "tourney.txt").write_text(hands.T1)
    (folder / "beta.txt").write_text(hands.B1)
    path = folder / "r.duckdb"
    import_paths([str(folder)], path, settings=Settings(workers=0))
    return path


def stats_of(db: Path, player: str, unit: str = "cent", **filters: Any) -> dict[str, Any]:
    with store_db.read_connection(db) as con:
        rows = queries.player_stats(con, player, queries.Filters(**filters))
    (row,) = [r for r in rows if r["unit"] == unit]
    return row


def test_hero_cash_statistics_match_the_hands(db: Path) -> None:
    s = stats_of(db, "Hero")
    counts = {k: s[k] for k in (
        "hands", "hands_as_hero", "vpip", "complete_raise", "bring_in_hands", "bring_in_posted",
        "bring_in_completed", "bring_in_folded", "faced_completion", "folded_to_completion",
        "steal_attempts", "steal_successes", "saw_4th", "saw_5th", "saw_6th", "saw_7th",
        "showdowns", "showdowns_won",
    )}
    assert counts == {
        "hands": 3, "hands_as_hero": 3, "vpip": 2, "complete_raise": 1, "bring_in_hands": 1,
        "bring_in_posted": 1, "bring_in_completed": 0, "bring_in_folded": 1,
        "faced_completion": 1, "folded_to_completion": 1, "steal_attempts": 1,
        "steal_successes": 1, "saw_4th": 1, "saw_5th": 1, "saw_6th": 1, "saw_7th": 1,
        "showdowns": 1, "showdowns_won": 0,
    }
    assert [(s[f"aggr_{x}"], s[f"calls_{x}"]) for x in ("3rd", "4th", "5th", "6th", "7th")] == [
        (1, 1), (0, 1), (1, 1), (0, 1), (0, 0),
    ]
    assert (s["net"], s["net_showdown"], s["net_no_showdown"]) == (-30, -31, 1)
    assert s["net_bb"] == pytest.approx(-3.75)
    assert s["bb_per_100"] == pytest.approx(-125.0)
    assert s["vpip_pct"] == pytest.approx(2 / 3)
    assert s["fold_to_completion_pct"] == 1.0
    assert s["wsd_pct"] == 0.0
    assert (s["af_3rd"], s["af_4th"], s["af_7th"]) == (1.0, 0.0, None)
    assert s["rake_paid"] == 0


def test_other_players_and_the_rake_they_paid(db: Path) -> None:
    alice = stats_of(db, "Alice")
    assert (alice["hands"], alice["vpip"], alice["net"], alice["rake_paid"]) == (4, 1, 26, 3)
    assert (alice["bring_in_posted"], alice["bring_in_folded"], alice["showdowns_won"]) == (1, 1, 1)
    bob = stats_of(db, "Bob")
    # Bob owns the B1 file (his hole cards show) and posted the bring-in in H2 and B1.
    assert (bob["hands"], bob["hands_as_hero"], bob["bring_in_posted"], bob["net"]) == (4, 1, 2, 1)
    assert (bob["steal_attempts"], bob["steal_successes"]) == (1, 1)


def test_chips_and_cents_are_never_added_together(db: Path) -> None:
    with store_db.read_connection(db) as con:
        rows = queries.player_stats(con, "Hero")
    assert [(r["unit"], r["currency"], r["hands"], r["net"]) for r in rows] == [
        ("cent", "USD", 3, -30), ("chip", "USD", 1, 12),
    ]
    chips = rows[1]
    # T1: Hero completed against Carol's higher door card, but Carol called
    assert (chips["steal_attempts"], chips["steal_successes"]) == (1, 0)
    assert chips["bb_per_100"] == pytest.approx(100 * 12 / 20)


def test_filters_choose_the_hands_counted(db: Path) -> None:
    assert stats_of(db, "Hero", unit="chip", kind="tournament")["hands"] == 1
    with store_db.read_connection(db) as con:
        assert queries.player_stats(con, "Hero", queries.Filters(kind="tournament"))[0][
            "unit"] == "chip"
        assert queries.player_stats(con, "Alice", queries.Filters(table="Beta"))[0]["hands"] == 1
        # H1 and H2 start at 15:00 and 15:05 UTC (10:00 ET); H3 at 15:50
        day = datetime(2020, 1, 1, 15, 0, tzinfo=UTC)
        early = queries.Filters(date_from=day, date_to=day + timedelta(minutes=30))
        assert queries.player_stats(con, "Hero", early)[0]["net"] == 4 - 31
        assert queries.player_stats(con, "Nobody") == []


def test_views_are_the_macros_without_filters(db: Path) -> None:
    with store_db.read_connection(db) as con:
        for view, macro in [
            ("player_stats", "player_stats_for()"), ("sessions", "sessions_for()"),
            ("findings", "findings_for()"), ("findings_by_rule", "findings_by_rule_for()"),
        ]:
            rows, differ = con.execute(
                f"SELECT (SELECT count(*) FROM {view}), "
                f"(SELECT count(*) FROM (FROM {macro} EXCEPT ALL FROM {view}))"
            ).fetchone()
            assert rows > 0 and differ == 0, view


def test_sessions_break_after_thirty_minutes_without_a_hand(db: Path) -> None:
    with store_db.read_connection(db) as con:
        rows = queries.sessions(con, "Hero")
        wider = queries.sessions(con, "Hero", gap_minutes=60)
    alpha = [r for r in rows if r["table_name"] == "Alpha"]
    assert [(r["hands"], r["net"], r["duration"], r["rake_paid"]) for r in alpha] == [
        (2, -27, timedelta(minutes=5), 0), (1, -3, timedelta(0), 0),
    ]
    assert alpha[0]["bb_per_100"] == pytest.approx(100 * -27 / 8 / 2)
    assert alpha[0]["started_at"] == datetime(2020, 1, 1, 15, 0, tzinfo=UTC)
    assert alpha[1]["started_at"] == datetime(2020, 1, 1, 15, 50, tzinfo=UTC)
    # with a 60-minute gap, H3 (45 minutes after H2) belongs to the same session
    assert [r["hands"] for r in wider if r["table_name"] == "Alpha"] == [3]
    with store_db.read_connection(db) as con:
        (alice,) = [r for r in queries.sessions(con, "Alice") if r["session_no"] == 1
                    and r["table_name"] == "Alpha"]
    assert (alice["hands"], alice["net"], alice["rake_paid"]) == (2, 28, 3)


def test_findings_by_rule_file_table_and_date(db: Path) -> None:
    with store_db.read_connection(db) as con:
        assert [(r["rule"], r["severity"], r["findings"], r["hands"], r["hands_total"])
                for r in queries.findings_by_rule(con)] == [("BRINGIN-WHO", "error", 1, 1, 5)]
        by_table = {r["grp"]: (r["hands"], r["compliant_hands"], r["errors"])
                    for r in queries.compliance_by(con, "table")}
        assert by_table == {"Alpha": (3, 3, 0), "Beta": (1, 0, 1), "900000001 1": (1, 1, 0)}
        by_date = [(r["grp"], r["hands"], r["findings"]) for r in queries.compliance_by(con, "date")]
        assert by_date == [("2020-01-01", 3, 0), ("2020-01-02", 1, 0), ("2020-01-03", 1, 1)]
        by_file = {Path(r[0]).name: r[1:] for r in con.execute(
            "SELECT source, hands, compliant_hands, findings, rejected FROM findings_by_file"
        ).fetchall()}
        assert by_file == {"alpha.txt": (3, 3, 0, 0), "beta.txt": (1, 0, 1, 0),
                           "tourney.txt": (1, 1, 0, 0)}
        (finding,) = queries.rows(con, "SELECT * FROM findings_for(p_rule := ?)", ["BRINGIN-WHO"])
        assert (finding["hand_id"], finding["table_name"], finding["line"]) == ("1000000010",
                                                                                 "Beta", 10)
        with pytest.raises(ValueError, match="no grouping"):
            queries.compliance_by(con, "player")


def test_filter_values_are_bound_never_spliced_into_the_sql(db: Path) -> None:
    hostile = "Alpha' OR '1'='1"
    with store_db.read_connection(db) as con:
        assert queries.player_stats(con, None, queries.Filters(table=hostile)) == []
        assert queries.player_stats(con, "x'); DROP TABLE hands; --") == []
        assert con.execute("SELECT count(*) FROM hands").fetchone() == (5,)


# ------------------------------------------------------------------------ razz stats


def razz(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "razz", *args], capture_output=True,
                          text=True, timeout=120)


def test_razz_stats_lists_players_with_numerators_and_denominators(db: Path) -> None:
    done = razz("stats", "--db", str(db))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == f"{db}: 5 hands, 4 players, 3 files; 1 finding, 0 rejected, 0 skipped"
    hero = next(line for line in lines if line.startswith("Hero ") and "USD" in line)
    assert "66.7% (2/3)" in hero and "-$0.30" in hero and "-125.00" in hero
    assert any(line.startswith("BRINGIN-WHO") and "20.0% (1/5)" in line for line in lines)


def test_razz_stats_for_one_player_shows_every_statistic_and_the_sessions(db: Path) -> None:
    done = razz("stats", "--db", str(db), "--player", "Hero")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Hero · USD" in out and "Hero · chips" in out
    assert "fold to a completion           100.0% (1/1)" in out
    assert "aggression on 5th              1.00 (1/1)" in out
    assert "big bets per 100 hands         -125.00" in out
    assert "2020-01-01 15:00  15:05    0h05  PokerStars  Alpha" in out
    assert "2020-01-01 15:50  15:50    0h00  PokerStars  Alpha" in out


def test_razz_stats_says_clearly_when_there_is_nothing_to_show(tmp_path: Path, db: Path) -> None:
    missing = razz("stats", "--db", str(tmp_path / "none.duckdb"))
    assert missing.returncode == 2
    assert "No database at" in missing.stderr and "razz import" in missing.stderr
    nobody = razz("stats", "--db", str(db), "--player", "Nobody")
    assert nobody.returncode == 1
    assert "no hands of 'Nobody'" in nobody.stderr
