"""The sums the importer keeps for the player pages (`store/summaries.py`) count what the hands
count: batch after batch, after a second import of the same files, after a grown file is read
again, and after a store from before them is brought up to date."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from razz.dashboard import shape
from razz.store import db as store_db
from razz.store import summaries
from razz.store.importer import Settings, import_paths

SAMPLES = Path(__file__).resolve().parents[1] / "sample_histories"
BATCHES = Settings(workers=0, batch_hands=40, batch_seconds=0.0)

STARTS_KEPT = """
    SELECT player, room, unit, currency, kind, stakes, table_name, day, low, high, door,
           sum(hands)::BIGINT, sum(vpip)::BIGINT, sum(won)::BIGINT, sum(net)::BIGINT,
           round(sum(net_bb), 6)
    FROM person_starts() GROUP BY ALL HAVING sum(hands) <> 0 ORDER BY ALL"""
STARTS_COUNTED = """
    SELECT player, room, unit, currency, kind, stakes, table_name, started_at::DATE,
           least(instr('A23456789TJQK', starting_cards[1][1]),
                 instr('A23456789TJQK', starting_cards[2][1])),
           greatest(instr('A23456789TJQK', starting_cards[1][1]),
                    instr('A23456789TJQK', starting_cards[2][1])),
           instr('A23456789TJQK', door_card[1]),
           count(*), count(*) FILTER (WHERE vpip), count(*) FILTER (WHERE collected > 0),
           sum(net)::BIGINT, round(sum(net_bb), 6)
    FROM player_hands_for()
    WHERE len(starting_cards) = 3 AND door_card IS NOT NULL AND starting_cards[3] = door_card
    GROUP BY ALL ORDER BY ALL"""
RUNS = """
    SELECT player, epoch_ms(first_at) AS first, epoch_ms(last_at) AS last,
           hash(site, table_name) AS table_id, hash(kind, stakes) AS stakes_id, hands,
           showdowns, net, net_bb, net_showdown, net_showdown_bb, rake_paid, ev_net, ev_net_bb
    FROM person_runs()"""
MACRO_SESSIONS = """
    SELECT player, epoch_ms(started_at) AS start, epoch_ms(ended_at) AS "end", hands, net,
           rake_paid, showdowns, net_bb, ev_net
    FROM sessions_for(p_gap_minutes := ?)"""


def sessions_from_runs(runs: pd.DataFrame, gap: int) -> pd.DataFrame:
    """Every player's sessions merged from their runs, as the Sessions page merges them."""
    parts = [shape.sessions_of(group, gap).assign(player=player)
             for player, group in runs.groupby("player")]
    return pd.concat(parts, ignore_index=True)


def ordered(frame: pd.DataFrame) -> pd.DataFrame:
    return frame.sort_values(["player", "start", "end", "hands", "net"]).reset_index(drop=True)


def assert_summaries_count_the_hands(db: Path) -> None:
    """Starting hands and sessions (of three pauses) from the sums equal SQL over the hands."""
    with store_db.read_connection(db) as con:
        kept = con.execute(STARTS_KEPT).fetchall()
        counted = con.execute(STARTS_COUNTED).fetchall()
        assert kept == counted and len(kept) > 10
        runs = con.execute(RUNS).df()
        (hands,) = con.execute("SELECT count(*) FROM players").fetchone()
        assert runs["hands"].sum() == hands
        for gap in (5, 30, 240):
            ours = ordered(sessions_from_runs(runs, gap))
            macro = ordered(con.execute(MACRO_SESSIONS, [gap]).df())
            assert len(ours) == len(macro) > 20, gap
            for column in ("player", "start", "end", "hands", "net", "rake_paid", "showdowns"):
                assert ours[column].tolist() == macro[column].tolist(), (gap, column)
            for column in ("net_bb", "ev_net"):
                assert ours[column].to_numpy() == pytest.approx(macro[column].to_numpy())


