"""Pieces of page that several pages draw: the hand filters, money columns, lists of hands."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

import pandas as pd
import streamlit as st

from razz.dashboard import data, shape
from razz.dashboard import format as fmt

VIEWS = Path(__file__).parent / "views"
REPLAYER = str(VIEWS / "replayer.py")


# ---------------------------------------------------------------- remembered selections

_MEMORY = "_filter_memory"  # key -> (scope, value): what each filter was set to, and for what
_UNSET = object()
ALL = "All"


def _prepare(key: str, scope: tuple[Any, ...], default: Any, valid: Any) -> Any:
    """Set a filter widget's value before it is drawn: the user's choice while the selection
    it depends on (`scope`, e.g. the player) is unchanged, else `default`.

    The value also survives a page without the widget (Streamlit forgets the state of widgets
    not drawn in a run). `valid(value)` rejects a kept value the options no longer offer.
    """
    memory = st.session_state.setdefault(_MEMORY, {})
    kept_scope, kept = memory.get(key, (_UNSET, _UNSET))
    current = st.session_state.get(key, kept)
    # A value set before the widget was ever drawn (from the address) has no scope yet.
    stale = kept_scope is not _UNSET and kept_scope != scope
    if stale or current is _UNSET or not valid(current):
        current = default
    st.session_state[key] = current
    memory[key] = (scope, current)
    return current


def _remember(key: str, scope: tuple[Any, ...], value: Any) -> None:
    st.session_state[_MEMORY][key] = (scope, value)


def choose(container: Any, label: str, key: str, options: list[Any], default: Any,
           scope: tuple[Any, ...] = (), **kwargs: Any) -> Any:
    """A select box whose choice is kept while `scope` stays the same, else reset."""
    _prepare(key, scope, default, lambda v: v in options)
    picked = container.selectbox(label, options, key=key, **kwargs)
    _remember(key, scope, picked)
    return picked


def one_of(container: Any, label: str, key: str, options: list[str],
           scope: tuple[Any, ...] = ()) -> str | None:
    """A choice among the values found, or None for all of them ("All", the default)."""
    picked = choose(container, label, key, [ALL, *options], ALL, scope)
    return None if picked == ALL else str(picked)


def date_range(container: Any, key: str, first: date, last: date,
               scope: tuple[Any, ...]) -> tuple[date, date]:
    """Inclusive days between `first` and `last`; back to all of them when `scope` changes."""

    def valid(value: Any) -> bool:
        return (isinstance(value, tuple | list) and 1 <= len(value) <= 2
                and all(isinstance(d, date) and first <= d <= last for d in value))

    # The scope includes the bounds: a new import that adds days widens the default too.
    _prepare(key, (*scope, first, last), (first, last), valid)
    picked = container.date_input(
        "Dates (UTC)", key=key, min_value=first, max_value=last,
        help="Starts as every day of the hands the other filters select; it goes back to "
             "that whenever they change.",
    )
    _remember(key, (*scope, first, last), picked)
    if isinstance(picked, tuple | list):
        if len(picked) == 2:
            return picked[0], picked[1]
        if len(picked) == 1:  # the second day is not picked yet
            return picked[0], picked[0]
        return first, last
    return picked, picked


def show_player(name: str) -> None:
    """Make `name` the sidebar's player: every page follows (the page runs again at once)."""
    if name != st.session_state.get("player"):
        st.session_state["_next_player"] = name
        st.rerun()


# -------------------------------------------------------------------------- filters


