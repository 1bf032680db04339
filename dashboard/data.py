"""The dashboard's only access to the store: one read-only connection, parameterised SQL, cached.

Every query below is a constant string with `?` placeholders; values chosen by the user only
ever travel as parameters. The few fragments that vary (which statistic, which filters) are
picked from constants in this module by key, never built from user text.

Results are cached with `st.cache_data`, keyed by the database file's size and modification
time, so an import (from the Import page or from `razz import` in a terminal) shows up on the
next rerun without a restart.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from datetime import time as dtime
from typing import Any

import duckdb
import pandas as pd
import streamlit as st

from razz.dashboard.shape import Narrowing
from razz.store import db as store_db

DB_ENV = "RAZZ_DASHBOARD_DB"
ALLOW_IMPORT_ENV = "RAZZ_DASHBOARD_ALLOW_IMPORT"  # "1": `razz dashboard --allow-import`
LIST_LIMIT = 5000  # rows in a list of hands or findings; the CSV export has them all


class DatabaseUnavailable(RuntimeError):
    """The database file is missing, or an import holds it for longer than a reader waits."""


def database_path() -> str:
    """The database shown: `$RAZZ_DASHBOARD_DB`, else the store's default (`$RAZZ_DB`…)."""
    return os.environ.get(DB_ENV) or str(store_db.default_db_path())


def import_allowed() -> bool:
    """Whether `razz dashboard --allow-import` started this server (the Import page exists)."""
    return os.environ.get(ALLOW_IMPORT_ENV) == "1"


def database_version(path: str) -> tuple[int, int, int]:
    """Changes whenever the file or its write-ahead log changes: the key of cached results."""
    stamp = [0, 0, 0]
    for i, name in enumerate((path, path + ".wal")):
        try:
            info = os.stat(name)
        except FileNotFoundError:
            continue
        stamp[0] += info.st_size
        stamp[1 + i] = info.st_mtime_ns
    return stamp[0], stamp[1], stamp[2]


class Reader:
    """One read-only connection to one database file, opened when needed and let go on demand.

    DuckDB lets one process write a file only while no other process has it open, so the
    dashboard lets go of its connection between reruns (`release`) and while its own import
    runs (`released`); an import started from a terminal can then take the file.
    """

    def __init__(self, path: str) -> None:
        self.path = path
        self._lock = threading.RLock()
        self._connection: duckdb.DuckDBPyConnection | None = None

    def _open(self) -> duckdb.DuckDBPyConnection:
        try:
            # The store's reader asks a running import to yield the file, and retries.
            connection = store_db.connect_read_only(self.path, retries=40)
        except store_db.StoreNotFound as missing:
            where = ("on the Import page, or with `razz import`" if import_allowed()
                     else "with `razz import FILES --db DATABASE`, or start the dashboard with "
                          "`--allow-import` to upload them here")
            raise DatabaseUnavailable(
                f"There is no database at {self.path} yet: import hand histories {where}."
            ) from missing
        except store_db.StoreBusy as busy:
            raise DatabaseUnavailable(
                f"The data is being imported right now ({busy}). It will be back when the "
                "import lets go of the file: try again in a moment."
            ) from busy
        except store_db.StoreError as unreadable:  # another schema version, a damaged file
            raise DatabaseUnavailable(str(unreadable)) from unreadable
        # Days and dates are UTC days whatever the server's zone (the store's macros cast
        # TIMESTAMPTZ to DATE, which follows the connection's zone).
        connection.execute("SET TimeZone = 'UTC'")
        return connection

    def fetch(self, sql: str, params: Sequence[Any]) -> pd.DataFrame:
        """Run one parameterised query and return its rows."""
        with self._lock:
            if self._connection is None:
                self._connection = self._open()
            # A cursor per query: a connection is not thread-safe, sessions run in threads.
            cursor = self._connection.cursor()
            try:
                return cursor.execute(sql, list(params)).df()
            finally:
                cursor.close()

    def release(self) -> None:
        """Close the connection so that a writer can take the file."""
        with self._lock:
            if self._connection is not None:
                self._connection.close()
                self._connection = None

    @contextmanager
    def released(self) -> Iterator[None]:
        """Keep the connection closed, for every session of this server, while the block runs."""
        with self._lock:
            self.release()
            yield


