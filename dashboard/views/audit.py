"""Audit: which logs break which rules, where, and why; every tab under every filter."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from razz import audit_report
from razz.dashboard import data, exports, shape, widgets
from razz.replay import rules as catalog

PAGE_SIZE = 100  # findings drawn at once; the CSV and the HTML report have them all

st.title("Audit")
if data.hand_count() == 0:
    widgets.no_hands_message()
    st.stop()

st.sidebar.subheader("Findings shown")
audit = widgets.audit_filters(st.sidebar)
hands_narrowing, findings_narrowing = data.audit_narrowing(audit)
summary = data.audit_summary(audit)
follows = findings_narrowing.shown - int(summary["findings"])  # listed under their cause
st.caption(shape.narrowing_note(findings_narrowing, "finding") + " "
           + shape.narrowing_note(hands_narrowing, "hand").replace("Showing", "They are in")
           + (f" {follows:,} of them {'follows' if follows == 1 else 'follow'} from another"
              " finding of the hand: the counts below are of violations." if follows > 0 else ""))
hands, flagged = int(summary["hands"]), int(summary["flagged"])
share = shape.compliance_share(hands, flagged)

cols = st.columns(5)
cols[0].metric("Hands", f"{hands:,}", help="Hands the filters of hands select (file, table, "
               "cash or tournament, stakes, dates)")
cols[1].metric("Compliant", "–" if share is None else f"{share:.1%}",
               help=f"{hands - flagged:,} of {hands:,} hands have no finding shown here")
consequences = int(summary["consequences"])
cols[2].metric("Findings", f"{int(summary['findings']):,}",
               help=f"in {flagged:,} hands; violations only"
               + (f": {consequences:,} more findings only follow from one of them, listed under"
                  " it" if consequences else ""))
cols[3].metric("Errors / warnings", f"{int(summary['errors']):,} / {int(summary['warnings']):,}")
cols[4].metric("Unreadable hands", f"{int(summary['rejects']):,}",
               help="Hands that could not be read at all"
                    + (" in this file" if audit.source else ", in every file"))

short = widgets.short_source_names()


def rule_text(rule_id: str) -> str:
    """The rule's text from the catalog, without Markdown (the table shows plain text)."""
    try:
        return catalog.rule(rule_id).plain
    except KeyError:
        return "(not a rule of the catalog)"


by_rule_tab, by_file_tab, by_table_tab, by_date_tab, rejects_tab = st.tabs(
    ["By rule", "By file", "By table", "By date", "Unreadable hands"])

with by_rule_tab:
    by_rule = data.findings_by_rule(audit)
    if by_rule.empty:
        st.success("No finding matches these filters.")
    else:
        st.vega_lite_chart(by_rule, {  # a Vega-Lite specification: no Altair to import
            "height": {"step": 28}, "mark": "bar",  # a band per rule, however many
            "encoding": {
                "x": {"field": "findings", "type": "quantitative", "title": "Findings",
                      "axis": {"tickMinStep": 1, "format": "d"}},
                "y": {"field": "rule", "type": "nominal", "sort": "-x", "title": None,
                      "axis": {"labelLimit": 220}},
                "color": {"field": "severity", "type": "nominal",
                          "scale": {"domain": ["error", "warning"],
                                    "range": ["#d62728", "#ff7f0e"]}},
                "tooltip": [{"field": f, "type": t} for f, t in (
                    ("rule", "nominal"), ("severity", "nominal"),
                    ("findings", "quantitative"), ("hands", "quantitative"))],
            },
        }, width="stretch")
        st.dataframe(pd.DataFrame({
            "Rule": by_rule["rule"],
            "Severity": by_rule["severity"],
            "Findings": by_rule["findings"].astype("int64"),
            "Hands": by_rule["hands"].astype("int64"),
            "Rule text": [rule_text(r) for r in by_rule["rule"]],
        }), hide_index=True, width="stretch", key="by_rule", row_height=72,
            column_config={"Rule text": st.column_config.TextColumn(width="large")})


every_group = data.compliance(audit)  # one scan for the three tabs


