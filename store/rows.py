"""Parsed and audited hands to Arrow tables, one per table of `schema.sql`, ready to load.

Workers build these, so the single writer only concatenates and loads them. Each Arrow
schema below lists the columns of its SQL table, in order and with matching types; rows are
gathered as tuples (cheap to build in Python) and turned into columns once per batch.

>>> from razz.store.rows import RowBuilder
>>> RowBuilder().tables()["hands"].num_rows
0
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from typing import Any

import pyarrow as pa

from razz.analysis.allin_ev import allin_ev
from razz.parser.amounts import amount_text
from razz.parser.events import Hand, ParseError, SkippedHand, Unit
from razz.parser.sites import title_of
from razz.replay.findings import Severity
from razz.replay.results import HandResult

Tables = dict[str, pa.Table]
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICRO = timedelta(microseconds=1)

_S, _I32, _I64, _B, _F = pa.string(), pa.int32(), pa.int64(), pa.bool_(), pa.float64()
_TS = pa.timestamp("us", tz="UTC")
_STREETS = ("3rd", "4th", "5th", "6th", "7th")

SCHEMAS: dict[str, pa.Schema] = {
    "hands": pa.schema(
        [
            ("hand_key", _S), ("site", _S), ("hand_id", _S), ("game", _S), ("mixed", _S),
            ("kind", _S), ("small_bet", _I64), ("big_bet", _I64), ("ante", _I64),
            ("bring_in", _I64), ("stakes", _S), ("unit", _S), ("currency", _S),
            ("play_money", _B), ("table_name", _S), ("max_seats", _I32),
            ("tournament_id", _S), ("buy_in", pa.list_(_I64)), ("level", _S),
            ("started_at", _TS), ("started_text", _S), ("players", _I32), ("hero", _S),
            ("total_pot", _I64), ("rake", _I64), ("community_card", _S), ("showdown", _B),
            ("findings", _I32), ("errors", _I32), ("file_id", _I64), ("source", _S),
            ("first_line", _I32), ("raw_text", _S), ("room", _S),
        ]
    ),
    "players": pa.schema(
        [
            ("hand_key", _S), ("seat", _I32), ("player", _S), ("is_hero", _B),
            ("starting_stack", _I64), ("final_stack", _I64), ("ante", _I64),
            ("invested", _I64), ("collected", _I64), ("net", _I64),
            *[(f"inv_{s}", _I64) for s in _STREETS],
            *[(f"saw_{s}", _B) for s in _STREETS[1:]],
            *[(f"bets_{s}", _I32) for s in _STREETS],
            ("completes_3rd", _I32),
            *[(f"raises_{s}", _I32) for s in _STREETS],
            *[(f"calls_{s}", _I32) for s in _STREETS],
            *[(f"checks_{s}", _I32) for s in _STREETS],
            ("folded_street", _S), ("posted_bring_in", _B), ("bring_in_completed", _B),
            ("bring_in_folded", _B), ("vpip", _B), ("faced_completion", _B),
            ("folded_to_completion", _B), ("steal_attempt", _B), ("steal_success", _B),
            ("went_to_showdown", _B), ("won_at_showdown", _B), ("showdown_won", _I64),
            ("final_low", _S), ("starting_cards", pa.list_(_S)), ("door_card", _S),
            ("all_in", _B),
        ]
    ),
    "actions": pa.schema(
        [
            ("hand_key", _S), ("seq", _I32), ("street", _S), ("player", _S), ("kind", _S),
            ("amount", _I64), ("to_amount", _I64), ("all_in", _B), ("pot_after", _I64),
            ("stack_after", _I64), ("line", _I32),
        ]
    ),
    "cards": pa.schema(
        [
            ("hand_key", _S), ("player", _S), ("street", _S), ("position", _I32),
            ("card", _S), ("visibility", _S), ("shown", _B),
        ]
    ),
    "pots": pa.schema(
        [
            ("hand_key", _S), ("pot_index", _I32), ("amount", _I64),
            ("eligible", pa.list_(_S)), ("winners", pa.list_(_S)), ("shares", pa.list_(_I64)),
        ]
    ),
    "allin_ev": pa.schema(
        [
            ("hand_key", _S), ("player", _S), ("street", _S), ("equity", _F),
            ("ev_won", _F), ("ev_net", _F), ("exact", _B), ("std_error", _F),
        ]
    ),
    "violations": pa.schema(
        [
            ("hand_key", _S), ("rule", _S), ("severity", _S), ("line", _I32),
            ("expected", _S), ("actual", _S), ("message", _S),
            ("consequence_of_rule", _S), ("consequence_of_line", _I32),
        ]
    ),
    "rejects": pa.schema(
        [
            ("file_id", _I64), ("source", _S), ("hand_id", _S), ("first_line", _I32),
            ("line", _I32), ("col", _I32), ("stage", _S), ("error", _S), ("line_text", _S),
            ("raw_text", _S),
        ]
    ),
    "skipped": pa.schema(
        [
            ("file_id", _I64), ("source", _S), ("hand_id", _S), ("first_line", _I32),
            ("game", _S), ("reason", _S),
        ]
    ),
}
TABLES: tuple[str, ...] = tuple(SCHEMAS)
HAND_TABLES: tuple[str, ...] = (
    "hands", "players", "actions", "cards", "pots", "allin_ev", "violations"
)
"""The tables whose rows belong to a stored hand (by `hand_key`)."""


def micros(moment: datetime) -> int:
    """Microseconds since 1970 UTC: Arrow builds timestamps from these without pandas.

    >>> micros(datetime(1970, 1, 1, 0, 0, 1, 5, tzinfo=UTC))
    1000005
    """
    return (moment - _EPOCH) // _MICRO


def hand_key(site: str, hand_id: str) -> str:
    """The store's identity of a hand.

    >>> hand_key("PokerStars", "35874566077")
    'PokerStars:35874566077'
    """
    return f"{site}:{hand_id}"


@lru_cache(maxsize=256)
def stakes_text(unit: Unit, currency: str | None, small_bet: int, big_bet: int) -> str:
    """The stakes as the header prints them.

    >>> stakes_text(Unit.CENT, "USD", 4, 8), stakes_text(Unit.CHIP, None, 50, 100)
    ('$0.04/$0.08', '50/100')
    """
    return f"{amount_text(small_bet, unit, currency)}/{amount_text(big_bet, unit, currency)}"


ALLIN_EV_OFF = "RAZZ_NO_ALLIN_EV"
"""Set (to anything but empty) in the environment, the workers store no all-in EV: for
`benchmarks/import.py`, which times the import with and without it in the same run."""


class RowBuilder:
    """Gathers the rows of many hands, rejects and skipped hands; `tables()` makes Arrow tables."""

    def __init__(self, allin: bool | None = None) -> None:
        self._rows: dict[str, list[tuple[Any, ...]]] = {name: [] for name in TABLES}
        self.allin = not os.environ.get(ALLIN_EV_OFF) if allin is None else allin

    def __len__(self) -> int:
        return len(self._rows["hands"])

    def add_hand(self, hand: Hand, result: HandResult, file_id: int) -> None:
        """Add a parsed hand and what its audit computed."""
        h = hand.header
        key = hand_key(h.site, h.hand_id)
        rows = self._rows
        # the hand's counts are of violations: a consequence of another finding is not one
        violations = errors = 0
        for f in result.findings:
            if f.consequence_of is None:
                violations += 1
                errors += f.severity is Severity.ERROR
        # (list comprehensions and loops here, not generators: this runs for every hand)
        hero = None
        players = []
        for p in result.players:
            if p.is_hero and hero is None:
                hero = p.player
            s3, s4, s5, s6, s7 = streets = p.streets
            folded = None  # the street the player folded on
            for s in streets:
                if s.folded:
                    folded = s.street.value
                    break
            players.append(
                (
                    key, p.seat, p.player, p.is_hero, p.starting_stack, p.final_stack, p.ante,
                    p.invested, p.collected, p.net,
                    s3.invested, s4.invested, s5.invested, s6.invested, s7.invested,
                    s4.saw, s5.saw, s6.saw, s7.saw,
                    s3.bets, s4.bets, s5.bets, s6.bets, s7.bets,
                    s3.completes,
                    s3.raises, s4.raises, s5.raises, s6.raises, s7.raises,
                    s3.calls, s4.calls, s5.calls, s6.calls, s7.calls,
                    s3.checks, s4.checks, s5.checks, s6.checks, s7.checks,
                    folded, p.posted_bring_in, p.bring_in_completed, p.bring_in_folded, p.vpip,
                    p.faced_completion, p.folded_to_completion, p.steal_attempt,
                    p.steal_success, p.went_to_showdown, p.won_at_showdown, p.showdown_won,
                    p.final_low, list(p.starting_cards) or None, p.door_card, p.all_in,
                )
            )
        rows["hands"].append(
            (
                key, h.site, h.hand_id, h.game, h.mixed, h.kind.value, h.small_bet, h.big_bet,
                result.ante, result.bring_in,
                stakes_text(h.unit, h.currency, h.small_bet, h.big_bet),
                h.unit.value, h.currency, h.play_money, h.table, h.max_seats, h.tournament_id,
                list(h.buy_in) or None, h.level, micros(h.started_at), h.started_text,
                len(result.players), hero, result.total_pot, result.rake, result.community_card,
                result.went_to_showdown, violations, errors, file_id, h.source,
                h.first_line, hand.text, title_of(h.site),
            )
        )
        rows["players"] += players
        rows["actions"] += [
            (
                key, a.seq, a.street, a.player, a.kind, a.amount, a.to_amount, a.all_in,
                a.pot_after, a.stack_after, a.line,
            )
            for a in result.actions
        ]
        rows["cards"] += [
            (key, c.player, c.street, c.position, c.card, c.visibility, c.shown)
            for c in result.cards
        ]
        rows["pots"] += [
            (key, pot.index, pot.amount, list(pot.eligible), list(pot.winners), list(pot.shares))
            for pot in result.pots
        ]
        if self.allin:
            try:
                found = allin_ev(result)
            except Exception:  # a bug of ours in all-in EV must never lose the hand
                found = ()
            rows["allin_ev"].extend(
                (key, e.player, e.street, e.equity, e.ev_won, e.ev_net, e.exact, e.std_error)
                for e in found
            )
        if result.findings:
            rows["violations"] += [
                (key, f.rule, f.severity.value, f.line, f.expected, f.actual, f.message,
                 *((None, None) if f.consequence_of is None
                   else (f.consequence_of.rule, f.consequence_of.line)))
                for f in result.findings
            ]

    def add_parse_error(self, error: ParseError, file_id: int) -> None:
        """Add a hand that could not be read."""
        self._rows["rejects"].append(
            (
                file_id, error.source, error.hand_id, error.first_line, error.line, error.column,
                "parse", error.message, error.line_text, error.text,
            )
        )

    def add_audit_failure(self, hand: Hand, error: BaseException, file_id: int) -> None:
        """Add a hand that was read but that the auditor could not replay (kept, with its text)."""
        h = hand.header
        first = hand.text.split("\n", 1)[0]
        self._rows["rejects"].append(
            (
                file_id, h.source, h.hand_id, h.first_line, h.first_line, 0, "audit",
                f"the audit failed: {type(error).__name__}: {error}", first, hand.text,
            )
        )

    def add_skipped(self, skipped: SkippedHand, file_id: int) -> None:
        """Add a hand of another game."""
        self._rows["skipped"].append(
            (file_id, skipped.source, skipped.hand_id, skipped.first_line, skipped.game,
             skipped.reason)
        )

    def tables(self) -> Tables:
        """One Arrow table per store table (empty ones included)."""
        return {name: _table(SCHEMAS[name], rows) for name, rows in self._rows.items()}


def _table(schema: pa.Schema, rows: list[tuple[Any, ...]]) -> pa.Table:
    if not rows:
        return empty_table(schema)
    columns: Iterable[tuple[Any, ...]] = zip(*rows, strict=True)
    return pa.Table.from_arrays(
        [pa.array(col, type=f.type) for col, f in zip(columns, schema, strict=True)],
        schema=schema,
    )


def empty_tables() -> Tables:
    """A table of each kind, with no rows."""
    return {name: empty_table(schema) for name, schema in SCHEMAS.items()}


def empty_table(schema: pa.Schema) -> pa.Table:
    """A table with no rows; unlike `Schema.empty_table`, it does not make pyarrow load
    pandas (about 50 MB), which the importer process never needs otherwise.

    >>> empty_table(SCHEMAS["allin_ev"]).schema == SCHEMAS["allin_ev"]
    True
    """
    return pa.Table.from_batches([], schema=schema)
