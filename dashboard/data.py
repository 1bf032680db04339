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
from razz.store.summaries import STATS, STATS_BY_KEY, Stat

__all__ = ["STATS", "STATS_BY_KEY", "Stat"]  # the statistics' definitions, for the pages

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

    Every query of the dashboard filters hands through `conditions` (SQL) or `masks` (the
    same tests on a frame of counts); a new filter (a room…) is a field and a line in each.
    """

    room: str | None = None  # hands.room: 'PokerStars', 'Winamax' …
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

    def conditions(self) -> list[tuple[str, str, list[Any]]]:
        """Each filter that is set, as (its name on the page, a condition on hand columns,
        its parameters), in the order the sidebar shows them.

        >>> [name for name, _, _ in HandFilter(unit="chip", stakes="10/20").conditions()]
        ['Money', 'Stakes']
        """
        found: list[tuple[str, str, list[Any]]] = []
        if self.room is not None:
            found.append(("Room", "room = ?", [self.room]))
        if self.unit is not None:
            found.append(("Money", "unit = ? AND currency IS NOT DISTINCT FROM ?",
                          [self.unit, self.currency]))
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

    def day_conditions(self) -> list[tuple[str, str, list[Any]]]:
        """The conditions on rows of daily sums (`person_days`, `audit_sums`: a `day` column,
        no time), as `conditions` has them."""
        found = [c for c in self.conditions() if c[0] != "Dates"]
        if self.date_from is not None or self.date_to is not None:
            found.append(("Dates", "(?::DATE IS NULL OR day >= ?) AND (?::DATE IS NULL OR "
                                   "day <= ?)", [self.date_from, self.date_from, self.date_to,
                                                 self.date_to]))
        return found

    def day_where(self) -> tuple[str, list[Any]]:
        """All the conditions on rows of daily sums joined with AND, and their parameters."""
        return _where(self.day_conditions())

    def masks(self, frame: pd.DataFrame) -> list[tuple[str, pd.Series]]:
        """The same filters as `conditions`, on a frame with the columns room, unit, currency,
        kind, stakes, table_name and day (a UTC date): (name, rows it keeps)."""
        found = []
        if self.room is not None:
            found.append(("Room", frame["room"] == self.room))
        if self.unit is not None:
            found.append(("Money", (frame["unit"] == self.unit)
                          & (frame["currency"].isna() if self.currency is None
                             else frame["currency"] == self.currency)))
        if self.kind is not None:
            found.append(("Cash or tournament", frame["kind"] == self.kind))
        if self.stakes is not None:
            found.append(("Stakes", frame["stakes"] == self.stakes))
        if self.table is not None:
            found.append(("Table", frame["table_name"] == self.table))
        if self.date_from is not None or self.date_to is not None:
            days = pd.to_datetime(frame["day"]).dt.date
            keep = pd.Series(True, index=frame.index)
            if self.date_from is not None:
                keep &= days >= self.date_from
            if self.date_to is not None:
                keep &= days <= self.date_to
            found.append(("Dates", keep))
        return found

    def where(self) -> tuple[str, list[Any]]:
        """All the conditions joined with AND, and their parameters."""
        return _where(self.conditions())


def _where(conditions: Sequence[tuple[str, str, list[Any]]]) -> tuple[str, list[Any]]:
    """The conditions joined with AND (TRUE when there is none), and their parameters."""
    if not conditions:
        return "TRUE", []
    return (" AND ".join(f"({c})" for _, c, _ in conditions),
            [p for _, _, values in conditions for p in values])


def _narrow(sql_from: str, from_params: Sequence[Any],
            conditions: Sequence[tuple[str, str, list[Any]]]) -> Narrowing:
    """Rows of a table, then how many each condition in turn leaves, in one scan."""
    columns, params = ["count(*)"], []
    kept: list[str] = []
    kept_params: list[Any] = []
    for _, condition, values in conditions:
        kept.append(f"({condition})")
        kept_params += values
        columns.append(f"count(*) FILTER (WHERE {' AND '.join(kept)})")
        params += kept_params
    row = query(f"SELECT {', '.join(columns)} FROM {sql_from}",
                [*params, *from_params]).iloc[0]
    counts = [int(v) for v in row]
    names = [name for name, _, _ in conditions]
    return Narrowing(counts[0], tuple(zip(names, counts[1:], strict=True)))


# ------------------------------------------------------------------------- the whole store


def hand_count() -> int:
    """How many hands the store holds."""
    return int(query("SELECT count(*) AS hands FROM hands").iloc[0]["hands"])


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
    """Every person (a player name, or the person `aliases` makes of several), the hero
    first: the one whose hole cards the logs show most often."""
    return query("SELECT * FROM people() ORDER BY hero_hands DESC, hands DESC, player")


def player_scope(player: str) -> pd.DataFrame:
    """The player's hands counted by ledger, cash or tournament, stakes, table and UTC day.

    One pass over the player's hands gives the sidebar everything: its choices, the span of
    days of any selection, and how many hands each filter hides (`HandFilter.masks`).
    """
    return query(
        """
        SELECT room, unit, currency, kind, stakes, any_value(big_bet) AS big_bet, table_name,
               day, sum(hands)::BIGINT AS hands
        FROM person_days(p_player := ?)
        GROUP BY room, unit, currency, kind, stakes, table_name, day
        """,
        (player,),
    )


def scope_narrowing(scope: pd.DataFrame, hands: HandFilter) -> Narrowing:
    """The player's hands, and how many each filter in turn leaves (for "N hidden")."""
    kept = pd.Series(True, index=scope.index)
    steps = []
    for name, mask in hands.masks(scope):
        kept &= mask
        steps.append((name, int(scope.loc[kept, "hands"].sum())))
    return Narrowing(int(scope["hands"].sum()), tuple(steps))


