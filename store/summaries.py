"""Sums per player name, room, money, kind, stakes, table and UTC day: what the dashboard's
player pages count, kept by the importer as it stores hands.

* `player_days`: every statistic's hits and chances, net, rake (Player statistics, the sidebar);
* `player_starts`: the same keys and the 3rd-street ranks (low hole, high hole, door card) of
  the hands whose starting cards the log shows, with their results (Starting hands);
* `player_runs`: runs of a player's hands at one table, a hand less than `RUN_GAP_MINUTES`
  after the one before, with their first and last start and their sums (Sessions: a session
  of any pause of at least that length is a union of runs, merged when read);
* `audit_sums`: the hands audited and their findings per file, table, UTC day, room, money,
  kind and stakes, and per rule and severity (the Audit page: see `audit_sql`).

On a million hands, the player pages would each join millions of player rows to their hands
at every first load, and the Audit page would read every hand; these sums make them a scan of
thousands of rows. The writer adds the
sums of each batch of new hands (`add_sums`: rows of a batch are not merged with earlier
ones, readers add them up, and merge runs); a store from before gets them once
(`fill_statements`, from `db.migrations`).

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


RUN_GAP_MINUTES = 5  # the shortest pause the Sessions page offers between two sessions
RANKS = "A23456789TJQK"  # Razz order, ace low: the position of a rank is its value (A = 1)
# The columns that say which hands a row of sums counts (every filter of the player pages).
DIMENSIONS = ("player", "room", "unit", "currency", "kind", "stakes", "big_bet", "table_name",
              "day")


def starts_sql(players: str, hands: str) -> str:
    """A SELECT of the sums of the player rows of `players` whose three 3rd-street cards the
    log shows (down, down, door), by the ranks of the two hole cards (low, high) and the
    door card's, as the Starting hands page groups them."""
    return f"""
SELECT p.player, h.room, h.unit, h.currency, h.kind, h.stakes, h.big_bet, h.table_name,
       h.started_at::DATE AS day,
       least(instr('{RANKS}', p.starting_cards[1][1]),
             instr('{RANKS}', p.starting_cards[2][1]))::TINYINT AS low,
       greatest(instr('{RANKS}', p.starting_cards[1][1]),
                instr('{RANKS}', p.starting_cards[2][1]))::TINYINT AS high,
       instr('{RANKS}', p.door_card[1])::TINYINT AS door,
       count(*)::BIGINT AS hands, count(*) FILTER (WHERE p.vpip)::BIGINT AS vpip,
       count(*) FILTER (WHERE p.collected > 0)::BIGINT AS won, sum(p.net)::BIGINT AS net,
       sum(p.net / h.big_bet) AS net_bb
FROM {players} AS p
JOIN {hands} AS h USING (hand_key)
WHERE len(p.starting_cards) = 3 AND p.door_card IS NOT NULL
  AND p.starting_cards[3] = p.door_card
GROUP BY ALL
"""


def runs_sql(players: str, hands: str, allin_ev: str = "allin_ev") -> str:
    """A SELECT of the runs of the player rows of `players`: per player, table and the other
    keys, hands less than `RUN_GAP_MINUTES` apart, with their sums (all-in EV from `allin_ev`:
    the store's, whose rows of a batch are stored before its sums, or the batch's own rows,
    which spares the join a scan of every row the store holds)."""
    keys = "p.player, h.site, h.room, h.unit, h.currency, h.kind, h.stakes, h.big_bet, " \
           "h.table_name, h.started_at::DATE"
    return f"""
SELECT player, site, room, unit, currency, kind, stakes, big_bet, table_name, day,
       min(started_at) AS first_at, max(started_at) AS last_at, count(*)::BIGINT AS hands,
       count(*) FILTER (WHERE showdown)::BIGINT AS showdowns, sum(net)::BIGINT AS net,
       sum(net_bb) AS net_bb, coalesce(sum(net) FILTER (WHERE showdown), 0)::BIGINT
           AS net_showdown,
       coalesce(sum(net_bb) FILTER (WHERE showdown), 0) AS net_showdown_bb,
       sum(rake_paid) AS rake_paid, sum(ev_net) AS ev_net, sum(ev_net_bb) AS ev_net_bb
FROM (
    SELECT *, sum(opens::INTEGER) OVER (
                  PARTITION BY player, site, room, unit, currency, kind, stakes, big_bet,
                               table_name, day
                  ORDER BY started_at ROWS UNBOUNDED PRECEDING) AS run
    FROM (
        SELECT p.player, h.site, h.room, h.unit, h.currency, h.kind, h.stakes, h.big_bet,
               h.table_name, h.started_at::DATE AS day, h.started_at,
               p.went_to_showdown AS showdown, p.net, p.net / h.big_bet AS net_bb,
               CASE WHEN h.total_pot > h.rake
                    THEN h.rake * p.collected / (h.total_pot - h.rake) ELSE 0 END AS rake_paid,
               coalesce(e.ev_net, p.net) AS ev_net, coalesce(e.ev_net, p.net) / h.big_bet
                   AS ev_net_bb,
               coalesce(h.started_at - lag(h.started_at) OVER (
                   PARTITION BY {keys} ORDER BY h.started_at)
                   >= INTERVAL {RUN_GAP_MINUTES} MINUTE, true) AS opens
        FROM {players} AS p
        JOIN {hands} AS h USING (hand_key)
        LEFT JOIN {allin_ev} AS e ON e.hand_key = p.hand_key AND e.player = p.player
    )
)
GROUP BY player, site, room, unit, currency, kind, stakes, big_bet, table_name, day, run
"""


