"""What a replayed hand computes: pots, winners and each player's analytics.

These records are what the store loads and the dashboard reads, so their field names are
the column names of the `players` and `pots` tables (see `store/schema.sql`). Amounts are
integers in the hand's unit (`HandHeader.unit`).

They are plain slotted records, built once per hand by the audit and only read afterwards.
They are not frozen: a frozen dataclass is built through `object.__setattr__`, one call per
field, which costs six times the instructions of a plain one (15,190 against 2,520 for a
ten-field record, callgrind), and an audit builds about eighty of them per hand, which made
a quarter of the audit's instructions. A player's activity on a street they never reached
(nothing seen, done or put in) is one record per street shared by every hand (the audit's
`_UNSEEN`): a result is never written into once built.
"""

from __future__ import annotations

from dataclasses import dataclass

from razz.parser.events import Street
from razz.replay.findings import Finding
from razz.replay.game import STREET_INDEX


@dataclass(slots=True)
class StreetActivity:
    """One player's activity on one street (the audit counts into it as the hand goes)."""

    street: Street
    saw: bool = False  # dealt this street while still in the hand
    invested: int = 0  # chips put in on this street (after uncalled bets are returned)
    bets: int = 0  # bets (3rd street: completions are counted in `completes`)
    completes: int = 0  # 3rd street only: completions of the bring-in
    raises: int = 0
    calls: int = 0
    checks: int = 0
    folded: bool = False
    all_in: bool = False  # went all-in on this street


@dataclass(slots=True)
class PlayerResult:
    """One player in one hand."""

    seat: int
    player: str
    is_hero: bool  # the file owner: the player whose down cards the log shows
    starting_stack: int
    final_stack: int
    ante: int
    invested: int  # ante + every street, after uncalled bets are returned
    collected: int  # won from all pots
    net: int  # collected - invested
    streets: tuple[StreetActivity, ...]  # 3rd … 7th, always five entries
    # 3rd street
    posted_bring_in: bool
    bring_in_completed: bool  # the bring-in player completed (instead of posting, or later)
    bring_in_folded: bool  # posted the bring-in, then folded on 3rd street
    vpip: bool  # put money in voluntarily on 3rd street (call, complete, raise)
    faced_completion: bool  # had to act facing a completion on 3rd street
    folded_to_completion: bool
    steal_attempt: bool  # completed with only higher door cards left to act
    steal_success: bool  # … and everyone folded
    # later streets
    went_to_showdown: bool
    won_at_showdown: bool
    showdown_won: int  # amount won at showdown
    final_low: str | None  # best five-card low, e.g. "8,6,4,3,2" (None when cards unknown)
    starting_cards: tuple[str, ...]  # the three 3rd-street cards when known, else ()
    door_card: str | None
    all_in: bool

    def street(self, street: Street) -> StreetActivity:
        return self.streets[STREET_INDEX[street]]


@dataclass(slots=True)
class PotResult:
    """A main or side pot: who could win it and who did."""

    index: int  # 0 = main pot, 1 = first side pot …
    amount: int  # before rake
    eligible: tuple[str, ...]
    winners: tuple[str, ...]
    shares: tuple[int, ...]  # amount each winner gets (after rake is taken from the pot)


@dataclass(slots=True)
class ActionRecord:
    """A money-moving or decision line of the hand, with the pot and stack after it."""

    seq: int  # order in the hand, from 0
    street: Street | None  # None for antes, and for lines after the last street
    player: str
    kind: str  # ante, bring_in, complete, bet, raise, call, check, fold, uncalled, collect
    amount: int | None  # increment put in (returned for `uncalled`, won for `collect`)
    to_amount: int | None  # the player's street total after a bet, completion or raise
    all_in: bool
    pot_after: int
    stack_after: int
    line: int


@dataclass(slots=True)
class CardRecord:
    """A card a player held (or the community card), where the log reveals it."""

    player: str | None  # None for the community card
    street: Street  # the street it was dealt on
    position: int  # 1 … 7 in the player's hand (1 for the community card)
    card: str  # "Ah"
    visibility: str  # "up" | "down" | "community"
    shown: bool  # revealed at showdown or by a voluntary show


@dataclass(slots=True)
class HandResult:
    """Everything the replay computed for one hand, and what it found wrong."""

    hand_id: str
    source: str
    ante: int | None  # the ante of the hand (None if no one posted one)
    bring_in: int | None  # the bring-in amount (None when the bring-in player completed)
    bring_in_player: str | None  # who had to bring in, by the rules
    total_pot: int
    rake: int
    community_card: str | None
    went_to_showdown: bool
    players: tuple[PlayerResult, ...]
    pots: tuple[PotResult, ...]
    actions: tuple[ActionRecord, ...]
    cards: tuple[CardRecord, ...]
    findings: tuple[Finding, ...]
