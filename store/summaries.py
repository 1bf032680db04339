"""Sums per player name, room, money, kind, stakes, table and UTC day: what the dashboard's
player pages count, kept by the importer as it stores hands (`player_days`).

On a million hands, the player pages' sidebar (a player's hands by room, money, stakes, table
and day) and the table of every player's statistics would each join millions of player rows
to their hands at every first load; these sums make them a scan of a few thousand rows. The
writer adds the sums of each batch of new hands (`add_sums`, rows of a batch are not merged
with earlier ones: readers add them up); a store from before gets them once (`migrations`).

Every statistic is hits over chances (`Stat`), counted on the rows of the store's
`player_hands_for`; the same definitions serve the sums and the lists of hands behind a rate.

>>> STATS_BY_KEY["vpip"].aggregates()
('sum((vpip)::INTEGER)', 'count(*)')
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Stat:
    """A statistic: hits over chances, counted on the rows of the store's `player_hands_for`.

    A rate counts hands: those where `hit` holds over those where `chance` holds. A ratio
    (aggression) adds up actions: `hit_total` over `chance_total`; its hands are listed by
    `hit` and `chance` as well.
    """

    key: str
    label: str
    hit: str  # a condition on a row of player_hands_for
    chance: str
    counted: str  # what the hits count, e.g. "hands", "bets and raises"
    out_of: str  # what the chances count, e.g. "hands dealt", "calls"
    note: str  # how it is counted, in a sentence
    hit_total: str = ""  # for a ratio: the sum counted as hits
    chance_total: str = ""

    @property
    def ratio(self) -> bool:
        return bool(self.hit_total)

    def aggregates(self) -> tuple[str, str]:
        """The SQL aggregates of its hits and its chances (sums of 0/1 rather than counts
        with FILTER: half the time over a million rows)."""
        if self.ratio:
            return f"sum({self.hit_total})", f"sum({self.chance_total})"
        return (f"sum(({self.hit})::INTEGER)",
                "count(*)" if self.chance == "TRUE" else f"sum(({self.chance})::INTEGER)")


def _aggression(street: str) -> Stat:
    aggressive = f"bets_{street} + raises_{street}" + (" + completes_3rd" if street == "3rd"
                                                       else "")
    return Stat(
        f"aggression_{street}", f"Aggression {street}", f"{aggressive} > 0",
        f"calls_{street} > 0", counted="bets and raises", out_of="calls",
        note=f"Bets{', completions' if street == '3rd' else ''} and raises on {street} "
             "street per call: above 1, the player bets more than calls. Its hands are those "
             "with such an action (hits) or with a call (chances).",
        hit_total=aggressive, chance_total=f"calls_{street}",
    )


_DEALT = "hands dealt"
STATS: tuple[Stat, ...] = (
    Stat("vpip", "VPIP 3rd", "vpip", "TRUE", "hands", _DEALT,
         "Put money in voluntarily on 3rd street: a call, a completion or a raise (posting "
         "the bring-in is forced, not voluntary)."),
    Stat("complete_raise", "Complete/raise 3rd", "complete_or_raise_3rd", "TRUE", "hands",
         _DEALT, "Completed the bring-in or raised on 3rd street."),
    Stat("bring_in_posted", "Bring-in posted", "posted_bring_in", "had_bring_in",
         "bring-ins posted", "hands with the bring-in",
         "Of the hands where the player had the bring-in, how often they posted it rather "
         "than completing."),
    Stat("bring_in_completed", "Bring-in completed", "bring_in_completed", "had_bring_in",
         "completed", "hands with the bring-in",
         "Of the hands where the player had the bring-in, how often they completed to a "
         "full small bet instead."),
    Stat("bring_in_folded", "Bring-in folded", "bring_in_folded", "posted_bring_in",
         "folded", "bring-ins posted",
         "Of the bring-ins posted, how often the player then folded on 3rd street."),
    Stat("fold_to_completion", "Fold to a completion", "folded_to_completion",
         "faced_completion", "folded", "completions faced",
         "Of the times the player faced a completion on 3rd street, how often they folded."),
    Stat("steal_attempt", "Steal attempt", "steal_attempt", "TRUE", "attempts", _DEALT,
         "Completed on 3rd street with only higher door cards left to act."),
    Stat("steal_success", "Steal success", "steal_success", "steal_attempt", "won at once",
         "attempts", "Of the steal attempts, how often everyone folded."),
    *(Stat(f"saw_{s}", f"Saw {s}", f"saw_{s}", "TRUE", "hands", _DEALT,
           f"Was still in the hand when {s} street was dealt.")
      for s in ("4th", "5th", "6th", "7th")),
    Stat("showdown", "Went to showdown", "went_to_showdown", "saw_4th", "showdowns",
         "hands that saw 4th",
         "Of the hands that saw 4th street, how many the player took to the showdown."),
    Stat("won_showdown", "Won at showdown", "won_at_showdown", "went_to_showdown", "won",
         "showdowns", "Of the showdowns, how many the player won (all or part of a pot)."),
    *(_aggression(street) for street in ("3rd", "4th", "5th", "6th", "7th")),
)
STATS_BY_KEY = {stat.key: stat for stat in STATS}


def _sum_columns() -> str:
    return ",\n    ".join(
        f"{hits}::BIGINT AS {s.key}_hits, {chances}::BIGINT AS {s.key}_chances"
        for s in STATS for hits, chances in [s.aggregates()]
    )


def sums_sql(players: str, hands: str) -> str:
    """A SELECT of the sums of the player rows of `players` joined to `hands` (table names of
    the store or of registered batches: constants of this package, never user text)."""
    return f"""
