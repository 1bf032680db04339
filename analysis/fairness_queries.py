"""What the deal-fairness report counts, aggregated in the store: a few small tables of counts.

Every question of the report is answered from counts that DuckDB computes in a handful of
scans (`collect`), so that a million hands take seconds and nothing per hand leaves the
database. The counts (`Tallies`) are then all the statistics need (`razz.analysis.fairness`).

Cards are coded as numbers in SQL: the rank 1 (ace) … 13 (king), Razz's order, and the suit
1 (clubs) … 4 (spades), the bring-in's order (BRINGIN-SUIT); `4 * rank + suit` orders cards
as the bring-in rule does, so the highest door card is the bring-in by the rules.

>>> import duckdb
>>> from razz.store.db import apply_schema
>>> con = duckdb.connect()
>>> apply_schema(con)
>>> collect(duckdb_fetch(con), Scope()).hands
0
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from datetime import time as dtime
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import duckdb

RANKS = "A23456789TJQK"  # index 0 … 12: Razz's order, ace low, king high
SUITS = "cdhs"  # index 0 … 3: the bring-in's order, clubs lowest, spades highest
# Kinds of card, by where the log shows it: the door card (3rd street, up), the two hole cards
# (3rd street, down: the hero's, or shown), the up cards of 4th, 5th and 6th street, and the
# river card (7th street, down: the hero's, or shown). The community card is none of them.
KINDS = ("door", "hole", "4th", "5th", "6th", "river")
DUPLICATES_LISTED = 100  # hands with a repeated card listed in full; all are counted

# (SQL, parameters) -> rows: a DuckDB connection's `execute(...).fetchall()`, or the dashboard's
# cached query. Every SQL string below is a constant; the filter values travel as parameters.
Fetch = Callable[[str, Sequence[Any]], Sequence[Sequence[Any]]]

_RANK = "instr('A23456789TJQK', substr({c}, 1, 1))"
_SUIT = "instr('cdhs', substr({c}, 2, 1))"
_KIND = """CASE WHEN c.visibility = 'community' THEN NULL
                WHEN c.position = 3 THEN 0 WHEN c.position IN (1, 2) THEN 1
                WHEN c.position BETWEEN 4 AND 6 THEN c.position - 2 ELSE 5 END"""


@dataclass(frozen=True, slots=True)
class Scope:
    """Which hands the report looks at; None means every one. Days are inclusive, in UTC.

    >>> Scope(stakes="$1/$2", date_from=date(2024, 1, 1)).where()[0]
    '(stakes = ?) AND (started_at >= ?)'
    """

    site: str | None = None
    kind: str | None = None  # 'cash' | 'tournament'
    stakes: str | None = None
    table: str | None = None
    date_from: date | None = None
    date_to: date | None = None

    def where(self) -> tuple[str, list[Any]]:
        """A condition on the columns of `hands`, and its parameters."""
        parts: list[tuple[str, Any]] = []
        for column, value in (("site", self.site), ("kind", self.kind),
                              ("stakes", self.stakes), ("table_name", self.table)):
            if value is not None:
                parts.append((f"{column} = ?", value))
        if self.date_from is not None:
            parts.append(("started_at >= ?", datetime.combine(self.date_from, dtime.min, UTC)))
        if self.date_to is not None:
            end = datetime.combine(self.date_to + timedelta(days=1), dtime.min, UTC)
            parts.append(("started_at < ?", end))
        if not parts:
            return "TRUE", []
        return " AND ".join(f"({sql})" for sql, _ in parts), [value for _, value in parts]

    def to_json(self) -> dict[str, str | None]:
        """The filters, as given (None: not filtered)."""
        return {
            "site": self.site, "kind": self.kind, "stakes": self.stakes, "table": self.table,
            "from": None if self.date_from is None else self.date_from.isoformat(),
            "to": None if self.date_to is None else self.date_to.isoformat(),
        }


@dataclass(frozen=True)
class Duplicate:
    """A hand whose known cards repeat a card: impossible with one deck."""

    hand_key: str
    cards: tuple[str, ...]  # each repeated card once
    source: str
    first_line: int
    started_at: datetime
    table_name: str
    finding: bool  # the auditor reported it too (DEAL-UNIQUE)


@dataclass(frozen=True)
class Tallies:
    """Every count the report's tests read, for the hands of one scope.

    `deals` has one row per (street, seats dealt, chosen seat, hero's seat) with its number of
    hands: on 3rd street the chosen seat is the one with the highest door card (rank, then
    suit: the bring-in by the rules); on 4th to 6th street the one that got the lowest up card
    of the street. Seats dealt are a bit mask (bit s-1 for seat s); the hero's seat is None
    when the hero was not dealt that street or is unknown.
    `ranks` and `suits` count the cards the logs show by kind of card (`KINDS`); the sums of
    squares tell how often cards of one rank share a hand, which sets how their suits vary.
    """

    hands: int
    first_day: date | None
    last_day: date | None
    door_by_seat: dict[int, list[int]]  # seat -> door cards by rank
    deals: list[tuple[int, int, int, int | None, int]]
    ranks: list[list[int]]  # [kind][rank]: the cards the logs show (KINDS)
    suits: list[list[int]]  # [kind][suit]
    door_same_rank: int  # Σ c² over every (hand, rank), c its door cards
    later_same_rank: int  # the same for every other card the logs show
    hero_starts: dict[tuple[int, int, int], int]  # (hole rank, hole rank, door rank) -> hands
    hero_sequence: tuple[int, int, int]  # hands, good starts, runs of good and bad starts
    duplicate_hands: int
    duplicates: tuple[Duplicate, ...]
    bring_in_findings: int  # BRINGIN-WHO and BRINGIN-SUIT findings among these hands
    sites: tuple[str, ...] = field(default=())


def duckdb_fetch(con: duckdb.DuckDBPyConnection) -> Fetch:
    """A `Fetch` on a DuckDB connection. DuckDB's progress bar is turned off on it: it draws
    on standard output, into the report (`razz fairness --format json > report.json`)."""
    con.execute("SET enable_progress_bar = false")

    def fetch(sql: str, params: Sequence[Any]) -> Sequence[Sequence[Any]]:
        return con.execute(sql, list(params)).fetchall()

    return fetch


def _sources(scope: Scope) -> tuple[str, str, str, list[Any]]:
    """The `WITH` clause selecting the hands of `scope`, and the players and cards of those
    hands as table expressions: the tables themselves when nothing is filtered (a semi-join
    on a million hand keys costs a second per table)."""
    where, params = scope.where()
    if where == "TRUE":
        return "", "players", "cards", []
    with_ = f"WITH sel AS (SELECT hand_key FROM hands WHERE {where})"
    return (with_, "(SELECT * FROM players SEMI JOIN sel USING (hand_key))",
            "(SELECT * FROM cards SEMI JOIN sel USING (hand_key))", params)


def _with(with_: str, *ctes: str) -> str:
    """`with_` (the scope's CTE, maybe none) extended by more common table expressions."""
    parts = ([with_.removeprefix("WITH ")] if with_ else []) + list(ctes)
    return "WITH " + ",\n".join(parts) if parts else ""


def _nibbles_squared(column: str) -> str:
    """Σ over the 13 ranks of (the rank's count)², from counts packed 4 bits per rank."""
    return " + ".join(f"(({column} >> {4 * r}) & 15) * (({column} >> {4 * r}) & 15)"
                      for r in range(13))


def collect(fetch: Fetch, scope: Scope) -> Tallies:
    """Count, in the store, everything the report's tests need for the hands of `scope`."""
    where, hand_params = scope.where()
    with_, players, cards, params = _sources(scope)
    overview = fetch(
        f"""SELECT count(*), timezone('UTC', min(started_at))::DATE,
                   timezone('UTC', max(started_at))::DATE, list(DISTINCT site)
            FROM hands WHERE {where}""", hand_params)[0]
    hands = int(overview[0])
    door_by_seat: dict[int, list[int]] = {}
    for seat, rank, count in fetch(
        f"""{with_}
            SELECT seat, {_RANK.format(c="door_card")} AS r, count(*)
            FROM {players} WHERE door_card IS NOT NULL GROUP BY ALL""", params):
        if 1 <= rank <= 13:
            door_by_seat.setdefault(int(seat), [0] * 13)[rank - 1] += int(count)
    ranks = [[0] * 13 for _ in KINDS]
    suits = [[0] * 4 for _ in KINDS]
    for kind, rank, suit, count in fetch(
        f"""{with_}
            SELECT {_KIND} AS k, {_RANK.format(c="c.card")} AS r, {_SUIT.format(c="c.card")} AS s,
                   count(*)
            FROM {cards} c WHERE c.visibility <> 'community' GROUP BY ALL""", params):
        if kind is not None and 1 <= rank <= 13 and 1 <= suit <= 4:
            ranks[int(kind)][rank - 1] += int(count)
            suits[int(kind)][suit - 1] += int(count)
    door_squares, later_squares, duplicate_hands = _same_rank(fetch, with_, cards, params)
    deals = _deals(fetch, with_, players, cards, params)
    hero_starts, runs = _hero(fetch, with_, players, params)
    duplicates = _duplicates(fetch, with_, cards, params) if duplicate_hands else ()
    semi = "SEMI JOIN sel USING (hand_key)" if with_ else ""
    (findings,) = fetch(
        f"""{with_}
            SELECT count(*) FROM violations {semi}
            WHERE rule IN ('BRINGIN-WHO', 'BRINGIN-SUIT')""", params)[0]
    good = sum(n for trio, n in hero_starts.items() if _good(trio))
    return Tallies(
        hands=hands, first_day=overview[1], last_day=overview[2],
        door_by_seat=door_by_seat, deals=deals, ranks=ranks, suits=suits,
        door_same_rank=door_squares, later_same_rank=later_squares,
        hero_starts=hero_starts,
        hero_sequence=(sum(hero_starts.values()), good, runs),
        duplicate_hands=duplicate_hands, duplicates=duplicates,
        bring_in_findings=int(findings), sites=tuple(sorted(overview[3] or ())),
    )


def _good(trio: tuple[int, int, int]) -> bool:
    """Three different ranks, 8 or lower: a good Razz start (the runs test's "good")."""
    return len(set(trio)) == 3 and max(trio) <= 8


def _same_rank(fetch: Fetch, with_: str, cards: str, params: Sequence[Any]) -> tuple[
        int, int, int]:
    """Σ c² over every (hand, rank), for door cards and for the other cards the log shows
    (c: the cards of that rank in that hand), and the hands that show a card twice.

    The counts are packed 4 bits per rank into one integer per hand (a rank has at most 4
    cards), so that one pass grouped by hand gives them; grouping by (hand, rank) would make
    ten times as many groups. A card seen twice: fewer distinct cards than cards (the
    community card counts too, it is a card of the deck).
    """
    per = f"""per AS (
        SELECT coalesce(sum(1::BIGINT << (4 * r - 4)) FILTER (WHERE k = 0), 0) AS d,
               coalesce(sum(1::BIGINT << (4 * r - 4)) FILTER (WHERE k > 0), 0) AS l,
               count(*) AS n, bit_count(bit_or(1::BIGINT << (4 * r + s - 5))) AS cards
        FROM (SELECT c.hand_key, {_KIND} AS k, {_RANK.format(c="c.card")} AS r,
                     {_SUIT.format(c="c.card")} AS s FROM {cards} c)
        WHERE r > 0 AND s > 0
        GROUP BY hand_key)"""
    row = fetch(
        f"""{_with(with_, per)}
            SELECT sum({_nibbles_squared("d")}), sum({_nibbles_squared("l")}),
                   count(*) FILTER (WHERE n > cards)
            FROM per""", params)[0]
    return int(row[0] or 0), int(row[1] or 0), int(row[2] or 0)


def _deals(fetch: Fetch, with_: str, players: str, cards: str,
           params: Sequence[Any]) -> list[tuple[int, int, int, int | None, int]]:
    """Per street, the seats dealt, the chosen seat (highest door card, lowest later up card)
    and the hero's seat, counted over hands."""
    value = f"4 * {_RANK.format(c='c.card')} + {_SUIT.format(c='c.card')}"
    door_value = f"4 * {_RANK.format(c='door_card')} + {_SUIT.format(c='door_card')}"
    door = f"""door AS (
        SELECT sum(1::BIGINT << (seat - 1)) AS mask, arg_max(seat, {door_value}) AS chosen,
               max(seat) FILTER (WHERE is_hero) AS hero
        FROM {players} WHERE door_card IS NOT NULL GROUP BY hand_key)"""
    # A 4th to 6th street card goes to a player who saw 4th street: the join's build side is
    # those players only. Cards and players are matched on a hash of (hand, player): integers
    # join several times faster than two strings, and 64 bits make a false match about as
    # likely as one in a million million per hand. Grouped by (hand, street): three plain
    # aggregates per card, where one group per hand needed nine, each with its filter.
    up = f"""up AS (
        SELECT c.position AS street, sum(1::BIGINT << (p.seat - 1)) AS mask,
               arg_min(p.seat, {value}) AS low, max(p.seat) FILTER (WHERE p.is_hero) AS hero
        FROM (SELECT hash(hand_key) AS h, hash(hand_key, player) AS id, position, card
              FROM {cards} WHERE position BETWEEN 4 AND 6 AND visibility = 'up') c
        JOIN (SELECT hash(hand_key, player) AS id, seat, is_hero
              FROM {players} WHERE saw_4th) p USING (id)
        GROUP BY c.h, c.position)"""
    rows = fetch(
        f"""{_with(with_, door, up)}
            SELECT 3, mask, chosen, hero, count(*) FROM door GROUP BY ALL
            UNION ALL SELECT street, mask, low, hero, count(*) FROM up
            WHERE bit_count(mask) >= 2 GROUP BY ALL""", params)
    return [(int(street), int(mask), int(chosen), None if hero is None else int(hero), int(n))
            for street, mask, chosen, hero, n in rows if chosen is not None]


def _hero(fetch: Fetch, with_: str, players: str,
          params: Sequence[Any]) -> tuple[dict[tuple[int, int, int], int], int]:
    """The hero's starting hands by (hole rank, hole rank, door rank), and the number of runs
    of good and bad starts in the order the hands were played."""
    starts = f"""starts AS (
        SELECT h.started_at, h.hand_id,
               {_RANK.format(c="p.starting_cards[1]")} AS a,
               {_RANK.format(c="p.starting_cards[2]")} AS b,
               {_RANK.format(c="p.starting_cards[3]")} AS c
        FROM {players} p JOIN hands h USING (hand_key)
        WHERE p.is_hero AND len(p.starting_cards) = 3)"""
    good = "a <> b AND b <> c AND a <> c AND greatest(a, b, c) <= 8"
    seq = f"""seq AS (
        SELECT a, b, c, {good} AS good, lag({good}) OVER (ORDER BY started_at, hand_id) AS before
        FROM starts WHERE least(a, b, c) >= 1)"""
    rows = fetch(
        f"""{_with(with_, starts, seq)}
            SELECT a, b, c, count(*), count(*) FILTER (WHERE good IS DISTINCT FROM before)
            FROM seq GROUP BY ALL""", params)
    starts_by_ranks = {(int(a), int(b), int(c)): int(n) for a, b, c, n, _ in rows}
    return starts_by_ranks, sum(int(changes) for *_, changes in rows)


def _duplicates(fetch: Fetch, with_: str, cards: str,
                params: Sequence[Any]) -> tuple[Duplicate, ...]:
    """The first `DUPLICATES_LISTED` hands with a repeated card, with where to find them."""
    bits = f"1::BIGINT << (4 * {_RANK.format(c='card')} + {_SUIT.format(c='card')} - 5)"
    listed = f"""listed AS (
        SELECT hand_key FROM {cards} GROUP BY hand_key
        HAVING count(*) > bit_count(bit_or({bits}))
        ORDER BY hand_key LIMIT {DUPLICATES_LISTED})"""
    twice = """twice AS (
        SELECT hand_key, card FROM cards SEMI JOIN listed USING (hand_key)
        GROUP BY ALL HAVING count(*) > 1)"""
    rows = fetch(
        f"""{_with(with_, listed, twice)}
            SELECT h.hand_key, list(DISTINCT t.card ORDER BY t.card), h.source, h.first_line,
                   h.started_at, h.table_name,
                   EXISTS (SELECT 1 FROM violations v
                           WHERE v.hand_key = h.hand_key AND v.rule = 'DEAL-UNIQUE')
            FROM hands h JOIN twice t USING (hand_key)
            GROUP BY h.hand_key, h.source, h.first_line, h.started_at, h.table_name
            ORDER BY h.source, h.first_line""", params)
    return tuple(
        Duplicate(str(key), tuple(cards), str(source), int(line), started, str(table),
                  bool(found))
        for key, cards, source, line, started, table, found in rows
    )