# ------------------------------------------------------------------------------ sessions


def player_hand_numbers(player: str, hands: HandFilter) -> pd.DataFrame:
    """The player's hands in time order as numbers only (a million rows stay quick): when
    (epoch ms), which table and stakes (hashes, named by `table_names`), net, net in big bets,
    showdown, rake paid. The curve, the totals and the sessions are all computed from it."""
    where, params = hands.where()
    ev = ("ev_net, ev_net_bb" if has_allin_ev()
          else "net::DOUBLE AS ev_net, net_bb AS ev_net_bb")
    return query(
        f"""
        SELECT epoch_ms(started_at) AS t, hash(site, table_name) AS table_id,
               hash(kind, stakes) AS stakes_id, net, net_bb, went_to_showdown AS showdown,
               rake_paid, {ev}
        FROM player_hands_for(p_player := ?)
        WHERE {where}
        ORDER BY started_at, hash(hand_key)
        """,
        [player, *params],
    )


def has_allin_ev() -> bool:
    """Whether the store has all-in EV (stores imported before it have no `allin_ev` table,
    and their macros no `ev_net`: their EV is then their net)."""
    found = query("SELECT count(*) AS n FROM duckdb_tables() WHERE table_name = 'allin_ev'")
    return bool(found["n"].iloc[0])


def player_runs(player: str, hands: HandFilter) -> pd.DataFrame:
    """The runs of the player's hands at a table (`person_runs`: hands less than five minutes
    apart, a row per day and per import batch), as numbers: first and last start (epoch ms),
    which table and stakes (hashes, named by `table_names`) and their sums. Tens of thousands
    of rows where a million hands would be read: the sessions, the totals and a long curve
    are computed from them."""
    where, params = hands.day_where()
    return query(
        f"""
        SELECT epoch_ms(first_at) AS first, epoch_ms(last_at) AS last,
               hash(site, table_name) AS table_id, hash(kind, stakes) AS stakes_id, hands,
               showdowns, net, net_bb, net_showdown, net_showdown_bb, rake_paid, ev_net,
               ev_net_bb
        FROM person_runs(p_player := ?)
        WHERE {where}
        ORDER BY first_at, last_at, table_id
        """,
        [player, *params],
    )


EXACT_CURVE_HANDS = 20_000  # up to this many hands, the curve has a point per hand


