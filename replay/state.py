"""The immutable state of a Razz hand while it is replayed, and the questions it answers.

`HandSetup` is what stays fixed during a hand (seats, stakes, ruleset). `HandState` is what
changes: each player's chips and cards, the street, the betting round and what the end of the
log has said so far. Every transition builds new records and never mutates old ones.

The per-event records are `NamedTuple`s rather than frozen dataclasses, and are built
positionally by the small helpers below: a frozen dataclass costs several microseconds to
build in CPython, a tuple a fraction of one, and a replay builds one or two per line.

>>> from razz.replay.ruleset import POKERSTARS
>>> setup = HandSetup.create(POKERSTARS, "a.txt", "1", 4, 8, 1, 2,
...                          ((1, "ann", 100, 3), (4, "bob", 90, 4)))
>>> state = new_state(setup)
>>> state.players[1].stack, state.phase
(90, <Phase.ANTES: 'antes'>)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, NamedTuple, TypeVar

from razz.parser.events import (
    Board,
    Collect,
    Street,
    TotalPot,
    Unit,
)
from razz.parser.events import (
    SeatResult as SummarySeat,
)
from razz.parser.sites.base import POKERSTARS_DIALECT, Dialect
from razz.replay.findings import Finding, Severity
from razz.replay.ruleset import Ruleset

T = TypeVar("T")
_SYMBOLS = {"USD": "$", "EUR": "€", "GBP": "£", "INR": "₹"}
# Enum properties are slow in CPython: streets' numbers and bet sizes, looked up once.
NUMBER: dict[Street | None, int] = {s: s.number for s in Street}
BIG_STREETS = frozenset(s for s in Street if s.is_big_bet)
UNKNOWN = ""  # a card that was dealt but not seen (an opponent's down card)
NO_FINDINGS: tuple[Finding, ...] = ()


class Phase(StrEnum):
    """Where the hand is."""

    ANTES = "antes"  # seats are known; antes are being posted
    DEALING = "dealing"  # a street's cards are being dealt
    BETTING = "betting"  # a betting round is open (it may be complete: see `Round.to_act`)
    SHOWDOWN = "showdown"  # the betting is over with two or more players left
    SUMMARY = "summary"  # the log's summary section


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """A seated player as the seat line gives them."""

    seat: int
    name: str
    stack: int  # at the start of the hand
    line: int


@dataclass(frozen=True, slots=True)
class HandSetup:
    """What stays fixed during a hand."""

    ruleset: Ruleset
    source: str
    hand_id: str
    small_bet: int
    big_bet: int
    ante: int | None  # the ante every player owes (None: no ante known)
    bring_in: int | None  # the bring-in amount (None: not known)
    seats: tuple[SeatInfo, ...]  # in seat order, which is the clockwise order
    tournament: bool = False
    unit: Unit = Unit.CHIP
    currency: str | None = None
    index: dict[str, int] = field(default_factory=dict, compare=False)
    dialect: Dialect = POKERSTARS_DIALECT  # what the log's format promises to write

    @classmethod
    def create(
        cls,
        ruleset: Ruleset,
        source: str,
        hand_id: str,
        small_bet: int,
        big_bet: int,
        ante: int | None,
        bring_in: int | None,
        seats: Sequence[tuple[int, str, int, int]],
        *,
        tournament: bool = False,
        unit: Unit = Unit.CHIP,
        currency: str | None = None,
        dialect: Dialect = POKERSTARS_DIALECT,
    ) -> HandSetup:
        """A setup from `(seat, name, stack, line)` tuples, sorted into seat order."""
        infos = tuple(SeatInfo(*s) for s in sorted(seats))
        index = {s.name: i for i, s in enumerate(infos)}
        return cls(
            ruleset,
            source,
            hand_id,
            small_bet,
            big_bet,
            ante,
            bring_in,
            infos,
            tournament,
            unit,
            currency,
            index,
            dialect,
        )

    def name(self, i: int) -> str:
        return self.seats[i].name

    def money(self, amount: int | None) -> str:
        """An amount as the log writes it: `$0.04` for cents, `40` for chips."""
        return format_money(amount, self.unit, self.currency)


def format_money(amount: int | None, unit: Unit, currency: str | None) -> str:
    """An amount as a player reads it: `$0.04` for cents of dollars, `40` for chips.

    >>> format_money(4, Unit.CENT, "USD"), format_money(1500, Unit.CHIP, None)
    ('$0.04', '1500')
    """
    if amount is None:
        return "none"
    if unit is Unit.CENT:
        sign = "-" if amount < 0 else ""
        symbol = _SYMBOLS.get(currency or "USD", "")
        return f"{sign}{symbol}{abs(amount) // 100}.{abs(amount) % 100:02d}"
    return str(amount)


class PlayerState(NamedTuple):
    """One player's chips and cards."""

    stack: int  # chips behind
    committed: int  # put in the pot this hand (ante included, uncalled bets returned)
    street_bet: int  # put in on the current street
    dealt_in: bool
    folded: bool
    all_in: bool
    cards: tuple[str, ...]  # in deal order (positions 1 … 7); UNKNOWN for an unseen card


