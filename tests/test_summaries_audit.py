"""The Audit page's sums (`audit_sums`, store/summaries.py) count what the hands and the
findings table count: after imports in rounds and batches of any size, after files are read
again, after findings are added to stored hands or linked to their cause, and in a store from
before them; and the page's figures from them are the answers of SQL on the findings table."""

from __future__ import annotations

import shutil
from datetime import date
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from razz.dashboard import data
from razz.store import db as store_db
from razz.store import summaries
from razz.store.importer import Settings, import_paths

SAMPLES = Path(__file__).resolve().parents[1] / "sample_histories"
DIMS = "file_id, table_name, day, room, unit, currency, kind, stakes"
COUNTS = "hands, flagged, violating, with_errors, findings, errors, consequences"

KEPT = f"""
    SELECT {DIMS}, rule, severity, {", ".join(f"sum({c})::BIGINT" for c in COUNTS.split(", "))}
    FROM audit_sums GROUP BY ALL
    HAVING {" OR ".join(f"sum({c}) <> 0" for c in COUNTS.split(", "))} ORDER BY ALL"""
# The same counts straight from the hands (their own `findings` and `errors`, as the importer
# stores them) and the findings table, one level at a time.
HAND_KEY = """h.file_id, h.table_name, timezone('UTC', h.started_at)::DATE AS day, h.room,
    h.unit, h.currency, h.kind, h.stakes"""
COUNTED_HANDS = f"""
    SELECT {HAND_KEY}, NULL AS rule, NULL AS severity, count(*),
           count(*) FILTER (WHERE h.hand_key IN (SELECT hand_key FROM violations)),
           count(*) FILTER (WHERE h.findings > 0), count(*) FILTER (WHERE h.errors > 0),
           sum(h.findings), sum(h.errors),
           sum((SELECT count(*) FROM violations AS v WHERE v.hand_key = h.hand_key
                AND v.consequence_of_rule IS NOT NULL))::BIGINT
    FROM hands AS h GROUP BY ALL"""
COUNTED_FINDINGS = """
    SELECT {key}, {rule}, {severity}, 0, count(DISTINCT v.hand_key),
           count(DISTINCT v.hand_key) FILTER (WHERE v.consequence_of_rule IS NULL),
           count(DISTINCT v.hand_key) FILTER (WHERE v.consequence_of_rule IS NULL
                                              AND v.severity = 'error'),
           count(*) FILTER (WHERE v.consequence_of_rule IS NULL),
           count(*) FILTER (WHERE v.consequence_of_rule IS NULL AND v.severity = 'error'),
           count(*) FILTER (WHERE v.consequence_of_rule IS NOT NULL)
    FROM violations AS v JOIN hands AS h USING (hand_key) GROUP BY ALL"""


def counted(con: duckdb.DuckDBPyConnection) -> list[tuple[Any, ...]]:
    levels = [COUNTED_HANDS] + [
        COUNTED_FINDINGS.format(key=HAND_KEY, rule=rule, severity=severity)
        for rule, severity in (("v.rule", "v.severity"), ("v.rule", "NULL"),
                               ("NULL", "v.severity"))]
    rows = con.execute(f"SELECT * FROM ({' UNION ALL '.join(levels)}) ORDER BY ALL").fetchall()
    return [tuple(int(v) if isinstance(v, int) else v for v in row) for row in rows]


def assert_audit_sums_count_the_findings(db: Path) -> None:
    with store_db.read_connection(db) as con:
        con.execute("SET TimeZone = 'UTC'")
        kept = [tuple(int(v) if isinstance(v, int) else v for v in row)
                for row in con.execute(KEPT).fetchall()]
        assert kept == counted(con)


FILES = sorted(SAMPLES.rglob("*.txt"))