@dataclass(frozen=True, slots=True)
class PlayerResults:
    """What the Sessions page shows of a player's hands: totals, the curve, the sessions."""

    hands: int
    net: int
    net_bb: float
    net_showdown: int
    net_no_showdown: int
    rake_paid: float
    ev_net: float  # all-in EV: the all-in-adjusted net (the net where nothing was adjusted)
    ev_net_bb: float
    curve: pd.DataFrame  # shape.cumulative, or shape.run_curve past EXACT_CURVE_HANDS
    sessions: pd.DataFrame  # shape.sessions_of
    curve_points: str = "hand"  # what a point of the curve is: "hand", or "run" (of hands)


def player_results(player: str, hands: HandFilter, gap_minutes: int) -> PlayerResults:
    """The Sessions page's figures, computed once per store version, player, filter and gap."""
    path = database_path()
    return _player_results(path, database_version(path), player, hands, gap_minutes)


@st.cache_data(show_spinner=False, max_entries=32)
def _player_results(path: str, version: tuple[int, int, int], player: str, hands: HandFilter,
                    gap_minutes: int) -> PlayerResults:
    from razz.dashboard import shape

    del path, version  # the cache key
    runs = player_runs(player, hands)
    count = int(runs["hands"].sum())
    if count <= EXACT_CURVE_HANDS:  # few hands: a point per hand, read at once
        curve, points = shape.cumulative(player_hand_numbers(player, hands)), "hand"
    else:  # a point per run: what a chart a thousand pixels wide can show of a million
        curve, points = shape.run_curve(runs), "run"
    net_showdown = int(runs["net_showdown"].sum())
    return PlayerResults(
        hands=count, net=int(runs["net"].sum()), net_bb=float(runs["net_bb"].sum()),
        net_showdown=net_showdown, net_no_showdown=int(runs["net"].sum()) - net_showdown,
        rake_paid=float(runs["rake_paid"].sum()),
        ev_net=float(runs["ev_net"].sum()), ev_net_bb=float(runs["ev_net_bb"].sum()),
        curve=curve, sessions=shape.sessions_of(runs, gap_minutes), curve_points=points,
    )


def table_names() -> pd.DataFrame:
    """The ids of `player_hand_numbers` with what they stand for: (id, kind of id, text)."""
    return query(
        """
        SELECT DISTINCT hash(site, table_name) AS id, 'table' AS what, table_name AS text,
               NULL AS kind
        FROM hands
        UNION ALL
        SELECT DISTINCT hash(kind, stakes), 'stakes', stakes, kind FROM hands
        """
    )


def session_hands(player: str, table: str, start: datetime, end: datetime,
                  hands: HandFilter) -> pd.DataFrame:
    """The hands of one session: the player's hands at a table between two times."""
    where, params = hands.where()
    return query(
        f"""
        SELECT hand_key, hand_id, timezone('UTC', started_at) AS started_at, room, table_name,
               stakes, unit, currency, net, net_bb, hand_findings AS findings
        FROM player_hands_for(p_player := ?)
        WHERE {where} AND table_name = ? AND timezone('UTC', started_at) BETWEEN ? AND ?
        ORDER BY started_at DESC, hand_key DESC
        LIMIT {LIST_LIMIT}
        """,
        [player, *params, table, start, end],
    )


# ------------------------------------------------------------------------ player statistics




def player_stats(hands: HandFilter, min_hands: int, always: str | None) -> pd.DataFrame:
    """Per player (hero first): hands, net, bb/100 and each statistic's hits and chances.

    The same counts as the store's `player_stats_for` (a test holds them equal), added up
    from the daily sums the importer keeps (`person_days`): a scan of thousands of rows where
    the player rows of a million hands would be joined to their hands.
    """
    where, params = hands.day_where()
    columns = ", ".join(
        f"sum({s.key}_hits)::BIGINT AS {s.key}_hits, "
        f"sum({s.key}_chances)::BIGINT AS {s.key}_chances" for s in STATS
    )
    return query(
        f"""
        SELECT player, sum(hands)::BIGINT AS hands, sum(hero_hands) > 0 AS hero,
               sum(net)::BIGINT AS net, 100 * sum(net_bb) / sum(hands) AS bb_per_100,
               round(sum(rake_paid))::BIGINT AS rake_paid, {columns}
        FROM person_days()
        WHERE {where}
        GROUP BY player
        HAVING sum(hands) >= ? OR player = ?
        ORDER BY sum(hero_hands) DESC, hands DESC, player
        """,
        [*params, min_hands, always],
    )


