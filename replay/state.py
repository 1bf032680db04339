"""The state of one Razz hand while it is replayed, and the questions it answers.

`HandSetup` is what stays fixed during a hand (seats, stakes, ruleset): frozen. `HandState`
is what changes: each player's chips and cards, the street, the betting round, the deal and
what the end of the log has said so far. It is one mutable object per hand, advanced event
by event by `transitions` (the only module that writes it), the way python-chess's `Board`
and PokerKit's `State` are; the checks only read it (see `checks`).

>>> from razz.replay.ruleset import POKERSTARS
>>> setup = HandSetup.create(POKERSTARS, "a.txt", "1", 4, 8, 1, 2,
...                          ((1, "ann", 100, 3), (4, "bob", 90, 4)))
>>> state = HandState.new(setup)
>>> state.players[1].stack, state.phase
(90, <Phase.ANTES: 'antes'>)
>>> state.copy() == state
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import NamedTuple

from razz.parser.amounts import CURRENCY_SYMBOLS
from razz.parser.events import Board, Collect, SeatResult, Street, TotalPot, Unit
from razz.parser.sites.base import POKERSTARS_DIALECT, Dialect
from razz.replay.findings import Finding, Severity
from razz.replay.game import BIG_BET_STREETS, UP_CARDS
from razz.replay.ruleset import Ruleset

UNKNOWN = ""  # a card that was dealt but not seen (an opponent's down card)
NO_FINDINGS: tuple[Finding, ...] = ()


class Phase(StrEnum):
    """Where the hand is."""

    ANTES = "antes"  # seats are known; antes are being posted
    DEALING = "dealing"  # a street's cards are being dealt
    BETTING = "betting"  # a betting round is open (it may be complete: see `Round.to_act`)
    SHOWDOWN = "showdown"  # the betting is over with two or more players left
    SUMMARY = "summary"  # the log's summary section


# The phases by name, as `game.FIRST_STREET` names a street, for the replay's questions (about
# 150 a hand): on Python 3.11 a member read from its enum (`Phase.BETTING`) goes through the
# metaclass's `__getattr__` hook, some ten times the cost of reading a global.
ANTES, DEALING, BETTING, SHOWDOWN, SUMMARY = (
    Phase.ANTES,
    Phase.DEALING,
    Phase.BETTING,
    Phase.SHOWDOWN,
    Phase.SUMMARY,
)


class SeatInfo(NamedTuple):
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
    # The ante most players posted in full, whatever the header or the ruleset states (the
    # hand's ante in the results; None when nobody posted one in full).
    posted_ante: int | None = None
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
        posted_ante: int | None = None,
        dialect: Dialect = POKERSTARS_DIALECT,
    ) -> HandSetup:
        """A setup from `(seat, name, stack, line)` tuples, sorted into seat order."""
        infos = tuple(SeatInfo(*s) for s in sorted(seats))
        return cls(
            ruleset=ruleset,
            source=source,
            hand_id=hand_id,
            small_bet=small_bet,
            big_bet=big_bet,
            ante=ante,
            bring_in=bring_in,
            seats=infos,
            tournament=tournament,
            unit=unit,
            currency=currency,
            index={s.name: i for i, s in enumerate(infos)},
            posted_ante=posted_ante,
            dialect=dialect,
        )

    def name(self, i: int) -> str:
        return self.seats[i].name

    def money(self, amount: int | None) -> str:
        """An amount as the log writes it: `$0.04` for cents, `40` for chips."""
        return format_money(amount, self.unit, self.currency)

    def bet_unit(self, street: Street | None) -> int:
        """The size of a bet or raise on a street (`game.BET_SIZE`): small or big bet."""
        return self.big_bet if street in BIG_BET_STREETS else self.small_bet


def format_money(amount: int | None, unit: Unit, currency: str | None) -> str:
    """An amount as a player reads it: `$0.04` for cents of dollars, `40` for chips.

    >>> format_money(4, Unit.CENT, "USD"), format_money(1500, Unit.CHIP, None)
    ('$0.04', '1500')
    """
    if amount is None:
        return "none"
    if unit is Unit.CENT:
        sign = "-" if amount < 0 else ""
        symbol = CURRENCY_SYMBOLS.get(currency or "USD", "")
        return f"{sign}{symbol}{abs(amount) // 100}.{abs(amount) % 100:02d}"
    return str(amount)


@dataclass(slots=True)
class PlayerState:
    """One player's chips and cards."""

    stack: int  # chips behind
    committed: int = 0  # put in the pot this hand (ante included, uncalled bets returned)
    street_bet: int = 0  # put in on the current street
    dealt_in: bool = False
    folded: bool = False
    all_in: bool = False
    cards: tuple[str, ...] = ()  # in deal order (positions 1 … 7); UNKNOWN for an unseen card

    def copy(self) -> PlayerState:
        return PlayerState(
            self.stack,
            self.committed,
            self.street_bet,
            self.dealt_in,
            self.folded,
            self.all_in,
            self.cards,
        )


