"""The Razz rules engine: replay a hand's lines one by one against every rule that applies.

One mutable `HandState` per hand is advanced line by line: each line is first checked (the
`checks` read the state and return what the line breaks) and then applied (`transitions`, the
only writer), as written, so that one mistake gives one finding and the replay goes on.

* `replay(hand, visitor)` is the loop: it runs a parsed hand from its setup to its settlement
  and shows every line to a `Visitor` (the audit, the table checks …), whose result it
  returns. Strict mode raises `RuleViolation` at the first error.
* `start`, `step` and `finish` are its parts, for callers that feed lines themselves.

For a simulator, the same engine is a legal-move generator: `new_hand`, then `ante_due`,
`players_to_deal` / `community_needed` with `Dealt` events, `legal_actions` (each item's
`to_event(line)` is the event to `step`), `uncalled_bet` after each round, `next_street`,
`hand_over`, `show_order` and `settle`.

>>> from razz.parser.events import PostAnte, StreetStart, Dealt, Street
>>> state = new_hand(POKERSTARS, ((1, "ann", 100), (2, "bob", 100)), 4, 8, ante=1, bring_in=2)
>>> for name, amount, all_in in ante_due(state):
...     apply(state, PostAnte(0, name, amount, all_in))
>>> apply(state, StreetStart(0, Street.THIRD))
>>> apply(state, Dealt(0, "ann", Street.THIRD, (), ("??", "??", "Kc"), False))
>>> apply(state, Dealt(0, "bob", Street.THIRD, (), ("??", "??", "4d"), False))
>>> next_actor(state), [a.kind.value for a in legal_actions(state)]
('ann', ['bring_in', 'complete'])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from razz.parser import sites
from razz.parser.events import (
    Bet,
    BringIn,
    Call,
    Check,
    Collect,
    Complete,
    Event,
    Fold,
    GameKind,
    Hand,
    PostAnte,
    Raise,
    SeatLine,
    ShowDown,
    Street,
    StreetStart,
    Summary,
    Unit,
)
from razz.parser.sites.base import POKERSTARS_DIALECT, Dialect
from razz.replay import checks, transitions
from razz.replay.betting import Action, ActionKind
from razz.replay.betting import legal_actions as _legal_actions
from razz.replay.checks import log, showdown, structure
from razz.replay.checks.dealing import community_status
from razz.replay.findings import Finding, RuleViolation, Severity
from razz.replay.game import FIRST_STREET, LAST_STREET, NEXT_STREET
from razz.replay.order import show_order as _show_order
from razz.replay.pots import Settlement
from razz.replay.ruleset import POKERSTARS, Ruleset
from razz.replay.settlement import EMPTY_SETTLEMENT, rake_of, settle_as_paid, settle_state
from razz.replay.state import (
    ANTES,
    BETTING,
    DEALING,
    NO_FINDINGS,
    HandSetup,
    HandState,
    in_hand,
    players_left,
    uncalled,
)
from razz.replay.visitor import Visitor

__all__ = [
    "POKERSTARS",
    "Action",
    "ActionKind",
    "Recorder",
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

T = TypeVar("T")

# What a line must wait for before its own checks: nothing, the deal of its street to be
# over (a betting line), or the betting round to be over (a new street, the showdown …).
_NOW, _AFTER_DEAL, _AFTER_ROUND = 0, 1, 2
_MOMENT = {
    **dict.fromkeys((BringIn, Bet, Complete, Raise, Call, Check, Fold), _AFTER_DEAL),
    **dict.fromkeys((StreetStart, ShowDown, Collect, Summary), _AFTER_ROUND),
}
# Each kind of line the engine knows: (moment, checks or None, how it changes the state).
_STEPS: dict[type, tuple[int, Any, Any]] = {
    kind: (_MOMENT.get(kind, _NOW), checks.CHECKS.get(kind), change)
    for kind, change in transitions.APPLY.items()
}
_FIRST_ACTIONS = frozenset((Bet, Complete, Raise, Call, Check, Fold))


@dataclass(frozen=True, slots=True)
class Replay:
    """A replayed hand: its final state, every finding in line order, and the settlement."""

    state: HandState
    findings: tuple[Finding, ...]
    settlement: Settlement


class Recorder(Visitor[Replay]):
    """The plainest visitor: the final state, the findings in line order, the settlement."""

    def __init__(self) -> None:
        self.findings: list[Finding] = []
        self.replay: Replay | None = None

    def found(self, findings: Sequence[Finding]) -> None:
        self.findings.extend(findings)

    def end(self, state: HandState, settlement: Settlement) -> None:
        self.findings.sort(key=lambda f: f.line)
        self.replay = Replay(state, tuple(self.findings), settlement)

    def result(self) -> Replay:
        assert self.replay is not None, "the hand was not replayed to its end"
        return self.replay


# ------------------------------------------------------------------ a hand from the log


def setup_from_hand(hand: Hand, ruleset: Ruleset = POKERSTARS) -> tuple[HandSetup, list[Finding]]:
    """The fixed facts of a parsed hand, and what its header breaks (STRUCT-LIMIT, -ANTE).

    They come from the hand's opening lines, read up to its first action: the seats, the
    antes and the bring-in. The ante and bring-in are what the header states (Full Tilt,
    Winamax, PHH), else what the ruleset states for these stakes, else they are read from
    the hand itself (PokerStars headers never print them): the ante most players posted in
    full (not all-in), the first bring-in not posted all-in.
    """
    header = hand.header
    seats = []
    antes: dict[int, int] = {}  # how many players posted each amount in full, in order
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
                antes[e.amount] = antes.get(e.amount, 0) + 1
        elif kind is BringIn:
            if not e.all_in and e.amount is not None:
                bring_in = e.amount
                break
        elif kind in _FIRST_ACTIONS:
            break  # seats, antes and the bring-in all come before the first action
    # The amount most players posted; on a tie, the first posted.
    posted = max(antes, key=antes.__getitem__) if antes else None
    ante = posted
    # the stakes table's entry for a cash game or a tournament level, as the hand is one
    tournament = header.kind is GameKind.TOURNAMENT
    stated = ruleset.stakes_for(header.unit, header.small_bet, header.big_bet, tournament=tournament)
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
        tournament=tournament,
        unit=header.unit,
        currency=header.currency,
        posted_ante=posted,
        dialect=dialect_of(header.site),
    )
    return setup, structure.header(setup, header, first_ante_line)


def dialect_of(site: str) -> Dialect:
    """What the log format of a hand's site promises (PokerStars' for a site not registered).

    >>> dialect_of("KingsClub").total_pot, dialect_of("PokerStars").total_pot
    (False, True)
    """
    try:
        return sites.by_name(site).dialect
    except KeyError:
        return POKERSTARS_DIALECT


def start(hand: Hand, ruleset: Ruleset = POKERSTARS) -> tuple[HandState, list[Finding]]:
    """The state before the first line of a parsed hand, and what its header breaks."""
    setup, found = setup_from_hand(hand, ruleset)
    return HandState.new(setup), found


def step(state: HandState, event: Event) -> Sequence[Finding]:
    """Check one line against the rules, then apply it as written; what it breaks (`()`: nothing).

    A line may first close the deal of its street or the betting round (their own checks
    come first). Lines that change nothing (seats, chat …) break nothing.

    >>> from razz.parser.events import Check
    >>> state = new_hand(POKERSTARS, ((1, "ann", 100),), 4, 8)
    >>> step(state, Check(7, "zed"))[0].rule
    'ACT-TURN'
    """
    rule = _STEPS.get(type(event))
    return NO_FINDINGS if rule is None else _step(state, event, *rule)


def _step(state: HandState, event: Event, moment: int, check: Any, change: Any) -> Sequence[Finding]:
    """`step` once the line's kind is looked up (its entry of `_STEPS`)."""
    found: Sequence[Finding] = NO_FINDINGS
    if moment:
        phase = state.phase
        if phase is DEALING or (phase is BETTING and moment == _AFTER_ROUND):
            found = _end_round(state, event.line) if moment == _AFTER_ROUND else _close_deal(state)
            found = found or NO_FINDINGS
    if check is not None:
        more = check(state, event)
        if more:
            found = [*found, *more] if found else more
    change(state, event)
    return found