SELECT p.player, h.room, h.unit, h.currency, h.kind, h.stakes, h.big_bet, h.table_name,
       h.started_at::DATE AS day,
       count(*)::BIGINT AS hands, count(*) FILTER (WHERE p.is_hero)::BIGINT AS hero_hands,
       sum(p.net)::BIGINT AS net, sum(p.net / h.big_bet) AS net_bb,
       sum(CASE WHEN h.total_pot > h.rake
                THEN h.rake * p.collected / (h.total_pot - h.rake) ELSE 0 END) AS rake_paid,
    {_sum_columns()}
FROM (SELECT *, completes_3rd + raises_3rd > 0 AS complete_or_raise_3rd,
             posted_bring_in OR bring_in_completed AS had_bring_in
      FROM {players}) AS p
JOIN {hands} AS h USING (hand_key)
GROUP BY ALL
"""


def add_sums(con: object, players: str, hands: str) -> None:
    """Add the sums of the player rows of `players` (joined to `hands`) to `player_days`."""
    con.execute(f"INSERT INTO player_days BY NAME {sums_sql(players, hands)}")  # type: ignore[attr-defined]


def subtract_sums(con: object, keys: str) -> None:
    """Take the sums of the hands whose `hand_key` is in the registered table `keys` out of
    `player_days` (before those hands' rows are deleted to be stored again): rows of negated
    sums, since every reader adds up the rows of a day."""
    dimensions = ("player", "room", "unit", "currency", "kind", "stakes", "big_bet",
                  "table_name", "day")
    columns = [row[0] for row in con.execute(  # type: ignore[attr-defined]
        "SELECT column_name FROM duckdb_columns() WHERE table_name = 'player_days' "
        "AND schema_name = 'main' ORDER BY column_index"
    ).fetchall()]
    negated = ", ".join(c if c in dimensions else f"-{c} AS {c}" for c in columns)
    players = f"(SELECT * FROM players WHERE hand_key IN (SELECT hand_key FROM {keys}))"
    con.execute(  # type: ignore[attr-defined]
        f"INSERT INTO player_days BY NAME SELECT {negated} FROM ({sums_sql(players, 'hands')})"
    )


def rebuild(con: object) -> None:
    """Sum every hand of the store again (a store from before the sums, or one filled by SQL)."""
    con.execute("DELETE FROM player_days")  # type: ignore[attr-defined]
    add_sums(con, "players", "hands")


def table_sql() -> str:
    """`CREATE TABLE player_days`: the dimensions, then the sums."""
    stats = ",\n    ".join(f"{s.key}_hits BIGINT NOT NULL, {s.key}_chances BIGINT NOT NULL"
                           for s in STATS)
    return f"""
CREATE TABLE IF NOT EXISTS player_days (
    player VARCHAR NOT NULL, room VARCHAR, unit VARCHAR NOT NULL, currency VARCHAR,
    kind VARCHAR NOT NULL, stakes VARCHAR NOT NULL, big_bet BIGINT NOT NULL,
    table_name VARCHAR NOT NULL, day DATE NOT NULL,
    hands BIGINT NOT NULL, hero_hands BIGINT NOT NULL, net BIGINT NOT NULL,
    net_bb DOUBLE NOT NULL, rake_paid DOUBLE NOT NULL,
    {stats}
)"""
