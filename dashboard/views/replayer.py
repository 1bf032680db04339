"""Hand replayer: one hand street by street, with its audit findings and its text."""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from razz.dashboard import data, shape, widgets
from razz.dashboard import format as fmt

st.title("Hand replayer")

asked = st.query_params.get("hand")
with st.expander("Find a hand", expanded=asked is None):
    typed = st.text_input("Hand number", key="hand_search",
                          placeholder="e.g. 35874566077 (the first digits are enough)")
    found = data.find_hands(typed.strip()) if typed.strip() else data.latest_hands()
    st.caption("Hands whose number starts with what you typed." if typed.strip()
               else "The latest hands. Select one to replay it.")
    widgets.hand_list(found, key="replayer_pick")

if asked is None:
    st.info("Pick a hand above, or open one from any list of hands on the other pages.")
    st.stop()

header = data.hand(str(asked))
if header.empty:
    st.error(f"There is no hand {fmt.markdown_literal(asked)} in the database.")
    st.stop()
info = header.iloc[0]
unit = str(info["unit"])
currency = None if pd.isna(info["currency"]) else str(info["currency"])


def money(amount: Any) -> str:
    """An amount of this hand, with its unit."""
    return "" if amount is None or pd.isna(amount) else fmt.money(int(amount), unit, currency)


st.subheader(f"{fmt.markdown_literal(info['site'])} hand #{fmt.markdown_literal(info['hand_id'])}")
st.text(
    f"Table {info['table_name']} · {info['stakes']} {info['kind']} · "
    f"{info['started_text']} · {int(info['players'])} players"
    + (f" · tournament {info['tournament_id']} level {info['level']}"
       if not pd.isna(info["tournament_id"]) else "")
)
cols = st.columns(4)
cols[0].metric("Total pot", money(info["total_pot"]))
cols[1].metric("Rake", money(info["rake"]))
cols[2].metric("Findings", f"{int(info['findings'])}",
               help=f"{int(info['errors'])} errors, "
                    f"{int(info['findings']) - int(info['errors'])} warnings")
cols[3].metric("Showdown", "yes" if bool(info["showdown"]) else "no")

seats = data.hand_players(str(asked))
actions = data.hand_actions(str(asked))
cards = data.hand_cards(str(asked))
findings = data.hand_findings(str(asked))
pots = data.hand_pots(str(asked))

reveal = st.toggle("Show opponents' down cards (those shown at the showdown)", value=False,
                   key="reveal_down")
replay, text = st.columns([3, 2], gap="large")

with replay:
    annotated = shape.actions_with_findings(actions, findings)
    reached = shape.STREETS[: shape.STREETS.index(shape.last_street(actions, cards)) + 1]
    antes = annotated[annotated["street"].isna() & (annotated["kind"] == "ante")]
    if len(antes):
        st.caption("Antes: " + ", ".join(
            f"{fmt.markdown_literal(p)} {fmt.markdown_literal(money(a))}"
            for p, a in zip(antes["player"], antes["amount"], strict=True)))
    if not pd.isna(info["community_card"]):
        st.caption(f"Community card on 7th street: {fmt.card(str(info['community_card']))}")
    for street in reached:
        st.markdown(f"#### {street} street")
        table = shape.street_table(seats, cards, actions, street, reveal)
        st.dataframe(
            pd.DataFrame({
                "Seat": table["seat"],
                "Player": table["player"] + table["hero"].map({True: " (hero)", False: ""}),
                "Down": table["down"], "Up": table["up"],
                "Stack": [money(v) for v in table["stack"]], "": table["status"],
            }),
            hide_index=True, width="stretch", key=f"seats_{street}",
        )
        on_street = annotated[annotated["street"] == street]
        _action_rows = pd.DataFrame({
            "Line": on_street["line"],
            "Player": on_street["player"],
            "Action": on_street["kind"].str.replace("_", " ")
            + on_street["all_in"].map({True: " (all-in)", False: ""}),
            "Amount": [money(v) for v in on_street["amount"]],
            "To": [money(v) for v in on_street["to_amount"]],
            "Pot after": [money(v) for v in on_street["pot_after"]],
            "Stack after": [money(v) for v in on_street["stack_after"]],
            "Finding": [f"⚠ {r}: {m}" if r else "" for r, m in
                        zip(on_street["rules"], on_street["finding"], strict=True)],
        })
        st.dataframe(_action_rows, hide_index=True, width="stretch",
                     key=f"actions_{street}")
        for row in on_street[on_street["rules"] != ""].itertuples(index=False):
            st.warning(f"Line {row.line}: {fmt.markdown_literal(row.finding)} "
                       f"({fmt.markdown_literal(row.rules)})", icon=":material/rule:")

    st.markdown("#### Result")
    after = annotated[annotated["street"].isna() & (annotated["kind"] != "ante")]
    if len(after):
        st.dataframe(pd.DataFrame({
            "Line": after["line"], "Player": after["player"],
            "Action": after["kind"].str.replace("_", " "),
            "Amount": [money(v) for v in after["amount"]],
            "Stack after": [money(v) for v in after["stack_after"]],
        }), hide_index=True, width="stretch", key="actions_after")
    st.dataframe(pd.DataFrame({
        "Seat": seats["seat"], "Player": seats["player"],
        "Invested": [money(v) for v in seats["invested"]],
        "Collected": [money(v) for v in seats["collected"]],
        "Net": [money(v) for v in seats["net"]],
        "Final stack": [money(v) for v in seats["final_stack"]],
        "Best low": seats["final_low"].fillna(""),
    }), hide_index=True, width="stretch", key="result_seats")
    if len(pots):
        st.dataframe(pd.DataFrame({
            "Pot": ["main" if i == 0 else f"side {i}" for i in pots["pot_index"]],
            "Amount": [money(v) for v in pots["amount"]],
            "Winners": [", ".join(w) for w in pots["winners"]],
            "Shares": [", ".join(money(x) for x in s) for s in pots["shares"]],
        }), hide_index=True, width="stretch", key="result_pots")
    elsewhere = shape.findings_off_actions(actions, findings)
    if len(elsewhere):
        st.markdown("#### Findings on other lines")
        for row in elsewhere.itertuples(index=False):
            st.warning(f"Line {row.line}: {fmt.markdown_literal(row.message)} "
                       f"({fmt.markdown_literal(row.rule)})", icon=":material/rule:")

with text:
    st.markdown("#### Hand history")
    st.caption(f"{fmt.markdown_literal(info['source'])}, from line {int(info['first_line'])}; "
               "`!` marks a line with a finding.")
    st.code(shape.numbered_lines(str(info["raw_text"]), int(info["first_line"]),
                                 findings["line"].tolist()),
            language=None)
