"""One violation, one finding (issue 14 item 3): the findings that only follow from an earlier
one of the same hand are consequences of it, listed under it and counted apart.

Each test is a hand written by hand around one rule of `razz.replay.consequences`, with a
second, independent mistake where it matters: a consequence must never hide a violation.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from razz.parser import Hand, read_text
from razz.replay.audit import audit_hand
from razz.replay.consequences import EXAMPLE, amount
from razz.replay.findings import Cause, Finding

SHORT_CALL = EXAMPLE  # bob calls $0.01 of the $0.02 bring-in; the log adds up as if he paid


def findings(text: str) -> list[Finding]:
    hand = next(iter(read_text(text)))
    assert isinstance(hand, Hand), hand
    return list(audit_hand(hand).findings)


def causes(text: str) -> list[tuple[int, str, str | None]]:
    return [(f.line, f.rule, None if f.consequence_of is None else str(f.consequence_of))
            for f in findings(text)]


def test_a_short_call_explains_the_early_round_end_and_the_pot_that_does_not_add_up() -> None:
    assert causes(SHORT_CALL) == [
        (11, "ACT-CALL", None),
        (12, "ORDER-CLOCKWISE", "ACT-CALL at line 11"),
        (19, "POT-RAKE", "ACT-CALL at line 11"),
    ]


def test_a_mistake_of_its_own_after_the_short_call_stays_a_violation() -> None:
    text = SHORT_CALL.replace("Seat 2: bob folded on the 4th Street",
                              "Seat 2: bob folded on the 3rd Street")
    found = causes(text)
    assert (23, "LOG-SUMMARY", None) in found
    assert [c for _, r, c in found if r == "ACT-CALL"] == [None]


def test_a_right_call_gives_no_finding_at_all() -> None:
    assert findings(SHORT_CALL.replace("bob: calls $0.01", "bob: calls $0.02")) == []


FOURTH_SHORT_BET = """\
PokerStars Hand #3:  Razz Limit ($0.04/$0.08 USD) - 2024/04/22 22:52:35 ET
Table 'T' 8-max
Seat 1: ann ($1.00 in chips)
Seat 2: bob ($1.00 in chips)
Seat 3: cy ($1.00 in chips)
ann: posts the ante $0.01
bob: posts the ante $0.01
cy: posts the ante $0.01
*** 3rd STREET ***
Dealt to ann [Kc]
Dealt to bob [4d]
Dealt to cy [6s]
ann: brings in for $0.02
bob: calls $0.02
cy: calls $0.02
*** 4th STREET ***
Dealt to ann [Kc] [Qh]
Dealt to bob [4d] [5s]
Dealt to cy [6s] [7d]
bob: bets $0.03
cy: raises $0.04 to $0.07
ann: folds
bob: calls $0.04
*** 5th STREET ***
Dealt to bob [4d 5s] [2c]
Dealt to cy [6s 7d] [8c]
bob: bets $0.08
cy: folds
Uncalled bet ($0.08) returned to bob
bob collected $0.23 from pot
*** SUMMARY ***
Total pot $0.23 | Rake $0
Seat 1: ann folded on the 4th Street
Seat 2: bob collected ($0.23)
Seat 3: cy folded on the 5th Street
"""


def test_a_raise_right_over_a_short_bet_as_the_log_counts_is_a_consequence_of_the_bet() -> None:
    assert causes(FOURTH_SHORT_BET) == [
        (20, "STRUCT-SMALL", None), (21, "ACT-RAISE-SIZE", "STRUCT-SMALL at line 20")]


def test_a_raise_wrong_even_as_the_log_counts_stays_a_violation() -> None:
    text = FOURTH_SHORT_BET.replace("cy: raises $0.04 to $0.07", "cy: raises $0.06 to $0.09")
    text = text.replace("bob: calls $0.04", "bob: calls $0.06").replace("$0.23", "$0.27")
    found = causes(text)
    assert (21, "ACT-RAISE-SIZE", None) in found


def test_the_same_wrong_ante_posted_again_is_the_same_mistake() -> None:
    text = SHORT_CALL.replace("bob: calls $0.01", "bob: calls $0.02").replace(
        "posts the ante $0.01", "posts the ante $0.03")
    text = text.replace("$0.06", "$0.10")
    found = causes(text)
    antes = [(line, c) for line, rule, c in found if rule == "STRUCT-ANTE"]
    if len(antes) == 2:  # the ante is known from the stakes: both lines break it
        assert antes == [(5, None), (6, "STRUCT-ANTE at line 5")]
    assert sum(1 for _, c in antes if c is None) <= 1


# Level IV (50/100) plays a 10 ante; the room took 20 from everyone, and all 16 ace had.
ALL_IN_ON_A_WRONG_ANTE = """\
PokerStars Hand #220743191066: Tournament #3862163115, $10+$1 USD Razz Limit - Level IV (50/100) - 2024/05/24 18:06:31 ET
Table '3862163115 19' 8-max
Seat 1: oy (4279 in chips)
Seat 2: pat (2862 in chips)
Seat 3: ace (16 in chips)
oy: posts the ante 20
pat: posts the ante 20
ace: posts the ante 16 and is all-in
*** 3rd STREET ***
Dealt to oy [2s]
Dealt to pat [6s]
Dealt to ace [Jd]
oy: brings in for 15
pat: raises 35 to 50
oy: folds
Uncalled bet (35) returned to pat
*** 4th STREET ***
Dealt to pat [6s] [2c]
Dealt to ace [Jd] [7c]
*** 5th STREET ***
Dealt to pat [6s 2c] [8c]
Dealt to ace [Jd 7c] [Ad]
*** 6th STREET ***
Dealt to pat [6s 2c 8c] [9d]
Dealt to ace [Jd 7c Ad] [Ac]
*** RIVER ***
*** SHOW DOWN ***
pat: shows [6d Js 6s 2c 8c 9d 6c] (Lo: J,9,8,6,2)
pat collected 38 from side pot
ace: shows [3h 8d Jd 7c Ad Ac 9s] (Lo: 9,8,7,3,A)
ace collected 48 from main pot
*** SUMMARY ***
Total pot 86 Main pot 48. Side pot 38. | Rake 0
Seat 1: oy folded on the 3rd Street
Seat 2: pat showed [6d Js 6s 2c 8c 9d 6c] and won (38) with Lo: J,9,8,6,2
Seat 3: ace showed [3h 8d Jd 7c Ad Ac 9s] and won (48) with Lo: 9,8,7,3,A
"""


def test_an_ante_all_in_for_less_than_the_wrong_ante_is_the_same_mistake() -> None:
    assert causes(ALL_IN_ON_A_WRONG_ANTE) == [
        (6, "STRUCT-ANTE", None),
        (7, "STRUCT-ANTE", "STRUCT-ANTE at line 6"),
        (8, "STRUCT-ANTE", "STRUCT-ANTE at line 6"),
    ]
    # less than the wrong ante without saying all-in: a mistake of its own
    short = ALL_IN_ON_A_WRONG_ANTE.replace("ace: posts the ante 16 and is all-in",
                                           "ace: posts the ante 16")
    assert (8, "STRUCT-ANTE", None) in causes(short)


def test_amounts_are_read_as_the_log_writes_them() -> None:
    assert amount("$1.20") == 120 and amount("1,320 returned to ann 2") == 1320
    assert amount("nothing returned") is None


def test_razz_audit_lists_consequences_under_their_cause_and_counts_violations(
    tmp_path: Path,
) -> None:
    path = tmp_path / "short-call.txt"
    path.write_text(SHORT_CALL, encoding="utf-8")
    text = subprocess.run([sys.executable, "-m", "razz", "audit", str(path)],
                          capture_output=True, text=True, check=False)
    lines = text.stdout.splitlines()
    cause = next(k for k, line in enumerate(lines) if "ACT-CALL" in line)
    assert not lines[cause].startswith(" ")
    assert lines[cause + 1].startswith("    ") and "ORDER-CLOCKWISE" in lines[cause + 1]
    assert lines[cause + 1].endswith("(follows from ACT-CALL at line 11)")
    assert lines[cause + 2].startswith("    ") and "POT-RAKE" in lines[cause + 2]
    assert "1 finding (1 error, 0 warnings) and 2 consequences of them" in text.stdout
    js = subprocess.run([sys.executable, "-m", "razz", "audit", "--format", "json", str(path)],
                        capture_output=True, text=True, check=False)
    *rows, last = [json.loads(line) for line in js.stdout.splitlines()]
    assert [r["consequence_of"] for r in rows] == [
        None, {"rule": "ACT-CALL", "line": 11}, {"rule": "ACT-CALL", "line": 11}]
    assert last["summary"]["errors"] == 1 and last["summary"]["consequences"] == 2


def _imported_short_call(tmp_path: Path) -> Path:
    """A store that `razz import` made of the short-call hand (exit 1: it has findings)."""
    path = tmp_path / "short-call.txt"
    path.write_text(SHORT_CALL, encoding="utf-8")
    db = tmp_path / "razz.duckdb"
    done = subprocess.run([sys.executable, "-m", "razz", "import", "--db", str(db), str(path)],
                          capture_output=True, text=True, check=False)
    assert done.returncode in (0, 1), done.stderr
    return db


def test_the_store_keeps_the_cause_and_counts_violations(tmp_path: Path) -> None:
    db = _imported_short_call(tmp_path)
    con = duckdb.connect(str(db), read_only=True)
    try:
        rows = con.execute("SELECT rule, line, consequence_of_rule, consequence_of_line"
                           " FROM violations ORDER BY line").fetchall()
        counts = con.execute("SELECT findings, errors FROM hands").fetchall()
        listed = con.execute("SELECT count(*) FROM findings WHERE consequence_of_rule"
                             " IS NOT NULL").fetchone()
        by_rule = con.execute("SELECT rule, findings FROM findings_by_rule").fetchall()
    finally:
        con.close()
    assert rows == [("ACT-CALL", 11, None, None), ("ORDER-CLOCKWISE", 12, "ACT-CALL", 11),
                    ("POT-RAKE", 19, "ACT-CALL", 11)]
    assert counts == [(1, 1)] and listed == (2,) and by_rule == [("ACT-CALL", 1)]


def test_a_cause_names_a_rule_and_a_line() -> None:
    assert str(Cause("ACT-UNCALLED", 34)) == "ACT-UNCALLED at line 34"


def test_a_store_of_revision_3_gets_the_consequence_columns_when_first_read(
    tmp_path: Path,
) -> None:
    from razz.store import db as store_db

    old = tmp_path / "old.duckdb"
    con = store_db.connect_writer(old)
    # What a store of revision 3 was: findings without the cause of a consequence.
    con.execute("DROP VIEW IF EXISTS findings; DROP VIEW IF EXISTS findings_by_rule; "
                "DROP VIEW IF EXISTS findings_by_file; DROP VIEW IF EXISTS findings_by_table; "
                "DROP VIEW IF EXISTS findings_by_date")
    con.execute("ALTER TABLE violations DROP COLUMN consequence_of_rule")
    con.execute("ALTER TABLE violations DROP COLUMN consequence_of_line")
    con.execute("UPDATE meta SET value = '3' WHERE key = 'schema_revision'")
    con.close()
    with store_db.read_connection(old) as con:
        columns = {r[0] for r in con.execute("DESCRIBE violations").fetchall()}
        revision = con.execute("SELECT value FROM meta WHERE key = 'schema_revision'").fetchone()
        con.execute("SELECT consequence_of_rule FROM findings").fetchall()
    assert {"consequence_of_rule", "consequence_of_line"} <= columns
    assert revision == (str(store_db.SCHEMA_REVISION),) and store_db.SCHEMA_REVISION >= 5


def test_the_audit_page_counts_violations_and_says_how_many_findings_follow(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from streamlit.testing.v1 import AppTest

    from razz.dashboard import data

    db = _imported_short_call(tmp_path)
    monkeypatch.setenv(data.DB_ENV, str(db))
    app = Path(__file__).resolve().parents[1] / "dashboard" / "app.py"
    at = AppTest.from_file(str(app), default_timeout=60).run()
    at.switch_page("views/audit.py").run()
    assert not at.exception, [e.value for e in at.exception]
    captions = " ".join(c.value for c in at.caption)
    assert "Showing all 3 findings." in captions
    assert "2 of them follow from another finding of the hand" in captions
    assert [m.value for m in at.metric if m.label == "Findings"] == ["1"]
