"""Audit one parsed hand: replay it against the rules and compute everything the store keeps.

`audit_hand` returns a `HandResult`: every finding, the pots and their winners, each player's
analytics, and the action and card records. Cross-hand checks (stack continuity, the ante and
bring-in of a table) are in `tablecheck`.

>>> from razz.parser import read_text
>>> hand = next(iter(read_text(EXAMPLE)))
>>> result = audit_hand(hand)
>>> result.findings, result.players[0].net, result.bring_in_player
((), -3, 'ann')
"""

from __future__ import annotations

from typing import Any

from razz.parser.events import (
    STREETS,
    Bet,
    BringIn,
    Call,
    Check,
    Collect,
    Complete,
    Fold,
    Hand,
    PostAnte,
    Raise,
    Show,
    Street,
    StreetStart,
    UncalledBet,
)
from razz.replay.cards import RANK
from razz.replay.engine import _HANDLERS, finish, start
from razz.replay.fastinit import positional
from razz.replay.findings import Finding, RuleViolation, Severity
from razz.replay.lowhand import lo_text
from razz.replay.order import door_card
from razz.replay.pots import Settlement
from razz.replay.results import (
    ActionRecord,
    CardRecord,
    HandResult,
    PlayerResult,
    PotResult,
    StreetActivity,
)
from razz.replay.ruleset import POKERSTARS, Ruleset
from razz.replay.state import HandState, PlayerState, in_hand

EXAMPLE = """\
PokerStars Game #1:  Razz Limit ($0.04/$0.08 USD) - 2009/11/26 10:24:42 ET
Table 'T' 8-max
Seat 1: ann ($1.00 in chips)
Seat 2: bob ($1.00 in chips)
ann: posts the ante $0.01
bob: posts the ante $0.01
*** 3rd STREET ***
Dealt to ann [Kc]
Dealt to bob [4d]
ann: brings in for $0.02
bob: raises $0.02 to $0.04
ann: folds
Uncalled bet ($0.02) returned to bob
bob collected $0.06 from pot
*** SUMMARY ***
Total pot $0.06 | Rake $0
Seat 1: ann folded on the 3rd Street
Seat 2: bob collected ($0.06)
"""

_activity = positional(StreetActivity)
_action = positional(ActionRecord)
_card = positional(CardRecord)
_player = positional(PlayerResult)
_pot = positional(PotResult)
_hand_result = positional(HandResult)
_STREET_OF_POSITION = (
    Street.THIRD,
    Street.THIRD,
    Street.THIRD,
    Street.FOURTH,
    Street.FIFTH,
    Street.SIXTH,
    Street.SEVENTH,
)
_VISIBILITY = ("down", "down", "up", "up", "up", "up", "down")
_STREET_INDEX = {s: k for k, s in enumerate(STREETS)}
_UNSEEN = tuple(_activity(s, False, 0, 0, 0, 0, 0, 0, False, False) for s in STREETS)
# Per street and player: bets, completes, raises, calls, checks, folded, all-in.
_BETS, _COMPLETES, _RAISES, _CALLS, _CHECKS, _FOLDED, _ALL_IN = range(7)


def audit_hand(hand: Hand, ruleset: Ruleset = POKERSTARS, *, strict: bool = False) -> HandResult:
    """Replay a parsed hand and compute its results, findings included (sorted by line).

    Strict mode raises `RuleViolation` at the first finding of severity `error`.
    """
    state, found = start(hand, ruleset)
    findings = list(found)
    players = state.players
    n = len(players)
    counts = [[[0] * 7 for _ in range(n)] for _ in STREETS]
    street_base: list[tuple[int, ...] | None] = [None] * len(STREETS)
    saw: list[list[bool]] = [[False] * n for _ in STREETS]
    actions: list[ActionRecord] = []
    flags = _Flags(n)
    shown_count = [0] * n
    collected = [0] * n
    ever_all_in = [False] * n
    pot = 0
    last_line = hand.header.first_line
    index = state.setup.index
    event: Any  # dispatched on its exact type below
    if strict:
        _raise_first(findings)
    handler_of = _HANDLERS.get  # `engine.step`, inlined: lines without a handler change nothing
    for event in hand.events:
        kind = type(event)
        last_line = event.line
        handler = handler_of(kind)
        if handler is None:
            continue
        before = state
        state, new = handler(state, event)
        if new:
            findings.extend(new)
            if strict:
                _raise_first(new)
        if kind is StreetStart:
            k = _STREET_INDEX[event.street]
            if street_base[k] is None:
                street_base[k] = tuple([p.committed for p in state.players])
                saw[k] = [p.dealt_in and not p.folded for p in state.players]
            continue
        if kind not in _RECORDED:
            continue
        i = index.get(event.player)
        if i is None:
            continue
        p = state.players[i]
        p0 = before.players[i]
        # The pot moves only by what this line moved for its player (in, back or out).
        pot += p.committed - p0.committed
        record = _record(before, p0, p, kind, event, i, flags, counts)
        if record is None:
            continue
        action_kind, chips, to_amount, all_in = record
        if all_in:
            ever_all_in[i] = True
        if kind is Collect:
            assert chips is not None  # a collect always moves chips
            collected[i] += chips
            pot -= chips
        elif kind is Show:
            shown_count[i] = max(shown_count[i], len(event.cards))
        if action_kind is None:
            continue
        actions.append(
            _action(
                len(actions),
                None if kind in _NO_STREET else before.street,
                event.player,
                action_kind,
                chips,
                to_amount,
                all_in,
                pot,
                p.stack,
                event.line,
            )
        )
    state, new, settlement = finish(state, last_line)
    findings.extend(new)
    if strict:
        _raise_first(new)
    findings.sort(key=lambda f: f.line)
    return _result(
        hand,
        state,
        settlement,
        findings,
        counts,
        street_base,
        saw,
        actions,
        flags,
        shown_count,
        collected,
        ever_all_in,
    )