@pytest.fixture(scope="module")
def batched(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample histories imported in batches of 40 hands, then imported again."""
    db = tmp_path_factory.mktemp("summaries") / "batched.duckdb"
    for _ in range(2):
        import_paths([str(SAMPLES)], db, settings=BATCHES)
    return db


def test_the_sums_count_the_hands_after_imports_in_batches_and_again(batched: Path) -> None:
    assert_summaries_count_the_hands(batched)
    with store_db.read_connection(batched) as con:
        (runs,) = con.execute("SELECT count(*) FROM player_runs").fetchone()
        (stored,) = con.execute("SELECT count(*) FROM players").fetchone()
    assert runs < stored / 3  # runs, not hands: the Sessions page reads far fewer rows


def test_the_sums_count_the_hands_after_a_grown_file_is_read_again(tmp_path: Path) -> None:
    """The last hand read before is stored again when a file grows: its sums are taken out
    first (negated rows; its runs summed again from the other hands of its tables)."""
    folder = tmp_path / "hands"
    folder.mkdir()
    sample = max(SAMPLES.glob("*.txt"), key=lambda p: p.stat().st_size)
    text = sample.read_text(encoding="utf-8")
    cut = text.index("PokerStars", len(text) // 2)
    grown = folder / sample.name
    grown.write_text(text[:cut], encoding="utf-8")
    for other in sorted(SAMPLES.glob("*.txt"))[:12]:
        if other != sample:
            shutil.copy(other, folder / other.name)
    db = tmp_path / "grown.duckdb"
    import_paths([str(folder)], db, settings=BATCHES)
    with grown.open("a", encoding="utf-8") as out:
        out.write(text[cut:])
    summary = import_paths([str(folder)], db, settings=BATCHES)
    assert summary.hands > 0
    assert_summaries_count_the_hands(db)
    whole = tmp_path / "whole.duckdb"
    import_paths([str(folder)], whole, settings=Settings(workers=0))

    def sessions(path: Path) -> list[Any]:
        with store_db.read_connection(path) as con:
            return ordered(sessions_from_runs(con.execute(RUNS).df(), 30))[
                ["player", "start", "end", "hands", "net"]].values.tolist()

    assert sessions(db) == sessions(whole)


def test_a_store_from_before_the_sums_gets_them_when_first_read(
    tmp_path: Path, batched: Path
) -> None:
    """A store of revision 3 (daily sums, no starting hands or runs) is brought up to date
    by the first reader: the sums are filled in parts, and count the hands."""
    old = tmp_path / "old.duckdb"
    shutil.copy(batched, old)
    import duckdb

    con = duckdb.connect(str(old))
    con.execute("DELETE FROM player_starts")
    con.execute("DELETE FROM player_runs")
    con.execute("UPDATE meta SET value = '3' WHERE key = 'schema_revision'")
    con.close()
    assert_summaries_count_the_hands(old)
    with store_db.read_connection(old) as con:
        assert con.execute("SELECT value FROM meta WHERE key = 'schema_revision'").fetchone() \
            == (str(store_db.SCHEMA_REVISION),)


def test_the_sums_are_filled_in_parts_of_a_few_players_each() -> None:
    statements = summaries.fill_statements(("player_runs",))
    assert statements[0] == "DELETE FROM player_runs"
    assert len(statements) == 1 + summaries.FILL_CHUNKS
    assert all(f"% {summaries.FILL_CHUNKS} = {part}" in statements[1 + part]
               for part in range(summaries.FILL_CHUNKS))


def test_the_curve_from_runs_ends_on_the_exact_totals_of_the_curve_from_hands(
    batched: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past `EXACT_CURVE_HANDS`, the Sessions page draws its curve from runs: thinned, in the
    order runs end, its last point on every line is the total the per-hand curve ends on."""
    from razz.dashboard import data

    monkeypatch.setenv(data.DB_ENV, str(batched))
    data.forget_cached_results()
    with store_db.read_connection(batched) as con:
        (player,) = con.execute("SELECT player FROM players GROUP BY player "
                                "ORDER BY count(*) DESC LIMIT 1").fetchone()
    hands = data.HandFilter(unit="cent", currency="USD")
    exact = shape.cumulative(data.player_hand_numbers(player, hands))
    runs = data.player_runs(player, hands)
    thinned = shape.run_curve(runs, max_points=3)
    assert len(runs) > 3 and len(thinned) <= 4 * 5  # a start, and 3 or 4 points a line
    for series in shape.SERIES:
        ours = thinned[thinned["series"] == series]
        theirs = exact[exact["series"] == series]
        assert ours["hand"].is_monotonic_increasing
        assert ours["hand"].iloc[-1] == theirs["hand"].iloc[-1] == runs["hands"].sum()
        assert ours["money"].iloc[-1] == pytest.approx(theirs["money"].iloc[-1])
        assert ours["bb"].iloc[-1] == pytest.approx(theirs["bb"].iloc[-1])
    monkeypatch.setattr(data, "EXACT_CURVE_HANDS", 0)
    results = data.player_results(player, hands, 30)
    assert results.curve_points == "run"
    assert results.hands == runs["hands"].sum()
    data.release()