# The columns of `audit_sums` that say which hands a row counts (every filter of the Audit
# page but rule and severity, which say which findings it counts). The file by its id (the
# hands' `file_id`, whose path is their `source`): grouping by a number is several times
# quicker than by a path.
AUDIT_DIMENSIONS = ("file_id", "table_name", "day", "room", "unit", "currency", "kind", "stakes")


def audit_sql(hands: str, violations: str = "violations", findings: bool = True) -> str:
    """A SELECT of the audit sums of the hands of `hands` (a table or subquery with the
    columns of `hands`) and of their findings in `violations` (the store's, or a table that
    holds every finding of those hands: a batch's own, which spares a scan of every finding
    the store holds). `findings` false: those hands have none, and the rows of the rule and
    severity levels, which only findings make, are not looked for.

    Rows of several levels share the dimensions: rule and severity NULL, every hand of the
    key (`hands`); a rule, a severity, or both: only the findings of that rule, severity or
    both, and the hands that have one. Each row counts the hands with a finding of its level
    (`flagged`, consequences too), with a violation (`violating`), with an error violation
    (`with_errors`), and the violations (`findings`, of them `errors`) and `consequences`.
    Every count adds up over keys and batches (a hand has one key), as readers sum them.
    """
    keys = ", ".join(AUDIT_DIMENSIONS)
    hands_level = f"""
WITH h AS (SELECT hand_key, file_id, table_name, timezone('UTC', started_at)::DATE AS day,
                  room, unit, currency, kind, stakes FROM {hands}),
     f AS (SELECT hand_key, rule, severity,
                  count(*) FILTER (WHERE consequence_of_rule IS NULL) AS findings,
                  count(*) FILTER (WHERE consequence_of_rule IS NOT NULL) AS consequences
           FROM {violations} SEMI JOIN h USING (hand_key)
           GROUP BY hand_key, rule, severity),
     per_hand AS (SELECT hand_key, sum(findings) AS findings,
                         sum(findings) FILTER (WHERE severity = 'error') AS errors,
                         sum(consequences) AS consequences
                  FROM f GROUP BY hand_key)
SELECT {keys}, NULL::VARCHAR AS rule, NULL::VARCHAR AS severity,
       count(*)::BIGINT AS hands, count(p.hand_key)::BIGINT AS flagged,
       count(*) FILTER (WHERE p.findings > 0)::BIGINT AS violating,
       count(*) FILTER (WHERE p.errors > 0)::BIGINT AS with_errors,
       coalesce(sum(p.findings), 0)::BIGINT AS findings,
       coalesce(sum(p.errors), 0)::BIGINT AS errors,
       coalesce(sum(p.consequences), 0)::BIGINT AS consequences
FROM h LEFT JOIN per_hand AS p USING (hand_key)
GROUP BY {keys}
"""
    if not findings:
        return hands_level
    return hands_level + f"""UNION ALL BY NAME
SELECT {keys}, rule, severity, 0::BIGINT AS hands,
       count(DISTINCT hand_key)::BIGINT AS flagged,
       count(DISTINCT hand_key) FILTER (WHERE findings > 0)::BIGINT AS violating,
       count(DISTINCT hand_key) FILTER (WHERE findings > 0 AND severity = 'error')::BIGINT
           AS with_errors,
       sum(findings)::BIGINT AS findings,
       coalesce(sum(findings) FILTER (WHERE severity = 'error'), 0)::BIGINT AS errors,
       sum(consequences)::BIGINT AS consequences
FROM h JOIN f USING (hand_key)
GROUP BY GROUPING SETS (({keys}, rule, severity), ({keys}, rule), ({keys}, severity))
"""