@st.cache_resource(show_spinner=False)
def reader(path: str) -> Reader:
    """The one reader of a database file, shared by every session of the server."""
    return Reader(path)


@st.cache_data(show_spinner=False, max_entries=512)
def _fetch(
    path: str, version: tuple[int, int, int], sql: str, params: tuple[Any, ...]
) -> pd.DataFrame:
    del version  # only part of the cache key
    return reader(path).fetch(sql, params)


def query(sql: str, params: Sequence[Any] = ()) -> pd.DataFrame:
    """Rows of a constant, parameterised query on the dashboard's database (cached)."""
    path = database_path()
    return _fetch(path, database_version(path), sql, tuple(params))


def release() -> None:
    """Let go of the read connection (called after every rerun, and before an import)."""
    reader(database_path()).release()


def forget_cached_results() -> None:
    """Drop every cached result (after an import from the dashboard)."""
    _fetch.clear()


# ------------------------------------------------------------------------------ filters


@dataclass(frozen=True, slots=True)
class HandFilter:
    """Which hands a page looks at; None means "all". Dates are inclusive days in UTC.

    A new filter (a room, a site) is one field here, one line in `conditions` and, for the
    pages that read the store's macros, one argument in `macro_args`.
    """

    unit: str | None = None  # with currency: the ledger, so that amounts can be added up
    currency: str | None = None
    date_from: date | None = None
    date_to: date | None = None
    kind: str | None = None
    stakes: str | None = None
    table: str | None = None

    def _bounds(self) -> tuple[datetime | None, datetime | None]:
        start = end = None
        if self.date_from is not None:
            start = datetime.combine(self.date_from, dtime.min, tzinfo=UTC)
        if self.date_to is not None:
            end = datetime.combine(self.date_to + timedelta(days=1), dtime.min, tzinfo=UTC)
        return start, end

    def macro_args(self) -> tuple[str, list[Any]]:
        """The store macros' filter arguments (`p_from := ?, …`) and their parameters."""
        start, end = self._bounds()
        return (
            "p_from := ?::TIMESTAMPTZ, p_to := ?::TIMESTAMPTZ, p_kind := ?::VARCHAR, "
            "p_stakes := ?::VARCHAR, p_table := ?::VARCHAR",
            [start, end, self.kind, self.stakes, self.table],
        )

    def ledger(self, alias: str = "") -> tuple[str, list[Any]]:
        """The condition keeping one ledger (unit and currency) of rows with those columns."""
        if self.unit is None:
            return "TRUE", []
        prefix = f"{alias}." if alias else ""
        return (f"{prefix}unit = ? AND {prefix}currency IS NOT DISTINCT FROM ?",
                [self.unit, self.currency])

    def conditions(self) -> list[tuple[str, str, list[Any]]]:
        """Each filter that is set, as (its name on the page, a condition on hand columns,
        its parameters), in the order the sidebar shows them.

        >>> [name for name, _, _ in HandFilter(unit="chip", stakes="10/20").conditions()]
        ['Money', 'Stakes']
        """
        found: list[tuple[str, str, list[Any]]] = []
        if self.unit is not None:
            found.append(("Money", *self.ledger()))
        if self.kind is not None:
            found.append(("Cash or tournament", "kind = ?", [self.kind]))
        if self.stakes is not None:
            found.append(("Stakes", "stakes = ?", [self.stakes]))
        if self.table is not None:
            found.append(("Table", "table_name = ?", [self.table]))
        start, end = self._bounds()
        if start is not None or end is not None:
            found.append(("Dates", "(?::TIMESTAMPTZ IS NULL OR started_at >= ?) AND "
                                   "(?::TIMESTAMPTZ IS NULL OR started_at < ?)",
                          [start, start, end, end]))
        return found


def _narrow(sql_from: str, from_params: Sequence[Any],
            conditions: Sequence[tuple[str, str, list[Any]]]) -> Narrowing:
    columns, params = _narrowing(conditions)
    row = query(f"SELECT {columns} FROM {sql_from}", [*params, *from_params]).iloc[0]
    counts = [int(v) for v in row]
    names = [name for name, _, _ in conditions]
    return Narrowing(counts[0], tuple(zip(names, counts[1:], strict=True)))


