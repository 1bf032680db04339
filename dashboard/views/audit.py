"""Audit: which logs break which rules, where, and why."""

from __future__ import annotations

import altair as alt
import pandas as pd
import streamlit as st

from razz.dashboard import data, shape, widgets
from razz.dashboard import format as fmt
from razz.replay import rules as catalog

st.title("Audit")
if int(data.overview()["hands"]) == 0:
    st.info("No hands in the database yet: import hand histories on the Import page.")
    st.stop()

st.sidebar.subheader("Findings shown")
audit = widgets.audit_filters(st.sidebar)
summary = data.audit_summary(audit)
hands, flagged = int(summary["hands"]), int(summary["flagged"])
share = shape.compliance_share(hands, flagged)

cols = st.columns(5)
cols[0].metric("Hands", f"{hands:,}")
cols[1].metric("Compliant", "–" if share is None else f"{share:.1%}",
               help=f"{hands - flagged:,} of {hands:,} hands have no finding shown here")
cols[2].metric("Findings", f"{int(summary['findings']):,}",
               help=f"in {flagged:,} hands")
cols[3].metric("Errors / warnings", f"{int(summary['errors']):,} / {int(summary['warnings']):,}")
cols[4].metric("Unreadable hands", f"{int(summary['rejects']):,}",
               help="Hands that could not be parsed, in every file")


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
        st.altair_chart(
            alt.Chart(by_rule).mark_bar().encode(
                x=alt.X("findings:Q", title="Findings",
                        axis=alt.Axis(tickMinStep=1, format="d")),
                y=alt.Y("rule:N", sort="-x", title=None, axis=alt.Axis(labelLimit=220)),
                color=alt.Color("severity:N", scale=alt.Scale(
                    domain=["error", "warning"], range=["#d62728", "#ff7f0e"])),
                tooltip=["rule", "severity", "findings", "hands"],
            ).properties(height=max(90, 34 * by_rule["rule"].nunique())),
            width="stretch",
        )
        st.dataframe(pd.DataFrame({
            "Rule": by_rule["rule"],
            "Severity": by_rule["severity"],
            "Findings": by_rule["findings"],
            "Hands": by_rule["hands"],
            "Rule text": [rule_text(r) for r in by_rule["rule"]],
        }), hide_index=True, width="stretch", key="by_rule",
            column_config={"Rule text": st.column_config.TextColumn(width="large")})
        with st.expander("The rules, as written in the catalog"):
            for rule_id in by_rule["rule"].drop_duplicates():
                try:
                    found_rule = catalog.rule(rule_id)
                except KeyError:
                    continue
                # The catalog is ours, not the logs': its Markdown is rendered as written.
                st.markdown(f"**{found_rule.id.value}** ({found_rule.section}): {found_rule.text}")


def compliance_tab(group: str, label: str, key: str) -> None:
    """A table (and for dates a chart) of hands and compliance by file, table or day."""
    frame = data.compliance_by(group, audit)
    if frame.empty:
        st.caption("No hands.")
        return
    if group == "date":
        chart_data = frame.assign(day=pd.to_datetime(frame["key"]))
        st.altair_chart(
            alt.Chart(chart_data).mark_bar().encode(
                x=alt.X("day:T", title="Day (UTC)"),
                y=alt.Y("findings:Q", title="Findings", axis=alt.Axis(tickMinStep=1, format="d")),
                tooltip=[alt.Tooltip("day:T", title="Day"), "hands", "findings",
                         alt.Tooltip("compliant_pct:Q", title="Compliant", format=".1%")],
            ).properties(height=220),
            width="stretch",
        )
    view = pd.DataFrame({
        label: frame["key"], "Hands": frame["hands"],
        "Compliant": frame["compliant_pct"].astype("float64"),
        "Hands with errors": frame["hands_with_errors"], "Findings": frame["findings"],
        "Errors": frame["errors"], "Warnings": frame["warnings"],
    })
    texts = {"Compliant": [fmt.rate(int(c), int(h)) for c, h in
                           zip(frame["compliant_hands"], frame["hands"], strict=True)]}
    st.dataframe(widgets.shown_as(view, texts), hide_index=True, width="stretch",
                 key=key)


with by_file_tab:
    compliance_tab("file", "File", "by_file")
with by_table_tab:
    compliance_tab("table", "Table", "by_table")
with by_date_tab:
    compliance_tab("date", "Day (UTC)", "by_date")
with rejects_tab:
    rejects = data.rejects_list()
    if rejects.empty:
        st.success("Every hand could be read.")
    else:
        st.dataframe(pd.DataFrame({
            "File": rejects["source"], "Hand": rejects["hand_id"], "Line": rejects["line"],
            "Column": rejects["col"], "Error": rejects["error"],
        }), hide_index=True, width="stretch", key="rejects")

st.subheader("Findings")
listed = data.findings_list(audit)
if listed.empty:
    st.caption("No finding matches these filters.")
    st.stop()
st.caption(f"{len(listed):,} findings shown (the latest {data.LIST_LIMIT:,} at most; the CSV has "
           "them all). Select a finding to replay its hand.")
event = st.dataframe(
    pd.DataFrame({
        "Hand": [widgets.replay_link(k) for k in listed["hand_key"]],
        "Started (UTC)": pd.to_datetime(listed["started_at"], utc=True).dt.tz_localize(None),
        "Table": listed["table_name"], "File": listed["source"], "Line": listed["line"],
        "Rule": listed["rule"], "Severity": listed["severity"], "Expected": listed["expected"],
        "Actual": listed["actual"], "Message": listed["message"],
    }),
    key="findings_list", hide_index=True, width="stretch", on_select="rerun",
    selection_mode="single-row",
    column_config={
        "Hand": st.column_config.LinkColumn("Hand", display_text=r"hand=[^%]*%3A(.*)$"),
        "Started (UTC)": st.column_config.DatetimeColumn(format="YYYY-MM-DD HH:mm:ss"),
        "Message": st.column_config.TextColumn(width="large"),
    },
)
widgets.open_selected_hand(event, listed, "findings_list")
st.download_button(
    "Download the findings (CSV)",
    data=lambda: data.findings_list(audit, limit=None).to_csv(index=False).encode("utf-8"),
    file_name="razz-findings.csv", mime="text/csv", icon=":material/download:",
)
