"""The Razz rules engine: replay a hand's events one by one against every rule that applies.

`step(state, event)` checks one event and applies it, returning the new state and what the
event broke; `finish(state)` runs the checks that need the whole hand and settles the pots.
`replay(hand)` does both for a parsed hand, collecting findings (or, strict, raising
`RuleViolation` at the first error). A malformed hand never raises: it yields findings.

For a simulator, the same engine is a legal-move generator: `new_hand`, then `ante_due`,
`players_to_deal` / `community_needed` with `Dealt` events, `legal_actions` (each item's
`to_event(line)` is the event to `apply`), `uncalled_bet` after each round, `next_street`,
`hand_over`, `show_order` and `settle`.

>>> from razz.parser.events import PostAnte, StreetStart, Dealt, Street
>>> state = new_hand(POKERSTARS, ((1, "ann", 100), (2, "bob", 100)), 4, 8, ante=1, bring_in=2)
>>> for name, amount, all_in in ante_due(state):
...     state = apply(state, PostAnte(0, name, amount, all_in))
>>> state = apply(state, StreetStart(0, Street.THIRD))
>>> state = apply(state, Dealt(0, "ann", Street.THIRD, (), ("??", "??", "Kc"), False))
>>> state = apply(state, Dealt(0, "bob", Street.THIRD, (), ("??", "??", "4d"), False))
>>> next_actor(state), [a.kind.value for a in legal_actions(state)]
('ann', ['bring_in', 'complete'])
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from razz.parser import sites
from razz.parser.events import (
    STREETS,
    Bet,
    BettingCapped,
    Board,
    BringIn,
    Call,
    Check,
    Collect,
    Complete,
    Dealt,
    Event,
    Fold,
    GameKind,
    Hand,
    HandCancelled,
    Muck,
    PostAnte,
    Raise,
    SeatLine,
    SeatResult,
    Show,
    ShowDown,
    Street,
    StreetStart,
    Summary,
    TotalPot,
    UncalledBet,
    Unit,
)
from razz.parser.sites.base import POKERSTARS_DIALECT, Dialect
from razz.replay import actions, dealing, endgame
from razz.replay.betting import (
    Action,
    ActionKind,
    close_deal,
    legal_actions,
    next_actor,
    round_over,
)
from razz.replay.closing import finish as _finish
from razz.replay.closing import settle_state
from razz.replay.dealing import community_status
from razz.replay.findings import Finding, RuleViolation, Severity
from razz.replay.order import show_order as _show_order
from razz.replay.pots import Settlement
from razz.replay.rules import RuleId
from razz.replay.ruleset import POKERSTARS, Ruleset
from razz.replay.state import (
    NO_FINDINGS,
    HandSetup,
    HandState,
    Phase,
    in_hand,
    make_finding,
    new_state,
    uncalled,
)

__all__ = [
    "POKERSTARS",
    "Action",
    "ActionKind",
    "Replay",
    "ante_due",
    "apply",
    "community_needed",
    "finish",
    "hand_over",
    "legal_actions",
    "new_hand",
    "next_actor",
    "next_street",
    "players_to_deal",
    "replay",
    "round_over",
    "settle",
    "setup_from_hand",
    "show_order",
    "start",
    "step",
    "uncalled_bet",
]

# Each handler takes the one event class it is registered for: dispatch is on type(event).
Handler = Callable[[HandState, Any], tuple[HandState, tuple[Finding, ...]]]

_HANDLERS: dict[type, Handler] = {
    PostAnte: dealing.on_ante,
    StreetStart: dealing.on_street,
    Dealt: dealing.on_dealt,
    BringIn: actions.on_bring_in,
    Bet: actions.on_bet,
    Complete: actions.on_complete,
    Raise: actions.on_raise,
    Call: actions.on_call,
    Check: actions.on_check,
    Fold: actions.on_fold,
    BettingCapped: actions.on_capped,
    UncalledBet: endgame.on_uncalled,
    ShowDown: endgame.on_showdown,
    Show: endgame.on_show,
    Muck: endgame.on_muck,
    Collect: endgame.on_collect,
    Summary: endgame.on_summary,
    TotalPot: endgame.on_total,
    Board: endgame.on_board,
    SeatResult: endgame.on_seat_result,
    HandCancelled: endgame.on_cancelled,
}


_FIRST_ACTIONS = frozenset((Bet, Complete, Raise, Call, Check, Fold))


@dataclass(frozen=True, slots=True)
class Replay:
    """A replayed hand: its final state, every finding in line order, and the settlement."""

    state: HandState
    findings: tuple[Finding, ...]
    settlement: Settlement


# ------------------------------------------------------------------ a hand from the log


def setup_from_hand(hand: Hand, ruleset: Ruleset = POKERSTARS) -> tuple[HandSetup, list[Finding]]:
    """The fixed facts of a parsed hand, and what its header breaks (STRUCT-LIMIT).

    The ante and bring-in are what the header states (Full Tilt, Winamax, PHH), else what the
    ruleset states for these stakes, else they are read from the hand itself (PokerStars
    headers never print them): the ante most players posted, the first bring-in not posted
    all-in.
    """
    header = hand.header
    seats = []
    antes: Counter[int] = Counter()
    bring_in = None
    first_ante_line = 0
    e: Any  # dispatched on its exact type below
    for e in hand.events:
        kind = type(e)
        if kind is SeatLine:
            if not e.out_of_hand:
                seats.append((e.seat, e.player, e.stack, e.line))
        elif kind is PostAnte:
            first_ante_line = first_ante_line or e.line
            if not e.all_in:
                antes[e.amount] += 1
        elif kind is BringIn:
            if not e.all_in and e.amount is not None:
                bring_in = e.amount
                break
        elif kind in _FIRST_ACTIONS:
            break  # seats, antes and the bring-in all come before the first action
    stated = ruleset.stakes_for(header.unit, header.small_bet, header.big_bet)
    ante = antes.most_common(1)[0][0] if antes else None
    if stated is not None and stated.ante is not None:
        ante = stated.ante
    if stated is not None and stated.bring_in is not None:
        bring_in = stated.bring_in
    if header.ante is not None:
        ante = header.ante
    if header.bring_in is not None:
        bring_in = header.bring_in
    # A seat taken twice keeps its first player: a malformed list must not crash the replay.
    unique: dict[str, tuple[int, str, int, int]] = {}
    for s in seats:
        unique.setdefault(s[1], s)
    setup = HandSetup.create(
        ruleset,
        header.source,
        header.hand_id,
        header.small_bet,
        header.big_bet,
        ante,
        bring_in,
        tuple(unique.values()),
        tournament=header.kind is GameKind.TOURNAMENT,
        unit=header.unit,
        currency=header.currency,
        dialect=dialect_of(header.site),
    )
    found: list[Finding] = []
    money = setup.money
    if header.big_bet != 2 * header.small_bet or header.limit.lower() != "limit":
        found.append(
            make_finding(
                setup,
                RuleId.STRUCT_LIMIT,
                header.first_line,
                f"Limit, {money(header.small_bet)}/{money(2 * header.small_bet)}",
                f"{header.limit}, {money(header.small_bet)}/{money(header.big_bet)}",
                "Razz is fixed-limit with a big bet twice the small bet.",
            )
        )
    if ante is not None and ante >= header.small_bet:
        found.append(
            make_finding(
                setup,
                RuleId.STRUCT_ANTE,
                first_ante_line,
                f"less than {money(header.small_bet)}",
                money(ante),
                f"The ante is a fraction of the small bet; {money(ante)} is not.",
            )
        )
    return setup, found


def dialect_of(site: str) -> Dialect:
    """What the log format of a hand's site promises (PokerStars' for a site not registered).

    >>> dialect_of("KingsClub").total_pot, dialect_of("PokerStars").total_pot
    (False, True)
    """
    try:
        return sites.by_name(site).dialect
    except KeyError:
        return POKERSTARS_DIALECT


def start(hand: Hand, ruleset: Ruleset = POKERSTARS) -> tuple[HandState, tuple[Finding, ...]]:
    """The state before the first line of a parsed hand, and what its header breaks."""
    setup, found = setup_from_hand(hand, ruleset)
    return new_state(setup), tuple(found)


def step(state: HandState, event: Event) -> tuple[HandState, tuple[Finding, ...]]:
    """Check one event against the rules and apply it as written.

    >>> from razz.parser.events import Check
    >>> state = new_hand(POKERSTARS, ((1, "ann", 100),), 4, 8)
    >>> step(state, Check(7, "zed"))[1][0].rule
    'ACT-TURN'
    """
    handler = _HANDLERS.get(type(event))
    if handler is None:  # seat lines, noise, tournament lines: nothing to check or change
        return state, NO_FINDINGS
    return handler(state, event)


def apply(state: HandState, event: Event) -> HandState:
    """Apply one event, ignoring what it breaks (for a simulator applying legal moves)."""
    return step(state, event)[0]


def finish(
    state: HandState, last_line: int = 0
) -> tuple[HandState, tuple[Finding, ...], Settlement]:
    """Close the hand: checks that need all of it, and the pots, winners and shares."""
    state, found, settlement = _finish(state, last_line)
    return state, tuple(found), settlement


def replay(hand: Hand, ruleset: Ruleset = POKERSTARS, *, strict: bool = False) -> Replay:
    """Replay a parsed hand: every finding in line order, and the settlement.

    Strict mode raises `RuleViolation` at the first finding of severity `error`.
    """
    state, found = start(hand, ruleset)
    findings = list(found)
    if strict:
        _raise_first(findings)
    last_line = hand.header.first_line
    for event in hand.events:
        state, new = step(state, event)
        if new:
            findings.extend(new)
            if strict:
                _raise_first(new)
        last_line = event.line
    state, new, settlement = finish(state, last_line)
    findings.extend(new)
    if strict:
        _raise_first(new)
    findings.sort(key=lambda f: f.line)
    return Replay(state, tuple(findings), settlement)


def _raise_first(findings: Sequence[Finding]) -> None:
    for f in findings:
        if f.severity is Severity.ERROR:
            raise RuleViolation(f)


# ------------------------------------------------------------------ a simulated hand


def new_hand(
    ruleset: Ruleset,
    seats: Sequence[tuple[int, str, int]],
    small_bet: int,
    big_bet: int,
    *,
    ante: int | None = None,
    bring_in: int | None = None,
    hand_id: str = "0",
    source: str = "<simulated>",
    tournament: bool = False,
    unit: Unit = Unit.CHIP,
    currency: str | None = None,
) -> HandState:
    """The state of a new hand from `(seat, name, stack)` seats (for a simulator)."""
    setup = HandSetup.create(
        ruleset,
        source,
        hand_id,
        small_bet,
        big_bet,
        ante,
        bring_in,
        tuple((seat, name, stack, 0) for seat, name, stack in seats),
        tournament=tournament,
        unit=unit,
        currency=currency,
    )
    return new_state(setup)


def ante_due(state: HandState) -> tuple[tuple[str, int, bool], ...]:
    """(player, amount, all-in) for every seated player with chips who still owes the ante."""
    setup = state.setup
    if setup.ante is None or state.phase is not Phase.ANTES:
        return ()
    due = []
    for i, p in enumerate(state.players):
        if not state.deal.antes[i] and p.stack > 0:
            amount = min(setup.ante, p.stack)
            due.append((setup.name(i), amount, amount == p.stack))
    return tuple(due)


def next_street(state: HandState) -> Street | None:
    """The street to deal next (after its `StreetStart`), or None: betting on, or hand over."""
    if state.phase is Phase.ANTES:
        return Street.THIRD
    if state.phase is Phase.DEALING:
        state = close_deal(state)
    if state.phase is not Phase.BETTING or state.round.to_act is not None:
        return None
    if sum(1 for p in state.players if in_hand(p)) <= 1 or state.street is Street.SEVENTH:
        return None
    assert state.street is not None
    return STREETS[STREETS.index(state.street) + 1]


def hand_over(state: HandState) -> bool:
    """Whether no more betting or dealing will happen: time for the showdown or the pot."""
    return state.phase is not Phase.ANTES and round_over(state) and next_street(state) is None


def players_to_deal(state: HandState) -> tuple[str, ...]:
    """Who gets a card on the street just started: every player still in the hand."""
    return tuple(
        state.setup.name(i)
        for i, p in enumerate(state.players)
        if in_hand(p) or (state.street is Street.THIRD and state.deal.antes[i])
    )


def community_needed(state: HandState) -> bool:
    """Whether the deck is too short for a river card each: deal one community card instead."""
    return community_status(state)[0]


def show_order(state: HandState) -> tuple[str, ...]:
    """The order in which the players left show their hands at the showdown (SHOW-ORDER)."""
    settlement = settle_state(state)
    setup = state.setup
    contenders = [i for i, p in enumerate(state.players) if in_hand(p)]
    eligible = [[setup.index[n] for n in pot.eligible] for pot in settlement.pots]
    return tuple(setup.name(i) for i in _show_order(state, contenders, eligible))


def uncalled_bet(state: HandState) -> tuple[str, int] | None:
    """(player, amount) of a bet nobody called, to return now that the round is over.

    None while the round is still going, or when every bet was called (ACT-UNCALLED).
    """
    if not round_over(state) and sum(1 for p in state.players if in_hand(p)) > 1:
        return None
    pending = uncalled(state)
    return (state.setup.name(pending[0]), pending[1]) if pending else None


def settle(
    state: HandState, *, rake: int = 0, hands: Mapping[str, Sequence[str]] | None = None
) -> Settlement:
    """Pots, winners and shares of a finished hand; `hands` gives players' full cards by name
    when the state was only told the up cards."""
    by_index = {state.setup.index[n]: cards for n, cards in (hands or {}).items()}
    return settle_state(state, rake, by_index or None)
