"""The dashboard's pages, run with Streamlit's AppTest on a database built by the real importer.

Every number a page shows is checked against the same question asked of the store in SQL,
and, for a player's figures, of `razz stats`. The database holds `sample_histories/` and
`tests/data/dashboard/hostile_names.txt`: three hands written by hand whose players are named
`<img src=x onerror=alert(1)>` and `**bold**`, at a table named `**Gotha** II`, so that the
figures of their hero were computed by hand:

* hand 1 (20:00 ET): Zoë the hero completes with (A2)3, wins $0.21 without showdown: +$0.12
* hand 2 (20:01 ET): Zoë wins a showdown with (48)6: +$0.20; her `shows` line (line 86)
  describes her low wrongly, a LOG-DESC finding
* hand 3 (23:30 ET, a new session): Zoë brings in with (JQ)K and folds: -$0.03
"""

from __future__ import annotations

import contextlib
import io
import re
from datetime import date, timedelta
from html.parser import HTMLParser
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
ISSUE_PLAYER = "RazzHero"  # issue 12: "306 hands of RazzHero" where `razz stats` says 318


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
        con.execute("SET TimeZone = 'UTC'")
        return con.execute(text, list(params)).fetchall()


def razz_stats_hands(db: Path, player: str) -> dict[str, int]:
    """`razz stats --player NAME`: the hands it counts, per ledger ('USD', 'chips' …)."""
    from razz.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["stats", "--player", player, "--db", str(db)]) == 0
    text = out.getvalue()
    heads = re.findall(rf"^{re.escape(player)} · (.+)$", text, re.M)
    counts = [int(n.replace(",", "")) for n in re.findall(r"^  hands\s+([\d,]+) \(", text, re.M)]
    return dict(zip(heads, counts, strict=True))