def _narrowing(conditions: Sequence[tuple[str, str, list[Any]]]) -> tuple[str, list[Any]]:
    """`count(*)` of all rows, then of the rows each further condition keeps, as SQL columns."""
    columns, params = ["count(*)"], []
    kept: list[str] = []
    kept_params: list[Any] = []
    for _, condition, values in conditions:
        kept.append(f"({condition})")
        kept_params += values
        columns.append(f"count(*) FILTER (WHERE {' AND '.join(kept)})")
        params += kept_params
    return ", ".join(columns), params


def player_narrowing(player: str, hands: HandFilter) -> Narrowing:
    """The player's hands, and how many each filter of the sidebar leaves (for "N hidden")."""
    return _narrow("player_hands_for(p_player := ?)", [player], hands.conditions())


# ------------------------------------------------------------------------- the whole store


def overview() -> pd.Series:
    """Counts of the whole store: hands, players, files, findings, rejects."""
    return query(
        """
        SELECT (SELECT count(*) FROM hands) AS hands,
               (SELECT count(DISTINCT player) FROM players) AS players,
               (SELECT count(*) FROM files) AS files,
               (SELECT count(*) FROM violations) AS findings,
               (SELECT count(*) FROM rejects) AS rejects
        """
    ).iloc[0]


def players() -> pd.DataFrame:
    """Every player, the hero first: the player whose hole cards the logs show most often."""
    return query(
        """
        SELECT player, count(*) AS hands, count(*) FILTER (WHERE is_hero) AS hero_hands
        FROM players GROUP BY player
        ORDER BY hero_hands DESC, hands DESC, player
        """
    )


def ledgers(player: str) -> pd.DataFrame:
    """The kinds of money of a player's hands (USD cents, EUR cents, chips…), most used first."""
    return query(
        """
        SELECT unit, currency, count(*) AS hands
        FROM player_hands_for(p_player := ?)
        GROUP BY unit, currency ORDER BY hands DESC, unit, currency
        """,
        (player,),
    )


def filter_choices(player: str, unit: str, currency: str | None) -> pd.DataFrame:
    """Stakes, kinds and tables of a player's hands in one ledger, with first and last hand."""
    return query(
        """
        SELECT stakes, any_value(big_bet) AS big_bet, kind, table_name,
               timezone('UTC', min(started_at)) AS first_hand,
               timezone('UTC', max(started_at)) AS last_hand, count(*) AS hands
        FROM player_hands_for(p_player := ?)
        WHERE unit = ? AND currency IS NOT DISTINCT FROM ?
        GROUP BY stakes, kind, table_name
        ORDER BY big_bet, stakes, kind, table_name
        """,
        (player, unit, currency),
    )


# ------------------------------------------------------------------------------ sessions


def player_hands(player: str, hands: HandFilter) -> pd.DataFrame:
    """The result of each hand the player was dealt into, in time order (for the curve)."""
    args, params = hands.macro_args()
    ledger, ledger_params = hands.ledger()
    return query(
        f"""
        SELECT net, net_bb, went_to_showdown AS showdown, rake_paid
        FROM player_hands_for(p_player := ?, {args})
        WHERE {ledger}
        ORDER BY started_at, hand_key
        """,
        [player, *params, *ledger_params],
    )


def sessions(player: str, gap_minutes: int, hands: HandFilter) -> pd.DataFrame:
    """The player's sessions (hands at a table without a pause over the gap), latest first."""
    args, params = hands.macro_args()
    ledger, ledger_params = hands.ledger()
    return query(
        f"""
        SELECT table_name, stakes, kind, timezone('UTC', started_at) AS started_at,
               timezone('UTC', ended_at) AS ended_at,
               epoch(duration) AS seconds, hands, net, net_bb, bb_per_100, rake_paid, showdowns
        FROM sessions_for(p_player := ?, p_gap_minutes := ?, {args})
        WHERE {ledger}
        ORDER BY started_at DESC, table_name
        """,
        [player, gap_minutes, *params, *ledger_params],
    )


