"""The audit as one self-contained HTML file, to attach to an audit: summary, rules, findings.

`razz audit --format html` writes it, and the dashboard's Audit page offers the same file for
download. The page has its styles inline and no script, image or font to fetch; every text
that comes from a hand history (file names, player names in messages, the log's own words) is
escaped, so a name such as `<img src=x onerror=alert(1)>` shows as written and runs nothing.

>>> page = render([ReportFinding("/logs/a.txt", 12, "ACT-CHECK", "error", "<img src=x> checks")],
...               ReportSummary(hands=3))
>>> "&lt;img src=x&gt; checks" in page, "<img" in page, "<script" in page
(True, False, False)
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from html import escape


@dataclass(frozen=True, slots=True)
class ReportFinding:
    """One finding as the report shows it: where, which rule, and what was wrong."""

    file: str
    line: int
    rule: str
    severity: str  # 'error' | 'warning'
    message: str
    expected: str = ""
    actual: str = ""
    hand_id: str | None = None
    room: str = ""  # the hand's room ('PokerStars', 'Winamax' …), "" when unknown
    # "ACT-CALL at line 29": the finding of the same hand this one only follows from; "" for a
    # violation of its own
    consequence_of: str = ""


@dataclass(frozen=True, slots=True)
class ReportSummary:
    """The counts at the top of the report; None where the caller does not know a count."""

    hands: int  # hands audited (in the dashboard: hands the filters keep)
    skipped: int | None = None  # hands of other games
    unreadable: int | None = None  # hands that could not be read
    flagged: int | None = None  # hands with a finding; None: counted from the findings
    scope: tuple[tuple[str, str], ...] = field(default=())  # ("Rule", "ORDER-LATER") …
    rooms: tuple[tuple[str, int], ...] = field(default=())  # hands audited per room


def short_paths(paths: Iterable[str]) -> dict[str, str]:
    """Each path without the folder that all of them share (a lone file keeps its name).

    A member of a zip archive (`/a/b.zip!x.txt`) is shortened by its archive's path.

    >>> short_paths(["/h/logs/a.txt", "/h/logs/2024/b.txt"])
    {'/h/logs/a.txt': 'a.txt', '/h/logs/2024/b.txt': '2024/b.txt'}
    >>> short_paths(["/h/logs/a.txt"])
    {'/h/logs/a.txt': 'a.txt'}
    """
    unique = list(dict.fromkeys(paths))
    if not unique:
        return {}
    outer = [p.split("!", 1)[0] for p in unique]
    try:
        # The folder all share is the one the first and the last in text order share (any
        # path between two that start with a folder starts with it too): two paths split,
        # not tens of thousands (0.4 s of the Audit page's first load at 29,000 files).
        common = (os.path.commonpath([min(outer), max(outer)]) if len(unique) > 1
                  else os.path.dirname(outer[0]))
    except ValueError:  # relative and absolute paths mixed: nothing in common
        common = ""
    if common and len(unique) > 1 and common in outer:  # one path is the folder of no file
        common = os.path.dirname(common)
    cut = len(common.rstrip(os.sep)) + 1 if common else 0
    return {p: p[cut:] or p for p in unique}


# The tables' styles apply inside `.rz` only, so that the dashboard can show the same
# findings table inside its own page without restyling the rest.
TABLE_STYLE = """
.rz table { border-collapse: collapse; width: 100%; font-size: 14px; line-height: 1.4; }
.rz th, .rz td { border-bottom: 1px solid #ddd; padding: 5px 8px; text-align: left;
                 vertical-align: top; overflow-wrap: break-word; }
