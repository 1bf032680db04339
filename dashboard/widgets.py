"""Pieces of page that several pages draw: the hand filters, money columns, lists of hands."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

import pandas as pd
import streamlit as st

from razz.dashboard import data
from razz.dashboard import format as fmt

VIEWS = Path(__file__).parent / "views"
REPLAYER = str(VIEWS / "replayer.py")


# --------------------------------------------------------------------- sticky selections


def _sticky(key: str, default: Any) -> Any:
    """A widget's value that survives moving to a page without that widget."""
    store = f"_kept_{key}"
    if key in st.session_state:
        st.session_state[store] = st.session_state[key]
    elif store in st.session_state:
        st.session_state[key] = st.session_state[store]
    else:
        st.session_state[key] = default
    return st.session_state[key]


def _remember(key: str) -> None:
    st.session_state[f"_kept_{key}"] = st.session_state[key]


# -------------------------------------------------------------------------- filters


def player_and_filters() -> tuple[str, data.HandFilter] | None:
    """The sidebar of the player pages: whose hands, in which money, when, where. None: no data."""
    players = data.players()
    if players.empty:
        st.info("No hands in the database yet: import hand histories on the Import page.")
        return None
    names = players["player"].tolist()
    hero = names[0]  # the query ranks first the player whose cards the logs show most often
    sidebar = st.sidebar
    sidebar.subheader("Hands shown")
    if _sticky("player", hero) not in names:
        st.session_state["player"] = hero
    player = sidebar.selectbox(
        "Player", names, key="player", on_change=_remember, args=("player",),
        help="The hero (the player whose hole cards the logs show) is chosen first; "
             "pick anyone to review their hands.",
    )
    ledgers = data.ledgers(player)
    ledger_names = [fmt.ledger_label(u, c) for u, c in ledgers[["unit", "currency"]].itertuples(
        index=False)]
    if _sticky("ledger", ledger_names[0]) not in ledger_names:
        st.session_state["ledger"] = ledger_names[0]
    chosen = sidebar.selectbox("Money", ledger_names, key="ledger", on_change=_remember,
                               args=("ledger",),
                               help="Amounts in different currencies or in chips are not added up.")
    unit, currency = ledgers.iloc[ledger_names.index(chosen)][["unit", "currency"]]
    currency = None if pd.isna(currency) else str(currency)
    choices = data.filter_choices(player, unit, currency)
    first = pd.Timestamp(choices["first_hand"].min()).date()
    last = pd.Timestamp(choices["last_hand"].max()).date()
    span = _date_range(sidebar, "dates", first, last)
    kind = _one_of(sidebar, "Cash or tournament", "kind", _unique(choices["kind"]))
    stakes = _one_of(sidebar, "Stakes", "stakes", _unique(choices["stakes"]))
    table = _one_of(sidebar, "Table", "table", sorted(_unique(choices["table_name"])))
    return player, data.HandFilter(
        unit=str(unit), currency=currency, date_from=span[0], date_to=span[1],
        kind=kind, stakes=stakes, table=table,
    )


ALL = "All"


def _unique(values: pd.Series) -> list[str]:
    return list(dict.fromkeys(str(v) for v in values.dropna()))


def _one_of(container: Any, label: str, key: str, options: list[str]) -> str | None:
    """A choice among the values found, or None for all of them."""
    if _sticky(key, ALL) not in options:
        st.session_state[key] = ALL
    picked = container.selectbox(label, [ALL, *options], key=key, on_change=_remember,
                                 args=(key,))
    return None if picked == ALL else str(picked)


def _date_range(
    container: Any, key: str, first: date, last: date
) -> tuple[date | None, date | None]:
    kept = _sticky(key, (first, last))
    if not isinstance(kept, tuple | list) or not kept:
        kept = (first, last)
    st.session_state[key] = tuple(max(first, min(last, d)) for d in kept)
    picked = container.date_input("Dates (UTC)", key=key, min_value=first, max_value=last,
                                  on_change=_remember, args=(key,))
    if isinstance(picked, tuple | list):
        if len(picked) == 2:
            return picked[0], picked[1]
        if len(picked) == 1:
            return picked[0], picked[0]
        return None, None
    return picked, picked


def audit_filters(container: Any) -> data.AuditFilter:
    """The audit page's filters: dates, rule, severity, file, table, kind and stakes."""
    choices = data.audit_choices()
    found = {kind: group["value"].dropna().tolist() for kind, group in choices.groupby("kind")}
    span: tuple[date | None, date | None] = (None, None)
    if found.get("first"):
        first = date.fromisoformat(found["first"][0])
        last = date.fromisoformat(found["last"][0])
        span = _date_range(container, "audit_dates", first, last)
    rule = _one_of(container, "Rule", "audit_rule", found.get("rule", []))
    severity = _one_of(container, "Severity", "audit_severity", found.get("severity", []))
    source = _one_of(container, "File", "audit_file", found.get("source", []))
    table = _one_of(container, "Table", "audit_table", found.get("table", []))
    kind = _one_of(container, "Cash or tournament", "audit_kind", found.get("kind", []))
    stakes = _one_of(container, "Stakes", "audit_stakes", found.get("stakes", []))
    hands = data.HandFilter(date_from=span[0], date_to=span[1], kind=kind, stakes=stakes,
                            table=table)
    return data.AuditFilter(hands=hands, rule=rule, severity=severity, source=source)