def session_hands(player: str, table: str, start: datetime, end: datetime,
                  hands: HandFilter) -> pd.DataFrame:
    """The hands of one session: the player's hands at a table between two times."""
    args, params = hands.macro_args()
    ledger, ledger_params = hands.ledger()
    return query(
        f"""
        SELECT hand_key, hand_id, timezone('UTC', started_at) AS started_at, table_name,
               stakes, unit, currency, net, net_bb, hand_findings AS findings
        FROM player_hands_for(p_player := ?, {args})
        WHERE {ledger} AND table_name = ? AND timezone('UTC', started_at) BETWEEN ? AND ?
        ORDER BY started_at DESC, hand_key DESC
        LIMIT {LIST_LIMIT}
        """,
        [player, *params, *ledger_params, table, start, end],
    )


# ------------------------------------------------------------------------ player statistics


@dataclass(frozen=True, slots=True)
class Stat:
    """A statistic of the store's `player_stats_for`: hits over chances, and their hands."""

    key: str
    label: str
    hits: str  # column of player_stats_for
    chances: str  # column of player_stats_for, or "hands"
    hit: str  # the same as a condition on a row of player_hands_for
    chance: str
    counted: str  # what `hits` counts, e.g. "hands", "bets and raises"
    out_of: str  # what `chances` counts, e.g. "hands dealt", "calls"
    note: str  # how it is counted, in a sentence
    ratio: bool = False  # hits/chances may exceed one (aggression factor)


def _aggression(street: str) -> Stat:
    completes = " + completes_3rd" if street == "3rd" else ""
    return Stat(
        f"aggression_{street}", f"Aggression {street}", f"aggr_{street}", f"calls_{street}",
        f"bets_{street} + raises_{street}{completes} > 0", f"calls_{street} > 0",
        counted="bets and raises", out_of="calls",
        note=f"Bets{', completions' if street == '3rd' else ''} and raises on {street} "
             "street per call: above 1, the player bets more than calls. Its hands are those "
             "with such an action (hits) or with a call (chances).",
        ratio=True,
    )


_DEALT = "hands dealt"
STATS: tuple[Stat, ...] = (
    Stat("vpip", "VPIP 3rd", "vpip", "hands", "vpip", "TRUE", "hands", _DEALT,
         "Put money in voluntarily on 3rd street: a call, a completion or a raise (posting "
         "the bring-in is forced, not voluntary)."),
    Stat("complete_raise", "Complete/raise 3rd", "complete_raise", "hands",
         "complete_or_raise_3rd", "TRUE", "hands", _DEALT,
         "Completed the bring-in or raised on 3rd street."),
    Stat("bring_in_posted", "Bring-in posted", "bring_in_posted", "bring_in_hands",
         "posted_bring_in", "had_bring_in", "bring-ins posted", "hands with the bring-in",
         "Of the hands where the player had the bring-in, how often they posted it rather "
         "than completing."),
    Stat("bring_in_completed", "Bring-in completed", "bring_in_completed", "bring_in_hands",
         "bring_in_completed", "had_bring_in", "completed", "hands with the bring-in",
         "Of the hands where the player had the bring-in, how often they completed to a "
         "full small bet instead."),
    Stat("bring_in_folded", "Bring-in folded", "bring_in_folded", "bring_in_posted",
         "bring_in_folded", "posted_bring_in", "folded", "bring-ins posted",
         "Of the bring-ins posted, how often the player then folded on 3rd street."),
    Stat("fold_to_completion", "Fold to a completion", "folded_to_completion",
         "faced_completion", "folded_to_completion", "faced_completion", "folded",
         "completions faced",
         "Of the times the player faced a completion on 3rd street, how often they folded."),
    Stat("steal_attempt", "Steal attempt", "steal_attempts", "hands", "steal_attempt", "TRUE",
         "attempts", _DEALT,
         "Completed on 3rd street with only higher door cards left to act."),
    Stat("steal_success", "Steal success", "steal_successes", "steal_attempts",
         "steal_success", "steal_attempt", "won at once", "attempts",
         "Of the steal attempts, how often everyone folded."),
    *(Stat(f"saw_{s}", f"Saw {s}", f"saw_{s}", "hands", f"saw_{s}", "TRUE", "hands", _DEALT,
           f"Was still in the hand when {s} street was dealt.")
      for s in ("4th", "5th", "6th", "7th")),
    Stat("showdown", "Went to showdown", "showdowns", "saw_4th", "went_to_showdown", "saw_4th",
         "showdowns", "hands that saw 4th",
         "Of the hands that saw 4th street, how many the player took to the showdown."),
    Stat("won_showdown", "Won at showdown", "showdowns_won", "showdowns", "won_at_showdown",
         "went_to_showdown", "won", "showdowns",
         "Of the showdowns, how many the player won (all or part of a pot)."),
    *(_aggression(street) for street in ("3rd", "4th", "5th", "6th", "7th")),
)
STATS_BY_KEY = {stat.key: stat for stat in STATS}