def stat_hands(player: str, stat_key: str, hits: bool, hands: HandFilter) -> pd.DataFrame:
    """The hands behind a statistic: where it hit (`hits`) or where it had a chance."""
    stat = STATS_BY_KEY[stat_key]  # a KeyError, never SQL, for an unknown key
    where, params = hands.where()
    return query(
        f"""
        SELECT hand_key, hand_id, timezone('UTC', started_at) AS started_at, room, table_name,
               stakes, unit, currency, net, net_bb, hand_findings AS findings
        FROM player_hands_for(p_player := ?)
        WHERE {where} AND ({stat.hit if hits else stat.chance})
        ORDER BY started_at DESC, hand_key DESC
        LIMIT {LIST_LIMIT}
        """,
        [player, *params],
    )


# ------------------------------------------------------------------------- starting hands

# Ranks in Razz order, ace lowest: the position in this string is the rank's value (A = 1).
# The store keeps a player's first three cards as down, down, door (`starting_cards`).
_RANKS = "A23456789TJQK"
_HOLE_AND_DOOR = f"""
    WITH ranked AS (
        SELECT hand_key, hand_id, timezone('UTC', started_at) AS started_at, room, table_name,
               stakes, unit, currency, vpip, collected, net, net_bb,
               hand_findings AS findings,
               least(instr('{_RANKS}', starting_cards[1][1]),
                     instr('{_RANKS}', starting_cards[2][1])) AS low,
               greatest(instr('{_RANKS}', starting_cards[1][1]),
                        instr('{_RANKS}', starting_cards[2][1])) AS high,
               instr('{_RANKS}', door_card[1]) AS door
        FROM player_hands_for(p_player := ?)
        WHERE {{where}} AND len(starting_cards) = 3 AND door_card IS NOT NULL
          AND starting_cards[3] = door_card
    )
"""


def starting_hands(player: str, hands: HandFilter) -> pd.DataFrame:
    """The player's known 3rd-street cards by rank (low hole, high hole, door) with results,
    added up from the sums the importer keeps (`person_starts`, by day: a scan of their rows
    where the player rows of a million hands would be joined to their hands)."""
    where, params = hands.day_where()
    return query(
        f"""
        SELECT low, high, door, sum(hands)::BIGINT AS hands, sum(vpip)::BIGINT AS vpip,
               sum(won)::BIGINT AS won, sum(net)::BIGINT AS net, sum(net_bb) AS net_bb
        FROM person_starts(p_player := ?)
        WHERE {where}
        GROUP BY low, high, door HAVING sum(hands) <> 0 ORDER BY low, high, door
        """,
        [player, *params],
    )


def starting_hand_hands(
    player: str, combos: Sequence[tuple[int, int, int]], hands: HandFilter
) -> pd.DataFrame:
    """The hands where the player started with one of the given (low, high, door) ranks."""
    where, params = hands.where()
    keys = [f"{low}-{high}-{door}" for low, high, door in combos]
    return query(
        _HOLE_AND_DOOR.format(where=where)
        + f"""
        SELECT hand_key, hand_id, started_at, room, table_name, stakes, unit, currency, net,
               net_bb, findings
        FROM ranked
        WHERE list_contains(?::VARCHAR[], concat_ws('-', low, high, door))
        ORDER BY started_at DESC, hand_key DESC
        LIMIT {LIST_LIMIT}
        """,
        [player, *params, keys],
    )


# --------------------------------------------------------------------------- one hand

