"""Sessions: a player's results over time, as a curve and session by session."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from razz.dashboard import data, shape, widgets
from razz.dashboard import format as fmt

ALLIN_HELP = ("All-in EV: the net as if every all-in with cards to come had been paid by "
              "each player's equity at that moment (pot by pot, after rake) instead of by "
              "the cards that came; hands without one count as they were paid")

# A user sees Luck -$3.81 beside Luck (big bets) +19.14 for the same player and asks which
# is wrong: neither, when the hands were played at several stakes.
LUCK_BB_HELP = ("Net minus all-in EV in big bets, each hand counted in the big bet of its own "
                "stakes. Over several stakes it can differ from Luck in money, even in sign: "
                "a few big bets lost at high stakes outweigh many won at low stakes in money, "
                "not in big bets")

st.title("Sessions")
chosen = widgets.player_and_filters()
if chosen is None:
    st.stop()
player, hand_filter = chosen
unit, currency = str(hand_filter.unit), hand_filter.currency
gap = st.sidebar.slider("New session after a pause of (minutes)", 5, 240, 30, step=5,
                        key="session_gap")

results = data.player_results(player, hand_filter, gap)
if results.hands == 0:
    st.info("No hands match these filters.")
    st.stop()

cols = st.columns(6)
cols[0].metric("Hands", f"{results.hands:,}")
widgets.metric_money(cols[1], "Net", results.net, unit, currency)
cols[2].metric("BB/100", f"{100 * results.net_bb / results.hands:+.2f}",
               help="Big bets won per 100 hands")
widgets.metric_money(cols[3], "Showdown", results.net_showdown, unit, currency,
                     help="Won or lost in hands that went to showdown")
widgets.metric_money(cols[4], "Non-showdown", results.net_no_showdown, unit, currency,
                     help="Won or lost in hands that ended before a showdown")
widgets.metric_money(cols[5], "Rake paid", results.rake_paid, unit, currency,
                     help="The rake of the pots won, shared by what each winner collected")
luck, luck_bb = results.net - results.ev_net, results.net_bb - results.ev_net_bb
cols = st.columns(6)
widgets.metric_money(cols[1], "All-in EV", round(results.ev_net), unit, currency,
                     help=ALLIN_HELP)
cols[2].metric("All-in EV BB/100", f"{100 * results.ev_net_bb / results.hands:+.2f}",
               help="All-in-adjusted big bets per 100 hands")
widgets.metric_money(cols[3], "Luck", round(luck), unit, currency,
                     help="Net minus all-in EV: above zero, the cards of all-ins ran better "
                          "than their chances; below zero, worse")
cols[4].metric("Luck (big bets)", f"{luck_bb:+.2f}", help=LUCK_BB_HELP)
if not data.has_allin_ev():
    st.caption("This store was imported before all-in EV existed: its all-in EV is its net "
               "until the next `razz import` into it, which computes it for its hands.")

measure = st.segmented_control("Result in", ["Money", "Big bets"], default="Money",
                               key="curve_measure") or "Money"
curve = results.curve
field = "money" if measure == "Money" else "bb"
if measure == "Money":
    curve = curve.assign(money=widgets.in_currency(curve["money"], unit))
axis_title = (f"Net ({fmt.ledger_label(unit, currency)})" if measure == "Money"
              else "Net (big bets)")
# A Vega-Lite specification as it is (no Altair: importing it costs a first load a second).
st.vega_lite_chart(curve, {
    "height": 320, "mark": {"type": "line", "interpolate": "step-after"},
    "encoding": {
        "x": {"field": "hand", "type": "quantitative", "title": "Hands played"},
        "y": {"field": field, "type": "quantitative", "title": axis_title},
        "color": {"field": "series", "type": "nominal", "title": None,
                  "scale": {"domain": list(shape.SERIES),
                            "range": ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728"]},
                  "legend": {"orient": "top"}},
        "tooltip": [{"field": "series", "type": "nominal", "title": "Line"},
                    {"field": "hand", "type": "quantitative", "title": "Hand"},
                    {"field": field, "type": "quantitative", "title": axis_title,
                     "format": ",.2f"}],
    },
}, width="stretch")
if results.curve_points == "run":
    # Our own text, no log text: Markdown is safe here.
    st.caption(f"{results.hands:,} hands are more points than the chart has pixels: it has a "
               "point where each run of hands at a table ends (hands less than five minutes "
               "apart), thinned to about 1,500 per line. A point counts the hands of the runs "
               "ended by then; the last point is the exact total. Up to "
               f"{data.EXACT_CURVE_HANDS:,} hands (narrow the filters), it has one per hand.")

st.subheader("Sessions")
st.caption("A session is a run of hands at one table without a pause longer than the gap set "
           "in the sidebar. Select one to list its hands.")
table = results.sessions.copy()
names = data.table_names()
tables = dict(zip(names.loc[names["what"] == "table", "id"],
                  names.loc[names["what"] == "table", "text"], strict=True))
stakes = dict(zip(names.loc[names["what"] == "stakes", "id"],
                  names.loc[names["what"] == "stakes", "text"], strict=True))
table["table_name"] = table["table_id"].map(tables)
table["started_at"] = pd.to_datetime(table["start"], unit="ms", utc=True)
table["ended_at"] = pd.to_datetime(table["end"], unit="ms", utc=True)
view = pd.DataFrame({
    "Start (UTC)": table["started_at"].dt.tz_localize(None),
    "End (UTC)": table["ended_at"].dt.tz_localize(None),
    "Duration": [fmt.duration((e - s) / 1000) for s, e in zip(table["start"], table["end"],
                                                                strict=True)],
    "Hands": table["hands"].astype("int64"),
    "Net": widgets.in_currency(table["net"], unit),
    "BB/100": table["bb_per_100"].astype("float64"),
    "All-in EV": widgets.in_currency(table["ev_net"], unit),
    "Luck": widgets.in_currency(table["luck"], unit),
    "Luck (BB)": table["luck_bb"].astype("float64"),
    "Rake paid": widgets.in_currency(table["rake_paid"], unit),
    "Table": table["table_name"],
    "Stakes": table["stakes_id"].map(stakes),
})
event = st.dataframe(
    view, key="sessions_table", hide_index=True, width="stretch", on_select="rerun",
    selection_mode="single-row",
    column_config={
        "Start (UTC)": st.column_config.DatetimeColumn(format="YYYY-MM-DD HH:mm"),
        "End (UTC)": st.column_config.DatetimeColumn(format="YYYY-MM-DD HH:mm",
                                                     help="Start of the session's last hand"),
        "Net": widgets.money_column("Net", unit, currency),
        "BB/100": st.column_config.NumberColumn(format="%+.2f",
                                                help="Big bets won per 100 hands"),
        "All-in EV": widgets.money_column("All-in EV", unit, currency),
        "Luck": widgets.money_column("Luck", unit, currency),
        "Luck (BB)": st.column_config.NumberColumn(format="%+.2f",
                                                   help=LUCK_BB_HELP),
        "Rake paid": widgets.money_column("Rake paid", unit, currency),
    },
)
picked = widgets.selected_rows(event)
if picked:
    session = table.iloc[picked[0]]
    st.subheader(f"Hands of the session at {fmt.markdown_literal(session['table_name'])}, "
                 f"{pd.Timestamp(session['started_at']):%Y-%m-%d %H:%M} UTC")
    widgets.hand_list(
        data.session_hands(player, str(session["table_name"]),
                           session["started_at"].tz_convert(None).to_pydatetime(),
                           session["ended_at"].tz_convert(None).to_pydatetime(), hand_filter),
        key="session_hands")