class Round(NamedTuple):
    """The betting round of the current street."""

    level: int  # the highest street total so far (what a call must reach)
    full_level: int  # the highest total reached by a full bet, completion or raise
    bets: int  # the bet or completion, then raises: what the cap counts
    acted: frozenset[int]  # acted since the last full wager: they may call or fold, not raise
    to_act: int | None  # whose turn it is; None when the round is complete
    opener: int | None  # who had to open the round (bring-in, or best board)
    aggressor: int | None  # the last player to bet, complete or raise
    capped_line: int  # line of `Betting is capped` on this street (0: none)
    cap_at: int  # line of the wager that reached the cap (0: not reached)
    actions: int  # betting actions taken on this street


class Deal(NamedTuple):
    """Dealing facts that live longer than a street."""

    bring_in: int | None  # who had to bring in, by the rules (None before the 3rd-street deal)
    brought_in: bool  # the bring-in was posted or completed
    hero: int | None  # the player whose down cards the log shows
    community: str | None
    street_line: int  # line of the current street's marker
    folded_on: tuple[Street | None, ...]  # where each player folded
    antes: tuple[int, ...]  # the ante each player posted
    seen: int  # every card seen so far, as a bitmask of `cards.BIT` (DEAL-UNIQUE)


class Record(NamedTuple):
    """What the end of the log says, kept for the checks that need the whole hand."""

    returned: tuple[tuple[int, int, int], ...]  # (player, amount, line) of uncalled bets
    shows: tuple[tuple[int, bool, int], ...]  # (player, showed, line) at the showdown, in order
    shown: frozenset[int]  # players who showed cards (at the showdown or voluntarily)
    collects: tuple[tuple[int, Collect], ...]
    seat_results: tuple[SummarySeat, ...]
    total: TotalPot | None
    board: Board | None
    showdown_line: int  # 0: no `*** SHOW DOWN ***`
    summary_line: int  # 0: no `*** SUMMARY ***`
    cancelled: bool


class HandState(NamedTuple):
    """The whole state of a hand between two lines of its log."""

    setup: HandSetup
    players: tuple[PlayerState, ...]
    phase: Phase
    street: Street | None
    round: Round
    deal: Deal
    record: Record


_FIELDS: dict[type, dict[str, int]] = {
    cls: {name: k for k, name in enumerate(cls._fields)}
    for cls in (PlayerState, Round, Deal, Record, HandState)
}
# `new_tuple(Round, (…))` is `Round(…)` without the Python-level `__new__` of a NamedTuple:
# the same record, built in one C call, its values unchecked (for the per-line hot paths).
new_tuple: Any = tuple.__new__
_RECORD_INDEX = _FIELDS[Record]