_HAND_LIST = """
    SELECT hand_key, hand_id, timezone('UTC', started_at) AS started_at, room, table_name,
           stakes, unit, currency, players, hero, total_pot, findings
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
        SELECT hand_key, site, room, hand_id, game, mixed, kind, small_bet, big_bet, ante, bring_in,
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


def no_actions() -> pd.DataFrame:
    """No action rows: the replayer then adds up the amounts the log writes."""
    return pd.DataFrame(columns=["seq", "street", "player", "kind", "amount", "to_amount",
                                 "all_in", "pot_after", "stack_after", "line"])


def hand_findings_none() -> pd.DataFrame:
    """The findings of a hand that has none."""
    return pd.DataFrame({"rule": pd.Series(dtype=str), "severity": pd.Series(dtype=str),
                         "line": pd.Series(dtype="int64"), "expected": pd.Series(dtype=str),
                         "actual": pd.Series(dtype=str), "message": pd.Series(dtype=str)})


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

    def sum_conditions(self) -> list[tuple[str, str, list[Any]]]:
        """The conditions on hands as conditions on rows of `audit_sums` (a day, no time)."""
        found: list[tuple[str, str, list[Any]]] = []
        if self.source is not None:  # the hands' source is the path of their file_id
            found.append(("File", "file_id = (SELECT file_id FROM files WHERE path = ?)",
                          [self.source]))
        return found + self.hands.day_conditions()

    def level(self) -> tuple[str, list[Any]]:
        """The rows of `audit_sums` that count the findings of this rule and severity (NULL
        in a row: any), and their parameters."""
        return ("rule IS NOT DISTINCT FROM ? AND severity IS NOT DISTINCT FROM ?",
                [self.rule, self.severity])


FILE_CHOICES = 1000  # files the Audit page's File filter offers, the most findings first


def audit_choices() -> pd.DataFrame:
    """Values the audit filters offer: (kind, value) rows for rules, severities, files, tables."""
    return query(
        f"""
        SELECT 'rule' AS kind, rule AS value FROM audit_sums
        WHERE rule IS NOT NULL AND severity IS NULL GROUP BY rule HAVING sum(flagged) > 0
        UNION ALL SELECT 'severity', severity FROM audit_sums
        WHERE rule IS NULL AND severity IS NOT NULL GROUP BY severity HAVING sum(flagged) > 0
        -- The files with the most findings first, FILE_CHOICES at most: a list of tens of
        -- thousands takes a second to draw at every rerun, and nobody scrolls it.
        UNION ALL (SELECT 'source', path FROM files WHERE hands > 0
                   ORDER BY findings DESC, path LIMIT {FILE_CHOICES})
        UNION ALL SELECT 'files', count(*)::VARCHAR FROM files WHERE hands > 0
        -- The hands' four columns from their sums (a row per file, table and day), not
        -- from the hands: thousands of rows, not a million.
        UNION ALL SELECT CASE WHEN grouping(table_name) = 0 THEN 'table'
                              WHEN grouping(room) = 0 THEN 'room'
                              WHEN grouping(kind) = 0 THEN 'kind' ELSE 'stakes' END,
                         coalesce(table_name, room, kind, stakes)
                  FROM audit_sums WHERE rule IS NULL AND severity IS NULL
                  GROUP BY GROUPING SETS ((table_name), (room), (kind), (stakes))
                  HAVING sum(hands) > 0
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


def audit_span(audit: AuditFilter) -> tuple[date, date] | None:
    """The first and last day (UTC) of the hands the audit's filters of hands keep (dates
    apart); None: no hand."""
    where, params = _where(audit.sum_conditions())
    row = query(
        f"""
        SELECT min(day) AS first, max(day) AS last FROM (
            SELECT day FROM audit_sums WHERE rule IS NULL AND severity IS NULL AND {where}
            GROUP BY ALL HAVING sum(hands) > 0)
        """,
        params,
    ).iloc[0]
    if pd.isna(row["first"]):
        return None
    return pd.Timestamp(row["first"]).date(), pd.Timestamp(row["last"]).date()


# Rows of `audit_sums` of every hand (not of one rule's or severity's findings).
_EVERY_HAND = "rule IS NULL AND severity IS NULL"