@settings(max_examples=4, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(rounds=st.lists(st.lists(st.sampled_from(range(len(FILES))), min_size=1, max_size=4),
                       min_size=1, max_size=3),
       batch=st.sampled_from([3, 17, 500]))
def test_the_audit_sums_count_the_findings_after_imports_in_rounds(
    tmp_path_factory: pytest.TempPathFactory, rounds: list[list[int]], batch: int
) -> None:
    """Files imported in rounds (a file again: its hands are duplicates), in batches of a few
    hands or of all: the sums of every level equal SQL on the hands and findings."""
    db = tmp_path_factory.mktemp("audit_sums") / "razz.duckdb"
    # Always a file with findings, so that the rule levels are never empty.
    flagged = [i for i, f in enumerate(FILES) if "violations" in f.parent.name] or [0]
    for n, chosen in enumerate(rounds):
        paths = [str(FILES[i]) for i in ([flagged[0], *chosen] if n == 0 else chosen)]
        import_paths(paths, db, settings=Settings(workers=0, batch_hands=batch,
                                                  batch_seconds=0.0))
        assert_audit_sums_count_the_findings(db)


@pytest.fixture(scope="module")
def sample_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("audit_sums_samples") / "razz.duckdb"
    import_paths([str(SAMPLES)], db, settings=Settings(workers=0, batch_hands=40,
                                                        batch_seconds=0.0))
    return db


def test_the_audit_sums_count_the_findings_of_the_sample_histories(sample_db: Path) -> None:
    assert_audit_sums_count_the_findings(sample_db)
    with store_db.read_connection(sample_db) as con:
        (rows,) = con.execute("SELECT count(*) FROM audit_sums").fetchone()
        (hands,) = con.execute("SELECT count(*) FROM hands").fetchone()
        (findings,) = con.execute("SELECT count(*) FROM violations").fetchone()
    assert findings > 20
    assert rows < hands  # far fewer rows than hands: what the page reads


def test_findings_added_to_stored_hands_and_linked_are_counted_again(
    tmp_path: Path, sample_db: Path
) -> None:
    """What the writer does with late findings (a finding for a hand stored before; a
    finding linked to the one it follows from), then `recount_findings` as it calls it."""
    db = tmp_path / "late.duckdb"
    shutil.copy(sample_db, db)
    con = store_db.connect_writer(db)
    try:
        clean, flagged = con.execute(
            "SELECT (SELECT hand_key FROM hands WHERE findings = 0 ORDER BY hand_key LIMIT 1),"
            " (SELECT hand_key FROM violations ORDER BY hand_key LIMIT 1)").fetchone()
        con.execute("BEGIN")
        con.execute("INSERT INTO violations VALUES (?, 'TABLE-STACK', 'error', 3, 'a', 'b', "
                    "'late', NULL, NULL)", [clean])
        con.execute("INSERT INTO violations VALUES (?, 'TABLE-STACK', 'warning', 4, 'a', 'b',"
                    " 'late', 'TABLE-STACK', 3)", [clean])
        con.execute("UPDATE hands SET findings = findings + 1, errors = errors + 1 "
                    "WHERE hand_key = ?", [clean])
        con.register("late_findings", pa.table({"hand_key": [clean, flagged, "no:such"]}))
        summaries.recount_findings(con, "late_findings")
        con.execute("COMMIT")
    finally:
        con.close()
    assert_audit_sums_count_the_findings(db)


def test_a_store_of_revision_5_gets_the_audit_sums_when_first_read(
    tmp_path: Path, sample_db: Path
) -> None:
    old = tmp_path / "old.duckdb"
    shutil.copy(sample_db, old)
    con = duckdb.connect(str(old))
    con.execute("DROP TABLE audit_sums")
    con.execute("UPDATE meta SET value = '5' WHERE key = 'schema_revision'")
    con.close()
    assert_audit_sums_count_the_findings(old)
    statements = summaries.fill_statements(("audit_sums",))
    assert len(statements) == 1 + summaries.FILL_CHUNKS


# ------------------------------------------------------------ the page's figures from them


@pytest.fixture
def page_db(sample_db: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(data.DB_ENV, str(sample_db))
    data.forget_cached_results()
    return sample_db


def raw(db: Path, sql: str, params: list[Any]) -> Any:
    with store_db.read_connection(db) as con:
        con.execute("SET TimeZone = 'UTC'")
        return con.execute(sql, params).fetchone()


def filters(db: Path) -> list[data.AuditFilter]:
    """Every kind of filter the page offers, alone and together, on values of the store."""
    with store_db.read_connection(db) as con:
        rule, severity = con.execute(
            "SELECT rule, severity FROM violations GROUP BY ALL ORDER BY count(*) DESC "
            "LIMIT 1").fetchone()
        source, table, day = con.execute(
            "SELECT source, table_name, timezone('UTC', started_at)::DATE FROM hands "
            "WHERE findings > 0 ORDER BY hand_key LIMIT 1").fetchone()
        room, kind, stakes = con.execute(
            "SELECT room, kind, stakes FROM hands GROUP BY ALL ORDER BY count(*) DESC "
            "LIMIT 1").fetchone()
    return [
        data.AuditFilter(),
        data.AuditFilter(rule=rule),
        data.AuditFilter(severity="warning"),
        data.AuditFilter(rule=rule, severity=severity),
        data.AuditFilter(source=source),
        data.AuditFilter(data.HandFilter(table=table), rule=rule),
        data.AuditFilter(data.HandFilter(room=room, kind=kind, stakes=stakes,
                                         date_from=date(2000, 1, 1), date_to=day),
                         severity="error"),
        data.AuditFilter(data.HandFilter(date_from=day, date_to=day)),
    ]


def test_the_audit_pages_figures_are_the_answers_of_sql_on_the_findings(page_db: Path) -> None:
    for audit in filters(page_db):
        hand_where, hand_params = data._where(audit.hand_conditions())
        rule_where, rule_params = data._where(audit.rule_conditions())
        hands, flagged, findings, errors, consequences = raw(page_db, f"""
            SELECT (SELECT count(*) FROM hands WHERE {hand_where}),
                   count(DISTINCT v.hand_key),
                   count(*) FILTER (WHERE consequence_of_rule IS NULL),
                   count(*) FILTER (WHERE consequence_of_rule IS NULL AND severity = 'error'),
                   count(*) FILTER (WHERE consequence_of_rule IS NOT NULL)
            FROM violations AS v JOIN hands AS h USING (hand_key)
            WHERE {hand_where} AND {rule_where}""", [*hand_params, *hand_params, *rule_params])
        summary = data.audit_summary(audit)
        assert (int(summary["hands"]), int(summary["flagged"]), int(summary["findings"]),
                int(summary["errors"]), int(summary["consequences"])) == (
            hands, flagged, findings, errors, consequences), audit
        hands_narrowing, findings_narrowing = data.audit_narrowing(audit)
        assert hands_narrowing.shown == hands
        assert findings_narrowing.shown == findings + consequences == int(summary["listed"])
        by_rule = data.findings_by_rule(audit)
        assert int(by_rule["findings"].sum()) == findings
        groups = data.compliance(audit)
        for group in ("file", "table", "date"):
            frame = data.compliance_by(group, groups)
            if len(frame) < data.TOP_GROUPS:
                assert int(frame["hands"].sum()) == hands, (audit, group)
                assert int(frame["findings"].sum()) == findings, (audit, group)
                assert int(frame["errors"].sum()) == errors, (audit, group)
                assert int((frame["hands"] - frame["compliant_hands"]).sum()) == raw(
                    page_db, f"""SELECT count(DISTINCT hand_key) FROM violations
                    JOIN hands USING (hand_key) WHERE consequence_of_rule IS NULL
                    AND {hand_where} AND {rule_where}""", [*hand_params, *rule_params])[0]


def test_every_page_of_the_findings_list_is_that_page_of_the_whole_list(
    page_db: Path
) -> None:
    """The list reads only the files a page falls in: pages of 7 laid end to end are the
    whole list, in the same order, under every filter."""
    for audit in filters(page_db):
        whole = data.findings_list(audit, limit=None)
        pages = [data.findings_list(audit, limit=7, offset=start)
                 for start in range(0, len(whole) + 7, 7)]
        joined = [row for page in pages for row in page.to_dict("records")]
        assert joined == whole.to_dict("records"), audit


def test_the_audit_sums_count_the_findings_after_a_grown_file_is_read_again(
    tmp_path: Path
) -> None:
    """The last hand read before is stored again when its file grows: its sums are taken
    out first (negated rows), then those of what the file holds there now are added."""
    sample = max(SAMPLES.glob("*.txt"), key=lambda p: p.stat().st_size)
    text = sample.read_text(encoding="utf-8")
    broken = "\n\n".join(f.read_text(encoding="utf-8").strip() for f in FILES
                         if "violations" in f.parent.name and f.read_text(
                             encoding="utf-8").startswith("PokerStars"))[:20000]
    cut = text.index("PokerStars", len(text) // 2)
    grown = tmp_path / "grown.txt"
    grown.write_text(broken + "\n\n\n" + text[:cut], encoding="utf-8")
    db = tmp_path / "razz.duckdb"
    batches = Settings(workers=0, batch_hands=5, batch_seconds=0.0)
    import_paths([str(grown)], db, settings=batches)
    with grown.open("a", encoding="utf-8") as out:
        out.write(text[cut:])
    assert import_paths([str(grown)], db, settings=batches).hands > 0
    with store_db.read_connection(db) as con:
        (findings,) = con.execute("SELECT count(*) FROM violations").fetchone()
        (negated,) = con.execute("SELECT count(*) FROM audit_sums WHERE hands < 0").fetchone()
    assert findings > 3 and negated > 0  # the re-read hand's sums were taken out
    assert_audit_sums_count_the_findings(db)