def player_stats(hands: HandFilter, min_hands: int, always: str | None) -> pd.DataFrame:
    """Per player (hero first): hands, net, bb/100 and each statistic's hits and chances."""
    args, params = hands.macro_args()
    ledger, ledger_params = hands.ledger()
    columns = ", ".join(
        f"{s.hits}::BIGINT AS {s.key}_hits, {s.chances}::BIGINT AS {s.key}_chances"
        for s in STATS
    )
    return query(
        f"""
        SELECT player, hands, hands_as_hero > 0 AS hero, net, bb_per_100, rake_paid,
               net_showdown, net_no_showdown, {columns}
        FROM player_stats_for({args})
        WHERE {ledger} AND (hands >= ? OR player = ?)
        ORDER BY hands_as_hero DESC, hands DESC, player
        """,
        [*params, *ledger_params, min_hands, always],
    )


def stat_hands(player: str, stat_key: str, hits: bool, hands: HandFilter) -> pd.DataFrame:
    """The hands behind a statistic: where it hit (`hits`) or where it had a chance."""
    stat = STATS_BY_KEY[stat_key]  # a KeyError, never SQL, for an unknown key
    args, params = hands.macro_args()
    ledger, ledger_params = hands.ledger()
    return query(
        f"""
        SELECT hand_key, hand_id, timezone('UTC', started_at) AS started_at, table_name,
               stakes, unit, currency, net, net_bb, hand_findings AS findings
        FROM player_hands_for(p_player := ?, {args})
        WHERE {ledger} AND ({stat.hit if hits else stat.chance})
        ORDER BY started_at DESC, hand_key DESC
        LIMIT {LIST_LIMIT}
        """,
        [player, *params, *ledger_params],
    )


# ------------------------------------------------------------------------- starting hands

# Ranks in Razz order, ace lowest: the position in this string is the rank's value (A = 1).
_RANKS = "A23456789TJQK"
_HOLE_AND_DOOR = f"""
    WITH dealt AS (
        SELECT hand_key, hand_id, timezone('UTC', started_at) AS started_at, table_name,
               stakes, unit, currency, vpip,
               collected, net, net_bb, hand_findings AS findings,
               list_transform(list_filter(starting_cards, lambda c: c <> door_card),
                              lambda c: instr('{_RANKS}', c[1])) AS hole,
               instr('{_RANKS}', door_card[1]) AS door
        FROM player_hands_for(p_player := ?, {{args}})
        WHERE {{ledger}} AND len(starting_cards) = 3 AND door_card IS NOT NULL
    ), ranked AS (
        SELECT *, least(hole[1], hole[2]) AS low, greatest(hole[1], hole[2]) AS high
        FROM dealt WHERE len(hole) = 2
    )
"""


def starting_hands(player: str, hands: HandFilter) -> pd.DataFrame:
    """The player's known 3rd-street cards by rank (low hole, high hole, door) with results."""
    args, params = hands.macro_args()
    ledger, ledger_params = hands.ledger()
    return query(
        _HOLE_AND_DOOR.format(args=args, ledger=ledger)
        + """
        SELECT low, high, door, count(*) AS hands, count(*) FILTER (WHERE vpip) AS vpip,
               count(*) FILTER (WHERE collected > 0) AS won, sum(net)::BIGINT AS net,
               sum(net_bb) AS net_bb
        FROM ranked GROUP BY low, high, door ORDER BY low, high, door
        """,
        [player, *params, *ledger_params],
    )