def player_and_filters() -> tuple[str, data.HandFilter] | None:
    """The sidebar of the player pages: whose hands, in which money, when, where. None: no data.

    Every filter's default follows what is chosen above it: another player resets the room,
    the money, the stakes, the table and the dates to that player's; another room resets
    what follows it; and the dates follow the other filters. Under the page title, a line says how many of the player's hands are shown and
    which filter hides the others.
    """
    players = data.players()
    if players.empty:
        no_hands_message()
        return None
    names = players["player"].tolist()
    if "_next_player" in st.session_state:  # a page picked a player (see `show_player`)
        st.session_state["player"] = st.session_state.pop("_next_player")
    sidebar = st.sidebar
    sidebar.subheader("Hands shown")
    # The query ranks first the player whose cards the logs show most often: the hero.
    player = str(choose(
        sidebar, "Player", "player", names, names[0],
        help="Whose hands every page shows. The hero (the player whose hole cards the logs "
             "show) comes first.",
    ))
    scope = data.player_scope(player)
    by_hands = scope.groupby("room")["hands"].sum().sort_values(ascending=False, kind="stable")
    room = one_of(sidebar, "Room", "room", [str(r) for r in by_hands.index], (player,))
    in_room = scope if room is None else scope[data.HandFilter(room=room).masks(scope)[0][1]]
    ledgers = (in_room.groupby(["unit", "currency"], dropna=False)["hands"].sum()
               .reset_index().sort_values(["hands", "unit"], ascending=[False, True],
                                          kind="stable"))
    ledger_names = ledger_labels(ledgers[["unit", "currency"]].itertuples(index=False))
    chosen = str(choose(sidebar, "Money", "ledger", ledger_names, ledger_names[0],
                        (player, room),
                        help="Amounts in different currencies or in chips are not added up."))
    unit, currency = ledgers.iloc[ledger_names.index(chosen)][["unit", "currency"]]
    currency = None if pd.isna(currency) else str(currency)
    in_ledger = data.HandFilter(room=room, unit=str(unit), currency=currency)
    keep = pd.Series(True, index=scope.index)
    for _, mask in in_ledger.masks(scope):
        keep &= mask
    choices = scope[keep]
    by_size = choices.sort_values(["big_bet", "stakes"], kind="stable")
    ledger_scope = (player, room, chosen)
    kind = one_of(sidebar, "Cash or tournament", "kind", _unique(choices["kind"]),
                  ledger_scope)
    stakes = one_of(sidebar, "Stakes", "stakes", _unique(by_size["stakes"]), ledger_scope)
    table = one_of(sidebar, "Table", "table", sorted(_unique(choices["table_name"])),
                   ledger_scope)
    picked = data.HandFilter(room=room, unit=str(unit), currency=currency, kind=kind,
                             stakes=stakes, table=table)
    kept = pd.Series(True, index=scope.index)
    for _, mask in picked.masks(scope):
        kept &= mask
    days = pd.to_datetime((scope[kept] if kept.any() else choices)["day"]).dt.date
    first, last = days.min(), days.max()
    day_from, day_to = date_range(sidebar, "dates", first, last,
                                  (*ledger_scope, kind, stakes, table))
    # Every day of the player's hands is no date filter: the other players' hands on other
    # days (the table of every player) are not hidden by a range nobody chose.
    narrowed = (day_from, day_to) != (first, last)
    hands = data.HandFilter(room=room, unit=str(unit), currency=currency,
                            date_from=day_from if narrowed else None,
                            date_to=day_to if narrowed else None,
                            kind=kind, stakes=stakes, table=table)
    st.caption(shape.narrowing_note(data.scope_narrowing(scope, hands), "hand",
                                    f" of {fmt.markdown_literal(player)}"))
    return player, hands


def ledger_labels(ledgers: Any) -> list[str]:
    """A distinct name per (unit, currency): `USD`, `chips`; `chips (EUR)` when chips of
    tournaments bought in several currencies are kept apart."""
    pairs = [(str(u), None if pd.isna(c) else str(c)) for u, c in ledgers]
    names = [fmt.ledger_label(u, c) for u, c in pairs]
    return [f"{n} ({c or 'play money'})" if names.count(n) > 1 else n
            for n, (_, c) in zip(names, pairs, strict=True)]


def _unique(values: pd.Series) -> list[str]:
    return list(dict.fromkeys(str(v) for v in values.dropna()))


