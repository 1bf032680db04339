"""Read-side queries over the store's analytics macros (`analytics.sql`), for `razz stats`.

Each function takes an open read-only connection (see `razz.store.db.read_connection`) and
returns rows as dicts. Filters are bound parameters, never text put into the SQL.

>>> Filters(kind="cash").macro_args()[1]
[None, None, 'cash', None, None, None]
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import duckdb

Row = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Filters:
    """Which hands to count; None means no filter. `date_to` is exclusive."""

    date_from: datetime | None = None
    date_to: datetime | None = None
    kind: str | None = None  # 'cash' | 'tournament'
    stakes: str | None = None  # as in hands.stakes, e.g. '$0.04/$0.08'
    table: str | None = None
    room: str | None = None  # as in hands.room, e.g. 'Winamax'

    def macro_args(self) -> tuple[str, list[Any]]:
        """The macros' filter arguments and their parameters."""
        return (
            "p_from := ?::TIMESTAMPTZ, p_to := ?::TIMESTAMPTZ, p_kind := ?::VARCHAR, "
            "p_stakes := ?::VARCHAR, p_table := ?::VARCHAR, p_room := ?::VARCHAR",
            [self.date_from, self.date_to, self.kind, self.stakes, self.table, self.room],
        )


NO_FILTER = Filters()


def rows(con: duckdb.DuckDBPyConnection, sql: str, params: list[Any] | None = None) -> list[Row]:
    """Run a query and return its rows as dicts."""
    result = con.execute(sql, params or [])
    names = [d[0] for d in result.description or ()]
    return [dict(zip(names, row, strict=True)) for row in result.fetchall()]


def overview(con: duckdb.DuckDBPyConnection) -> Row:
    """Counts of the whole store."""
    return rows(
        con,
        """
        SELECT (SELECT count(*) FROM hands) AS hands,
               (SELECT count(DISTINCT player) FROM players) AS players,
               (SELECT count(*) FROM files) AS files,
               (SELECT count(*) FROM violations) AS findings,
               (SELECT count(*) FROM rejects) AS rejected,
               (SELECT count(*) FROM skipped) AS skipped,
               (SELECT min(started_at) FROM hands) AS first_hand,
               (SELECT max(started_at) FROM hands) AS last_hand,
               (SELECT list((room, n) ORDER BY n DESC, room) FROM
                  (SELECT coalesce(room, site) AS room, count(*) AS n FROM hands GROUP BY 1))
                 AS rooms
        """,
    )[0]


def heroes(con: duckdb.DuckDBPyConnection) -> list[Row]:
    """The players whose hole cards the logs show (the files' owners), most hands first."""
    return rows(
        con,
        "SELECT player, count(*) AS hands FROM players WHERE is_hero "
        "GROUP BY player ORDER BY hands DESC, player",
    )


def player_stats(
    con: duckdb.DuckDBPyConnection,
    player: str | None = None,
    filters: Filters = NO_FILTER,
    limit: int | None = None,
) -> list[Row]:
    """Per-player statistics, one row per (player, unit, currency), most hands first."""
    args, params = filters.macro_args()
    sql = (
        f"SELECT * FROM player_stats_for(p_player := ?::VARCHAR, {args}) "
        "ORDER BY hands DESC, player, unit, currency"
    )
    if limit is not None:
        sql += " LIMIT ?"
        params = [*params, limit]
    return rows(con, sql, [player, *params])


def sessions(
    con: duckdb.DuckDBPyConnection,
    player: str | None = None,
    gap_minutes: int = 30,
    filters: Filters = NO_FILTER,
) -> list[Row]:
    """Sessions (a player's run of hands at one table), in time order."""
    args, params = filters.macro_args()
    return rows(
        con,
        f"SELECT * FROM sessions_for(p_player := ?::VARCHAR, p_gap_minutes := ?, {args}) "
        "ORDER BY started_at, player, table_name",
        [player, gap_minutes, *params],
    )


def findings_by_rule(con: duckdb.DuckDBPyConnection, filters: Filters = NO_FILTER) -> list[Row]:
    """Findings per rule and severity, most frequent first."""
    args, params = filters.macro_args()
    return rows(
        con,
        f"SELECT * FROM findings_by_rule_for({args}) ORDER BY findings DESC, rule, severity",
        params,
    )


def compliance_by(
    con: duckdb.DuckDBPyConnection, group: str, filters: Filters = NO_FILTER
) -> list[Row]:
    """Hands, compliant hands and findings per 'file', 'table' or 'date'."""
    if group not in ("file", "table", "date"):
        raise ValueError(f"no grouping {group!r}: use file, table or date")
    args, params = filters.macro_args()
    return rows(
        con, f"SELECT * FROM compliance_by_for(?, {args}) ORDER BY grp", [group, *params]
    )