AUDIT_COUNTS = ("hands", "flagged", "violating", "with_errors", "findings", "errors",
                "consequences")


def _hands_of(keys: str) -> str:
    return f"(SELECT * FROM hands WHERE hand_key IN (SELECT hand_key FROM {keys}))"


def recount_findings(con: object, keys: str) -> None:
    """Count the audit sums again for every file, table and day the hands whose `hand_key` is
    in the registered table `keys` are in (after findings were added to stored hands, or
    linked to the finding they follow from): those keys' rows are summed again from the
    store's hands and findings."""
    of_hand = {d: f"h.{d}" for d in AUDIT_DIMENSIONS} | {
        "day": "timezone('UTC', h.started_at)::DATE"}
    execute = con.execute  # type: ignore[attr-defined]
    execute(f"""CREATE OR REPLACE TEMP TABLE recount_keys AS
        SELECT DISTINCT {", ".join(f"{c} AS {d}" for d, c in of_hand.items())}
        FROM hands AS h WHERE hand_key IN (SELECT hand_key FROM {keys})""")
    same_row = " AND ".join(f"t.{d} IS NOT DISTINCT FROM a.{d}" for d in AUDIT_DIMENSIONS)
    execute(f"DELETE FROM audit_sums AS a WHERE EXISTS (SELECT 1 FROM recount_keys AS t "
            f"WHERE {same_row})")
    same_hand = " AND ".join(f"t.{d} IS NOT DISTINCT FROM {c}" for d, c in of_hand.items())
    execute(f"""INSERT INTO audit_sums BY NAME
        {audit_sql(f"(SELECT h.* FROM hands AS h SEMI JOIN recount_keys AS t ON {same_hand})")}""")
    execute("DROP TABLE recount_keys")


ADDITIVE = (("player_days", sums_sql), ("player_starts", starts_sql))


def add_sums(con: object, players: str, hands: str, allin_ev: str = "allin_ev",
             violations: str = "violations", findings: bool = True) -> None:
    """Add the sums of the player rows of `players` (joined to `hands`) to the summaries, and
    the audit sums of the hands of `hands` (whose findings are stored already, and are all in
    `violations`; `findings` false: they have none); the hands' all-in EV rows are in
    `allin_ev` (the store's table, or only theirs)."""
    con.execute(  # type: ignore[attr-defined]
        f"INSERT INTO audit_sums BY NAME {audit_sql(hands, violations, findings)}")
    for table, sql in ADDITIVE:
        con.execute(f"INSERT INTO {table} BY NAME {sql(players, hands)}")  # type: ignore[attr-defined]
    con.execute(f"INSERT INTO player_runs BY NAME {runs_sql(players, hands, allin_ev)}")  # type: ignore[attr-defined]


def subtract_sums(con: object, keys: str) -> None:
    """Take the hands whose `hand_key` is in the registered table `keys` out of the summaries
    (before those hands' rows are deleted to be stored again).

    The additive sums get rows of negated sums, since every reader adds up the rows of a day.
    Runs cannot be negated: the runs of each (player, table) those hands were in are summed
    again from the store's other hands of that player at that table.
    """
    players = f"(SELECT * FROM players WHERE hand_key IN (SELECT hand_key FROM {keys}))"
    negated = ", ".join(f"-{c} AS {c}" for c in AUDIT_COUNTS)
    con.execute(  # type: ignore[attr-defined]
        f"INSERT INTO audit_sums BY NAME SELECT * REPLACE ({negated}) "
        f"FROM ({audit_sql(_hands_of(keys))})")
    for table, sql in ADDITIVE:
        columns = [row[0] for row in con.execute(  # type: ignore[attr-defined]
            "SELECT column_name FROM duckdb_columns() WHERE table_name = ? "
            "AND schema_name = 'main' ORDER BY column_index", [table]
        ).fetchall()]
        negated = ", ".join(c if c in DIMENSIONS or c in ("low", "high", "door")
                            else f"-{c} AS {c}" for c in columns)
        con.execute(  # type: ignore[attr-defined]
            f"INSERT INTO {table} BY NAME SELECT {negated} FROM ({sql(players, 'hands')})"
        )
    touched = f"""(SELECT DISTINCT p.player, h.site, h.table_name
                   FROM players AS p JOIN hands AS h USING (hand_key)
                   WHERE hand_key IN (SELECT hand_key FROM {keys}))"""
    gone = f"""DELETE FROM player_runs AS r WHERE EXISTS (
        SELECT 1 FROM {touched} AS t WHERE t.player = r.player AND t.site = r.site
        AND t.table_name = r.table_name)"""
    con.execute(gone)  # type: ignore[attr-defined]
    kept_players = f"""(SELECT p.* FROM players AS p JOIN hands AS h USING (hand_key)
        WHERE hand_key NOT IN (SELECT hand_key FROM {keys})
          AND EXISTS (SELECT 1 FROM {touched} AS t WHERE t.player = p.player
                      AND t.site = h.site AND t.table_name = h.table_name))"""
    con.execute(f"INSERT INTO player_runs BY NAME {runs_sql(kept_players, 'hands')}")  # type: ignore[attr-defined]