.rz th { background: #f3f3f5; position: sticky; top: 0; font-weight: 600; z-index: 1; }
.rz td.num, .rz th.num { text-align: right; white-space: nowrap; }
.rz td.rule { white-space: nowrap; font-weight: 600; }
.rz td.file { color: #333; overflow-wrap: anywhere; min-width: 10em; }
.rz td.nowrap { white-space: nowrap; }
.rz td.small, .rz span.small { font-size: 12px; color: #444; }
.rz td.consequence { padding-left: 28px; color: #444; }
.rz .sev { border-radius: 4px; padding: 0 6px; font-size: 12px; font-weight: 600; }
.rz .sev.error { background: #fde2e1; color: #9b1c1c; }
.rz .sev.warning { background: #fff1d6; color: #8a5300; }
"""

_STYLE = TABLE_STYLE + """
:root { color-scheme: light; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1d1d1f;
       margin: 24px auto; max-width: 1280px; padding: 0 16px; }
h1 { font-size: 24px; margin: 0 0 4px; } h2 { font-size: 18px; margin: 28px 0 8px; }
p.meta { color: #555; margin: 0 0 16px; }
dl.scope { display: grid; grid-template-columns: max-content auto; gap: 2px 12px; margin: 0; }
dl.scope dt { color: #555; } dl.scope dd { margin: 0; }
.cards { display: flex; flex-wrap: wrap; gap: 12px; margin: 8px 0; }
.card { border: 1px solid #ddd; border-radius: 8px; padding: 8px 14px; min-width: 120px; }
.card b { display: block; font-size: 20px; }
pre.lines { white-space: pre-wrap; overflow-wrap: anywhere; background: #f7f7f9; padding: 8px;
            border-radius: 6px; }
@media print { .rz th { position: static; } body { margin: 0; max-width: none; } }
"""


def _cell(text: object, css: str = "", title: str | None = None) -> str:
    attrs = f' class="{css}"' if css else ""
    if title is not None:
        attrs += f' title="{escape(title, quote=True)}"'
    return f"<td{attrs}>{escape(str(text), quote=True)}</td>"


def _rule_text(rule_id: str) -> str:
    from razz.replay import rules

    try:
        return rules.rule(rule_id).plain
    except KeyError:
        return ""


def _plural(count: int, word: str) -> str:
    """`1 finding`, `2 findings`.

    >>> _plural(1, "finding"), _plural(0, "error")
    ('1 finding', '0 errors')
    """
    return f"{count:,} {word}{'' if count == 1 else 's'}"


def render(
    findings: Iterable[ReportFinding],
    summary: ReportSummary,
    *,
    title: str = "Razz audit report",
    unreadable: Iterable[tuple[str, int, str]] = (),
    generated_at: datetime | None = None,
) -> str:
    """The whole report as one HTML document (a string), findings in the order given.

    `unreadable` lists hands that could not be read as (file, line, reason), for callers that
    keep them apart from the findings (the dashboard); `razz audit` reports them as findings
    of the rule `PARSE`.
    """
    rows = list(findings)
    unread = list(unreadable)
    when = (generated_at or datetime.now(UTC)).strftime("%Y-%m-%d %H:%M UTC")
    short = short_paths([f.file for f in rows] + [u[0] for u in unread])
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f'<title>{escape(title)}</title><style>{_STYLE}</style></head><body class="rz">',
        f"<h1>{escape(title)}</h1>",
        f'<p class="meta">Made by razz-audit on {when}. Rules: RAZZ_RULES.md.</p>',
        *_summary(rows, summary),
        *_by_rule(rows),
        f"<h2>{_plural(len(rows), 'finding').capitalize()}</h2>",
        *findings_table(rows, short),
        *_by_file(rows, short),
    ]
    if unread:
        parts.append(f"<h2>{_plural(len(unread), 'unreadable hand').capitalize()}</h2>")
        text = "\n".join(f"{short[path]}:{line}: {reason}" for path, line, reason in unread)
        parts.append(f'<pre class="lines">{escape(text)}</pre>')
    parts.append("</body></html>\n")
    return "\n".join(parts)


def _summary(rows: list[ReportFinding], summary: ReportSummary) -> list[str]:
    """What was read, then the counts as cards."""
    parts = []
    if summary.scope:
        parts.append('<dl class="scope">')
        parts += [f"<dt>{escape(k)}</dt><dd>{escape(v)}</dd>" for k, v in summary.scope]
        parts.append("</dl>")
    flagged = summary.flagged
    if flagged is None:
        flagged = len({(f.file, f.hand_id) for f in rows if f.hand_id is not None})
    by_severity = Counter(f.severity for f in rows if not f.consequence_of)
    consequences = sum(1 for f in rows if f.consequence_of)
    cards = [("Hands audited", f"{summary.hands:,}")]
    if summary.rooms:
        cards.append(("Rooms", ", ".join(
            room if len(summary.rooms) == 1 else f"{room} {n:,}" for room, n in summary.rooms)))
    if summary.hands:
        cards.append(("Hands without a finding",
                      f"{(summary.hands - flagged) / summary.hands:.1%}"))
    cards += [("Findings", f"{len(rows) - consequences:,}"),
              ("Errors", f"{by_severity['error']:,}"),
              ("Warnings", f"{by_severity['warning']:,}")]
    if consequences:  # findings that only follow from a violation are not counted as ones
        cards.append(("Consequences of them", f"{consequences:,}"))
    if summary.unreadable is not None:
        cards.append(("Unreadable hands", f"{summary.unreadable:,}"))
    if summary.skipped is not None:
        cards.append(("Skipped (other games)", f"{summary.skipped:,}"))
    parts.append('<div class="cards">')
    parts += [f'<div class="card">{escape(k)}<b>{escape(v)}</b></div>' for k, v in cards]
    parts.append("</div>")
    return parts


def _by_rule(rows: list[ReportFinding]) -> list[str]:
    """Errors and warnings per rule (violations, not their consequences), most first, with
    the rule's text."""
    rows = [f for f in rows if not f.consequence_of]
    if not rows:
        return []
    counts: dict[str, Counter[str]] = {}
    for f in rows:
        counts.setdefault(f.rule, Counter())[f.severity] += 1
    parts = ["<h2>Findings by rule</h2><table><thead><tr><th>Rule</th>"
             '<th class="num">Errors</th><th class="num">Warnings</th>'
             "<th>What the rule says</th></tr></thead><tbody>"]
    for rule_id, sev in sorted(counts.items(), key=lambda kv: (-kv[1].total(), kv[0])):
        parts.append("<tr>" + _cell(rule_id, "rule") + _cell(sev["error"], "num")
                     + _cell(sev["warning"], "num") + _cell(_rule_text(rule_id)) + "</tr>")
    parts.append("</tbody></table>")
    return parts


def findings_table(
    rows: list[ReportFinding], short: Mapping[str, str],
    link: Callable[[int], str] | None = None,
) -> list[str]:
    """Every finding: rule, severity, line and message first, then where and what.

    The file shows as its short path, the full path on hover. With `link`, the hand cell of
    row i links to `link(i)` (the dashboard's replayer). A consequence of another finding is
    indented, and says which finding it follows from.
    """
    if not rows:
        return ["<p>No rule was broken.</p>"]
    parts = ['<table><thead><tr><th>Rule</th><th>Severity</th><th class="num">Line</th>'
             "<th>Message</th><th>File</th><th>Hand</th><th>Room</th><th>Expected</th>"
             "<th>Actual</th></tr></thead><tbody>"]
    for i, f in enumerate(rows):
        severity = escape(f.severity, quote=True)
        hand = escape(f.hand_id or "")
        if link is not None:
            hand = f'<a href="{escape(link(i), quote=True)}">{hand or "replay"}</a>'
        parts.append(
            "<tr>" + _cell(f.rule, "rule")
            + f'<td class="nowrap"><span class="sev {severity}">{severity}</span></td>'
            + _cell(f.line, "num")
            + (_cell(f.message) if not f.consequence_of else
               f'<td class="consequence">{escape(f.message)}<br><span class="small">follows'
               f" from {escape(f.consequence_of)}</span></td>")
            + _cell(short.get(f.file, f.file), "file", title=f.file)
            + f'<td class="nowrap">{hand}</td>'
            + _cell(f.room, "nowrap")
            + _cell(f.expected, "small") + _cell(f.actual, "small") + "</tr>"
        )
    parts.append("</tbody></table>")
    return parts


def _by_file(rows: list[ReportFinding], short: dict[str, str]) -> list[str]:
    """Findings per file, most first; the full path shows on hover."""
    if not rows:
        return []
    parts = ['<h2>Findings by file</h2><table><thead><tr><th>File</th>'
             '<th class="num">Findings</th></tr></thead><tbody>']
    for path, count in sorted(Counter(f.file for f in rows).items(),
                              key=lambda kv: (-kv[1], kv[0])):
        parts.append("<tr>" + _cell(short[path], "file", title=path) + _cell(count, "num")
                     + "</tr>")
    parts.append("</tbody></table>")
    return parts


def _cause_text(row: Mapping[str, object]) -> str:
    """`ACT-CALL at line 29` from a row's `consequence_of` text or the store's two columns."""
    rule = row.get("consequence_of_rule")
    if rule is not None and rule == rule and rule != "":  # a missing value may be NaN
        return f"{rule} at line {int(row['consequence_of_line'])}"  # type: ignore[call-overload]
    text = row.get("consequence_of")
    return str(text) if isinstance(text, str) else ""


def findings_from_rows(rows: Iterable[Mapping[str, object]]) -> list[ReportFinding]:
    """Report findings from rows with the columns of the store's `findings_for` (or the CSV).

    >>> findings_from_rows([{"source": "a.txt", "line": 3, "rule": "X", "severity": "error",
    ...                      "message": "m", "hand_id": "7"}])[0].file
    'a.txt'
    """
    out = []
    for row in rows:
        out.append(ReportFinding(
            file=str(row.get("source", row.get("file", ""))),
            line=int(row["line"]),  # type: ignore[call-overload]
            rule=str(row["rule"]),
            severity=str(row["severity"]),
            message=str(row["message"]),
            expected=str(row.get("expected") or ""),
            actual=str(row.get("actual") or ""),
            hand_id=None if row.get("hand_id") is None else str(row.get("hand_id")),
            room=str(row.get("room") or ""),
            consequence_of=_cause_text(row),
        ))
    return out