@pytest.fixture
def app(sample_db: Path, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    monkeypatch.setenv(data.DB_ENV, str(sample_db))
    monkeypatch.delenv(data.ALLOW_IMPORT_ENV, raising=False)
    return AppTest.from_file(str(APP), default_timeout=60)


def open_page(at: AppTest, page: str, **query: str) -> AppTest:
    at.run()
    at.switch_page(f"views/{page}.py").run()
    if query:  # a page switch clears the address's query: set it on the page, as a link does
        at.query_params.update(query)
        at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def rerun(at: AppTest) -> AppTest:
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def choose_player(at: AppTest, name: str) -> AppTest:
    at.selectbox(key="player").set_value(name)
    return rerun(at)


def every_player(at: AppTest) -> AppTest:
    """The table of players with everyone in it: past 200 players (the samples of every room
    have more) the page shows those with the most hands first."""
    at.number_input(key="min_hands").set_value(1)
    return rerun(at)


def select_row(at: AppTest, key: str, row: int) -> AppTest:
    at.session_state[key] = {"selection": {"rows": [row], "columns": [], "cells": []}}
    return rerun(at)


def metrics(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def frame(at: AppTest, key: str) -> pd.DataFrame:
    """A table by its key (its shown values when it is styled)."""
    found = [d for d in at.dataframe if d.key == key]
    assert found, f"no table {key!r}"
    value = found[0].value
    return value.data if hasattr(value, "data") else value


def tables_with(at: AppTest, *columns: str) -> list[pd.DataFrame]:
    """The tables (in page order) that have these columns: read-only tables carry no key."""
    values = [d.value for d in at.dataframe]
    values = [v.data if hasattr(v, "data") else v for v in values]
    return [v for v in values if set(columns) <= set(v.columns)]


def sheet_title(at: AppTest) -> str:
    (title,) = [s.value for s in at.subheader if s.value.startswith("Sheet of")]
    return str(title)


def captions(at: AppTest) -> list[str]:
    return [str(c.value) for c in at.caption]


def unescape_markdown(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)


def markdown_texts(at: AppTest) -> list[str]:
    """Every text of the page that Streamlit renders as Markdown."""
    texts: list[str] = []
    for kind in ("title", "header", "subheader", "caption", "markdown", "warning", "info",
                 "error", "success"):
        texts += [str(e.value) for e in getattr(at, kind)]
    texts += [m.label for m in at.metric]
    texts += [b.label for b in at.button]
    return texts


def html_bodies(at: AppTest) -> list[str]:
    return [str(h.value) for h in at.get("html")]


def text_of_html(body: str) -> str:
    """The text a browser shows for a piece of HTML (entities decoded, tags dropped)."""

    class Text(HTMLParser):
        def __init__(self) -> None:
            super().__init__(convert_charrefs=True)
            self.parts: list[str] = []
            self.skip = False

        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            self.skip = tag == "style"

        def handle_endtag(self, tag: str) -> None:
            self.skip = False
            self.parts.append(" ")

        def handle_data(self, text: str) -> None:
            if not self.skip:
                self.parts.append(text)

    parser = Text()
    parser.feed(body)
    return re.sub(r"\s+", " ", "".join(parser.parts))


def player_count(db: Path, player: str, unit: str = "cent", currency: str | None = "USD",
                 start: date | None = None, end: date | None = None,
                 stakes: str | None = None) -> int:
    """The player's hands in one ledger, between two days (inclusive, UTC), at some stakes."""
    (count,) = sql(db, """
        SELECT count(*) FROM players p JOIN hands h USING (hand_key)
        WHERE p.player = ? AND h.unit = ? AND h.currency IS NOT DISTINCT FROM ?
          AND (?::DATE IS NULL OR h.started_at::DATE >= ?::DATE)
          AND (?::DATE IS NULL OR h.started_at::DATE <= ?::DATE)
          AND (?::VARCHAR IS NULL OR h.stakes = ?)
        """, player, unit, currency, start, start, end, end, stakes, stakes)[0]
    return int(count)


# ------------------------------------------------------------------- sidebar filters


def test_sessions_page_preselects_the_hero_and_says_nothing_is_hidden(
    app: AppTest, sample_db: Path
) -> None:
    (hero,) = sql(sample_db, "SELECT player FROM players GROUP BY player ORDER BY "
                             "count(*) FILTER (WHERE is_hero) DESC, count(*) DESC, player "
                             "LIMIT 1")[0]
    at = rerun(app)
    assert at.selectbox(key="player").value == hero
    ledger = at.selectbox(key="ledger").value
    unit, currency = ("chip", None) if ledger == "chips" else ("cent", ledger)
    hands = player_count(sample_db, hero, unit, currency)
    assert metrics(at)["Hands"] == f"{hands:,}"
    assert f"Showing all {hands:,} hands of {hero}." in map(unescape_markdown, captions(at))
    assert razz_stats_hands(sample_db, hero)[ledger] == hands


def test_picking_another_player_resets_the_dates_to_that_players_own(
    app: AppTest, sample_db: Path
) -> None:
    at = rerun(app)
    first_player = at.selectbox(key="player").value
    # The first player's days are not RazzHero's: a kept range would hide some of his hands.
    (start,) = sql(sample_db, "SELECT min(started_at)::DATE FROM players JOIN hands "
                              "USING (hand_key) WHERE player = ?", first_player)[0]
    at.date_input(key="dates").set_value((start, start + timedelta(days=30)))
    at = choose_player(rerun(at), ISSUE_PLAYER)
    expected = player_count(sample_db, ISSUE_PLAYER)
    assert expected == 318
    assert metrics(at)["Hands"] == "318"
    assert razz_stats_hands(sample_db, ISSUE_PLAYER)["USD"] == expected
    (first, last) = sql(sample_db, """
        SELECT min(started_at)::DATE, max(started_at)::DATE FROM players JOIN hands
        USING (hand_key) WHERE player = ? AND unit = 'cent'""", ISSUE_PLAYER)[0]
    assert tuple(at.date_input(key="dates").value) == (first, last)
    # His 12 tournament hands are in chips: another ledger, and the note says so.
    assert ("Showing 318 of 330 hands of RazzHero: 12 hidden by the Money filter."
            in captions(at))


def test_a_narrowed_date_range_says_how_many_hands_it_hides(
    app: AppTest, sample_db: Path
) -> None:
    at = choose_player(rerun(app), ISSUE_PLAYER)
    first, _ = at.date_input(key="dates").value
    cut = date(2022, 1, 1)
    at.date_input(key="dates").set_value((first, cut))
    at = rerun(at)
    shown = player_count(sample_db, ISSUE_PLAYER, end=cut)
    assert 0 < shown < 318
    assert metrics(at)["Hands"] == f"{shown:,}"
    assert (f"Showing {shown:,} of 330 hands of RazzHero: 12 hidden by the Money filter, "
            f"{318 - shown:,} by the Dates filter.") in captions(at)


def test_stakes_reset_the_dates_to_the_days_of_those_stakes(
    app: AppTest, sample_db: Path
) -> None:
    at = choose_player(rerun(app), ISSUE_PLAYER)
    (stakes, first, last, count) = sql(sample_db, """
        SELECT stakes, min(started_at)::DATE, max(started_at)::DATE, count(*)
        FROM players JOIN hands USING (hand_key)
        WHERE player = ? AND unit = 'cent' GROUP BY stakes ORDER BY count(*) LIMIT 1""",
        ISSUE_PLAYER)[0]
    at.selectbox(key="stakes").set_value(stakes)
    at = rerun(at)
    assert tuple(at.date_input(key="dates").value) == (first, last)
    assert metrics(at)["Hands"] == f"{count:,}"
    assert (f"Showing {count:,} of 330 hands of RazzHero: 12 hidden by the Money filter, "
            f"{318 - count:,} by the Stakes filter.") in captions(at)


def test_the_sidebar_keeps_its_player_across_pages(app: AppTest) -> None:
    at = choose_player(rerun(app), ISSUE_PLAYER)
    at.switch_page("views/audit.py")
    at = rerun(at)
    at.switch_page("views/players.py")
    at = rerun(at)
    assert at.selectbox(key="player").value == ISSUE_PLAYER
    assert sheet_title(at) == "Sheet of RazzHero"


# ---------------------------------------------------------------------- sessions


def test_sessions_page_totals_results_with_showdown_split_and_cuts_sessions(
    app: AppTest
) -> None:
    at = choose_player(rerun(app), HERO)
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


# ------------------------------------------------------------------ player statistics


def test_player_statistics_sheet_follows_the_sidebar_player(
    app: AppTest, sample_db: Path
) -> None:
    at = choose_player(open_page(app, "players"), ISSUE_PLAYER)
    assert sheet_title(at) == "Sheet of RazzHero"
    assert metrics(at)["Hands"] == "318"
    (vpip,) = sql(sample_db, "SELECT count(*) FILTER (WHERE vpip) FROM players JOIN hands "
                             "USING (hand_key) WHERE player = ? AND unit = 'cent'",
                  ISSUE_PLAYER)[0]
    sheet = frame(at, "stat_sheet").set_index("Statistic")
    assert sheet.loc["VPIP 3rd", "Count"] == f"{vpip} hands"
    assert sheet.loc["VPIP 3rd", "Out of"] == "318 hands dealt"
    at = choose_player(at, HERO)
    assert sheet_title(at) == "Sheet of Zoë the hero"
    assert metrics(at)["Hands"] == "3"


def test_every_players_counts_do_not_depend_on_whose_sheet_is_shown(
    app: AppTest, sample_db: Path
) -> None:
    """Issue 12: the hero's own days hid 12 of RazzHero's hands from the table of players."""
    at = open_page(app, "players")
    assert at.selectbox(key="player").value != ISSUE_PLAYER
    everyone = frame(at, f"players_table:{at.selectbox(key='player').value}")
    counts = dict(zip(everyone["Player"], everyone["Hands"], strict=True))
    assert counts[ISSUE_PLAYER] == player_count(sample_db, ISSUE_PLAYER) == 318


def test_selecting_a_player_in_the_table_makes_them_the_sidebar_player(app: AppTest) -> None:
    at = every_player(choose_player(open_page(app, "players"), HERO))
    everyone = frame(at, f"players_table:{HERO}")
    row = everyone["Player"].tolist().index(BOLD)
    at = select_row(at, f"players_table:{HERO}", row)
    assert at.selectbox(key="player").value == BOLD
    assert sheet_title(at) == "Sheet of \\*\\*bold\\*\\*"
    assert metrics(at)["Hands"] == "3"


def test_player_statistics_show_every_rate_with_its_counts(app: AppTest) -> None:
    at = every_player(choose_player(open_page(app, "players"), HERO))
    sheet = frame(at, "stat_sheet").set_index("Statistic")
    assert list(sheet.columns) == ["Value", "Count", "Out of"]
    assert sheet.loc["VPIP 3rd"].tolist() == ["66.7%", "2 hands", "3 hands dealt"]
    assert sheet.loc["Bring-in posted"].tolist() == ["100.0%", "1 bring-ins posted",
                                                     "1 hands with the bring-in"]
    assert sheet.loc["Bring-in folded", "Value"] == "100.0%"
    assert sheet.loc["Saw 4th", "Value"] == "66.7%"
    assert sheet.loc["Went to showdown"].tolist() == ["50.0%", "1 showdowns",
                                                      "2 hands that saw 4th"]
    assert sheet.loc["Won at showdown", "Value"] == "100.0%"
    # A ratio, not a rate: bets and raises per call (bet in hand 1, called in hand 2).
    assert sheet.loc["Aggression 4th"].tolist() == ["1.00", "1 bets and raises", "1 calls"]
    everyone = frame(at, f"players_table:{HERO}").set_index("Player")
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


# -------------------------------------------------------------------------- replayer


def replayer_at(app: AppTest, line: int | None = None) -> AppTest:
    query = {"hand": SHOWDOWN_HAND} | ({"line": str(line)} if line else {})
    return open_page(app, "replayer", **query)


def table_text(at: AppTest) -> str:
    return text_of_html(html_bodies(at)[0])


def test_replayer_opens_at_the_asked_line_with_stacks_bets_and_pot_after_that_action(
    app: AppTest, sample_db: Path
) -> None:
    at = replayer_at(app, line=74)  # <img …> calls $0.08 on 5th street
    (pot, stack) = sql(sample_db, "SELECT pot_after, stack_after FROM actions WHERE hand_key = ? "
                                  "AND line = 74", SHOWDOWN_HAND)[0]
    text = table_text(at)
    assert f"Pot {fmt.money(pot, 'cent', 'USD')}" in text
    assert "Pot $0.36" in text
    assert f"{IMG} Seat 1 · Stack {fmt.money(stack, 'cent', 'USD')}" in text
    assert "Line 74 · 5th street" in text and f"{IMG} calls $0.08" in text
    assert text.count("$0.08") >= 3  # both bets in front of the players, and the call
    assert at.slider(key="replay_step").label.startswith("Step ")


def test_replayer_steps_action_by_action_with_the_pot_of_each(
    app: AppTest, sample_db: Path
) -> None:
    stored = sql(sample_db, "SELECT line, pot_after FROM actions WHERE hand_key = ? "
                            "AND street IS NOT NULL ORDER BY seq", SHOWDOWN_HAND)
    at = replayer_at(app, line=stored[0][0])
    seen = []
    for line, pot in stored:
        while f"Line {line} ·" not in table_text(at):  # a deal comes between two streets
            at.button(key="replay_next").click()
            at = rerun(at)
        seen.append(f"Pot {fmt.money(pot, 'cent', 'USD')}" in table_text(at))
        at.button(key="replay_next").click()
        at = rerun(at)
    assert all(seen) and len(seen) == 14
    at.button(key="replay_previous").click()
    at = rerun(at)
    assert f"Line {stored[-1][0]} ·" in table_text(at)
    at.slider(key="replay_step").set_value(1)
    at = rerun(at)
    assert "Before the deal" in table_text(at) and "Pot $0.00" in table_text(at)
    at.button(key="replay_last").click()
    at = rerun(at)
    assert "Summary" in table_text(at) and "Total pot $0.36" in table_text(at)


def test_replayer_hides_down_cards_until_they_are_shown(app: AppTest) -> None:
    at = replayer_at(app, line=82)  # 7th street: <img …> checks
    body = html_bodies(at)[0]
    img_seat = re.search(r'title="&lt;img src=x onerror=alert\(1\)&gt;".*?</div></div>', body)
    assert img_seat is not None
    assert img_seat.group(0).count('class="card back"') == 3  # two hole cards and the river
    assert "dealt face down" not in img_seat.group(0)
    hero_seat = re.search(r'title="Zoë the hero".*?</div></div>', body)
    assert hero_seat is not None
    # The hero's own down cards are known to the hero: shown, and marked as down cards.
    assert hero_seat.group(0).count('class="card s-c down"') == 1  # 8♣
    assert hero_seat.group(0).count(' down" title=') == 3
    at = replayer_at(app, line=85)  # <img …>: shows [Th Jh 2d 5c 9h Ac Qd]
    img_seat = re.search(r'title="&lt;img src=x onerror=alert\(1\)&gt;".*?</div></div>',
                         html_bodies(at)[0])
    assert img_seat is not None and 'class="card back"' not in img_seat.group(0)
    shown = img_seat.group(0)
    assert '<span class="card s-h down" title="10 of hearts, dealt face down">' in shown
    assert '<span class="card s-d down" title="queen of diamonds, dealt face down">' in shown


def test_replayer_shows_each_finding_at_its_line_and_jumps_to_it(app: AppTest) -> None:
    at = replayer_at(app, line=74)
    assert "LOG-DESC" not in table_text(at)
    at.button(key="replay_finding_0").click()  # line 86, the first finding
    at = rerun(at)
    text = table_text(at)
    assert "Line 86 · Showdown" in text and "Zoë the hero shows" in text
    assert "LOG-DESC (error, line 86): Zoë the hero's cards make Lo: 7,6,4,3,2" in text


def test_replayer_history_numbers_the_files_lines_marks_findings_and_wraps(
    app: AppTest,
) -> None:
    at = replayer_at(app, line=74)
    history = html_bodies(at)[1]
    assert "white-space: pre-wrap" in history  # long lines wrap, never cut off
    assert re.search(r'class="ln cur"><span class="n">74</span>', history)
    assert re.search(r'class="ln flag"><span class="n">86</span><span class="m">!</span>',
                     history)
    assert "86 ! Zoë the hero: shows [8c 4d 6s 7d 3c Ks 2h]" in text_of_html(history)
    assert "&lt;img src=x onerror=alert(1)&gt;: calls $0.08" in history


def test_replayer_steps_through_a_hand_without_findings(app: AppTest, sample_db: Path) -> None:
    (key, line, pot, unit, currency) = sql(sample_db, """
        SELECT h.hand_key, a.line, a.pot_after, h.unit, h.currency
        FROM hands h JOIN actions a USING (hand_key)
        WHERE h.findings = 0 AND a.street = '4th' ORDER BY h.hand_key, a.seq LIMIT 1""")[0]
    at = open_page(app, "replayer", hand=key, line=str(line))
    assert f"Line {line} · 4th street" in table_text(at)
    assert f"Pot {fmt.money(pot, unit, currency)}" in table_text(at)
    assert not [b for b in at.button if b.key and b.key.startswith("replay_finding_")]


def test_replayer_opens_from_a_list_of_hands_by_selecting_a_row(app: AppTest) -> None:
    at = choose_player(rerun(app), HERO)
    at = select_row(at, "sessions_table", 1)
    listed = frame(at, "session_hands")
    at = select_row(at, "session_hands", listed["Hand"].str.endswith("900000000002").argmax())
    assert [t.value for t in at.title] == ["Hand replayer"]
    assert at.query_params["hand"] == SHOWDOWN_HAND


# ----------------------------------------------------------------------------- audit


def test_audit_page_counts_findings_by_rule_with_the_rules_text(
    app: AppTest, sample_db: Path
) -> None:
    at = open_page(app, "audit")
    (hands, clean, findings) = sql(sample_db, "SELECT count(*), count(*) FILTER (WHERE "
                                              "findings = 0), sum(findings) FROM hands")[0]
    assert metrics(at)["Hands"] == f"{hands:,}"
    assert metrics(at)["Compliant"] == f"{clean / hands:.1%}"
    assert metrics(at)["Findings"] == f"{findings:,}"
    (by_rule,) = tables_with(at, "Rule", "Rule text")
    by_rule = by_rule.set_index("Rule")
    assert "LOG-DESC" in by_rule.index
    assert by_rule.loc["LOG-DESC", "Rule text"].startswith("A shown hand's description")
    assert f"Showing all {findings:,} findings." in captions(at)[0]
    labels = {b.label for b in at.get("download_button")}
    assert labels == {"Download the findings (CSV)", "Download the audit report (HTML)"}


def test_a_rule_filter_narrows_every_tab_and_counts_are_integers(
    app: AppTest, sample_db: Path
) -> None:
    at = open_page(app, "audit")
    at.selectbox(key="audit_rule").set_value("ORDER-LATER")
    at = rerun(at)
    (count, hands, total) = sql(sample_db, """
        SELECT count(*) FILTER (WHERE rule = 'ORDER-LATER'),
               count(DISTINCT hand_key) FILTER (WHERE rule = 'ORDER-LATER'), count(*)
        FROM violations""")[0]
    assert count == 2
    assert metrics(at)["Findings"] == "2"
    assert (f"Showing 2 of {total} findings: {total - 2} hidden by the Rule filter."
            in captions(at)[0])
    (by_rule,) = tables_with(at, "Rule", "Rule text")
    assert by_rule["Rule"].tolist() == ["ORDER-LATER"] and by_rule["Findings"].tolist() == [2]
    for key in ("File", "Table", "Day (UTC)"):
        (tab,) = tables_with(at, key, "Hands with errors")
        for column in ("Hands", "Hands with errors", "Findings", "Errors", "Warnings"):
            assert pd.api.types.is_integer_dtype(tab[column]), (key, column)
        assert int(tab["Findings"].sum()) == count, key
        assert int(tab["Hands with errors"].sum()) == hands, key
    (by_date,) = tables_with(at, "Day (UTC)", "Hands with errors")
    (days,) = sql(sample_db, "SELECT count(DISTINCT started_at::DATE) FROM hands")[0]
    assert len(by_date) == days and (by_date["Findings"] > 0).sum() <= 2
    assert "2 of" in " ".join(captions(at))  # "2 of 65 files have a finding shown here"


def test_a_file_filter_narrows_the_tabs_and_resets_the_dates_to_its_days(
    app: AppTest, sample_db: Path
) -> None:
    (path, day, findings) = sql(sample_db, """
        SELECT source, min(started_at)::DATE, sum(findings) FROM hands
        WHERE source LIKE '%violations/ORDER-LATER.txt' GROUP BY source""")[0]
    at = open_page(app, "audit")
    at.selectbox(key="audit_file").set_value(path)
    at = rerun(at)
    assert at.date_input(key="audit_dates").value[0] == day
    assert metrics(at)["Findings"] == f"{findings:,}"
    (by_file,) = tables_with(at, "File", "Hands with errors")
    # Named without the folder every file of the store shares: this checkout.
    assert by_file["File"].tolist() == ["sample_histories/violations/ORDER-LATER.txt"]
    (by_table,) = tables_with(at, "Table", "Hands with errors")
    assert int(by_table["Findings"].sum()) == findings


def test_findings_table_reads_rule_severity_line_message_first_with_short_files(
    app: AppTest, sample_db: Path
) -> None:
    at = open_page(app, "audit")
    at.selectbox(key="audit_rule").set_value("LOG-DESC")
    at = rerun(at)
    (table,) = [b for b in html_bodies(at) if "<table>" in b]
    headers = re.findall(r"<th[^>]*>([^<]+)</th>", table)
    assert headers[:4] == ["Rule", "Severity", "Line", "Message"]
    rows = sql(sample_db, "SELECT v.line, v.message, h.source, h.hand_key FROM violations v "
                          "JOIN hands h USING (hand_key) WHERE rule = 'LOG-DESC' "
                          "ORDER BY h.source, v.line")
    assert table.count("<tr>") == len(rows) + 1
    for line, message, source, key in rows:
        # The whole message, the short path with the full one on hover, a link to the line.
        assert fmt_html(message) in table
        short = source.split("/sample_histories/")[-1].split("/tests/data/")[-1]
        assert re.search(rf'title="{re.escape(fmt_html(source))}">[^<]*{re.escape(short)}<',
                         table)
        link = f'replayer?hand={key.replace(":", "%3A")}&amp;line={line}'
        assert link in table


def fmt_html(text: str) -> str:
    from html import escape

    return escape(text, quote=True)


def test_audit_filters_start_from_the_address(app: AppTest) -> None:
    at = rerun(app)
    at.switch_page("views/audit.py")
    at.query_params.update({"rule": "LOG-DESC", "severity": "error"})
    at = rerun(at)
    assert at.selectbox(key="audit_rule").value == "LOG-DESC"
    assert at.selectbox(key="audit_severity").value == "error"
    assert at.query_params["rule"] == "LOG-DESC"


# ---------------------------------------------------------------------------- import


def test_the_import_page_exists_only_with_allow_import(app: AppTest) -> None:
    at = rerun(app)
    with pytest.raises(Exception, match="importer"):
        at.switch_page("views/importer.py").run()


def test_import_page_keeps_uploads_beside_the_database_and_lists_each_rejected_hand(
    app: AppTest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "fresh.duckdb"
    monkeypatch.setenv(data.DB_ENV, str(db))
    monkeypatch.setenv(data.ALLOW_IMPORT_ENV, "1")
    monkeypatch.chdir(tmp_path)  # where the old page put `uploads/`
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
    uploads = tmp_path / "fresh.duckdb.uploads"
    assert sorted(p.name for p in uploads.rglob("*.txt")) == ["broken.txt", "good.txt"]
    assert not (tmp_path / "uploads").exists()
    (line, error) = sql(db, "SELECT line, error FROM rejects")[0]
    assert next(c.value for c in at.code) == f"broken.txt:{line}: {error}"
    assert line == 4


# --------------------------------------------------------------------- untrusted text

# The markup the dashboard writes itself; anything else in an st.html body came from a log.
ALLOWED_TAGS = {"style", "div", "span", "br", "table", "thead", "tbody", "tr", "th", "td", "a",
                "p"}
ALLOWED_ATTRIBUTES = {"class", "style", "title", "href"}


class MarkupCheck(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.problems: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in ALLOWED_TAGS:
            self.problems.append(f"<{tag}>")
        for name, value in attrs:
            if name not in ALLOWED_ATTRIBUTES:
                self.problems.append(f"{tag}[{name}]")
            if name == "href" and not (value or "").startswith("replayer?hand="):
                self.problems.append(f"href={value}")

    def handle_data(self, text: str) -> None:
        self.text.append(text)


@pytest.mark.parametrize("page", ["sessions", "players", "starting_hands", "replayer", "audit"])
def test_untrusted_names_never_render_as_markdown_or_html(app: AppTest, page: str) -> None:
    query = {"hand": SHOWDOWN_HAND, "line": "85"} if page == "replayer" else {}
    at = open_page(app, page, **query)
    if page in ("sessions", "players", "starting_hands"):
        at = choose_player(at, BOLD)
    if page == "audit":
        at.selectbox(key="audit_rule").set_value("LOG-DESC")
        at = rerun(at)
    texts = markdown_texts(at)
    for text in texts:
        assert not re.search(r"(?<!\\)\*\*(bold|Gotha)", text), text  # would render bold
        assert not re.search(r"(?<!\\)<img", text), text  # would be HTML
    shown = []
    for body in html_bodies(at):
        check = MarkupCheck()
        check.feed(body)
        assert not check.problems, check.problems
        shown.append("".join(check.text))
    # The names are there, as data or escaped text: shown, not dropped.
    everything = (" ".join(texts) + " ".join(shown)
                  + " ".join(str(d.value.to_numpy().tolist()) for d in at.dataframe
                             if hasattr(d.value, "to_numpy")))
    markers = (BOLD, "**Gotha** II", "\\*\\*bold\\*\\*", "\\*\\*Gotha\\*\\*", IMG)
    assert any(marker in everything for marker in markers)
    if page == "replayer":
        assert IMG in "".join(shown) and "Zoë the hero" in "".join(shown)


# ------------------------------------------------------------------- SQL parameters


def test_queries_take_hostile_text_as_data_not_sql(sample_db: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(data.DB_ENV, str(sample_db))
    hostile = "x' OR '1'='1'; DROP TABLE hands; --"
    assert data.player_hand_numbers(hostile, data.HandFilter(stakes=hostile)).empty
    assert data.player_scope(hostile).empty
    assert data.find_hands(hostile).empty
    assert data.hand(hostile).empty
    assert data.findings_list(data.AuditFilter(rule=hostile, source=hostile)).empty
    assert len(data.player_hand_numbers(HERO, data.HandFilter())) == 3
    data.release()


# ------------------------------------------------ the dashboard's own queries, checked


# Each statistic's hits and chances in the store's `player_stats_for` (what `razz stats` reads).
MACRO_COLUMNS = {
    "vpip": ("vpip", "hands"), "complete_raise": ("complete_raise", "hands"),
    "bring_in_posted": ("bring_in_posted", "bring_in_hands"),
    "bring_in_completed": ("bring_in_completed", "bring_in_hands"),
    "bring_in_folded": ("bring_in_folded", "bring_in_posted"),
    "fold_to_completion": ("folded_to_completion", "faced_completion"),
    "steal_attempt": ("steal_attempts", "hands"), "steal_success": ("steal_successes",
                                                                    "steal_attempts"),
    **{f"saw_{s}": (f"saw_{s}", "hands") for s in ("4th", "5th", "6th", "7th")},
    "showdown": ("showdowns", "saw_4th"), "won_showdown": ("showdowns_won", "showdowns"),
    **{f"aggression_{s}": (f"aggr_{s}", f"calls_{s}") for s in ("3rd", "4th", "5th", "6th",
                                                               "7th")},
}


@pytest.mark.parametrize("unit, currency", [("cent", "USD"), ("chip", "USD")])
def test_player_statistics_count_what_the_stores_macro_counts(
    sample_db: Path, monkeypatch: pytest.MonkeyPatch, unit: str, currency: str
) -> None:
    monkeypatch.setenv(data.DB_ENV, str(sample_db))
    assert set(MACRO_COLUMNS) == set(data.STATS_BY_KEY)
    ours = data.player_stats(data.HandFilter(unit=unit, currency=currency), 1, None)
    data.release()
    with duckdb.connect(str(sample_db), read_only=True) as con:
        macro = con.execute("SELECT * FROM player_stats_for() WHERE unit = ? AND "
                            "currency IS NOT DISTINCT FROM ?", [unit, currency]).df()
    assert len(ours) == len(macro) > 10
    ours, macro = ours.set_index("player"), macro.set_index("player")
    for key, (hits, chances) in MACRO_COLUMNS.items():
        assert (ours[f"{key}_hits"] == macro.loc[ours.index, hits]).all(), key
        assert (ours[f"{key}_chances"] == macro.loc[ours.index, chances]).all(), key
    assert (ours["hands"] == macro.loc[ours.index, "hands"]).all()
    assert (ours["net"] == macro.loc[ours.index, "net"]).all()
    assert (ours["rake_paid"] == macro.loc[ours.index, "rake_paid"]).all()
    assert ours["bb_per_100"].to_numpy() == pytest.approx(
        macro.loc[ours.index, "bb_per_100"].to_numpy())


@pytest.mark.parametrize("gap", [5, 30, 240])
def test_sessions_are_cut_as_the_stores_macro_cuts_them(
    sample_db: Path, monkeypatch: pytest.MonkeyPatch, gap: int
) -> None:
    monkeypatch.setenv(data.DB_ENV, str(sample_db))
    players = [p for (p,) in sql(sample_db, "SELECT player FROM players GROUP BY player "
                                            "ORDER BY count(*) DESC LIMIT 12")]
    checked = 0
    for player in players:
        hands = data.HandFilter(unit="cent", currency="USD")
        ours = shape.sessions_of(data.player_hand_numbers(player, hands), gap)
        macro = pd.DataFrame(sql(sample_db, """
            SELECT epoch_ms(started_at), epoch_ms(ended_at), hands, net, rake_paid, net_bb
            FROM sessions_for(p_player := ?, p_gap_minutes := ?)
            WHERE unit = 'cent' AND currency = 'USD'
            ORDER BY started_at DESC, table_name, hands""", player, gap),
            columns=["start", "end", "hands", "net", "rake_paid", "net_bb"])
        ours = ours.sort_values(["start", "hands"], ascending=[False, True]).reset_index()
        macro = macro.sort_values(["start", "hands"], ascending=[False, True]).reset_index()
        assert len(ours) == len(macro), player
        for column in ("start", "end", "hands", "net", "rake_paid"):
            assert ours[column].astype("int64").tolist() == macro[column].tolist(), (
                player, column)
        assert ours["net_bb"].to_numpy() == pytest.approx(macro["net_bb"].to_numpy())
        checked += len(ours)
    data.release()
    assert checked > 20


@pytest.mark.parametrize("filters", [
    {}, {"unit": "cent", "currency": "USD"}, {"unit": "chip", "currency": "USD"},
    {"unit": "cent", "currency": "USD", "stakes": "$0.25/$0.50"},
    {"unit": "cent", "currency": "USD", "kind": "cash", "date_from": date(2021, 1, 1)},
    {"unit": "cent", "currency": "USD", "table": "Ceres X", "date_to": date(2022, 6, 30)},
])
def test_what_the_sidebar_says_is_hidden_is_what_sql_counts(
    sample_db: Path, monkeypatch: pytest.MonkeyPatch, filters: dict[str, Any]
) -> None:
    monkeypatch.setenv(data.DB_ENV, str(sample_db))
    hands = data.HandFilter(**filters)
    from_scope = data.scope_narrowing(data.player_scope(ISSUE_PLAYER), hands)
    from_sql = data._narrow("player_hands_for(p_player := ?)", [ISSUE_PLAYER],
                            hands.conditions())
    assert from_scope == from_sql
    assert from_scope.shown == len(data.player_hand_numbers(ISSUE_PLAYER, hands))
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
    monkeypatch.delenv(data.ALLOW_IMPORT_ENV, raising=False)
    at = AppTest.from_file(str(APP), default_timeout=30).run()
    assert not at.exception
    (warning,) = [w.value for w in at.warning]
    assert "no database" in warning and "allow\\-import" in warning


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
    assert fmt.percent(47, 200) == "23.5%" and fmt.factor(3, 2) == "1.50"


def test_the_note_names_each_filter_that_hides_something() -> None:
    narrowing = shape.Narrowing(318, (("Money", 318), ("Stakes", 300), ("Dates", 288)))
    assert shape.narrowing_note(narrowing, "hand", " of X") == (
        "Showing 288 of 318 hands of X: 18 hidden by the Stakes filter, 12 by the Dates "
        "filter.")
    assert shape.narrowing_note(shape.Narrowing(2, (("Rule", 2),)), "finding") == (
        "Showing all 2 findings.")


def test_ledgers_with_the_same_name_are_told_apart() -> None:
    from razz.dashboard import widgets

    assert widgets.ledger_labels([("cent", "USD"), ("chip", "USD"), ("chip", None)]) == [
        "USD", "chips (USD)", "chips (play money)"]


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


def test_uploads_go_beside_the_database() -> None:
    from razz.dashboard import uploads

    assert uploads.uploads_folder("/data/x.duckdb") == Path("/data/x.duckdb.uploads")


def test_dashboard_command_serves_the_app_headless_and_read_only_by_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import argparse

    from razz.commands import dashboard

    monkeypatch.setenv(data.ALLOW_IMPORT_ENV, "1")  # never inherited from the environment
    parser = argparse.ArgumentParser()
    dashboard.add_arguments(parser)
    command, env = dashboard.streamlit_command(
        parser.parse_args(["--db", str(tmp_path / "x.duckdb"), "--port", "8999"]))
    assert command[1:4] == ["-m", "streamlit", "run"]
    assert Path(command[4]) == APP
    assert command[command.index("--server.port") + 1] == "8999"
    assert command[command.index("--server.headless") + 1] == "true"
    assert env[data.DB_ENV] == str((tmp_path / "x.duckdb").resolve())
    assert env[data.ALLOW_IMPORT_ENV] == "0"
    _, env = dashboard.streamlit_command(parser.parse_args(["--allow-import"]))
    assert env[data.ALLOW_IMPORT_ENV] == "1"