FILL_CHUNKS = 8  # a store is summed again in parts (by player): each fits the writer's memory


TABLES = ("player_days", "player_starts", "player_runs", "audit_sums")


def fill_statements(tables: tuple[str, ...] = TABLES) -> list[str]:
    """The statements that sum every hand of the store again into `tables`, in parts of a
    few players (or hands) each: a million hands summed at once need more than the writer's
    256 MB."""
    sql = {"player_days": sums_sql, "player_starts": starts_sql, "player_runs": runs_sql}
    statements = []
    for table in tables:
        statements.append(f"DELETE FROM {table}")
        for part in range(FILL_CHUNKS):
            if table == "audit_sums":
                hands = f"(SELECT * FROM hands WHERE hash(hand_key) % {FILL_CHUNKS} = {part})"
                statements.append(f"INSERT INTO {table} BY NAME {audit_sql(hands)}")
                continue
            players = f"(SELECT * FROM players WHERE hash(player) % {FILL_CHUNKS} = {part})"
            statements.append(f"INSERT INTO {table} BY NAME {sql[table](players, 'hands')}")
    return statements


def rebuild(con: object, tables: tuple[str, ...] = TABLES) -> None:
    """Sum every hand of the store again (a store from before the sums, or one filled by SQL)."""
    for statement in fill_statements(tables):
        con.execute(statement)  # type: ignore[attr-defined]


def table_sql() -> str:
    """`CREATE TABLE` of the summaries: the dimensions, then the sums."""
    stats = ",\n    ".join(f"{s.key}_hits BIGINT NOT NULL, {s.key}_chances BIGINT NOT NULL"
                           for s in STATS)
    keys = """player VARCHAR NOT NULL, room VARCHAR, unit VARCHAR NOT NULL, currency VARCHAR,
    kind VARCHAR NOT NULL, stakes VARCHAR NOT NULL, big_bet BIGINT NOT NULL,
    table_name VARCHAR NOT NULL, day DATE NOT NULL"""
    return f"""
CREATE TABLE IF NOT EXISTS player_days (
    {keys},
    hands BIGINT NOT NULL, hero_hands BIGINT NOT NULL, net BIGINT NOT NULL,
    net_bb DOUBLE NOT NULL, rake_paid DOUBLE NOT NULL,
    {stats}
);
CREATE TABLE IF NOT EXISTS player_starts (
    {keys},
    low TINYINT NOT NULL, high TINYINT NOT NULL, door TINYINT NOT NULL,
    hands BIGINT NOT NULL, vpip BIGINT NOT NULL, won BIGINT NOT NULL, net BIGINT NOT NULL,
    net_bb DOUBLE NOT NULL
);
CREATE TABLE IF NOT EXISTS player_runs (
    {keys}, site VARCHAR NOT NULL,
    first_at TIMESTAMPTZ NOT NULL, last_at TIMESTAMPTZ NOT NULL,
    hands BIGINT NOT NULL, showdowns BIGINT NOT NULL, net BIGINT NOT NULL,
    net_bb DOUBLE NOT NULL, net_showdown BIGINT NOT NULL, net_showdown_bb DOUBLE NOT NULL,
    rake_paid DOUBLE NOT NULL, ev_net DOUBLE NOT NULL, ev_net_bb DOUBLE NOT NULL
);
CREATE TABLE IF NOT EXISTS audit_sums (
    file_id BIGINT NOT NULL, table_name VARCHAR NOT NULL, day DATE NOT NULL, room VARCHAR,
    unit VARCHAR NOT NULL, currency VARCHAR, kind VARCHAR NOT NULL, stakes VARCHAR NOT NULL,
    rule VARCHAR, severity VARCHAR,  -- NULL: every rule, every severity (see `audit_sql`)
    hands BIGINT NOT NULL, flagged BIGINT NOT NULL, violating BIGINT NOT NULL,
    with_errors BIGINT NOT NULL, findings BIGINT NOT NULL, errors BIGINT NOT NULL,
    consequences BIGINT NOT NULL
)"""
