"""Deal fairness: do the cards the stored logs show look like the deal of a fair shuffle?

The same report as `razz fairness --db`, from the same counts (razz.analysis.fairness), with
what each test can and cannot show written beside it.
"""

from __future__ import annotations

from typing import Any

import altair as alt
import pandas as pd
import streamlit as st

from razz.analysis.fairness import CORRECTIONS, Scope
from razz.analysis.fairness_text import WHAT_IT_MEANS
from razz.dashboard import data, widgets
from razz.dashboard import format as fmt


@st.cache_data(show_spinner=False, max_entries=16)
def _report(path: str, version: tuple[int, int, int], filters: tuple[Any, ...], alpha: float,
            correction: str) -> dict[str, Any]:
    """The report as JSON, once per store version and choice of filters: the counting runs in
    DuckDB on a connection of its own, the page's shared one let go meanwhile."""
    from razz.analysis.fairness import duckdb_fetch, fairness_report
    from razz.store import db as store_db

    del version  # the cache key
    with data.reader(path).released(), store_db.read_connection(path) as con:
        con.execute("SET TimeZone = 'UTC'")
        return fairness_report(duckdb_fetch(con), Scope(*filters), alpha, correction).to_json()


_CHOICES = {  # constant SQL per filter: the values the store holds
    "site": "SELECT DISTINCT site AS v FROM hands ORDER BY v",
    "kind": "SELECT DISTINCT kind AS v FROM hands ORDER BY v",
    "stakes": "SELECT DISTINCT stakes AS v FROM hands ORDER BY v",
    "table": "SELECT DISTINCT table_name AS v FROM hands ORDER BY v",
}


def _values(name: str) -> list[str]:
    return [str(v) for v in data.query(_CHOICES[name])["v"].dropna()]


def _p(value: float | None) -> str:
    if value is None:
        return "–"
    return f"{value:.4f}" if value >= 1e-4 else f"{value:.1e}"


st.title("Deal fairness")
if data.hand_count() == 0:
    widgets.no_hands_message()
    st.stop()

side = st.sidebar
side.subheader("Hands tested")
site = widgets.one_of(side, "Room", "fair_site", _values("site"))
kind = widgets.one_of(side, "Cash or tournament", "fair_kind", _values("kind"))
stakes = widgets.one_of(side, "Stakes", "fair_stakes", _values("stakes"))
table = widgets.one_of(side, "Table", "fair_table", _values("table"))
scoped = data.HandFilter(kind=kind, stakes=stakes, table=table)
span = data.hand_span(scoped.conditions()) or data.hand_span([])
day_from = day_to = None
if span is not None:
    day_from, day_to = widgets.date_range(side, "fair_dates", span[0], span[1],
                                          (site, kind, stakes, table))
    if (day_from, day_to) == span:
        day_from = day_to = None
side.subheader("Alarms")
alpha = widgets.choose(side, "Alarm level (alpha)", "fair_alpha", [0.01, 0.05, 0.001], 0.01,
                       help="An alarm when a test's corrected p-value is at most this: about "
                            "one fair room in 1/alpha gets an alarm somewhere.")
correction = widgets.choose(
    side, "Correction for many tests", "fair_correction", list(CORRECTIONS), "bh",
    format_func=lambda k: CORRECTIONS[k],
    help="Benjamini–Hochberg bounds the share of false alarms among the alarms; Bonferroni "
         "the chance of any false alarm (stricter, finds less).")

filters = (site, kind, stakes, table, day_from, day_to)  # Scope's fields, in order
path = data.database_path()
with st.spinner("Counting the cards the logs show…"):
    report = _report(path, data.database_version(path), filters, float(alpha), str(correction))

hands = report["scope"]["hands"]
tests = report["tests"]
repeated = report["repeated_cards"]
if report["alarms"]:
    st.error(f"**{report['alarms']} alarm(s)** among {report['tests_run']} tests and the check "
             f"for repeated cards, {report['correction_name']}-corrected at alpha = {alpha:g}. "
             "An alarm is a reason to look closer, not proof of a rigged deal: read what the "
             "test can and cannot show below.", icon=":material/warning:")
else:
    st.success(f"**No alarm** in {report['tests_run']} tests and the check for repeated cards "
               f"({report['correction_name']}-corrected, alpha = {alpha:g}). That is not proof "
               "of a fair deal: each test says the smallest bias it could have found here.",
               icon=":material/check_circle:")

untested = sum(t["verdict"] == "not tested" for t in tests)
if untested:
    st.warning(f"{untested} of {len(tests)} tests not run: too few hands under these filters "
               "for them, so they say nothing either way.", icon=":material/info:")

cols = st.columns(4)
cols[0].metric("Hands", f"{hands:,}", help="Hands the filters select")
cols[1].metric("Hero's hands", f"{report['scope']['hero_hands']:,}",
               help="Hands whose log shows the hero's three 3rd-street cards")
cols[2].metric("Tests run", f"{report['tests_run']}", help="Tests with data enough to run")
cols[3].metric("Hands repeating a card", f"{repeated['hands']:,}",
               help="Impossible with one deck: a broken log or a broken deal (DEAL-UNIQUE)")