# ---------------------------------------------------------------------------- money


def money_column(label: str, unit: str, currency: str | None, help: str | None = None) -> Any:
    """A numeric column of amounts already divided into the currency (or chips), with its symbol."""
    if unit == "cent":
        formats = {"USD": "dollar", "EUR": "euro"}
        number_format = formats.get(currency or "", f"%.2f {currency or ''}".strip())
        if currency == "GBP":
            number_format = "£%.2f"
    else:
        number_format = "localized"
    return st.column_config.NumberColumn(label, format=number_format, help=help)


def in_currency(amounts: pd.Series, unit: str) -> pd.Series:
    """Amounts in the smallest unit as numbers of the currency: cents become dollars."""
    return amounts.astype("float64") / 100 if unit == "cent" else amounts.astype("float64")


# ---------------------------------------------------------------------- lists of hands


def replay_link(hand_key: str) -> str:
    """The address of the hand replayer on one hand, relative to the current page."""
    from urllib.parse import quote

    return f"replayer?hand={quote(hand_key, safe='')}"


def hand_list(hands: pd.DataFrame, key: str, caption: str | None = None) -> None:
    """A table of hands: select a row to open it in the replayer, or follow its link."""
    if hands.empty:
        st.caption("No hands.")
        return
    frame = pd.DataFrame({
        "Hand": [replay_link(k) for k in hands["hand_key"]],
        "Started (UTC)": pd.to_datetime(hands["started_at"], utc=True).dt.tz_localize(None),
        "Table": hands["table_name"],
    })
    if "stakes" in hands:
        frame["Stakes"] = hands["stakes"]
    if "net" in hands and "unit" in hands:
        frame["Net"] = [fmt.money(n, u, None if pd.isna(c) else c)
                        for n, u, c in zip(hands["net"], hands["unit"], hands["currency"],
                                           strict=True)]
    if "net_bb" in hands:
        frame["Net (BB)"] = hands["net_bb"].astype("float64")
    if "findings" in hands:
        frame["Findings"] = hands["findings"]
    event = st.dataframe(
        frame, key=key, hide_index=True, on_select="rerun", selection_mode="single-row",
        width="stretch",
        column_config={
            "Hand": st.column_config.LinkColumn(
                "Hand", display_text=r"hand=[^%]*%3A(.*)$",
                help="Select the row, or follow the link, to replay the hand"),
            "Started (UTC)": st.column_config.DatetimeColumn(format="YYYY-MM-DD HH:mm:ss"),
            "Net (BB)": st.column_config.NumberColumn(format="%+.2f"),
        },
    )
    if caption:
        st.caption(caption)
    open_selected_hand(event, hands, key)


def open_selected_hand(event: Any, hands: pd.DataFrame, key: str) -> None:
    """Go to the replayer when a row of a list of hands is newly selected."""
    rows = selected_rows(event)
    handled = f"_opened_{key}"
    if not rows:
        st.session_state.pop(handled, None)
        return
    hand_key = str(hands["hand_key"].iloc[rows[0]])
    # A selection outlives the switch when the list is on the replayer itself: open once.
    if st.session_state.get(handled) != hand_key:
        st.session_state[handled] = hand_key
        st.switch_page(REPLAYER, query_params={"hand": hand_key})


def selected_rows(event: Any) -> list[int]:
    """The rows selected in a dataframe drawn with `on_select="rerun"`."""
    try:
        return list(event.selection.rows)
    except AttributeError:
        return []


def metric_money(container: Any, label: str, amount: float, unit: str, currency: str | None,
                 help: str | None = None) -> None:
    """A metric showing an amount with its unit."""
    container.metric(label, fmt.money(amount, unit, currency), help=help)


def shown_as(frame: pd.DataFrame, texts: dict[str, list[str]]) -> Any:
    """A styled table whose cells keep their numbers (so columns sort) but show the given texts."""
    styler = frame.style
    positions = {name: i for i, name in enumerate(frame.columns)}
    for column, shown in texts.items():
        j = positions[column]
        for i, text in enumerate(shown):
            # pandas keeps one display function per cell; the public `format` takes seconds
            # for a few thousand cells, this takes milliseconds.
            styler._display_funcs[(i, j)] = lambda _value, _text=text: _text
    return styler