@dataclass(slots=True)
class Round:
    """The betting round of the current street."""

    level: int = 0  # the highest street total so far (what a call must reach)
    full_level: int = 0  # the highest total reached by a full bet, completion or raise
    bets: int = 0  # the bet or completion, then raises: what the cap counts
    acted: set[int] = field(default_factory=set)  # acted since the last full wager
    to_act: int | None = None  # whose turn it is; None when the round is complete
    opener: int | None = None  # who had to open the round (bring-in, or best board)
    aggressor: int | None = None  # the last player to bet, complete or raise
    capped_line: int = 0  # line of `Betting is capped` on this street (0: none)
    cap_at: int = 0  # line of the wager that reached the cap (0: not reached)
    actions: int = 0  # betting actions taken on this street

    def copy(self) -> Round:
        return Round(
            self.level,
            self.full_level,
            self.bets,
            set(self.acted),
            self.to_act,
            self.opener,
            self.aggressor,
            self.capped_line,
            self.cap_at,
            self.actions,
        )


@dataclass(slots=True)
class Deal:
    """Dealing facts that live longer than a street."""

    bring_in: int | None  # who had to bring in, by the rules (None before the 3rd-street deal)
    brought_in: bool  # the bring-in was posted or completed
    hero: int | None  # the player whose down cards the log shows
    community: str | None
    street_line: int  # line of the current street's marker
    folded_on: list[Street | None]  # where each player folded
    antes: list[int]  # the ante each player posted
    seen: int  # every card seen so far, as a bitmask of `cards.BIT` (DEAL-UNIQUE)

    def copy(self) -> Deal:
        return Deal(
            self.bring_in,
            self.brought_in,
            self.hero,
            self.community,
            self.street_line,
            list(self.folded_on),
            list(self.antes),
            self.seen,
        )


@dataclass(slots=True)
class Record:
    """What the end of the log says, kept for the checks that need the whole hand."""

    returned: list[tuple[int, int, int]] = field(default_factory=list)  # (player, amount, line)
    shows: list[tuple[int, bool, int]] = field(default_factory=list)  # (player, showed, line)
    shown: set[int] = field(default_factory=set)  # players who showed cards (at any time)
    collects: list[tuple[int, Collect]] = field(default_factory=list)
    seat_results: list[SeatResult] = field(default_factory=list)
    total: TotalPot | None = None
    board: Board | None = None
    showdown_line: int = 0  # 0: no `*** SHOW DOWN ***`
    summary_line: int = 0  # 0: no `*** SUMMARY ***`
    cancelled: bool = False

    def copy(self) -> Record:
        return Record(
            list(self.returned),
            list(self.shows),
            set(self.shown),
            list(self.collects),
            list(self.seat_results),
            self.total,
            self.board,
            self.showdown_line,
            self.summary_line,
            self.cancelled,
        )


@dataclass(slots=True)
class HandState:
    """The whole state of a hand between two lines of its log (mutable, one per hand)."""

    setup: HandSetup
    players: list[PlayerState]
    phase: Phase
    street: Street | None
    round: Round
    deal: Deal
    record: Record

    @classmethod
    def new(cls, setup: HandSetup) -> HandState:
        """The state before the first ante: every seated player with their stack, no cards."""
        n = len(setup.seats)
        return cls(
            setup,
            [PlayerState(s.stack) for s in setup.seats],
            ANTES,
            None,
            Round(),
            Deal(None, False, None, None, 0, [None] * n, [0] * n, 0),
            Record(),
        )

    def copy(self) -> HandState:
        """An independent copy: changing either never changes the other."""
        return HandState(
            self.setup,
            [p.copy() for p in self.players],
            self.phase,
            self.street,
            self.round.copy(),
            self.deal.copy(),
            self.record.copy(),
        )


# ------------------------------------------------------------------------------ questions


def in_hand(p: PlayerState) -> bool:
    """Dealt in and not folded."""
    return p.dealt_in and not p.folded


def live(state: HandState) -> list[int]:
    """Indices of the players still in the hand."""
    return [i for i, p in enumerate(state.players) if p.dealt_in and not p.folded]


def players_left(state: HandState) -> int:
    """How many players are still in the hand."""
    n = 0
    for p in state.players:
        if p.dealt_in and not p.folded:
            n += 1
    return n


def pot_total(state: HandState) -> int:
    """Everything put in the pot so far (uncalled bets returned)."""
    return sum(p.committed for p in state.players)


def up_cards(p: PlayerState) -> tuple[str, ...]:
    """The exposed cards: the door card and the 4th to 6th street cards (`game.UP_CARDS`)."""
    return p.cards[UP_CARDS]


def ante_excess(state: HandState, i: int) -> int:
    """What player `i` posted as ante beyond every other ante: nobody can match it when all
    the others are all-in on the ante for less (`Hero antes 7`, `Player0 antes 6, and is all
    in`, `Uncalled bet of 1 returned to Hero`)."""
    antes = state.deal.antes
    others = [a for j, a in enumerate(antes) if j != i and a > 0]
    return max(0, antes[i] - max(others)) if others else 0


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
    # (`min` and `max` of two numbers are written as comparisons in the replay's hot paths: on
    # Python 3.11 a call of the builtin costs some eight times a comparison: these ~28 calls
    # a hand were 1.9% of the audit's instructions, 2.216 M -> 2.174 M a hand, callgrind.)
    excess = first - second
    bet = state.players[top].street_bet
    if bet < excess:
        excess = bet
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
    """A finding of this hand."""
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