def compliance_tab(group: str, label: str, key: str, noun: str) -> None:
    """Hands and matching findings by file, table or day, under every filter of the page."""
    frame = data.compliance_by(group, every_group)
    if frame.empty:
        st.caption("No hands.")
        return
    count, with_findings = data.compliance_counts(group, every_group)
    st.caption(f"{with_findings:,} of {shape.plural(count, noun)} have a finding shown "
               "here" + (f"; the {len(frame):,} with the most are listed, the most first."
                         if len(frame) < count else
                         "; the most first." if group != "date" else "."))
    if group == "date":
        chart_data = frame.assign(day=pd.to_datetime(frame["key"]),
                                  compliant=frame["compliant_hands"] / frame["hands"])
        st.vega_lite_chart(chart_data, {
            "height": 220, "mark": "bar",
            "encoding": {
                "x": {"field": "day", "type": "temporal", "title": "Day (UTC)"},
                "y": {"field": "findings", "type": "quantitative", "title": "Findings",
                      "axis": {"tickMinStep": 1, "format": "d"}},
                "tooltip": [{"field": "day", "type": "temporal", "title": "Day"},
                            {"field": "hands", "type": "quantitative"},
                            {"field": "findings", "type": "quantitative"},
                            {"field": "compliant", "type": "quantitative",
                             "title": "Compliant", "format": ".1%"}],
            },
        }, width="stretch")
    keys = frame["key"].astype(str)
    view = pd.DataFrame({
        label: keys.map(lambda k: short.get(k, k)) if group == "file" else keys,
        "Hands": frame["hands"].astype("int64"),
        "Compliant": (100 * frame["compliant_hands"] / frame["hands"]).astype("float64"),
        "Compliant hands": frame["compliant_hands"].astype("int64"),
        "Hands with errors": frame["hands_with_errors"].astype("int64"),
        "Findings": frame["findings"].astype("int64"),
        "Errors": frame["errors"].astype("int64"),
        "Warnings": frame["warnings"].astype("int64"),
    })
    # Plain columns, no per-cell styling: tens of thousands of files stay quick to draw.
    st.dataframe(view, hide_index=True, width="stretch", key=key, column_config={
        label: st.column_config.TextColumn(
            label, help="Without the folder every file shares" if group == "file" else None),
        "Compliant": st.column_config.NumberColumn(
            format="%.1f%%", help="Share of the hands without a finding shown here"),
    })


with by_file_tab:
    compliance_tab("file", "File", "by_file", "file")
with by_table_tab:
    compliance_tab("table", "Table", "by_table", "table")
with by_date_tab:
    compliance_tab("date", "Day (UTC)", "by_date", "day")
with rejects_tab:
    rejects = data.rejects_list(audit.source)
    if rejects.empty:
        st.success("Every hand could be read.")
    else:
        st.caption(f"{shape.plural(len(rejects), 'hand')} could not be read"
                   + (" in this file" if audit.source else "")
                   + ". They have no date, table or stakes: only the File filter applies.")
        # st.code shows text as written: a name in a log can never become Markdown or HTML.
        st.code("\n".join(f"{short.get(s, s)}:{line}: {error}" for s, line, error in
                          zip(rejects["source"], rejects["line"], rejects["error"],
                              strict=True)), language=None, wrap_lines=True)

st.subheader("Findings")
total = int(summary["listed"])  # violations and the consequences listed under them
if total == 0:
    st.caption("No finding matches these filters.")
    st.stop()
pages = -(-total // PAGE_SIZE)
page = 1
if pages > 1:
    page = int(st.number_input(f"Page (of {pages:,}, {PAGE_SIZE} findings each)", 1, pages,
                               1, key="findings_page"))
listed = data.findings_list(audit, limit=PAGE_SIZE, offset=(page - 1) * PAGE_SIZE)
first = (page - 1) * PAGE_SIZE
st.caption(f"Findings {first + 1:,} to {first + len(listed):,} of {total:,}, in file and line "
           "order as `razz audit` prints them. Hover a file for its full path; follow a hand "
           "to replay it at the finding's line.")
findings = audit_report.findings_from_rows(listed.to_dict("records"))
keys = listed["hand_key"].tolist()
table = audit_report.findings_table(
    findings, short, link=lambda i: widgets.replay_link(keys[i], line=findings[i].line))
st.html(f"<style>{audit_report.TABLE_STYLE}</style>"
        '<div class="rz" style="max-height: 640px; overflow: auto">'
        + "".join(table) + "</div>")


left, right = st.columns(2)
left.download_button(
    "Download the findings (CSV)", data=lambda: exports.findings_csv(audit),
    file_name="razz-findings.csv", mime="text/csv", icon=":material/download:",
)
right.download_button(
    "Download the audit report (HTML)",
    data=lambda: exports.report_html(audit, hands, flagged).encode("utf-8"),
    file_name="razz-audit-report.html", mime="text/html", icon=":material/description:",
    help="One self-contained file, as `razz audit --format html` writes it, for the findings "
         "these filters select",
)