def starting_hand_hands(
    player: str, combos: Sequence[tuple[int, int, int]], hands: HandFilter
) -> pd.DataFrame:
    """The hands where the player started with one of the given (low, high, door) ranks."""
    args, params = hands.macro_args()
    ledger, ledger_params = hands.ledger()
    keys = [f"{low}-{high}-{door}" for low, high, door in combos]
    return query(
        _HOLE_AND_DOOR.format(args=args, ledger=ledger)
        + f"""
        SELECT hand_key, hand_id, started_at, table_name, stakes, unit, currency, net, net_bb,
               findings
        FROM ranked
        WHERE list_contains(?::VARCHAR[], concat_ws('-', low, high, door))
        ORDER BY started_at DESC, hand_key DESC
        LIMIT {LIST_LIMIT}
        """,
        [player, *params, *ledger_params, keys],
    )


# --------------------------------------------------------------------------- one hand

_HAND_LIST = """
    SELECT hand_key, hand_id, timezone('UTC', started_at) AS started_at, table_name, stakes,
           unit, currency, players, hero, total_pot, findings
    FROM hands
"""


def find_hands(text: str, limit: int = 50) -> pd.DataFrame:
    """Hands whose id starts with the digits typed, or whose key is exactly the text."""
    return query(
        _HAND_LIST + "WHERE hand_key = ? OR starts_with(hand_id, ?) "
        "ORDER BY started_at DESC, hand_key DESC LIMIT ?",
        (text, text, limit),
    )


def latest_hands(limit: int = 200) -> pd.DataFrame:
    """The most recent hands, to pick one when none is asked for."""
    return query(_HAND_LIST + "ORDER BY started_at DESC, hand_key DESC LIMIT ?", (limit,))


def hand(hand_key: str) -> pd.DataFrame:
    """The hand's header row (empty when there is no such hand)."""
    return query(
        """
        SELECT hand_key, site, hand_id, game, mixed, kind, small_bet, big_bet, ante, bring_in,
               stakes, unit, currency, table_name, max_seats, tournament_id, level,
               timezone('UTC', started_at) AS started_at,
               started_text, players, hero, total_pot, rake, community_card, showdown, findings,
               errors, source, first_line, raw_text
        FROM hands WHERE hand_key = ?
        """,
        (hand_key,),
    )


def hand_players(hand_key: str) -> pd.DataFrame:
    """The seats of a hand with stacks, results and best low."""
    return query(
        """
        SELECT seat, player, is_hero, starting_stack, final_stack, invested, collected, net,
               went_to_showdown, won_at_showdown, final_low, folded_street
        FROM players WHERE hand_key = ? ORDER BY seat
        """,
        (hand_key,),
    )


def hand_actions(hand_key: str) -> pd.DataFrame:
    """The actions of a hand in order, with pot and stack after each."""
    return query(
        """
        SELECT seq, street, player, kind, amount, to_amount, all_in, pot_after, stack_after, line
        FROM actions WHERE hand_key = ? ORDER BY seq
        """,
        (hand_key,),
    )


def hand_cards(hand_key: str) -> pd.DataFrame:
    """Every card of a hand that the log reveals, with who held it and whether it was face up."""
    return query(
        """
        SELECT player, street, position, card, visibility, shown
        FROM cards WHERE hand_key = ? ORDER BY player NULLS FIRST, position
        """,
        (hand_key,),
    )


def hand_pots(hand_key: str) -> pd.DataFrame:
    """Main and side pots of a hand with their winners."""
    return query(
        "SELECT pot_index, amount, eligible, winners, shares FROM pots WHERE hand_key = ? "
        "ORDER BY pot_index",
        (hand_key,),
    )


def hand_findings(hand_key: str) -> pd.DataFrame:
    """The audit findings of a hand, in line order."""
    return query(
        """
        SELECT rule, severity, line, expected, actual, message
        FROM violations WHERE hand_key = ? ORDER BY line, rule
        """,
        (hand_key,),
    )


# ------------------------------------------------------------------------------- audit