_RECORDED = frozenset(
    (PostAnte, BringIn, Bet, Complete, Raise, Call, Check, Fold, UncalledBet, Collect, Show)
)
_NO_STREET = frozenset((PostAnte, UncalledBet, Collect))


class _Flags:
    """3rd-street analytics gathered while replaying (local to one audit)."""

    __slots__ = (
        "bring_in_completed",
        "bring_in_folded",
        "faced_completion",
        "folded_to_completion",
        "opener",
        "posted_bring_in",
        "posted_bring_in_amount",
        "steal",
        "vpip",
    )

    def __init__(self, n: int) -> None:
        self.posted_bring_in = [False] * n
        self.posted_bring_in_amount: int | None = None
        self.opener: int | None = None  # who opened 3rd street (bring-in or completion)
        self.bring_in_completed = [False] * n
        self.bring_in_folded = [False] * n
        self.vpip = [False] * n
        self.faced_completion = [False] * n
        self.folded_to_completion = [False] * n
        self.steal: int | None = None  # who attempted a steal


def _record(
    before: HandState,
    p0: PlayerState,
    p1: PlayerState,
    kind: type,
    event: Any,  # dispatched on its exact type, `kind`
    i: int,
    flags: _Flags,
    counts: list[list[list[int]]],
) -> tuple[str | None, int | None, int | None, bool] | None:
    """(action kind, amount, street total, all-in) of a recorded line, updating analytics;
    `p0` and `p1` are player `i` before and after the line."""
    if kind is PostAnte:
        return "ante", event.amount, None, event.all_in
    if kind is UncalledBet:
        return "uncalled", p1.stack - p0.stack, None, False
    if kind is Collect:
        return "collect", event.amount, None, False
    if kind is Show:
        return None, None, None, False
    street = before.street
    if street is None:
        return None
    c = counts[_STREET_INDEX[street]][i]
    third = street is Street.THIRD
    chips = p1.committed - p0.committed
    all_in: bool = getattr(event, "all_in", False)
    if all_in:
        c[_ALL_IN] = 1
    facing_completion = third and before.round.bets >= 1 and p0.street_bet < before.round.level
    if third and facing_completion and not flags.faced_completion[i]:
        flags.faced_completion[i] = True
        flags.folded_to_completion[i] = kind is Fold
    if kind is BringIn:
        if third and not before.deal.brought_in:
            flags.posted_bring_in[i] = True
            flags.opener = i
            if flags.posted_bring_in_amount is None and not all_in:
                flags.posted_bring_in_amount = chips
        return "bring_in", chips, None, all_in
    if kind is Fold:
        c[_FOLDED] = 1
        if third and flags.posted_bring_in[i]:
            flags.bring_in_folded[i] = True
        return "fold", None, None, False
    if kind is Check:
        c[_CHECKS] += 1
        return "check", None, None, False
    if kind is Call:
        c[_CALLS] += 1
        if third:
            flags.vpip[i] = True
        return "call", chips, None, all_in
    # a bet, completion or raise
    opening = third and not before.deal.brought_in
    completion = third and (opening or (before.round.bets == 0 and before.round.level > 0))
    if third:
        flags.vpip[i] = True
    if opening:
        flags.opener = i
    if completion:
        c[_COMPLETES] += 1
        if i == flags.opener:
            flags.bring_in_completed[i] = True
        if _steal(before, i):
            flags.steal = i
        return "complete", chips, p1.street_bet, all_in
    if kind is Bet and before.round.level == 0:
        c[_BETS] += 1
        return "bet", chips, p1.street_bet, all_in
    c[_RAISES] += 1
    return "raise", chips, p1.street_bet, all_in


