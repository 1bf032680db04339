"""Hand replayer: one hand at a poker table, action by action, with its findings and its text."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pandas as pd
import streamlit as st

from razz.dashboard import data, hand_equity, hand_steps, table_html, widgets
from razz.dashboard import format as fmt

st.title("Hand replayer")

asked = st.query_params.get("hand")
with st.expander("Find a hand", expanded=asked is None):
    typed = st.text_input("Hand number", key="hand_search",
                          placeholder="e.g. 35874566077 (the first digits are enough)")
    if typed.strip():
        st.caption("Hands whose number starts with what you typed.")
        widgets.hand_list(data.find_hands(typed.strip()), key="replayer_pick")
    elif asked is None:  # the latest hands, to start from somewhere
        st.caption("The latest hands. Select one to replay it.")
        widgets.hand_list(data.latest_hands(), key="replayer_pick")

if asked is None:
    st.info("Pick a hand above, or open one from any list of hands on the other pages.")
    st.stop()
hand_key = str(asked)
header = data.hand(hand_key)
if header.empty:
    st.error(f"There is no hand {fmt.markdown_literal(hand_key)} in the database.")
    st.stop()
info = header.iloc[0]
unit = str(info["unit"])
currency = None if pd.isna(info["currency"]) else str(info["currency"])


def money(amount: Any) -> str:
    """An amount of this hand, with its unit."""
    return "" if amount is None or pd.isna(amount) else fmt.money(int(amount), unit, currency)


st.subheader(f"{fmt.markdown_literal(info['room'] or info['site'])} hand #{fmt.markdown_literal(info['hand_id'])}")
st.text(  # st.text: the table's name is shown as written, never as Markdown
    f"Table {info['table_name']} · {info['stakes']} {info['kind']} · "
    f"{fmt.started(info['started_at'], info['started_text'])} · {int(info['players'])} players"
    + (f" · tournament {info['tournament_id']}" if not pd.isna(info["tournament_id"]) else "")
    + (f" level {info['level']}"
       if not pd.isna(info["tournament_id"]) and not pd.isna(info["level"]) else "")
)
cols = st.columns(4)
cols[0].metric("Total pot", money(info["total_pot"]))
cols[1].metric("Rake", money(info["rake"]))
cols[2].metric("Findings", f"{int(info['findings'])}",
               help=f"{int(info['errors'])} errors, "
                    f"{int(info['findings']) - int(info['errors'])} warnings")
cols[3].metric("Showdown", "yes" if bool(info["showdown"]) else "no")

seats = data.hand_players(hand_key)
pots = data.hand_pots(hand_key)
if int(info["findings"]):
    actions, findings = data.hand_actions(hand_key), data.hand_findings(hand_key)
else:
    # A hand without a finding adds up: the log's own amounts give the store's pots and
    # stacks (a test holds them equal on every such sample hand), and reading them from the
    # log spares a scan of the store's largest table.
    actions, findings = data.no_actions(), data.hand_findings_none()
first_line = int(info["first_line"])
steps = hand_steps.from_text(
    str(info["raw_text"]), first_line,
    list(zip(seats["seat"].astype(int), seats["player"].astype(str),
             seats["is_hero"].astype(bool), seats["starting_stack"].astype(int), strict=True)),
    actions, money,
)
flagged = findings["line"].astype(int).tolist()



@st.cache_data(show_spinner="Computing each street's equity…", max_entries=128)
def equity_view(hand_key: str, raw_text: str, view: hand_equity.View,
                _steps: Sequence[hand_steps.Step]) -> hand_equity.HandEquity:
    """The hand's equity in one view: once per hand (keyed by its key and text) and view,
    so that stepping through it computes nothing; the view not shown is not computed (each
    takes about a second of a first load)."""
    return hand_equity.compute(_steps, view)


def equity_by_street(shown: hand_equity.HandEquity, at: int, view: str) -> None:
    """Each street's equity at its deal, up to the step shown: a chart and its numbers."""
    streets = shown.by_street(until=at)
    point = shown.at(at)
    if not streets or point is None:
        return
    if point.error:
        st.caption(f"No equity at this step: {point.error}.")
    else:
        st.caption(f"Equity beside the seats: {view}, {point.method}"
                   + (f" ({point.samples:,} deals)" if point.samples else "")
                   + ". Each player's share of the pot if all the cards were dealt now; "
                   "it changes when cards are dealt and when a player folds.")
    rows = [{"street": street, "player": player, "equity": share}
            for street, p in streets for player, share in zip(p.players, p.equity,
                                                              strict=False)]
    if not rows:
        return
    frame = pd.DataFrame(rows)
    order = [s for s in hand_steps.STREETS if s in set(frame["street"])]
    st.vega_lite_chart(frame, {  # a Vega-Lite specification: no Altair to import
        "height": 220, "mark": {"type": "line", "point": True},
        "encoding": {
            "x": {"field": "street", "type": "ordinal", "title": None, "sort": order,
                  "axis": {"labelAngle": 0}},
            "y": {"field": "equity", "type": "quantitative", "title": "Equity at the deal",
                  "axis": {"format": "%", "tickCount": 5}, "scale": {"domain": [0, 1]}},
            "color": {"field": "player", "type": "nominal", "title": None,
                      "legend": {"orient": "bottom", "columns": 4}},
            "tooltip": [{"field": "player", "type": "nominal", "title": "Player"},
                        {"field": "street", "type": "ordinal", "title": "Street"},
                        {"field": "equity", "type": "quantitative", "title": "Equity",
                         "format": ".1%"}],
        },
    }, width="stretch")
    table = frame.pivot(index="player", columns="street", values="equity")[order]
    table = table.map(lambda v: "" if pd.isna(v) else f"{100 * v:.1f}%")
    how = pd.DataFrame([[p.method for s, p in streets if s in order]], columns=order,
                       index=["computed"])
    st.dataframe(pd.concat([table, how]), width="stretch", key="replay_equity_table")


