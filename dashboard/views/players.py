"""Player statistics: every player's tendencies, each rate with its counts and its hands."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from razz.dashboard import data, shape, widgets
from razz.dashboard import format as fmt

MAX_ROWS = 200

st.title("Player statistics")
chosen = widgets.player_and_filters()
if chosen is not None:
    widgets.alias_editor()
if chosen is None:
    st.stop()
player, hand_filter = chosen
unit, currency = str(hand_filter.unit), hand_filter.currency
everyone = data.players()["hands"].sort_values(ascending=False)
# A table of a few hundred players stays quick to draw and to read; the filter can lower it.
usual = int(everyone.iloc[MAX_ROWS - 1]) if len(everyone) > MAX_ROWS else 1
min_hands = st.sidebar.number_input("Players with at least (hands)", min_value=1, value=usual,
                                    step=10, key="min_hands")

stats = data.player_stats(hand_filter, int(min_hands), player)
if stats.empty:
    st.info("No hands match these filters.")
    st.stop()

st.subheader("Every player")
st.caption("Every player's hands under the sidebar's room, money, cash or tournament, stakes and "
           "table, and its dates once narrowed. Each rate shows its hits over its chances. "
           "Select a player to make them the sidebar's player: the sheet below follows.")
values = shape.stat_columns(stats, [s.key for s in data.STATS])
overview = pd.DataFrame({
    "Player": stats["player"],
    "Hero": stats["hero"].astype(bool),
    "Hands": stats["hands"],
    "Net": widgets.in_currency(stats["net"], unit),
    "BB/100": stats["bb_per_100"],
})
for stat in data.STATS:
    overview[stat.label] = values[stat.key]
texts = {
    stat.label: [(fmt.ratio if stat.ratio else fmt.rate)(int(h), int(c)) for h, c in
                 zip(stats[f"{stat.key}_hits"], stats[f"{stat.key}_chances"], strict=True)]
    for stat in data.STATS
}
# A key per sidebar player: once a pick has become the sidebar's player, the table starts
# afresh instead of keeping a selected row that now means someone else.
table_key = f"players_table:{player}"
picked = st.dataframe(
    widgets.shown_as(overview, texts), key=table_key, hide_index=True, width="stretch",
    on_select="rerun", selection_mode="single-row",
    column_config={
        "Net": widgets.money_column("Net", unit, currency),
        "BB/100": st.column_config.NumberColumn(format="%+.2f", help="Big bets per 100 hands"),
        **{stat.label: st.column_config.Column(help=stat.note) for stat in data.STATS},
    },
)
if widgets.selected_rows(picked):
    widgets.show_player(str(stats["player"].iloc[widgets.selected_rows(picked)[0]]))

row = stats[stats["player"] == player]
if row.empty:
    st.info("This player has no hands under these filters.")
    st.stop()
row = row.iloc[0]
st.subheader(f"Sheet of {fmt.markdown_literal(player)}")
cols = st.columns(4)
cols[0].metric("Hands", f"{int(row['hands']):,}")
widgets.metric_money(cols[1], "Net", row["net"], unit, currency)
cols[2].metric("BB/100", f"{row['bb_per_100']:+.2f}")
cols[3].metric("VPIP 3rd", fmt.percent(int(row["vpip_hits"]), int(row["vpip_chances"])),
               help=f"{int(row['vpip_hits']):,} of {int(row['vpip_chances']):,} hands")

left, right = st.columns([3, 2])
sheet = shape.stat_sheet(row, data.STATS)
with left:
    chosen_stat = st.dataframe(
        sheet[["statistic", "value", "count", "out_of"]].rename(columns={
            "statistic": "Statistic", "value": "Value", "count": "Count",
            "out_of": "Out of"}),
        key="stat_sheet", hide_index=True, width="stretch", on_select="rerun",
        selection_mode="single-row", height=35 * (len(sheet) + 1) + 3,
        column_config={
            "Value": st.column_config.TextColumn(
                help="A share of the chances, or for aggression a ratio (bets and raises "
                     "per call)"),
            "Count": st.column_config.TextColumn(help="What the statistic counted"),
            "Out of": st.column_config.TextColumn(help="The chances it had"),
        },
    )
with right:
    funnel = pd.DataFrame({
        "Stage": ["Dealt", "VPIP", "Saw 4th", "Saw 5th", "Saw 6th", "Saw 7th", "Showdown",
                  "Won at showdown"],
        "Hands": [int(row["hands"]), int(row["vpip_hits"]), int(row["saw_4th_hits"]),
                  int(row["saw_5th_hits"]), int(row["saw_6th_hits"]), int(row["saw_7th_hits"]),
                  int(row["showdown_hits"]), int(row["won_showdown_hits"])],
    })
    st.vega_lite_chart(funnel, {  # a Vega-Lite specification: no Altair to import
        "title": "How far the hands went", "height": 300, "mark": "bar",
        "encoding": {
            "y": {"field": "Stage", "type": "nominal", "sort": None, "title": None},
            "x": {"field": "Hands", "type": "quantitative", "title": "Hands",
                  "axis": {"tickMinStep": 1, "format": "d"}},
            "tooltip": [{"field": "Stage", "type": "nominal"},
                        {"field": "Hands", "type": "quantitative"}],
        },
    }, width="stretch")
with st.expander("How each statistic is counted"):
    # Our own texts (no log text): Markdown is safe here.
    st.markdown("\n".join(f"* **{s.label}**: {s.note}" for s in data.STATS))

stat_rows = widgets.selected_rows(chosen_stat)
if stat_rows:
    stat = data.STATS_BY_KEY[str(sheet["key"].iloc[stat_rows[0]])]
    which = st.segmented_control("Hands", ["Hits", "Chances"], default="Hits",
                                 key="stat_side") or "Hits"
    listed = data.stat_hands(player, stat.key, which == "Hits", hand_filter)
    st.subheader(f"{stat.label}: {which.lower()} of {fmt.markdown_literal(player)}")
    widgets.hand_list(listed, key="stat_hands",
                      caption=f"Most recent {data.LIST_LIMIT:,} at most.")
else:
    st.caption("Select a statistic to list the hands behind it.")