def _close_deal(state: HandState) -> list[Finding]:
    found = checks.deal_complete(state)
    transitions.close_deal(state)
    return found


def _end_round(state: HandState, line: int) -> list[Finding]:
    found = _close_deal(state) if state.phase is DEALING else []
    if state.phase is BETTING:
        pending = uncalled(state)  # asked once, for the round's checks and for its end
        found += checks.round_end(state, line, pending)
        transitions.end_round(state, line, pending)
    return found


def apply(state: HandState, event: Event) -> None:
    """Apply one line without checking it (for a simulator applying legal moves): the same
    state as `step`, since checks never change it."""
    rule = _STEPS.get(type(event))
    if rule is None:
        return
    moment, _, change = rule
    if moment:
        phase = state.phase
        if phase is DEALING:
            transitions.close_deal(state)
        if moment == _AFTER_ROUND and state.phase is BETTING:
            transitions.end_round(state, event.line, uncalled(state))
    change(state, event)


def finish(state: HandState, last_line: int = 0) -> tuple[list[Finding], Settlement]:
    """Close the hand: the checks that need all of it, and its pots, winners and shares."""
    if state.record.cancelled:
        return [], EMPTY_SETTLEMENT
    found = []
    if state.phase is DEALING or state.phase is BETTING:
        found = _end_round(state, last_line)
    expected = settle_state(state, rake_of(state))
    found += showdown.end_of_hand(state, expected, last_line)
    found += log.summary(state, last_line)
    return found, settle_as_paid(state, expected)