def no_hands_message() -> None:
    """What to do when the database holds no hand yet."""
    st.info("No hands in the database yet: import hand histories with `razz import FILES "
            "--db DATABASE`" + (", or on the Import page." if import_allowed() else
                                " (or start the dashboard with `--allow-import` to upload "
                                "them here)."))


import_allowed = data.import_allowed


# The audit filters as they appear in the page's address (`/audit?rule=ORDER-LATER`), so
# that a link to a view, or the browser's Back from the replayer, shows the same findings.
_AUDIT_PARAMS = {"rule": "audit_rule", "severity": "audit_severity", "room": "audit_room",
                 "file": "audit_file", "table": "audit_table", "kind": "audit_kind",
                 "stakes": "audit_stakes"}


def _audit_filters_from_address() -> None:
    """Start the audit filters from the address, once per browser session."""
    if st.session_state.get("_audit_address_read"):
        return
    st.session_state["_audit_address_read"] = True
    for param, key in _AUDIT_PARAMS.items():
        if param in st.query_params:
            st.session_state[key] = st.query_params[param]
    try:
        days = (date.fromisoformat(st.query_params["from"]),
                date.fromisoformat(st.query_params["to"]))
    except (KeyError, ValueError):
        return
    st.session_state["audit_dates"] = days


def audit_filters(container: Any) -> data.AuditFilter:
    """The audit page's filters: rule, severity, room, file, table, kind, stakes, then the
    dates, whose default is every day of the hands the other filters select."""
    _audit_filters_from_address()
    choices = data.audit_choices()
    found = {kind: group["value"].dropna().tolist() for kind, group in choices.groupby("kind")}
    short = short_source_names()
    rule = one_of(container, "Rule", "audit_rule", found.get("rule", []))
    severity = one_of(container, "Severity", "audit_severity", found.get("severity", []))
    room = one_of(container, "Room", "audit_room", found.get("room", []))
    offered = found.get("source", [])
    files = int(found.get("files", ["0"])[0])
    picked_file = choose(container, "File", "audit_file", [ALL, *offered], ALL,
                         format_func=lambda p: p if p == ALL else short.get(p, p),
                         help="Files are named without the folder they all share."
                              + (f" The {len(offered):,} of the {files:,} files with the most "
                                 "findings are offered; the By file tab counts them all."
                                 if files > len(offered) else ""))
    source = None if picked_file == ALL else str(picked_file)
    table = one_of(container, "Table", "audit_table", found.get("table", []))
    kind = one_of(container, "Cash or tournament", "audit_kind", found.get("kind", []))
    stakes = one_of(container, "Stakes", "audit_stakes", found.get("stakes", []))
    scoped = data.AuditFilter(data.HandFilter(room=room, kind=kind, stakes=stakes,
                                              table=table), source=source)
    span = data.audit_span(scoped) or data.audit_span(data.AuditFilter())
    day_from = day_to = None
    if span is not None:
        day_from, day_to = date_range(container, "audit_dates", span[0], span[1],
                                      (room, source, table, kind, stakes))
    address = {param: value for param, value in (
        ("rule", rule), ("severity", severity), ("room", room), ("file", source),
        ("table", table),
        ("kind", kind), ("stakes", stakes)) if value is not None}
    if span is not None and (day_from, day_to) != span:
        address.update({"from": str(day_from), "to": str(day_to)})
    if dict(st.query_params) != address:
        st.query_params.from_dict(address)
    if span is not None and (day_from, day_to) == span:  # every day: no date filter
        day_from = day_to = None
    hands = data.HandFilter(room=room, date_from=day_from, date_to=day_to, kind=kind,
                            stakes=stakes, table=table)
    return data.AuditFilter(hands=hands, rule=rule, severity=severity, source=source)


def short_source_names() -> dict[str, str]:
    """The store's files as short paths: without the folder that every file shares."""
    path = data.database_path()
    return _short_names(path, data.database_version(path))


