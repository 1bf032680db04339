"""The dashboard's pages, run with Streamlit's AppTest on a database built by the real importer.

The database holds `sample_histories/` and `tests/data/dashboard/hostile_names.txt`: three
hands written by hand whose players are named `<img src=x onerror=alert(1)>` and `**bold**`, at
a table named `**Gotha** II`, so that every figure below was computed by hand:

* hand 1 (20:00 ET): Zoë the hero completes with (A2)3, wins $0.21 without showdown: +$0.12
* hand 2 (20:01 ET): Zoë wins a showdown with (48)6: +$0.20; her `shows` line (line 86)
  describes her low wrongly, a LOG-DESC finding
* hand 3 (23:30 ET, a new session): Zoë brings in with (JQ)K and folds: -$0.03
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import duckdb
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from razz.dashboard import data, shape
from razz.dashboard import format as fmt

ROOT = Path(__file__).resolve().parent.parent
APP = ROOT / "dashboard" / "app.py"
SAMPLES = ROOT / "sample_histories"
HOSTILE = Path(__file__).resolve().parent / "data" / "dashboard" / "hostile_names.txt"
HERO = "Zoë the hero"
IMG = "<img src=x onerror=alert(1)>"
BOLD = "**bold**"
SHOWDOWN_HAND = "PokerStars:900000000002"


@pytest.fixture(scope="module")
def sample_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store built by the importer from the sample histories and the hand-written file."""
    from razz.store.importer import import_paths

    assert any(SAMPLES.rglob("*.txt")), "sample_histories/ holds no hand history"
    db = tmp_path_factory.mktemp("dashboard") / "razz.duckdb"
    import_paths([str(SAMPLES), str(HOSTILE)], db)
    return db


def sql(db: Path, text: str, *params: Any) -> list[tuple[Any, ...]]:
    """Ask the database directly: the oracle the pages are checked against."""
    with duckdb.connect(str(db), read_only=True) as con:
        return con.execute(text, list(params)).fetchall()