def evolve(record: T, **changes: object) -> T:
    """`record._replace(**changes)` for the state records, several times faster.

    >>> evolve(EMPTY_ROUND, level=4).level
    4
    """
    values = list(record)  # type: ignore[call-overload]
    index = _FIELDS[type(record)]
    for name, value in changes.items():
        values[index[name]] = value
    result: T = new_tuple(type(record), values)
    return result


EMPTY_ROUND = Round(0, 0, 0, frozenset(), None, None, None, 0, 0, 0)
EMPTY_RECORD = Record((), (), frozenset(), (), (), None, None, 0, 0, False)


def new_state(setup: HandSetup) -> HandState:
    """The state before the first ante: every seated player with their stack and no cards."""
    players = tuple(PlayerState(s.stack, 0, 0, False, False, False, ()) for s in setup.seats)
    deal = Deal(None, False, None, None, 0, (None,) * len(players), (0,) * len(players), 0)
    return HandState(setup, players, Phase.ANTES, None, EMPTY_ROUND, deal, EMPTY_RECORD)


# ------------------------------------------------------------------ building new states


def with_player(state: HandState, i: int, player: PlayerState) -> HandState:
    players = state.players
    return new_tuple(
        HandState,
        (
            state.setup,
            (*players[:i], player, *players[i + 1 :]),
            state.phase,
            state.street,
            state.round,
            state.deal,
            state.record,
        ),
    )


def with_round(state: HandState, rnd: Round, players: tuple[PlayerState, ...]) -> HandState:
    return new_tuple(
        HandState, (state.setup, players, state.phase, state.street, rnd, state.deal, state.record)
    )


def set_round(state: HandState, rnd: Round) -> HandState:
    return new_tuple(
        HandState,
        (state.setup, state.players, state.phase, state.street, rnd, state.deal, state.record),
    )


def set_deal(state: HandState, deal: Deal) -> HandState:
    return new_tuple(
        HandState,
        (state.setup, state.players, state.phase, state.street, state.round, deal, state.record),
    )


def set_record(state: HandState, record: Record) -> HandState:
    return new_tuple(
        HandState,
        (state.setup, state.players, state.phase, state.street, state.round, state.deal, record),
    )


def set_phase(state: HandState, phase: Phase) -> HandState:
    return new_tuple(
        HandState,
        (state.setup, state.players, phase, state.street, state.round, state.deal, state.record),
    )


def with_seen(deal: Deal, seen: int) -> Deal:
    return new_tuple(
        Deal,
        (
            deal.bring_in,
            deal.brought_in,
            deal.hero,
            deal.community,
            deal.street_line,
            deal.folded_on,
            deal.antes,
            seen,
        ),
    )


def with_fold(deal: Deal, i: int, street: Street | None) -> Deal:
    """The deal after player `i` folded on `street`."""
    folded_on = deal.folded_on
    return new_tuple(
        Deal,
        (
            deal.bring_in,
            deal.brought_in,
            deal.hero,
            deal.community,
            deal.street_line,
            (*folded_on[:i], street, *folded_on[i + 1 :]),
            deal.antes,
            deal.seen,
        ),
    )


def with_ante(deal: Deal, i: int, amount: int) -> Deal:
    """The deal after player `i` posted `amount` of ante."""
    antes = deal.antes
    return new_tuple(
        Deal,
        (
            deal.bring_in,
            deal.brought_in,
            deal.hero,
            deal.community,
            deal.street_line,
            deal.folded_on,
            (*antes[:i], antes[i] + amount, *antes[i + 1 :]),
            deal.seen,
        ),
    )


def put_in(p: PlayerState, amount: int, all_in: bool) -> PlayerState:
    """The player after putting `amount` in the pot (never below zero chips behind)."""
    stack = p.stack - amount
    result: PlayerState = new_tuple(
        PlayerState,
        (
            stack if stack > 0 else 0,
            p.committed + amount,
            p.street_bet + amount,
            p.dealt_in,
            p.folded,
            all_in or stack <= 0,
            p.cards,
        ),
    )
    return result