def audit_narrowing(audit: AuditFilter) -> tuple[Narrowing, Narrowing]:
    """Hands, and findings (consequences too, as the list shows them), of the whole store and
    how many each filter leaves, in one scan of the audit's sums."""
    hand_conditions = audit.sum_conditions()
    names = [name for name, _, _ in audit.finding_conditions()]
    columns, params = [], []
    # Hands: the rows of every hand; findings: the rows of the rule and severity filtered by
    # so far (the filters of findings come after those of hands).
    for count in range(len(hand_conditions) + 1):
        where, values = _where([*hand_conditions[:count], ("", _EVERY_HAND, [])])
        columns.append(f"coalesce(sum(hands) FILTER (WHERE {where}), 0)")
        params += values
    rule_filters = [("rule", audit.rule), ("severity", audit.severity)]
    rule_filters = [f for f in rule_filters if f[1] is not None]
    for count in range(len(hand_conditions) + len(rule_filters) + 1):
        chosen = dict(rule_filters[:max(0, count - len(hand_conditions))])
        where, values = _where([
            *hand_conditions[:count],
            ("", "rule IS NOT DISTINCT FROM ? AND severity IS NOT DISTINCT FROM ?",
             [chosen.get("rule"), chosen.get("severity")])])
        columns.append(f"coalesce(sum(findings + consequences) FILTER (WHERE {where}), 0)")
        params += values
    row = [int(v) for v in query(f"SELECT {', '.join(columns)} FROM audit_sums",
                                 params).iloc[0]]
    hands, findings = row[:len(hand_conditions) + 1], row[len(hand_conditions) + 1:]
    return (Narrowing(hands[0], tuple(zip(names, hands[1:], strict=False))),
            Narrowing(findings[0], tuple(zip(names, findings[1:], strict=True))))


def audit_summary(audit: AuditFilter) -> pd.Series:
    """Hands in scope, hands with a matching finding, findings, errors, warnings, rejects;
    findings, errors and warnings are violations, `consequences` the findings that only follow
    from one (`listed`: both, as the findings list shows them). From the audit's sums."""
    hand_where, hand_params = _where(audit.sum_conditions())
    level, level_params = audit.level()
    reject_where, reject_params = _where(audit.hand_conditions()[:1] if audit.source else [])
    return query(
        f"""
        WITH counted AS (
            SELECT coalesce(sum(hands) FILTER (WHERE {_EVERY_HAND}), 0) AS hands,
                   coalesce(sum(flagged) FILTER (WHERE {level}), 0) AS flagged,
                   coalesce(sum(findings) FILTER (WHERE {level}), 0) AS findings,
                   coalesce(sum(errors) FILTER (WHERE {level}), 0) AS errors,
                   coalesce(sum(consequences) FILTER (WHERE {level}), 0) AS consequences
            FROM audit_sums WHERE {hand_where})
        SELECT hands, flagged, findings, errors, findings - errors AS warnings, consequences,
               findings + consequences AS listed,
               (SELECT count(*) FROM rejects WHERE {reject_where}) AS rejects
        FROM counted
        """,
        [*level_params, *level_params, *level_params, *level_params, *hand_params,
         *reject_params],
    ).iloc[0]


def findings_by_rule(audit: AuditFilter) -> pd.DataFrame:
    """Matching findings per rule and severity: findings and hands (violations: the
    consequences of a finding count with their cause, not as findings of their own)."""
    where, params = _where([*audit.sum_conditions(),
                            *audit.rule_conditions(),
                            ("Level", "rule IS NOT NULL AND severity IS NOT NULL", [])])
    return query(
        f"""
        SELECT rule, severity, sum(findings)::BIGINT AS findings,
               sum(violating)::BIGINT AS hands
        FROM audit_sums
        WHERE {where}
        GROUP BY rule, severity HAVING sum(findings) > 0
        ORDER BY findings DESC, rule, severity
        """,
        params,
    )


TOP_GROUPS = 500  # files and tables listed on the Audit page, the most findings first