if steps:
    last = len(steps) - 1
    # The address names the hand and the line of the step shown (`?hand=…&line=74`): a link
    # to a finding opens at its step, and the address of any step can be shared.
    address = (hand_key, st.query_params.get("line", ""))
    if st.session_state.get("replay_address") != address:
        line = address[1]
        start = hand_steps.step_of_line(steps, int(line)) if line.isdigit() else 0
        st.session_state["replay_step"] = start + 1
    at = min(max(int(st.session_state.get("replay_step", 1)), 1), last + 1) - 1
    st.session_state["replay_step"] = at + 1
    st.query_params["line"] = str(steps[at].line)
    st.session_state["replay_address"] = (hand_key, str(steps[at].line))

    def go(index: int) -> None:
        """Move to a step (a button's or a finding's callback, run before the page)."""
        st.session_state["replay_step"] = min(max(index, 0), last) + 1

    phases = list(dict.fromkeys(s.phase for s in steps))
    names = {"seats": "Seats", "antes": "Antes", "showdown": "Showdown", "summary": "Summary"}
    st.session_state["replay_phase"] = steps[at].phase

    def jump_to_phase() -> None:
        phase = st.session_state.get("replay_phase")
        if phase is not None:
            go(next(i for i, s in enumerate(steps) if s.phase == phase))

    buttons = st.columns([1, 1, 1, 1, 6], vertical_alignment="bottom")
    buttons[0].button("Start", icon=":material/first_page:", on_click=go, args=(0,),
                      disabled=at == 0, key="replay_first", width="stretch")
    buttons[1].button("Back", icon=":material/chevron_left:", on_click=go, args=(at - 1,),
                      disabled=at == 0, key="replay_previous", width="stretch",
                      help="The previous action")
    buttons[2].button("Next", icon=":material/chevron_right:", on_click=go, args=(at + 1,),
                      disabled=at == last, key="replay_next", width="stretch",
                      help="The next action")
    buttons[3].button("End", icon=":material/last_page:", on_click=go, args=(last,),
                      disabled=at == last, key="replay_last", width="stretch")
    buttons[4].segmented_control(
        "Street", phases, key="replay_phase", on_change=jump_to_phase,
        format_func=lambda p: names.get(p, p), label_visibility="collapsed",
    )
    st.slider(f"Step {at + 1} of {last + 1}", 1, last + 1, key="replay_step",
              help="Drag to step through the hand action by action")
    step = steps[at]

    replay, text = st.columns([3, 2], gap="medium")
    with replay:
        here = findings[findings["line"].map(
            lambda line: hand_steps.step_of_line(steps, int(line)) == at).astype(bool)]
        lows = {str(p): str(low) for p, low in zip(seats["player"], seats["final_low"],
                                                   strict=True) if not pd.isna(low)}
        views: list[hand_equity.View] = (
            ["hero", "full"] if hand_equity.full_view_exists(steps) else ["hero"])
        hero_named = any(s.hero for s in step.seats)
        view_names = {"hero": "Hero's view" if hero_named else "Public view",
                      "full": "Full view (cards shown at the end)"}
        chosen = st.segmented_control(
            "Equity", list(views), default="hero", key=f"replay_equity_{hand_key}",
            format_func=view_names.__getitem__,
            help="Hero's view: the hero's cards and every up card, the other down cards "
                 "unknown, folded players' up cards dead. Full view: the cards the hand shows "
                 "by its end (the showdown), put back where they were dealt.") or "hero"
        shown = equity_view(hand_key, str(info["raw_text"]), chosen, steps)
        point = shown.at(at)
        seat_equity = {}
        if point is not None and point.equity:
            meaning = f"{view_names[chosen]}, {hand_steps.STREET_NAMES[point.street]}: " \
                      f"{point.method}"
            seat_equity = {p: (e, meaning) for p, e in zip(point.players, point.equity,
                                                            strict=True)}
        st.html(table_html.table(
            step, int(info["max_seats"]) if not pd.isna(info["max_seats"]) else 8, money,
            here[["rule", "severity", "line", "message"]].itertuples(index=False, name=None),
            lows, (int(info["total_pot"]), int(info["rake"])), seat_equity))
        equity_by_street(shown, at, view_names[chosen])
        if len(findings):
            st.markdown("##### Findings of this hand")
            for index, row in enumerate(findings.itertuples(index=False)):
                target = hand_steps.step_of_line(steps, int(row.line))
                st.button(f"Line {int(row.line)}: {fmt.markdown_literal(row.rule)}",
                          key=f"replay_finding_{index}", on_click=go, args=(target,),
                          icon=":material/rule:", disabled=target == at,
                          help="Go to the step of this line")
    with text:
        st.markdown("##### Hand history")
        st.caption(f"{fmt.markdown_literal(info['source'])}, from line {first_line}. The "
                   "step's lines are highlighted; `!` marks a line with a finding.")
        st.html(table_html.history(str(info["raw_text"]), first_line, step.lines, flagged))
else:
    st.error("This hand's text could not be read again, so it cannot be replayed: its lines "
             "are below.")
    st.code(str(info["raw_text"]), language=None, wrap_lines=True)

st.markdown("#### Result")
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
