"""Audit one parsed hand: replay it against the rules and compute everything the store keeps.

`audit_hand` returns a `HandResult`: every finding, the pots and their winners, each player's
analytics, and the action and card records. They are gathered by `HandAudit`, a visitor of
the engine's replay (`visitor`): it reads each line before and after the engine applies it.
Cross-hand checks (stack continuity, the ante and bring-in of a table) are in `tablecheck`.

>>> from razz.parser import read_text
>>> hand = next(iter(read_text(EXAMPLE)))
>>> result = audit_hand(hand)
>>> result.findings, result.players[0].net, result.bring_in_player
((), -3, 'ann')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from razz.parser.events import (
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
    StreetStart,
    UncalledBet,
)
from razz.replay.cards import RANK
from razz.replay.consequences import link
from razz.replay.engine import replay
from razz.replay.findings import Finding, one_per_fault
from razz.replay.game import (
    CARDS_AFTER,
    FIRST_STREET,
    HAND_SIZE,
    POSITION_FACE,
    POSITION_STREET,
    STREET_INDEX,
    STREETS,
)
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
from razz.replay.visitor import Visitor

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


def audit_hand(hand: Hand, ruleset: Ruleset = POKERSTARS, *, strict: bool = False) -> HandResult:
    """Replay a parsed hand and compute its results, findings included (sorted by line).

    Strict mode raises `RuleViolation` at the first finding of severity `error`.
    """
    return replay(hand, HandAudit(hand), ruleset, strict=strict)


# Lines that move chips or show a decision, and those of them that are betting actions.
_RECORDED = frozenset(
    (PostAnte, BringIn, Bet, Complete, Raise, Call, Check, Fold, UncalledBet, Collect, Show)
)
_ACTIONS = frozenset((BringIn, Bet, Complete, Raise, Call, Check, Fold))
_WAGERS = frozenset((Bet, Complete, Raise))
# The activity of a player on a street they neither saw nor acted or put chips in on (most
# players fold on 3rd street): one record per street, shared by every hand, since results
# are only read once built. 15 of the 27 records a hand were these (callgrind, 500 hands:
# 2.044 M -> 2.005 M instructions a hand, -1.9%).
_UNSEEN = tuple(StreetActivity(street) for street in STREETS)
_LATER = _UNSEEN[1:]
# Each position of a hand (1 … 7): the street that deals it and how (`up` or `down`).
_POSITIONS = tuple(
    zip(POSITION_STREET, range(1, HAND_SIZE + 1), [f.value for f in POSITION_FACE], strict=True)
)


class HandAudit(Visitor[HandResult]):
    """Gathers a hand's results for the store while the engine replays it."""

    kinds = _RECORDED | {StreetStart}
    visit_kinds = _ACTIONS

    def __init__(self, hand: Hand) -> None:
        self.hand = hand
        self.findings: list[Finding] = []
        self.actions: list[ActionRecord] = []
        self.pot = 0
        self.paid = 0  # collected so far, by every player
        self.returned = 0  # uncalled bets given back so far (`state.record.returned`)
        self.result_: HandResult | None = None

    def begin(self, state: HandState) -> None:
        n = len(state.players)
        self.index = state.setup.index
        # Each player's activity on each street, counted into as the lines come. Every player
        # dealt in sees 3rd street; a later street's record is made when the player first acts
        # on it, or at the end if they saw it or put chips in on it: until then, `_UNSEEN`'s.
        self.activity = [[StreetActivity(FIRST_STREET, True), *_LATER] for _ in range(n)]
        self.street_base: list[list[int] | None] = [None] * len(STREETS)
        self.saw: list[list[bool]] = [[False] * n for _ in STREETS]
        self.shown_count = [0] * n
        self.collected = [0] * n
        self.ever_all_in = [False] * n
        # 3rd street
        self.posted_bring_in = [False] * n
        self.posted_bring_in_amount: int | None = None
        self.opener: int | None = None  # who opened 3rd street (bring-in or completion)
        self.bring_in_completed = [False] * n
        self.bring_in_folded = [False] * n
        self.vpip = [False] * n
        self.faced_completion = [False] * n
        self.folded_to_completion = [False] * n
        self.steal: int | None = None  # who attempted a steal
        self._i: int | None = None  # the player of the line being replayed, if recorded

    def found(self, findings: Sequence[Finding]) -> None:
        self.findings.extend(findings)

    def visit(self, state: HandState, event: Any) -> None:
        """Note what a betting line's player and round were before the line (the other lines
        this visitor reads say what they moved: `visited` needs no state from before them)."""
        i = self._i = self.index.get(event.player)
        if i is None:
            return
        p = state.players[i]
        self._committed, self._street_bet = p.committed, p.street_bet
        rnd = state.round
        street = self._street = state.street
        self._bets, self._level = rnd.bets, rnd.level
        self._brought_in = brought_in = state.deal.brought_in
        if (
            type(event) in _WAGERS
            and street is FIRST_STREET
            and (not brought_in or (rnd.bets == 0 and rnd.level > 0))
        ):
            self._steals = _steal(state, i)

    def visited(self, state: HandState, event: Any) -> None:
        """Record the line: the chips it moved, and the analytics it counts for."""
        kind = type(event)
        if kind is StreetStart:
            k = STREET_INDEX[event.street]
            if self.street_base[k] is None:
                self.street_base[k] = [p.committed for p in state.players]
                self.saw[k] = [p.dealt_in and not p.folded for p in state.players]
            return
        action = kind in _ACTIONS
        if action:
            i = self._i
            if i is None:
                return
            moved = state.players[i].committed - self._committed
        else:
            i = self.index.get(event.player)
            if i is None:
                return
            # An ante puts in what it says; a collect or a show commits nothing, and a
            # returned bet is always one more of `state.record.returned` (below).
            moved = event.amount if kind is PostAnte else 0
        p = state.players[i]
        # The pot moves by what this line moved for its player (in, back or out), unless
        # chips went back since the last recorded line: a bet nobody called that the log
        # writes no line for (KingsClub, PHH) goes back when the round ends, before or
        # during another player's line. The pot is then what is committed less what was
        # collected (every other change of a player's chips is a line of that player's).
        returned = len(state.record.returned)
        if returned == self.returned:
            self.pot += moved
        else:
            self.returned = returned
            self.pot = sum(q.committed for q in state.players) - self.paid
        if action:
            record = self._action(kind, event, i, p)
            if record is None:
                return
            kind_name, chips, to_amount, all_in = record
            street = self._street
        elif kind is PostAnte:
            kind_name, chips, to_amount, all_in, street = (
                "ante",
                event.amount,
                None,
                event.all_in,
                None,
            )
        elif kind is UncalledBet:
            kind_name, chips, to_amount, all_in, street = (
                "uncalled",
                state.record.returned[-1][1],  # what the line gave back (appended just now)
                None,
                False,
                None,
            )
        elif kind is Collect:
            self.collected[i] += event.amount
            self.paid += event.amount
            self.pot -= event.amount
            kind_name, chips, to_amount, all_in, street = "collect", event.amount, None, False, None
        else:  # Show
            self.shown_count[i] = max(self.shown_count[i], len(event.cards))
            return
        if all_in:
            self.ever_all_in[i] = True
        actions = self.actions
        actions.append(
            ActionRecord(
                len(actions),
                street,
                event.player,
                kind_name,
                chips,
                to_amount,
                all_in,
                self.pot,
                p.stack,
                event.line,
            )
        )

    def _action(
        self, kind: type, event: Any, i: int, p1: PlayerState
    ) -> tuple[str, int | None, int | None, bool] | None:
        """(action kind, amount, street total, all-in) of a betting line, updating analytics."""
        street = self._street
        if street is None:
            return None
        own = self.activity[i]
        k = STREET_INDEX[street]
        c = own[k]
        if c is _UNSEEN[k]:
            c = own[k] = StreetActivity(street)
        third = street is FIRST_STREET
        chips = p1.committed - self._committed
        all_in: bool = getattr(event, "all_in", False)
        if all_in:
            c.all_in = True
        if (
            third
            and self._bets >= 1
            and self._street_bet < self._level
            and not self.faced_completion[i]
        ):
            self.faced_completion[i] = True
            self.folded_to_completion[i] = kind is Fold
        if kind is BringIn:
            if third and not self._brought_in:
                self.posted_bring_in[i] = True
                self.opener = i
                if self.posted_bring_in_amount is None and not all_in:
                    self.posted_bring_in_amount = chips
            return "bring_in", chips, None, all_in
        if kind is Fold:
            c.folded = True
            if third and self.posted_bring_in[i]:
                self.bring_in_folded[i] = True
            return "fold", None, None, False
        if kind is Check:
            c.checks += 1
            return "check", None, None, False
        if kind is Call:
            c.calls += 1
            if third:
                self.vpip[i] = True
            return "call", chips, None, all_in
        # a bet, completion or raise
        opening = third and not self._brought_in
        if third:
            self.vpip[i] = True
        if opening:
            self.opener = i
        if third and (opening or (self._bets == 0 and self._level > 0)):
            c.completes += 1
            if i == self.opener:
                self.bring_in_completed[i] = True
            if self._steals:
                self.steal = i
            return "complete", chips, p1.street_bet, all_in
        if kind is Bet and self._level == 0:
            c.bets += 1
            return "bet", chips, p1.street_bet, all_in
        c.raises += 1
        return "raise", chips, p1.street_bet, all_in

    def end(self, state: HandState, settlement: Settlement) -> None:
        self.findings = link(
            self.hand,
            one_per_fault(self.findings, state.record.summary_line),
            state.setup.ruleset,
            _findings_of,
        )
        self.result_ = self._result(state, settlement)

    def result(self) -> HandResult:
        assert self.result_ is not None, "the hand was not replayed to its end"
        return self.result_

    # ------------------------------------------------------------------ the results

    def _fill_streets(self, state: HandState) -> None:
        """What each player saw and put in on each street, written into their activity: the
        chips committed at the next street's start (or the end) less those committed at this
        street's start, uncalled bets returned. A street a player neither saw, acted nor put
        chips in on keeps the shared record of `_UNSEEN`, as does a street never dealt."""
        end = [p.committed for p in state.players]
        for k in range(len(STREETS) - 1, -1, -1):
            base = self.street_base[k]
            if base is not None:
                saw = self.saw[k]
                unseen = _UNSEEN[k]
                for i, activity in enumerate(self.activity):
                    a = activity[k]
                    seen, invested = k == 0 or saw[i], end[i] - base[i]
                    if a is unseen:
                        if not (seen or invested):
                            continue
                        a = activity[k] = StreetActivity(STREETS[k])
                    a.saw = seen
                    a.invested = invested
                end = base

    def _player(
        self,
        state: HandState,
        i: int,
        p: PlayerState,
        streets: tuple[StreetActivity, ...],
        at_showdown: bool,
        steal_success: bool,
    ) -> PlayerResult:
        seat = state.setup.seats[i]
        community = state.deal.community
        put_in = p.committed
        won = self.collected[i]
        own = p.cards
        known = [c for c in own if c]
        hand_cards = [*known, community] if community and len(known) == HAND_SIZE - 1 else known
        start = own[: CARDS_AFTER[FIRST_STREET]]
        return PlayerResult(
            seat.seat,
            seat.name,
            i == state.deal.hero,
            seat.stack,
            seat.stack - put_in + won,
            state.deal.antes[i],
            put_in,
            won,
            won - put_in,
            streets,
            self.posted_bring_in[i],
            self.bring_in_completed[i],
            self.bring_in_folded[i],
            self.vpip[i],
            self.faced_completion[i],
            self.folded_to_completion[i],
            self.steal == i,
            self.steal == i and steal_success,
            at_showdown,
            at_showdown and won > 0,
            won if at_showdown else 0,
            lo_text(hand_cards) if len(hand_cards) == HAND_SIZE else None,
            start if len(start) == CARDS_AFTER[FIRST_STREET] and all(start) else (),
            door_card(p),
            self.ever_all_in[i] or p.all_in,
        )

    def _cards(self, name: str, i: int, own: tuple[str, ...]) -> list[CardRecord]:
        shown = self.shown_count[i]
        return [
            CardRecord(name, street, position, card, visibility, position <= shown)
            # HAND_SIZE positions at most: a card past them (a log dealing too many) is not kept
            for card, (street, position, visibility) in zip(own, _POSITIONS, strict=False)
            if card
        ]

    def _result(self, state: HandState, settlement: Settlement) -> HandResult:
        setup, players, deal = state.setup, state.players, state.deal
        self._fill_streets(state)
        live = [i for i, p in enumerate(players) if in_hand(p)]
        showdown = len(live) >= 2
        steal_success = (
            self.steal is not None and live == [self.steal] and state.street is FIRST_STREET
        )
        results = []
        cards: list[CardRecord] = []
        for i, p in enumerate(players):
            if not p.dealt_in:
                continue
            streets = tuple(self.activity[i])
            at_showdown = showdown and i in live
            results.append(self._player(state, i, p, streets, at_showdown, steal_success))
            cards += self._cards(setup.name(i), i, p.cards)
        if deal.community:
            cards.append(CardRecord(None, STREETS[-1], 1, deal.community, "community", False))
        pots = tuple(
            PotResult(pot.index, pot.amount, pot.eligible, pot.winners, pot.shares)
            for pot in settlement.pots
        )
        return HandResult(
            setup.hand_id,
            setup.source,
            setup.posted_ante,
            self.posted_bring_in_amount,
            setup.name(deal.bring_in) if deal.bring_in is not None else None,
            sum(p.committed for p in players),
            settlement.rake,
            deal.community,
            showdown,
            tuple(results),
            pots,
            tuple(self.actions),
            tuple(cards),
            tuple(self.findings),
        )


class _Findings(Visitor[list[Finding]]):
    """Only the findings of a replay (for a hand replayed with one line made legal)."""

    def __init__(self) -> None:
        self.seen: list[Finding] = []

    def found(self, findings: Sequence[Finding]) -> None:
        self.seen.extend(findings)

    def result(self) -> list[Finding]:
        return self.seen


def _findings_of(hand: Hand, ruleset: Ruleset) -> list[Finding]:
    return replay(hand, _Findings(), ruleset)


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
