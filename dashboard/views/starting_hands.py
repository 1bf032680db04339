"""Starting hands: how the player's three 3rd-street cards did, grouped as Razz players do."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from razz.dashboard import data, shape, widgets
from razz.dashboard import format as fmt

st.title("Starting hands")
chosen = widgets.player_and_filters()
if chosen is None:
    st.stop()
player, hand_filter = chosen
unit, currency = str(hand_filter.unit), hand_filter.currency

combos = data.starting_hands(player, hand_filter)
if combos.empty:
    st.info(f"The logs show no 3rd-street hole cards of {fmt.markdown_literal(player)} under "
            "these filters: only the hero's (the log owner's) down cards are known.")
    st.stop()
st.caption(f"{int(combos['hands'].sum()):,} hands of {fmt.markdown_literal(player)} with known "
           "hole cards. `(A2)3` means ace and deuce in the hole, a three as door card.")

groups = shape.starting_hand_table(combos, by_group=True)
chart_data = groups.assign(result=["won" if v >= 0 else "lost" for v in groups["bb_per_100"]])
st.markdown("**Result by group**")
st.vega_lite_chart(chart_data.drop(columns="combos"), {  # Vega-Lite: no Altair to import
    "height": 260, "mark": "bar",
    "encoding": {
        "x": {"field": "group", "type": "nominal", "sort": list(groups["group"]),
              "title": "Starting hand", "axis": {"labelAngle": 0}},
        "y": {"field": "bb_per_100", "type": "quantitative", "title": "Big bets per 100 hands"},
        "color": {"field": "result", "type": "nominal", "legend": None,
                  "scale": {"domain": ["won", "lost"], "range": ["#2ca02c", "#d62728"]}},
        "tooltip": [{"field": "group", "type": "nominal", "title": "Group"},
                    {"field": "hands", "type": "quantitative", "title": "Hands"},
                    {"field": "bb_per_100", "type": "quantitative", "title": "BB/100",
                     "format": "+.2f"},
                    {"field": "vpip_rate", "type": "quantitative", "title": "VPIP",
                     "format": ".1%"},
                    {"field": "win_rate", "type": "quantitative", "title": "Won",
                     "format": ".1%"}],
    },
}, width="stretch")

by = st.segmented_control("Rows", ["Each hand", "Groups"], default="Each hand",
                          key="starting_rows") or "Each hand"
table = groups if by == "Groups" else shape.starting_hand_table(combos, by_group=False)
view = pd.DataFrame({
    "Hand": table["hand"] if by == "Each hand" else table["group"],
    "Group": table["group"],
    "Hands": table["hands"],
    "VPIP": table["vpip_rate"],
    "Won": table["win_rate"],
    "Net": widgets.in_currency(table["net"], unit),
    "BB/100": table["bb_per_100"],
})
if by == "Groups":
    view = view.drop(columns="Group")
# Plain numbers, no per-cell text: hundreds of starting hands stay quick to draw (a styled
# table of them took a second at every rerun).
event = st.dataframe(
    view, key="starting_table", hide_index=True,
    width="stretch", on_select="rerun", selection_mode="single-row",
    column_config={
        "Hands": st.column_config.NumberColumn(format="localized"),
        "VPIP": st.column_config.NumberColumn(
            format="percent", help="Share of these hands where the player put money in "
                                   "voluntarily on 3rd street"),
        "Won": st.column_config.NumberColumn(
            format="percent", help="Share of these hands where the player won all or part "
                                   "of a pot"),
        "Net": widgets.money_column("Net", unit, currency),
        "BB/100": st.column_config.NumberColumn(format="%+.2f"),
    },
)
picked = widgets.selected_rows(event)
if picked:
    row = table.iloc[picked[0]]
    name = row["hand"] or row["group"]
    st.subheader(f"Hands started with {fmt.markdown_literal(name)}")
    widgets.hand_list(data.starting_hand_hands(player, row["combos"], hand_filter),
                      key="starting_hands_list",
                      caption=f"Most recent {data.LIST_LIMIT:,} at most.")
else:
    st.caption("Select a starting hand to list its hands.")