@dataclass(frozen=True, slots=True)
class AuditFilter:
    """Which findings the audit page looks at; None means "all"."""

    hands: HandFilter = HandFilter()
    rule: str | None = None
    severity: str | None = None
    source: str | None = None

    def hand_conditions(self) -> list[tuple[str, str, list[Any]]]:
        """The conditions on hands (columns of `hands`), in the sidebar's order."""
        found: list[tuple[str, str, list[Any]]] = []
        if self.source is not None:
            found.append(("File", "source = ?", [self.source]))
        return found + self.hands.conditions()

    def finding_conditions(self) -> list[tuple[str, str, list[Any]]]:
        """The conditions on findings joined to their hands: the hands' and rule, severity."""
        found = self.hand_conditions()
        if self.rule is not None:
            found.append(("Rule", "rule = ?", [self.rule]))
        if self.severity is not None:
            found.append(("Severity", "severity = ?", [self.severity]))
        return found

    def rule_conditions(self) -> list[tuple[str, str, list[Any]]]:
        """Only the conditions on the findings themselves (rule and severity)."""
        return self.finding_conditions()[len(self.hand_conditions()):]


def _where(conditions: Sequence[tuple[str, str, list[Any]]]) -> tuple[str, list[Any]]:
    """The conditions joined with AND (TRUE when there is none), and their parameters."""
    if not conditions:
        return "TRUE", []
    return (" AND ".join(f"({c})" for _, c, _ in conditions),
            [p for _, _, values in conditions for p in values])


def audit_choices() -> pd.DataFrame:
    """Values the audit filters offer: (kind, value) rows for rules, severities, files, tables."""
    return query(
        """
        SELECT 'rule' AS kind, rule AS value FROM violations GROUP BY rule
        UNION ALL SELECT 'severity', severity FROM violations GROUP BY severity
        UNION ALL SELECT 'source', source FROM hands GROUP BY source
        UNION ALL SELECT 'table', table_name FROM hands GROUP BY table_name
        UNION ALL SELECT 'kind', kind FROM hands GROUP BY kind
        UNION ALL SELECT 'stakes', stakes FROM hands GROUP BY stakes
        ORDER BY kind, value
        """
    )


def hand_span(conditions: Sequence[tuple[str, str, list[Any]]]) -> tuple[date, date] | None:
    """The first and last day (UTC) of the hands that the conditions keep; None: no hand."""
    where, params = _where(conditions)
    row = query(
        f"SELECT min(started_at)::DATE AS first, max(started_at)::DATE AS last FROM hands "
        f"WHERE {where}",
        params,
    ).iloc[0]
    if pd.isna(row["first"]):
        return None
    return pd.Timestamp(row["first"]).date(), pd.Timestamp(row["last"]).date()


def audit_narrowing(audit: AuditFilter) -> tuple[Narrowing, Narrowing]:
    """Hands, and findings, of the whole store and how many each filter leaves."""
    return (_narrow("hands", [], audit.hand_conditions()),
            _narrow("violations JOIN hands USING (hand_key)", [], audit.finding_conditions()))


def audit_summary(audit: AuditFilter) -> pd.Series:
    """Hands in scope, hands with a matching finding, findings, errors, warnings, rejects."""
    hand_where, hand_params = _where(audit.hand_conditions())
    rule_where, rule_params = _where(audit.rule_conditions())
    reject_where, reject_params = _where(audit.hand_conditions()[:1] if audit.source else [])
    return query(
        f"""
        WITH scope AS (SELECT hand_key FROM hands WHERE {hand_where}),
             found AS (SELECT hand_key, severity FROM violations JOIN scope USING (hand_key)
                       WHERE {rule_where})
        SELECT (SELECT count(*) FROM scope) AS hands,
               (SELECT count(DISTINCT hand_key) FROM found) AS flagged,
               (SELECT count(*) FROM found) AS findings,
               (SELECT count(*) FROM found WHERE severity = 'error') AS errors,
               (SELECT count(*) FROM found WHERE severity = 'warning') AS warnings,
               (SELECT count(*) FROM rejects WHERE {reject_where}) AS rejects
        """,
        [*hand_params, *rule_params, *reject_params],
    ).iloc[0]


def findings_by_rule(audit: AuditFilter) -> pd.DataFrame:
    """Matching findings per rule and severity: findings and hands."""
    where, params = _where(audit.finding_conditions())
    return query(
        f"""
        SELECT rule, severity, count(*) AS findings, count(DISTINCT hand_key) AS hands
        FROM violations JOIN hands USING (hand_key)
        WHERE {where}
        GROUP BY rule, severity ORDER BY findings DESC, rule, severity
        """,
        params,
    )