def _steal(state: HandState, i: int) -> bool:
    """A completion with only higher door cards left to act: first in (nobody but the
    bring-in has put chips in yet), and every other player's door card ranks higher."""
    mine = door_card(state.players[i])
    if mine is None:
        return False
    opener = state.deal.bring_in
    others = [(k, p) for k, p in enumerate(state.players) if k != i and in_hand(p)]
    if any(p.street_bet and k != opener for k, p in others):
        return False
    doors = [door_card(p) for _, p in others]
    return bool(doors) and all(d is not None and RANK[d] > RANK[mine] for d in doors)


def _raise_first(findings: list[Finding] | tuple[Finding, ...]) -> None:
    for f in findings:
        if f.severity is Severity.ERROR:
            raise RuleViolation(f)


def _result(
    hand: Hand,
    state: HandState,
    settlement: Settlement,
    findings: list[Finding],
    counts: list[list[list[int]]],
    street_base: list[tuple[int, ...] | None],
    saw: list[list[bool]],
    actions: list[ActionRecord],
    flags: _Flags,
    shown_count: list[int],
    collected: list[int],
    ever_all_in: list[bool],
) -> HandResult:
    setup, players, deal = state.setup, state.players, state.deal
    community = deal.community
    n = len(players)
    # What each player put in on each street: committed at the next street's start (or the
    # end) minus committed at this street's start, uncalled bets returned.
    invested: list[list[int]] = [[0] * n for _ in STREETS]
    end = [p.committed for p in players]
    for k in range(len(STREETS) - 1, -1, -1):
        base = street_base[k]
        if base is not None:
            invested[k] = [end[i] - base[i] for i in range(n)]
            end = list(base)
    live = [i for i, p in enumerate(players) if in_hand(p)]
    showdown = len(live) >= 2
    steal_success = (
        flags.steal is not None and live == [flags.steal] and state.street is Street.THIRD
    )
    results = []
    cards: list[CardRecord] = []
    seats = setup.seats
    hero = deal.hero
    steal = flags.steal
    for i, p in enumerate(players):
        if not p.dealt_in:
            continue
        seat = seats[i]
        name = seat.name
        activity = []
        for k, street in enumerate(STREETS):
            c = counts[k][i]
            seen = saw[k][i] if k else True
            put = invested[k][i]
            if not seen and not put and not any(c):
                activity.append(_UNSEEN[k])  # an equal record: immutable, so shared
                continue
            activity.append(
                _activity(
                    street,
                    seen,
                    put,
                    c[_BETS],
                    c[_COMPLETES],
                    c[_RAISES],
                    c[_CALLS],
                    c[_CHECKS],
                    bool(c[_FOLDED]),
                    bool(c[_ALL_IN]),
                )
            )
        streets = tuple(activity)
        put_in = p.committed
        won = collected[i]
        own = p.cards
        known = [c for c in own if c]
        hand_cards = [*known, community] if community and len(known) == 6 else known
        at_showdown = showdown and i in live
        results.append(
            _player(
                seat.seat,
                name,
                i == hero,
                seat.stack,
                seat.stack - put_in + won,
                deal.antes[i],
                put_in,
                won,
                won - put_in,
                streets,
                flags.posted_bring_in[i],
                flags.bring_in_completed[i],
                flags.bring_in_folded[i],
                flags.vpip[i],
                flags.faced_completion[i],
                flags.folded_to_completion[i],
                steal == i,
                steal == i and steal_success,
                at_showdown,
                at_showdown and won > 0,
                won if at_showdown else 0,
                lo_text(hand_cards) if len(hand_cards) == 7 else None,
                own[:3] if len(own) >= 3 and all(own[:3]) else (),
                door_card(p),
                ever_all_in[i] or p.all_in,
            )
        )
        shown = shown_count[i]
        for k, card in enumerate(own[:7]):
            if card:
                cards.append(
                    _card(name, _STREET_OF_POSITION[k], k + 1, card, _VISIBILITY[k], k < shown)
                )
    if community:
        cards.append(_card(None, Street.SEVENTH, 1, community, "community", False))
    # The ante most players posted (the first posted, on a tie): `Counter.most_common(1)`.
    # An ante that put its player all in is only what was left of a stack, so it counts only
    # when every ante did (heads-up with one short stack would otherwise tie and could pick
    # the short amount, and the table check would flag a legal hand).
    full_antes = [a for i, a in enumerate(deal.antes) if a and a < seats[i].stack]
    ante_counts: dict[int, int] = {}
    for a in full_antes or [a for a in deal.antes if a]:
        ante_counts[a] = ante_counts.get(a, 0) + 1
    pots = tuple(
        _pot(pot.index, pot.amount, pot.eligible, pot.winners, pot.shares)
        for pot in settlement.pots
    )
    return _hand_result(
        setup.hand_id,
        setup.source,
        max(ante_counts, key=ante_counts.__getitem__) if ante_counts else None,
        flags.posted_bring_in_amount,
        setup.name(deal.bring_in) if deal.bring_in is not None else None,
        sum(p.committed for p in players),
        settlement.rake,
        community,
        showdown,
        tuple(results),
        pots,
        tuple(actions),
        tuple(cards),
        tuple(findings),
    )