def replay(
    hand: Hand, visitor: Visitor[T], ruleset: Ruleset = POKERSTARS, *, strict: bool = False
) -> T:
    """Replay a parsed hand, showing each line to `visitor`; return its result.

    Strict mode raises `RuleViolation` at the first finding of severity `error`.

    >>> from razz.parser import read_text
    >>> from razz.replay.audit import EXAMPLE
    >>> replay(next(iter(read_text(EXAMPLE))), Recorder()).settlement.won("bob")
    6
    """
    state, found = start(hand, ruleset)
    visitor.begin(state)
    if found:
        _report(visitor, found, strict)
    visit, visited, report = visitor.visit, visitor.visited, visitor.found
    plan, unknown = _plan(visitor.kinds, visitor.visit_kinds)
    events = hand.events
    for event in events:
        moment, check, change, before, after = plan.get(type(event), unknown)
        if before:
            visit(state, event)
        if change is not None:
            found_now = _step(state, event, moment, check, change)
            if found_now:
                if strict:
                    _raise_first(found_now)
                report(found_now)
        if after:
            visited(state, event)
    found, settlement = finish(state, events[-1].line if events else hand.header.first_line)
    if found:
        _report(visitor, found, strict)
    visitor.end(state, settlement)
    return visitor.result()


# A visitor's plan: for each kind of line, (moment, checks, change, shown to `visit`, shown
# to `visited`), and the entry of a kind the engine does not know; by the visitor's kinds,
# with the table of steps it was made from.
_Entry = tuple[int, Any, Any, bool, bool]
_Plan = tuple[dict[type, _Entry], _Entry]
_PLANS: dict[tuple[frozenset[type] | None, frozenset[type] | None], tuple[object, _Plan]] = {}


def _plan(kinds: frozenset[type] | None, visit_kinds: frozenset[type] | None) -> _Plan:
    """What `replay` does with each kind of line for a visitor that reads these kinds: one
    lookup a line instead of three (the steps, `kinds` and `visit_kinds`). Made once, and
    again if `_STEPS` is replaced (as a test that wraps every check does)."""
    steps = _STEPS
    made = _PLANS.get((kinds, visit_kinds))
    if made is not None and made[0] is steps:
        return made[1]
    every = set(steps) | set(kinds or ()) | set(visit_kinds or ())
    entries = {
        kind: (
            *steps.get(kind, (_NOW, None, None)),
            visit_kinds is None or kind in visit_kinds,
            kinds is None or kind in kinds,
        )
        for kind in every
    }
    plan = entries, (_NOW, None, None, visit_kinds is None, kinds is None)
    _PLANS[(kinds, visit_kinds)] = (steps, plan)
    return plan


def _report(visitor: Visitor[Any], found: Sequence[Finding], strict: bool) -> None:
    if strict:
        _raise_first(found)
    visitor.found(found)


def _raise_first(findings: Sequence[Finding]) -> None:
    """Strict mode: the first error stops the replay."""
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
    dialect: Dialect = POKERSTARS_DIALECT,
) -> HandState:
    """The state of a new hand from `(seat, name, stack)` seats (for a simulator); `dialect`
    says what its log writes (a log that shows every player's cards: `others_down_cards`)."""
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
        posted_ante=ante,
        dialect=dialect,
    )
    return HandState.new(setup)


def ante_due(state: HandState) -> tuple[tuple[str, int, bool], ...]:
    """(player, amount, all-in) for every seated player with chips who still owes the ante."""
    setup = state.setup
    if setup.ante is None or state.phase is not ANTES:
        return ()
    due = []
    for i, p in enumerate(state.players):
        if not state.deal.antes[i] and p.stack > 0:
            amount = min(setup.ante, p.stack)
            due.append((setup.name(i), amount, amount == p.stack))
    return tuple(due)


def legal_actions(state: HandState) -> tuple[Action, ...]:
    """Every legal move of the player whose turn it is, with exact amounts; () if none."""
    return _legal_actions(transitions.open_round(state))


def next_actor(state: HandState) -> str | None:
    """The name of the player who must act now, or None when nobody must.

    >>> next_actor(new_hand(POKERSTARS, (), 4, 8))
    """
    view = transitions.open_round(state)
    if view.phase is not BETTING or view.round.to_act is None:
        return None
    return view.setup.name(view.round.to_act)


def round_over(state: HandState) -> bool:
    """Whether nobody owes an action in the current betting round."""
    view = transitions.open_round(state)
    return view.phase is not BETTING or view.round.to_act is None


def next_street(state: HandState) -> Street | None:
    """The street to deal next (after its `StreetStart`), or None: betting on, or hand over."""
    if state.phase is ANTES:
        return FIRST_STREET
    view = transitions.open_round(state)
    if view.phase is not BETTING or view.round.to_act is not None:
        return None
    if players_left(view) <= 1 or view.street is LAST_STREET or view.street is None:
        return None
    return NEXT_STREET[view.street]


def hand_over(state: HandState) -> bool:
    """Whether no more betting or dealing will happen: time for the showdown or the pot."""
    return state.phase is not ANTES and round_over(state) and next_street(state) is None


def players_to_deal(state: HandState) -> tuple[str, ...]:
    """Who gets a card on the street just started: every player still in the hand."""
    return tuple(
        state.setup.name(i)
        for i, p in enumerate(state.players)
        if in_hand(p) or (state.street is FIRST_STREET and state.deal.antes[i])
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
    if not round_over(state) and players_left(state) > 1:
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
