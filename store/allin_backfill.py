"""All-in EV for the hands a store held before it kept all-in EV, computed from their rows.

A store made before the `allin_ev` table existed gets the table at its next import
(`db.apply_schema`), and this computes the rows of its old hands from what the store kept of
them (players, actions, cards and pots: all that `razz.analysis.allin_ev` reads), once: the
meta key `allin_ev` records that it was done, in the same transaction as the rows.

>>> import duckdb
>>> from razz.store.db import apply_schema
>>> con = duckdb.connect()
>>> apply_schema(con)  # a new store: nothing to compute, marked done
>>> con.execute("SELECT value FROM meta WHERE key = 'allin_ev'").fetchone()
('1',)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import duckdb

META_KEY = "allin_ev"

# Hands that may have an adjusted all-in (a showdown and a player all-in) and no row yet.
_CANDIDATES = """
    SELECT hand_key FROM hands
    WHERE showdown
      AND hand_key IN (SELECT hand_key FROM players WHERE all_in)
      AND hand_key NOT IN (SELECT hand_key FROM allin_ev)
"""


def needed(con: duckdb.DuckDBPyConnection) -> bool:
    """Whether the store's old hands still need their all-in EV computed."""
    return con.execute("SELECT count(*) FROM meta WHERE key = ?", [META_KEY]).fetchone() == (0,)


def backfill(con: duckdb.DuckDBPyConnection) -> int:
    """Compute and store the all-in EV of every stored hand that lacks it; the rows added."""
    import pyarrow as pa

    from razz.analysis.allin_ev import AllInHand, allin_ev_of
    from razz.store.rows import SCHEMAS

    con.execute("BEGIN")
    try:
        con.execute(f"CREATE TEMP TABLE allin_todo AS {_CANDIDATES}")
        hands = {key: community for key, community in con.execute(
            "SELECT hand_key, community_card FROM hands SEMI JOIN allin_todo USING (hand_key)"
        ).fetchall()}
        players = _grouped(con, """
            SELECT hand_key, list((player, invested, folded_street, all_in) ORDER BY seat)
            FROM players SEMI JOIN allin_todo USING (hand_key) GROUP BY hand_key""")
        actions = _grouped(con, """
            SELECT hand_key, list((seq, street, player, kind, amount) ORDER BY seq)
            FROM actions SEMI JOIN allin_todo USING (hand_key) GROUP BY hand_key""")
        cards = _grouped(con, """
            SELECT hand_key, list((player, position, card))
            FROM cards SEMI JOIN allin_todo USING (hand_key)
            WHERE player IS NOT NULL GROUP BY hand_key""")
        pots = _grouped(con, """
            SELECT hand_key, list((amount, eligible, winners, shares) ORDER BY pot_index)
            FROM pots SEMI JOIN allin_todo USING (hand_key) GROUP BY hand_key""")
        rows = []
        for key, community in hands.items():
            hand = AllInHand(
                tuple(players.get(key, ())), tuple(actions.get(key, ())),
                tuple(cards.get(key, ())),
                tuple((a, tuple(e), tuple(w), tuple(s))
                      for a, e, w, s in pots.get(key, ())),
                community, True,
            )
            rows += [(key, e.player, e.street, e.equity, e.ev_won, e.ev_net, e.exact,
                      e.std_error) for e in allin_ev_of(hand)]
        if rows:
            schema = SCHEMAS["allin_ev"]
            table = pa.Table.from_arrays(
                [pa.array(column, type=f.type)
                 for column, f in zip(zip(*rows, strict=True), schema, strict=True)],
                schema=schema)
            con.register("allin_rows", table)
            con.execute("INSERT INTO allin_ev BY NAME SELECT * FROM allin_rows")
            con.unregister("allin_rows")
        con.execute("DROP TABLE allin_todo")
        con.execute("INSERT OR REPLACE INTO meta VALUES (?, '1')", [META_KEY])
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise
    return len(rows)


def _grouped(con: duckdb.DuckDBPyConnection, sql: str) -> dict[str, list[tuple[Any, ...]]]:
    """hand_key -> its rows as tuples (DuckDB gives a STRUCT as a dict: its values, in order)."""
    return {key: [tuple(item.values()) if isinstance(item, dict) else item for item in items]
            for key, items in con.execute(sql).fetchall()}