# A resource, not data: the same dict at every rerun (tens of thousands of paths are not
# copied each time); nothing changes it.
@st.cache_resource(show_spinner=False, max_entries=4)
def _short_names(path: str, version: tuple[int, int, int]) -> dict[str, str]:
    from razz.audit_report import short_paths

    del path, version  # the cache key: computed again when the store changes
    return short_paths(data.source_paths())


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


def replay_link(hand_key: str, line: int | None = None) -> str:
    """The address of the hand replayer on one hand (at a line), relative to the current page.

    >>> replay_link("PokerStars:12", line=40)
    'replayer?hand=PokerStars%3A12&line=40'
    """
    from urllib.parse import quote

    at = "" if line is None else f"&line={int(line)}"
    return f"replayer?hand={quote(hand_key, safe='')}{at}"


def hand_list(hands: pd.DataFrame, key: str, caption: str | None = None) -> None:
    """A table of hands: select a row to open it in the replayer, or follow its link."""
    if hands.empty:
        st.caption("No hands.")
        return
    frame = pd.DataFrame({
        "Hand": [replay_link(k) for k in hands["hand_key"]],
        "Started (UTC)": pd.to_datetime(hands["started_at"], utc=True).dt.tz_localize(None),
    })
    if "room" in hands:
        frame["Room"] = hands["room"]
    frame["Table"] = hands["table_name"]
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


# --------------------------------------------------------------------------------- aliases


def alias_editor() -> None:
    """Names that are one person: the alias table, and with `--allow-import` a form to add
    or remove one (`razz alias` does the same from a terminal)."""
    from razz.store.aliases import AliasError

    table = data.aliases()
    title = ("Names that are one person" if table.empty
             else f"Names that are one person ({len(table):,})")
    with st.expander(title, expanded="_alias_done" in st.session_state):
        st.caption("A player who played under different names in different rooms is shown as "
                   "one person in the statistics, the sessions and the player picker. The "
                   "replayer and the audit keep the names as the logs write them.")
        if not table.empty:
            st.dataframe(pd.DataFrame({
                "Person": table["person"], "Name in the logs": table["name"],
                "Room": table["room"].replace("", "every room"),
            }), hide_index=True, width="stretch", key="alias_table")
        if not import_allowed():
            st.caption("Start the dashboard with `--allow-import` to edit them here, or use "
                       "`razz alias add NAME --as PERSON [--room ROOM]`.")
            return
        names = data.player_names()
        every = "every room"
        with st.form("alias_add", clear_on_submit=True):
            left, middle, right = st.columns(3)
            name = left.selectbox(
                "Name in the logs", names["name"].tolist(), index=None, key="alias_name",
                format_func=lambda n: n,
                placeholder="Choose a name", help="Names with the most hands first")
            person = middle.text_input("Is the person", key="alias_person",
                                       help="An existing name, or a new one")
            room = right.selectbox("In", [every, *data.rooms()], key="alias_room")
            if st.form_submit_button("Add", icon=":material/link:"):
                if name is None:
                    st.warning("Choose a name first.")
                else:
                    try:
                        st.session_state["_alias_done"] = data.change_aliases(
                            add=(str(name), str(person), "" if room == every else str(room)))
                    except AliasError as exc:
                        st.warning(f"Not added: {fmt.markdown_literal(exc)}.")
                    else:
                        st.rerun()
        if not table.empty:
            labels = [f"{n} → {p} ({r or every})" for n, p, r in
                      zip(table["name"], table["person"], table["room"], strict=True)]
            with st.form("alias_remove"):
                picked = st.selectbox("Alias", range(len(labels)), index=None,
                                      format_func=lambda i: labels[i], key="alias_drop",
                                      placeholder="Choose an alias to remove")
                if st.form_submit_button("Remove", icon=":material/link_off:") \
                        and picked is not None:
                    row = table.iloc[int(picked)]
                    st.session_state["_alias_done"] = data.change_aliases(
                        remove=(str(row["name"]), str(row["room"])))
                    st.rerun()
        done = st.session_state.pop("_alias_done", None)
        if done:
            st.success(fmt.markdown_literal(done))
