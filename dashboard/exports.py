"""What the Audit page lets an auditor take away: the findings as CSV, and the HTML report.

The report is `razz.audit_report.render`, the renderer of `razz audit --format html`, given
the findings the page's filters select, so the file attached to an audit reads the same
whichever way it was made.
"""

from __future__ import annotations

from razz import audit_report
from razz.dashboard import data


def findings_csv(audit: data.AuditFilter) -> bytes:
    """Every finding the filters select, one row each, in file and line order."""
    return data.findings_list(audit, limit=None).to_csv(index=False).encode("utf-8")


def report_html(audit: data.AuditFilter, hands: int, flagged: int) -> str:
    """The audit report of the findings the filters select (`hands` in scope, `flagged` of
    them with a finding), with the unreadable hands of the files in scope."""
    everything = data.findings_list(audit, limit=None)
    unread = data.rejects_list(audit.source, limit=10_000_000)
    scope = [("Database", data.database_path())]
    for name, _, values in audit.finding_conditions():
        if name == "Dates":
            scope.append((name, f"{audit.hands.date_from} to {audit.hands.date_to} (UTC)"))
        else:
            scope.append((name, str(values[0])))
    return audit_report.render(
        audit_report.findings_from_rows(everything.to_dict("records")),
        audit_report.ReportSummary(hands=hands, unreadable=len(unread), flagged=flagged,
                                   scope=tuple(scope)),
        unreadable=zip(unread["source"], unread["line"].astype(int), unread["error"],
                       strict=True),
    )