def compliance(audit: AuditFilter) -> pd.DataFrame:
    """Hands by file, by table and by UTC day (`grp`: 'file', 'table', 'date'; `key`) under
    every filter: how many, how many without a matching finding, hands with an error, the
    matching findings, errors and warnings (all integers). One scan of the audit's sums for
    the three tabs: their rows of every hand count the hands, those of the rule and severity
    chosen the hands with a violation and the violations."""
    hand_where, hand_params = _where(audit.sum_conditions())
    level, level_params = audit.level()
    # Of files and tables, only the TOP_GROUPS with the most findings leave the database (a
    # store of a million hands may have tens of thousands of files); `groups` and
    # `groups_with_findings` count them all.
    return query(
        f"""
        WITH grouped AS (
            SELECT CASE WHEN grouping(file_id) = 0 THEN 'file'
                        WHEN grouping(table_name) = 0 THEN 'table' ELSE 'date' END AS grp,
                   file_id, table_name, day,
                   coalesce(sum(hands) FILTER (WHERE {_EVERY_HAND}), 0)::BIGINT AS hands,
                   (coalesce(sum(hands) FILTER (WHERE {_EVERY_HAND}), 0)
                    - coalesce(sum(violating) FILTER (WHERE {level}), 0))::BIGINT
                       AS compliant_hands,
                   coalesce(sum(with_errors) FILTER (WHERE {level}), 0)::BIGINT
                       AS hands_with_errors,
                   coalesce(sum(findings) FILTER (WHERE {level}), 0)::BIGINT AS findings,
                   coalesce(sum(errors) FILTER (WHERE {level}), 0)::BIGINT AS errors,
                   coalesce(sum(findings - errors) FILTER (WHERE {level}), 0)::BIGINT
                       AS warnings
            FROM audit_sums
            WHERE ({_EVERY_HAND} OR {level}) AND {hand_where}
            GROUP BY GROUPING SETS ((file_id), (table_name), (day))
            HAVING sum(hands) FILTER (WHERE {_EVERY_HAND}) > 0),
             named AS (
            SELECT g.* EXCLUDE (file_id, table_name, day),
                   coalesce(f.path, g.table_name, strftime(g.day, '%Y-%m-%d')) AS key
            FROM grouped AS g LEFT JOIN files AS f USING (file_id)),
             counted AS (
            SELECT grp, count(*) AS groups,
                   count(*) FILTER (WHERE findings > 0) AS groups_with_findings
            FROM named GROUP BY grp)
        -- Top-N by LIMIT, not a window ranking every group: several times quicker.
        SELECT * FROM ((SELECT * FROM named WHERE grp = 'date')
                       UNION ALL (SELECT * FROM named WHERE grp = 'file'
                                  ORDER BY findings DESC, key LIMIT {TOP_GROUPS})
                       UNION ALL (SELECT * FROM named WHERE grp = 'table'
                                  ORDER BY findings DESC, key LIMIT {TOP_GROUPS}))
        JOIN counted USING (grp)
        """,
        [*level_params * 6, *hand_params],
    )


def compliance_counts(group: str, every_group: pd.DataFrame) -> tuple[int, int]:
    """How many files, tables or days there are under the filters, and how many of them have
    a matching finding (also those past the TOP_GROUPS listed)."""
    rows = every_group[every_group["grp"] == group]
    if rows.empty:
        return 0, 0
    return int(rows["groups"].iloc[0]), int(rows["groups_with_findings"].iloc[0])


def compliance_by(group: str, every_group: pd.DataFrame) -> pd.DataFrame:
    """One tab of `compliance`: files and tables with the most findings first, days in order."""
    if group not in ("file", "table", "date"):
        raise ValueError(f"no grouping {group!r}")
    frame = every_group[every_group["grp"] == group].drop(
        columns=["grp", "groups", "groups_with_findings"])
    if group == "date":
        return frame.sort_values("key").reset_index(drop=True)
    return frame.sort_values(["findings", "key"], ascending=[False, True]).reset_index(drop=True)