def take_back(p: PlayerState, amount: int) -> PlayerState:
    """The player after an uncalled bet is returned."""
    return new_tuple(
        PlayerState,
        (
            p.stack + amount,
            p.committed - amount,
            p.street_bet - amount,
            p.dealt_in,
            p.folded,
            p.all_in and p.stack + amount == 0,
            p.cards,
        ),
    )


def folded(p: PlayerState) -> PlayerState:
    return new_tuple(
        PlayerState, (p.stack, p.committed, p.street_bet, p.dealt_in, True, p.all_in, p.cards)
    )


def with_cards(p: PlayerState, cards: tuple[str, ...]) -> PlayerState:
    return new_tuple(
        PlayerState, (p.stack, p.committed, p.street_bet, True, p.folded, p.all_in, cards)
    )


def posted_ante(p: PlayerState, amount: int, all_in: bool) -> PlayerState:
    stack = p.stack - amount
    return new_tuple(
        PlayerState,
        (max(stack, 0), p.committed + amount, 0, True, p.folded, all_in or stack <= 0, p.cards),
    )


def collected(p: PlayerState, amount: int) -> PlayerState:
    return new_tuple(
        PlayerState,
        (p.stack + amount, p.committed, p.street_bet, p.dealt_in, p.folded, p.all_in, p.cards),
    )


def street_reset(p: PlayerState) -> PlayerState:
    return new_tuple(
        PlayerState, (p.stack, p.committed, 0, p.dealt_in, p.folded, p.all_in, p.cards)
    )


# ------------------------------------------------------------------------------ questions


def in_hand(p: PlayerState) -> bool:
    """Dealt in and not folded."""
    return p.dealt_in and not p.folded


def can_act(p: PlayerState) -> bool:
    """Dealt in, not folded and with chips behind."""
    return p.dealt_in and not p.folded and not p.all_in


def live(state: HandState) -> list[int]:
    """Indices of the players still in the hand."""
    return [i for i, p in enumerate(state.players) if p.dealt_in and not p.folded]


def pot_total(state: HandState) -> int:
    """Everything put in the pot so far (uncalled bets returned)."""
    return sum(p.committed for p in state.players)


def bet_unit(setup: HandSetup, street: Street | None) -> int:
    """The size of a bet or raise on a street: small bet on 3rd and 4th, big bet after."""
    return setup.big_bet if street in BIG_STREETS else setup.small_bet


def up_cards(p: PlayerState) -> tuple[str, ...]:
    """The exposed cards: the door card and the 4th to 6th street cards."""
    return p.cards[2:6]


def known_cards(p: PlayerState) -> list[str]:
    return [c for c in p.cards if c]


def uncalled(state: HandState) -> tuple[int, int] | None:
    """(player, amount) of a bet nobody called, when the betting has ended with one.

    The excess of the biggest contribution over the second biggest goes back to its owner.
    """
    top, first, second = -1, 0, 0
    for i, p in enumerate(state.players):
        c = p.committed
        if c > first:
            top, first, second = i, c, first
        elif c > second:
            second = c
    if top < 0:
        return None
    # Only chips put in on this street can be uncalled; earlier streets were called.
    excess = min(first - second, state.players[top].street_bet)
    return (top, excess) if excess > 0 else None


def make_finding(
    setup: HandSetup,
    rule: str,
    line: int,
    expected: object,
    actual: object,
    message: str,
    severity: Severity = Severity.ERROR,
) -> Finding:
    return Finding(
        rule=str(rule),
        severity=severity,
        source=setup.source,
        hand_id=setup.hand_id,
        line=line,
        expected=str(expected),
        actual=str(actual),
        message=message,
    )


def with_record(state: HandState, **changes: object) -> HandState:
    """The state with some fields of its end-of-log record changed."""
    values: list[Any] = list(state.record)
    index = _RECORD_INDEX
    for name, value in changes.items():
        values[index[name]] = value
    return HandState(
        state.setup,
        state.players,
        state.phase,
        state.street,
        state.round,
        state.deal,
        new_tuple(Record, values),
    )


def with_deal(state: HandState, **changes: object) -> HandState:
    return set_deal(state, evolve(state.deal, **changes))
