"""The alias table: names that are one person, written only by the user (`razz alias`).

A player who played as `Bob_PS` at PokerStars and `bob33` at Winamax is one person: an alias
per name makes the statistics, the sessions and the player picker show them as `Bob`. An
alias holds in one room, or in every room (`EVERY_ROOM`, stored as ''); a room's own alias
wins over an every-room one. The store's `player_hands_for` applies them.

>>> canonical_room("winamax"), canonical_room(None)
('Winamax', '')
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from razz.store import db as store_db
from razz.store.queries import Row, rows

if TYPE_CHECKING:
    import duckdb

EVERY_ROOM = ""


class AliasError(ValueError):
    """An alias the user asked for that cannot be (one sentence)."""


def known_rooms() -> list[str]:
    """Every room the reader knows, as `hands.room` names them."""
    from razz.parser import sites

    return [site.title for site in sites.SITES]


def canonical_room(room: str | None, also: Iterable[str] = ()) -> str:
    """The room as the store names it, whatever its case; '' (every room) for None or ''.

    `also` adds rooms found in the store (a site the registry no longer has).
    """
    if room is None or not room.strip():
        return EVERY_ROOM
    rooms = [*known_rooms(), *also]
    for known in rooms:
        if known.casefold() == room.strip().casefold():
            return known
    raise AliasError(f"no room {room!r}: give one of {', '.join(dict.fromkeys(rooms))}")


def _clean(text: str, what: str) -> str:
    name = text.strip()
    if not name:
        raise AliasError(f"the {what} cannot be empty")
    return name


def add(con: duckdb.DuckDBPyConnection, name: str, person: str, room: str = EVERY_ROOM) -> bool:
    """Make `name` (in `room`, or every room) stand for `person`; True if it replaced another.

    Names are kept as the logs write them (a trailing space would be part of a name, but no
    room allows one, so both ends are trimmed).
    """
    name, person = _clean(name, "player name"), _clean(person, "person")
    found = con.execute(
        "SELECT count(*) FROM aliases WHERE name = ? AND room = ?", [name, room]
    ).fetchone()
    con.execute("INSERT OR REPLACE INTO aliases VALUES (?, ?, ?)", [name, room, person])
    return bool(found and found[0])


def remove(con: duckdb.DuckDBPyConnection, name: str, room: str | None = None) -> int:
    """Remove the aliases of `name`: in `room` only, or in every room it has one (None)."""
    if room is None:
        removed = con.execute("DELETE FROM aliases WHERE name = ? RETURNING name", [name])
    else:
        removed = con.execute(
            "DELETE FROM aliases WHERE name = ? AND room = ? RETURNING name", [name, room]
        )
    return len(removed.fetchall())


def listing(con: duckdb.DuckDBPyConnection) -> list[Row]:
    """Every alias by person, with the hands of the store each one brings to its person."""
    return rows(
        con,
        """
        SELECT a.person, a.name, a.room,
               (SELECT count(*) FROM players p JOIN hands h USING (hand_key)
                WHERE p.player = a.name AND (a.room = '' OR h.room = a.room)) AS hands
        FROM aliases a ORDER BY a.person, a.name, a.room
        """,
    )


def store_rooms(con: duckdb.DuckDBPyConnection) -> list[str]:
    """The rooms of the hands stored."""
    return [r["room"] for r in rows(con, "SELECT DISTINCT room FROM hands ORDER BY room")
            if r["room"] is not None]


def open_for_aliases(db: Path) -> duckdb.DuckDBPyConnection:
    """The store, opened for writing its alias table; `StoreNotFound` when there is none
    (an alias of a store with no hands would be kept nowhere the user expects)."""
    if not db.exists():
        raise store_db.StoreNotFound(f"No database at {db}: run `razz import` first.")
    store_db.check_writable(db)
    return store_db.connect_writer(db, timeout=30.0)