# The column a compliance table groups hands by; the date is the UTC day (see `Reader`).
_COMPLIANCE_GROUPS = {
    "file": ("source", "findings DESC, key"),
    "table": ("table_name", "findings DESC, key"),
    "date": ("strftime(started_at::DATE, '%Y-%m-%d')", "key"),
}


def compliance_by(group: str, audit: AuditFilter) -> pd.DataFrame:
    """Hands by file, table or day under every filter: how many, how many without a matching
    finding, the matching findings, errors and warnings (all integers)."""
    if group not in _COMPLIANCE_GROUPS:
        raise ValueError(f"no grouping {group!r}")
    column, order = _COMPLIANCE_GROUPS[group]
    hand_where, hand_params = _where(audit.hand_conditions())
    rule_where, rule_params = _where(audit.rule_conditions())
    return query(
        f"""
        WITH scope AS (SELECT hand_key, {column} AS key FROM hands WHERE {hand_where}),
             found AS (
                SELECT hand_key, count(*) AS findings,
                       count(*) FILTER (WHERE severity = 'error') AS errors
                FROM violations JOIN scope USING (hand_key)
                WHERE {rule_where}
                GROUP BY hand_key)
        SELECT key, count(*)::BIGINT AS hands,
               count(*) FILTER (WHERE found.hand_key IS NULL)::BIGINT AS compliant_hands,
               count(*) FILTER (WHERE errors > 0)::BIGINT AS hands_with_errors,
               coalesce(sum(findings), 0)::BIGINT AS findings,
               coalesce(sum(errors), 0)::BIGINT AS errors,
               coalesce(sum(findings - errors), 0)::BIGINT AS warnings
        FROM scope LEFT JOIN found USING (hand_key)
        GROUP BY key ORDER BY {order}
        """,
        [*hand_params, *rule_params],
    )


def findings_list(audit: AuditFilter, limit: int | None = LIST_LIMIT,
                  offset: int = 0) -> pd.DataFrame:
    """The matching findings in file and line order, as `razz audit` prints them; all of them
    when `limit` is None."""
    where, params = _where(audit.finding_conditions())
    page = "" if limit is None else "LIMIT ? OFFSET ?"
    return query(
        f"""
        SELECT hand_key, hand_id, timezone('UTC', started_at) AS started_at, table_name,
               source, line, rule, severity, expected, actual, message
        FROM violations JOIN hands USING (hand_key)
        WHERE {where}
        ORDER BY source, line, rule, hand_key
        {page}
        """,
        params if limit is None else [*params, limit, offset],
    )


def source_paths() -> list[str]:
    """Every file recorded in the store (for short names: what they have in common)."""
    return query("SELECT path FROM files ORDER BY path")["path"].tolist()


def rejects_list(source: str | None = None, limit: int = LIST_LIMIT) -> pd.DataFrame:
    """Hands that could not be read (of one file, or all), with the file, line and error."""
    return query(
        """
        SELECT source, hand_id, first_line, line, col, error, line_text
        FROM rejects WHERE ?::VARCHAR IS NULL OR source = ?
        ORDER BY source, first_line LIMIT ?
        """,
        (source, source, limit),
    )


# ------------------------------------------------------------------------------ import


def imported_files(prefix: str) -> pd.DataFrame:
    """The files recorded under a folder (an upload), with what became of their hands."""
    return query(
        """
        SELECT file_id, path, size, timezone('UTC', imported_at) AS imported_at, hands,
               duplicates, skipped, rejected, findings
        FROM files WHERE starts_with(path, ?) ORDER BY path, file_id
        """,
        (prefix,),
    )


def imported_rejects(prefix: str) -> pd.DataFrame:
    """The hands of files under a folder that could not be read."""
    return query(
        """
        SELECT r.source, r.hand_id, r.line, r.col, r.error
        FROM rejects r JOIN files f ON f.file_id = r.file_id
        WHERE starts_with(f.path, ?) ORDER BY r.source, r.first_line
        """,
        (prefix,),
    )


def imported_skipped(prefix: str) -> pd.DataFrame:
    """The hands of other games found in files under a folder."""
    return query(
        """
        SELECT s.source, s.hand_id, s.first_line, s.game, s.reason
        FROM skipped s JOIN files f ON f.file_id = s.file_id
        WHERE starts_with(f.path, ?) ORDER BY s.source, s.first_line
        """,
        (prefix,),
    )
