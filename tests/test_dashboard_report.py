"""The HTML audit report: `razz audit --format html` and the dashboard's download, one renderer.

The report is a file to attach to an audit: it must hold every finding the JSON output holds,
need nothing from the network, and show any text from a log as text.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
from html import unescape
from html.parser import HTMLParser
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from razz import audit_report
from razz.audit_report import ReportFinding, ReportSummary
from razz.cli import main

ROOT = Path(__file__).resolve().parent.parent
VIOLATIONS = ROOT / "sample_histories" / "violations"
HOSTILE = Path(__file__).resolve().parent / "data" / "dashboard" / "hostile_names.txt"


def razz(*args: str) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue()


class Page(HTMLParser):
    """Every tag, attribute and finding row of a report."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: set[str] = set()
        self.attributes: set[str] = set()
        self.rows: list[list[str]] = []
        self.titles: list[str] = []
        self._row: list[str] | None = None
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)
        self.attributes |= {name for name, _ in attrs}
        self.titles += [v or "" for n, v in attrs if n == "title"]
        if tag == "tr":
            self._row = []
        elif tag == "td" and self._row is not None:
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "td" and self._row is not None and self._cell is not None:
            self._row.append("".join(self._cell))
            self._cell = None
        elif tag == "tr" and self._row is not None:
            if self._row:
                self.rows.append(self._row)
            self._row = None

    def handle_data(self, text: str) -> None:
        if self._cell is not None:
            self._cell.append(text)


def parse(page: str) -> Page:
    parsed = Page()
    parsed.feed(page)
    return parsed


def finding_rows(page: Page) -> list[list[str]]:
    """The rows of the findings table (9 cells: rule, severity, line, message, file, hand,
    room …)."""
    return [r for r in page.rows if len(r) == 9]


def test_razz_audit_html_holds_every_finding_of_the_json_output() -> None:
    code, text = razz("audit", str(VIOLATIONS), "--format", "json")
    assert code == 1
    records = [json.loads(line) for line in text.splitlines()]
    findings, summary = records[:-1], records[-1]["summary"]
    code, html_text = razz("audit", str(VIOLATIONS), "--format", "html")
    assert code == 1
    assert html_text.startswith("<!DOCTYPE html>") and html_text.rstrip().endswith("</html>")
    page = parse(html_text)
    rows = finding_rows(page)
    assert len(rows) == len(findings) == summary["errors"] + summary["warnings"]
    assert [(r[0], r[1], int(r[2]), r[3]) for r in rows] == [
        (f["rule"], f["severity"], f["line"], f["message"]) for f in findings]
    # A short file name in the cell, the whole path on hover.
    assert {f["file"] for f in findings} <= set(page.titles)
    assert all("/" not in r[4] for r in rows)  # one folder: the files' names only
    assert f"<b>{summary['hands_audited']:,}</b>" in html_text


def test_the_report_needs_nothing_from_the_network_and_runs_nothing() -> None:
    _, html_text = razz("audit", str(VIOLATIONS), str(HOSTILE), "--format", "html")
    page = parse(html_text)
    assert page.tags <= {"html", "head", "meta", "title", "style", "body", "h1", "h2", "p",
                         "div", "b", "table", "thead", "tbody", "tr", "th", "td", "span",
                         "dl", "dt", "dd", "pre"}
    assert page.attributes <= {"lang", "charset", "name", "content", "class", "title"}
    assert not re.search(r"https?://|url\(|@import|<script|<img|<link", html_text)


def test_log_text_in_a_report_is_escaped_not_markup() -> None:
    hostile = "<img src=x onerror=alert(1)>"
    page_text = audit_report.render(
        [ReportFinding(f"/logs/{hostile}.txt", 7, "ACT-CHECK", "error",
                       f"{hostile} checks **facing** a bet", expected=hostile,
                       actual="</td></tr><script>x</script>", hand_id="1")],
        ReportSummary(hands=1, scope=(("Read", hostile),)),
        unreadable=[(f"/logs/{hostile}.txt", 3, f"unexpected {hostile}")],
    )
    assert "<img" not in page_text and "<script" not in page_text
    page = parse(page_text)
    (row,) = finding_rows(page)
    assert row[3] == f"{hostile} checks **facing** a bet"
    assert row[7:] == [hostile, "</td></tr><script>x</script>"]
    assert f"/logs/{hostile}.txt" in page.titles
    assert f"{hostile}.txt:3: unexpected {hostile}" in unescape(page_text)


def test_short_paths_drop_the_folder_all_files_share() -> None:
    assert audit_report.short_paths(["/a/b/x.txt", "/a/b/c/y.txt", "/a/b/z.zip!in/w.txt"]) == {
        "/a/b/x.txt": "x.txt", "/a/b/c/y.txt": "c/y.txt",
        "/a/b/z.zip!in/w.txt": "z.zip!in/w.txt"}
    assert audit_report.short_paths(["/a/x.txt"]) == {"/a/x.txt": "x.txt"}
    assert audit_report.short_paths(["x.txt", "/abs/y.txt"]) == {"x.txt": "x.txt",
                                                                 "/abs/y.txt": "/abs/y.txt"}


def test_a_report_without_findings_says_no_rule_was_broken() -> None:
    page_text = audit_report.render([], ReportSummary(hands=12, skipped=3, unreadable=0))
    assert "No rule was broken." in page_text
    assert "<h2>0 findings</h2>" in page_text
    assert "100.0%" in page_text  # hands without a finding


def test_the_dashboard_download_is_the_same_report_as_razz_audit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One question, two ways: the findings of the same files, audited by `razz audit` and
    read back from the store by the dashboard, give the same report rows."""
    from razz.dashboard import data, exports
    from razz.store.importer import import_paths

    db = tmp_path / "razz.duckdb"
    paths = [str(VIOLATIONS), str(HOSTILE)]
    import_paths(paths, db)
    monkeypatch.setenv(data.DB_ENV, str(db))
    summary = data.audit_summary(data.AuditFilter())
    from_store = parse(exports.report_html(data.AuditFilter(), int(summary["hands"]),
                                           int(summary["flagged"])))
    data.release()
    _, from_cli = razz("audit", *paths, "--format", "html")
    cli_page = parse(from_cli)

    def key(row: list[str]) -> tuple[str, ...]:
        return (row[0], row[1], row[2], row[3], row[5])

    assert sorted(map(key, finding_rows(from_store))) == sorted(map(key, finding_rows(cli_page)))
    assert len(finding_rows(from_store)) == int(summary["findings"]) > 40


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(st.sampled_from(["a", "a-b", "b", "logs", "2024", "x.txt", "a.txt",
                                          "z.zip!m.txt", "é"]), min_size=1, max_size=4),
                min_size=1, max_size=8),
       st.sampled_from(["/", "/h/", ""]))
def test_short_paths_cut_the_folder_every_path_shares(parts: list[list[str]], root: str) -> None:
    """The short names (from the first and last path in text order) are those of the
    folder `os.path.commonpath` finds over every path."""
    import os

    from razz.audit_report import short_paths

    paths = [root + "/".join(p) for p in parts]
    unique = list(dict.fromkeys(paths))
    outer = [p.split("!", 1)[0] for p in unique]
    try:
        common = os.path.commonpath(outer) if len(unique) > 1 else os.path.dirname(outer[0])
    except ValueError:
        common = ""
    if common and len(unique) > 1 and common in outer:
        common = os.path.dirname(common)
    cut = len(common.rstrip(os.sep)) + 1 if common else 0
    assert short_paths(paths) == {p: p[cut:] or p for p in unique}