@pytest.fixture
def app(sample_db: Path, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    monkeypatch.setenv(data.DB_ENV, str(sample_db))
    return AppTest.from_file(str(APP), default_timeout=60)


def open_page(at: AppTest, page: str, **query: str) -> AppTest:
    at.run()
    at.switch_page(f"views/{page}.py").run()
    if query:  # a page switch clears the address's query: set it on the page, as a link does
        at.query_params.update(query)
        at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def choose_player(at: AppTest, name: str) -> AppTest:
    at.selectbox(key="player").set_value(name).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def select_row(at: AppTest, key: str, row: int) -> AppTest:
    at.session_state[key] = {"selection": {"rows": [row], "columns": [], "cells": []}}
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def metrics(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def frame(at: AppTest, key: str) -> pd.DataFrame:
    """A table that the user can select rows of, by its key."""
    found = [d for d in at.dataframe if d.key == key]
    assert found, f"no table {key!r}"
    return found[0].value


def tables_with(at: AppTest, *columns: str) -> list[pd.DataFrame]:
    """The tables (in page order) that have these columns: read-only tables carry no key."""
    values = [d.value for d in at.dataframe]
    return [v for v in values if set(columns) <= set(v.columns)]


def markdown_texts(at: AppTest) -> list[str]:
    """Every text of the page that Streamlit renders as Markdown."""
    texts: list[str] = []
    for kind in ("title", "header", "subheader", "caption", "markdown", "warning", "info",
                 "error", "success"):
        texts += [str(e.value) for e in getattr(at, kind)]
    texts += [m.label for m in at.metric]
    return texts


# ------------------------------------------------------------------------------- pages


def test_sessions_page_preselects_the_player_whose_cards_the_logs_show(
    app: AppTest, sample_db: Path
) -> None:
    (hero,) = sql(sample_db, "SELECT player FROM players WHERE is_hero GROUP BY player "
                             "ORDER BY count(*) DESC, player LIMIT 1")[0]
    app.run()
    assert not app.exception
    assert app.selectbox(key="player").value == hero
    ledger = app.selectbox(key="ledger").value
    unit, currency = ("chip", None) if ledger == "chips" else ("cent", ledger)
    (hands,) = sql(sample_db, "SELECT count(*) FROM players p JOIN hands h USING (hand_key) "
                              "WHERE p.player = ? AND h.unit = ? AND h.currency IS NOT DISTINCT "
                              "FROM ?", hero, unit, currency)[0]
    assert metrics(app)["Hands"] == f"{hands:,}"


def test_sessions_page_totals_results_with_showdown_split_and_cuts_sessions(
    app: AppTest
) -> None:
    at = choose_player(app.run(), HERO)
    shown = metrics(at)
    assert shown["Hands"] == "3"
    assert shown["Net"] == "$0.29"
    assert shown["Showdown"] == "$0.20"
    assert shown["Non-showdown"] == "$0.09"
    assert shown["Rake paid"] == "$0.02"  # she won two raked pots of $0.01
    assert shown["BB/100"] == f"{100 * (12 + 20 - 3) / 8 / 3:+.2f}"
    sessions = frame(at, "sessions_table")
    assert sessions["Hands"].tolist() == [1, 2]  # latest first: 23:30, then 20:00–20:01
    assert sessions["Net"].tolist() == pytest.approx([-0.03, 0.32])
    assert set(sessions["Table"]) == {"**Gotha** II"}
    at = select_row(at, "sessions_table", 1)
    listed = frame(at, "session_hands")
    assert listed["Hand"].str.endswith(("900000000001", "900000000002")).all()
    assert len(listed) == 2


def test_player_statistics_show_every_rate_with_its_counts(app: AppTest) -> None:
    at = choose_player(open_page(app, "players"), HERO)
    sheet = frame(at, "stat_sheet").set_index("Statistic")
    assert sheet.loc["VPIP 3rd", "Value"] == "66.7% (2/3)"
    assert sheet.loc["Bring-in posted", "Value"] == "100.0% (1/1)"
    assert sheet.loc["Bring-in folded", "Value"] == "100.0% (1/1)"
    assert sheet.loc["Saw 4th", "Value"] == "66.7% (2/3)"
    assert sheet.loc["Went to showdown", "Value"] == "50.0% (1/2)"
    assert sheet.loc["Won at showdown", "Value"] == "100.0% (1/1)"
    assert sheet.loc["Aggression 4th", "Value"] == "1.00 (1/1)"  # bet in hand 1, called in 2
    everyone = frame(at, "players_table").set_index("Player")
    assert {HERO, IMG, BOLD, "meg100"} <= set(everyone.index)
    assert everyone.loc[IMG, "Net"] == pytest.approx(-0.21)
    assert everyone.loc[BOLD, "Net"] == pytest.approx(-0.03)
    assert everyone.loc[HERO, "Hands"] == 3


def test_player_statistics_lead_to_the_hands_behind_a_rate(app: AppTest) -> None:
    at = choose_player(open_page(app, "players"), HERO)
    rows = frame(at, "stat_sheet")["Statistic"].tolist()
    at = select_row(at, "stat_sheet", rows.index("Went to showdown"))
    hits = frame(at, "stat_hands")
    assert hits["Hand"].str.endswith("900000000002").tolist() == [True]
    at.segmented_control(key="stat_side").set_value("Chances").run()
    chances = frame(at, "stat_hands")
    assert sorted(h[-12:] for h in chances["Hand"]) == ["900000000001", "900000000002"]


def test_starting_hands_group_the_heros_cards_as_razz_players_do(app: AppTest) -> None:
    at = choose_player(open_page(app, "starting_hands"), HERO)
    table = frame(at, "starting_table").set_index("Hand")
    assert set(table.index) == {"(A2)3", "(48)6", "(JQ)K"}
    assert table.loc["(A2)3", "Group"] == "3 high"
    assert table.loc["(48)6", "Group"] == "8 high"
    assert table.loc["(JQ)K", "Group"] == "K high"
    assert table.loc["(A2)3", "Net"] == pytest.approx(0.12)
    assert table.loc["(JQ)K", "VPIP"] == 0.0
    at.segmented_control(key="starting_rows").set_value("Groups").run()
    groups = frame(at, "starting_table")["Hand"].tolist()
    assert groups == ["3 high", "8 high", "K high"]  # best first


def test_replayer_shows_each_street_hides_down_cards_and_marks_the_finding(
    app: AppTest,
) -> None:
    at = open_page(app, "replayer", hand=SHOWDOWN_HAND)
    seats = tables_with(at, "Seat", "Down", "Up")  # one per street, 3rd to 7th
    assert len(seats) == 5
    third = seats[0].set_index("Seat")
    assert third.loc[6, "Down"] == "8♣ 4♦" and third.loc[6, "Up"] == "6♠"
    assert third.loc[1, "Down"] == "🂠 🂠" and third.loc[1, "Up"] == "2♦"
    assert third.loc[1, "Player"] == IMG
    seventh = seats[4].set_index("Seat")
    assert seventh.loc[1, "Down"] == "🂠 🂠 🂠"
    assert seventh.loc[6, "Down"] == "8♣ 4♦ 2♥"
    actions = tables_with(at, "Pot after", "Finding")[2]  # 3rd, 4th, 5th
    assert actions["Pot after"].tolist() == ["$0.28", "$0.36"]
    assert actions["Stack after"].tolist() == ["$1.97", "$1.82"]
    text = at.code[0].value
    assert "86 ! Zoë the hero: shows [8c 4d 6s 7d 3c Ks 2h] (Lo: 6,4,3,2,A)" in text
    assert "85   <img src=x onerror=alert(1)>: shows [Th Jh 2d 5c 9h Ac Qd]" in text
    warnings = " ".join(w.value for w in at.warning)
    assert "LOG\\-DESC" in warnings and "Line 86" in warnings
    at.toggle(key="reveal_down").set_value(True).run()
    seventh = tables_with(at, "Seat", "Down", "Up")[4].set_index("Seat")
    assert seventh.loc[1, "Down"] == "T♥ J♥ Q♦"


def test_replayer_opens_from_a_list_of_hands_by_selecting_a_row(app: AppTest) -> None:
    at = choose_player(app.run(), HERO)
    at = select_row(at, "sessions_table", 1)
    listed = frame(at, "session_hands")
    at = select_row(at, "session_hands", listed["Hand"].str.endswith("900000000002").argmax())
    assert [t.value for t in at.title] == ["Hand replayer"]
    assert at.query_params["hand"] == SHOWDOWN_HAND


def test_audit_page_counts_findings_by_rule_with_the_rules_text(
    app: AppTest, sample_db: Path
) -> None:
    at = open_page(app, "audit")
    (hands, clean) = sql(sample_db, "SELECT count(*), count(*) FILTER (WHERE findings = 0) "
                                    "FROM hands")[0]
    assert metrics(at)["Hands"] == f"{hands:,}"
    assert metrics(at)["Compliant"] == f"{clean / hands:.1%}"
    (by_rule,) = tables_with(at, "Rule", "Rule text")
    by_rule = by_rule.set_index("Rule")
    assert "LOG-DESC" in by_rule.index
    assert by_rule.loc["LOG-DESC", "Rule text"].startswith("A shown hand's description")
    findings = frame(at, "findings_list")
    ours = findings[findings["Hand"].str.endswith("900000000002")]
    assert 86 in ours["Line"].tolist() and "LOG-DESC" in ours["Rule"].tolist()
    assert at.get("download_button")


def test_audit_filters_narrow_the_findings_to_one_rule(app: AppTest, sample_db: Path) -> None:
    at = open_page(app, "audit")
    at.selectbox(key="audit_rule").set_value("LOG-DESC").run()
    (count,) = sql(sample_db, "SELECT count(*) FROM violations WHERE rule = 'LOG-DESC'")[0]
    assert set(frame(at, "findings_list")["Rule"]) == {"LOG-DESC"}
    assert len(frame(at, "findings_list")) == count


def test_import_page_imports_an_upload_and_lists_what_was_rejected(
    app: AppTest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "fresh.duckdb"
    monkeypatch.setenv(data.DB_ENV, str(db))
    good = HOSTILE.read_bytes().split(b"\n\n\n")[0] + b"\n\n\n"
    broken = b"PokerStars Game #1:  Razz Limit ($0.04/$0.08 USD) - 2024/01/15 20:00:00 ET\n" \
             b"Table 'X' 8-max\nSeat 1: a ($1 in chips)\nthis line is not a poker line\n\n\n"
    at = open_page(app, "importer")
    at.file_uploader(key="upload_files").set_value([
        ("good.txt", good, "text/plain"), ("../broken.txt", broken, "text/plain")])
    next(b for b in at.button if b.label == "Import").click().run(timeout=300)
    assert not at.exception, [e.value for e in at.exception]
    shown = metrics(at)
    assert shown["New hands"] == "1"
    assert shown["Rejected"] == "1"
    (files,) = tables_with(at, "File", "New hands")
    assert set(files["File"]) == {"good.txt", "broken.txt"}  # no folder from the browser
    assert (db.parent / "uploads").is_dir()
    (rejects,) = tables_with(at, "File", "Error")
    assert rejects["File"].tolist() == ["broken.txt"]


# --------------------------------------------------------------------- untrusted text


@pytest.mark.parametrize("page", ["sessions", "players", "starting_hands", "replayer", "audit"])
def test_untrusted_names_never_render_as_markdown_or_html(app: AppTest, page: str) -> None:
    query = {"hand": SHOWDOWN_HAND} if page == "replayer" else {}
    at = open_page(app, page, **query)
    if page in ("sessions", "players", "starting_hands"):
        at = choose_player(at, BOLD)
    texts = markdown_texts(at)
    for text in texts:
        assert not re.search(r"(?<!\\)\*\*(bold|Gotha)", text), text  # would render bold
        assert not re.search(r"(?<!\\)<img", text), text  # would be HTML
    # The names are there, as data or escaped: shown, not dropped.
    shown = " ".join(texts) + " ".join(str(d.value.to_numpy().tolist()) for d in at.dataframe)
    markers = (BOLD, "**Gotha** II", "\\*\\*bold\\*\\*", "\\*\\*Gotha\\*\\*")
    assert any(marker in shown for marker in markers)


# ------------------------------------------------------------------- SQL parameters


def test_queries_take_hostile_text_as_data_not_sql(sample_db: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(data.DB_ENV, str(sample_db))
    hostile = "x' OR '1'='1'; DROP TABLE hands; --"
    assert data.player_hands(hostile, data.HandFilter()).empty
    assert data.find_hands(hostile).empty
    assert data.hand(hostile).empty
    assert len(data.player_hands(HERO, data.HandFilter())) == 3
    data.release()


def test_reader_lets_go_of_the_file_so_a_writer_can_open_it(
    sample_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(data.DB_ENV, str(sample_db))
    data.forget_cached_results()
    assert not data.find_hands("900000000001").empty
    data.release()
    duckdb.connect(str(sample_db)).close()  # a writer in this process: refused while reading


def test_missing_database_shows_a_message_instead_of_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(data.DB_ENV, str(tmp_path / "none.duckdb"))
    at = AppTest.from_file(str(APP), default_timeout=30).run()
    assert not at.exception
    assert any("no database" in w.value for w in at.warning)


# --------------------------------------------------------------------- pure helpers


def test_money_is_shown_with_its_unit() -> None:
    assert fmt.money(123, "cent", "USD") == "$1.23"
    assert fmt.money(-5, "cent", "EUR") == "-€0.05"
    assert fmt.money(1230, "chip", None) == "1,230"
    assert fmt.money(-1230, "chip", None) == "-1,230"


def test_markdown_literal_escapes_every_markdown_and_html_character() -> None:
    assert fmt.markdown_literal("**bold**") == "\\*\\*bold\\*\\*"
    assert fmt.markdown_literal("<img src=x>") == "\\<img src\\=x\\>"
    assert fmt.markdown_literal(":red[x] $x$") == "\\:red\\[x\\] \\$x\\$"
    assert "\n" not in fmt.markdown_literal("# a\n# b")


def test_rates_show_hits_over_chances() -> None:
    assert fmt.rate(47, 200) == "23.5% (47/200)"
    assert fmt.rate(0, 0) == "– (0/0)"
    assert fmt.ratio(3, 2) == "1.50 (3/2)"


def test_starting_hands_are_named_and_grouped_like_razz_players_do() -> None:
    assert shape.starting_hand_label(1, 2, 3) == "(A2)3"
    assert shape.starting_hand_label(2, 4, 7) == "(24)7"
    assert shape.starting_hand_group(5, 5, 5) == "Rolled up"
    assert shape.starting_hand_group(1, 1, 7) == "Pair"
    assert shape.starting_hand_group(2, 4, 7) == "7 high"
    groups = ["Rolled up", "Pair", "K high", "3 high", "8 high"]
    assert sorted(groups, key=shape.group_order) == [
        "3 high", "8 high", "K high", "Pair", "Rolled up"]


def test_cumulative_curve_is_thinned_but_ends_on_the_exact_totals() -> None:
    hands = pd.DataFrame({"net": [1, -2, 3] * 1000, "net_bb": [0.5, -1.0, 1.5] * 1000,
                          "showdown": [True, False, False] * 1000})
    curve = shape.cumulative(hands, max_points=100)
    last = curve[curve["hand"] == 3000].set_index("series")
    assert last.loc["All hands", "money"] == 2000
    assert last.loc["Showdown", "money"] == 1000
    assert last.loc["Non-showdown", "money"] == 1000
    assert len(curve) < 400


def test_numbered_lines_use_file_line_numbers_and_mark_findings() -> None:
    text = shape.numbered_lines("a\nb\nc", 98, marked=[99])
    assert text.splitlines() == [" 98   a", " 99 ! b", "100   c"]


def test_dashboard_command_serves_the_app_headless_on_the_given_database(tmp_path: Path) -> None:
    import argparse

    from razz.commands import dashboard

    parser = argparse.ArgumentParser()
    dashboard.add_arguments(parser)
    command, env = dashboard.streamlit_command(
        parser.parse_args(["--db", str(tmp_path / "x.duckdb"), "--port", "8999"]))
    assert command[1:4] == ["-m", "streamlit", "run"]
    assert Path(command[4]) == APP
    assert command[command.index("--server.port") + 1] == "8999"
    assert command[command.index("--server.headless") + 1] == "true"
    assert env[data.DB_ENV] == str((tmp_path / "x.duckdb").resolve())