def findings_list(audit: AuditFilter, limit: int | None = LIST_LIMIT,
                  offset: int = 0) -> pd.DataFrame:
    """The matching findings in file and line order, as `razz audit` prints them (each
    consequence under the finding it follows from); all of them when `limit` is None.

    A page reads the hands of the files it falls in only (`_page_files`), not the store's."""
    where, params = _where(audit.finding_conditions())
    page, page_params = "", []
    if limit is not None:
        files, before = _page_files(audit, limit, offset)
        # The files of the page, as constants of the scan: it skips the other hands' rows.
        where += f" AND hands.file_id IN ({', '.join('?' * len(files)) or 'NULL'})"
        params = [*params, *files]
        page, page_params = "LIMIT ? OFFSET ?", [limit, offset - before]
    return query(
        f"""
        SELECT hand_key, hand_id, timezone('UTC', started_at) AS started_at, room, table_name,
               source, line, rule, severity, expected, actual, message,
               consequence_of_rule, consequence_of_line
        FROM violations JOIN hands USING (hand_key)
        WHERE {where}
        ORDER BY source, coalesce(consequence_of_line, line), coalesce(consequence_of_rule, rule),
                 consequence_of_rule IS NOT NULL, line, rule, hand_key
        {page}
        """,
        [*params, *page_params],
    )


def _page_files(audit: AuditFilter, limit: int, offset: int) -> tuple[list[int], int]:
    """The files (ids) whose matching findings, listed in file order, hold the `limit` from
    `offset` on, and how many are listed before the first of them (from the audit's sums)."""
    where, params = _where(audit.sum_conditions())
    level, level_params = audit.level()
    rows = query(
        f"""
        WITH listed AS (
            SELECT file_id, sum(findings + consequences) AS listed FROM audit_sums
            WHERE {level} AND {where} GROUP BY file_id HAVING sum(findings + consequences) > 0),
             placed AS (
            SELECT file_id, listed, sum(listed) OVER (ORDER BY path, file_id
                                                      ROWS UNBOUNDED PRECEDING) - listed AS before
            FROM listed JOIN files USING (file_id))
        SELECT file_id, before FROM placed WHERE before < ? AND before + listed > ?
        ORDER BY before
        """,
        [*level_params, *params, offset + limit, offset],
    )
    if rows.empty:
        return [], offset
    return [int(f) for f in rows["file_id"]], int(rows["before"].iloc[0])


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


# ------------------------------------------------------------------------------ aliases


def aliases() -> pd.DataFrame:
    """The alias table: which player name stands for which person, in which room."""
    return query("SELECT person, name, room FROM aliases ORDER BY person, name, room")


def player_names() -> pd.DataFrame:
    """Every player name as the logs write it, most hands first, with the rooms it played in
    (from the daily sums: thousands of rows where a million player rows would be joined)."""
    return query(
        """
        SELECT player AS name, sum(hands)::BIGINT AS hands,
               string_agg(DISTINCT room, ', ' ORDER BY room) AS rooms
        FROM player_days GROUP BY player HAVING sum(hands) <> 0 ORDER BY hands DESC, name
        """
    )


def rooms() -> list[str]:
    """The rooms of the hands stored."""
    return [str(r) for r in query("SELECT DISTINCT room FROM hands ORDER BY room")["room"]
            .dropna()]


def change_aliases(add: tuple[str, str, str] | None = None,
                   remove: tuple[str, str] | None = None) -> str:
    """Add an alias (name, person, room; '' for every room) or remove one (name, room): the
    dashboard's one write besides an import, allowed with `--allow-import` only. Returns what
    was done, in a sentence."""
    from pathlib import Path

    from razz.store import aliases as store_aliases

    if not import_allowed():
        raise PermissionError("the dashboard writes nothing without --allow-import")
    path = database_path()
    # The store's only writer is whoever holds it: this server lets go of the file first.
    with reader(path).released():
        try:
            con = store_aliases.open_for_aliases(Path(path))
        except store_db.StoreError as exc:
            raise DatabaseUnavailable(str(exc)) from exc
        try:
            if add is not None:
                name, person, room = add
                store_aliases.add(con, name, person, room)
                done = f"{name} now stands for {person} in {room or 'every room'}."
            elif remove is not None:
                name, room = remove
                store_aliases.remove(con, name, room)
                done = f"{name} stands for itself again in {room or 'every room'}."
            else:
                done = "Nothing changed."
        finally:
            con.close()
    forget_cached_results()
    return done