with st.expander("What this report can and cannot tell", expanded=not report["alarms"]):
    st.markdown(fmt.markdown_literal(WHAT_IT_MEANS.format(rooms=f"{round(1 / alpha):,}")))
    st.markdown(
        "Later streets and showdowns are seen only because players stayed in, and they stay "
        "with low cards: their ranks are not uniform even in a fair room, so they are counted "
        "below but not tested. Every test compares with what a fair shuffle implies *whatever "
        "the players do*.")

summary = pd.DataFrame({
    "Test": [t["title"] for t in tests],
    "n": [t["n"] for t in tests],
    "Of": [t["unit"] for t in tests],
    "p-value": [_p(t["p_value"]) for t in tests],
    "Corrected": [_p(t["adjusted_p_value"]) for t in tests],
    "Verdict": [t["verdict"] for t in tests],
})
summary.loc[len(summary)] = ["Hands that repeat a card", hands, "hands", "–", "–",
                             "alarm" if repeated["hands"] else "no alarm"]
st.dataframe(summary, hide_index=True, width="stretch", key="fair_summary",
             height=35 * (len(summary) + 1) + 3,  # every row, no scrolling
             column_config={"n": st.column_config.NumberColumn(format="localized")})

st.subheader("Each test")
for t in tests:
    icon = {"alarm": ":material/error:", "no alarm": ":material/check_circle:",
            "not tested": ":material/remove_circle_outline:"}[t["verdict"]]
    with st.expander(f"{t['title']}: {t['verdict']}", expanded=t["alarm"], icon=icon):
        st.markdown(f"**A fair deal:** {fmt.markdown_literal(t['hypothesis'])}")
        if t["p_value"] is None:
            st.caption(f"Not tested: {fmt.markdown_literal(t['why_not_tested'] or '')}.")
        else:
            st.markdown(
                f"{fmt.markdown_literal(t['method'])} = {t['statistic']:.2f} on {t['dof']} "
                f"degree{'s' if t['dof'] != 1 else ''} of freedom, {t['n']:,} {t['unit']}: p = {_p(t['p_value'])}, "
                f"corrected {_p(t['adjusted_p_value'])}.")
            if t["detectable"]:
                st.markdown("**Could detect** (80% of the time at this size): "
                            f"{fmt.markdown_literal(t['detectable'])}.")
        st.markdown(f"**Can show:** {fmt.markdown_literal(t['can_show'])}.  \n"
                    f"**Cannot show:** {fmt.markdown_literal(t['cannot_show'])}.")
        if t["note"]:
            st.caption(fmt.markdown_literal(t["note"]))
        bars = pd.DataFrame(t["observed_vs_expected"])
        if not bars.empty and (bars["expected"] > 0).any():
            bars = bars[bars["expected"] > 0].assign(
                ratio=lambda b: b["observed"] / b["expected"])
            chart = alt.Chart(bars).mark_bar().encode(
                x=alt.X("category:N", sort=list(bars["category"]), title=None),
                y=alt.Y("ratio:Q", title="Observed ÷ expected"),
                color=alt.condition(alt.datum.ratio >= 1, alt.value("#4c78a8"),
                                    alt.value("#f58518")),
                tooltip=["category", alt.Tooltip("observed:Q", format=",.0f"),
                         alt.Tooltip("expected:Q", format=",.1f"),
                         alt.Tooltip("ratio:Q", format=".3f")],
            )
            rule = alt.Chart(pd.DataFrame({"y": [1.0]})).mark_rule(color="black").encode(y="y:Q")
            st.altair_chart((chart + rule).properties(height=220), width="stretch")

st.subheader("Hands whose known cards repeat a card")
if repeated["hands"]:
    st.dataframe(pd.DataFrame({
        "Hand": [widgets.replay_link(d["hand_key"], d["line"]) for d in repeated["listed"]],
        "Cards twice": [" ".join(d["cards"]) for d in repeated["listed"]],
        "File": [d["source"] for d in repeated["listed"]],
        "Line": [d["line"] for d in repeated["listed"]],
        "Table": [d["table"] for d in repeated["listed"]],
    }), hide_index=True, width="stretch", key="fair_repeated",
        column_config={"Hand": st.column_config.LinkColumn(
            display_text=r"hand=[^&]*%3A(\d+)", help="Open the hand in the replayer")})
    if repeated["hands"] > len(repeated["listed"]):
        st.caption(f"The first {len(repeated['listed']):,} of {repeated['hands']:,}.")
else:
    st.caption("None: no hand shows the same card twice.")

st.subheader("Counted, not tested")
for u in report["not_tested"]:
    mean = "–" if u["mean_rank"] is None else f"{u['mean_rank']:.2f}"
    st.markdown(f"**{fmt.markdown_literal(u['title'])}**: {u['n']:,} cards, average rank "
                f"{mean} (ace 1 … king 13). {fmt.markdown_literal(u['why'])}")
