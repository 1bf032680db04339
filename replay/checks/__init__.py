"""The checks: small functions of (state, event) that return what a line breaks, never write.

Each rule family of RAZZ_RULES.md has its module:

    structure   STRUCT-LIMIT, -ANTE, -BRINGIN-SIZE, -SMALL, -BIG, -NO-DOUBLE, -CAP
    dealing     DEAL-3RD, -UP, -7TH, -COMMUNITY, -UNIQUE, -COUNT
    turn        BRINGIN-WHO, -SUIT, -ALLIN, -CHOICE, ORDER-3RD, -LATER, -TIE, -ALLIN,
                -CLOCKWISE, ACT-TURN (who acts, and when)
    wagers      ACT-CHOICES, -CHECK, -CALL, -COMPLETE, -RAISE-SIZE, -ALLIN-SHORT, -UNCALLED
    showdown    SHOW-ORDER, HAND-*, WIN-*, POT-SIDE, POT-RAKE
    log         LOG-STACK, -CARDS, -DESC, -SUMMARY (LOG-CONTINUITY is in `tablecheck`)

This module says which checks each kind of line goes through, in order (`CHECKS`); the order
is the order of a line's findings. The engine runs them on the state as the line finds it,
then applies the line (`transitions`). Two moments between lines have checks too:
`deal_complete` when a street's deal closes, and `round_end` when a betting round is over.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from razz.parser.events import (
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
    Muck,
    PostAnte,
    Raise,
    SeatResult,
    Show,
    ShowDown,
    StreetStart,
    UncalledBet,
)
from razz.replay.betting import BET, BRING_IN, CALL, CHECK, COMPLETE, FOLD, RAISE, opening_third
from razz.replay.checks import dealing, log, showdown, structure, turn, wagers
from razz.replay.findings import Finding
from razz.replay.game import FIRST_STREET
from razz.replay.holdings import learn
from razz.replay.rules import RuleId
from razz.replay.state import NO_FINDINGS, HandState

Findings = Sequence[Finding]
LineCheck = Callable[[HandState, Any], Findings]

deal_complete = dealing.deal_complete


def round_end(state: HandState, line: int, pending: tuple[int, int] | None) -> list[Finding]:
    """A betting round ends: nobody owes an action, the cap was logged, the uncalled bet
    returned (`pending`: the bet nobody called, `state.uncalled(state)`)."""
    owed = turn.owed_action(state, line)
    if owed:
        return owed
    return structure.missing_cap_line(state, line) + wagers.unreturned(state, line, pending)


# ------------------------------------------------------------------ antes and the deal


def ante(state: HandState, e: PostAnte) -> Findings:
    found = structure.ante(state, e)
    i = state.setup.index.get(e.player)
    if i is None:
        return found
    p = state.players[i]
    if e.amount >= p.stack or e.all_in:
        found += log.stack(state.setup, e.player, p, e.amount, e.all_in, e.line)
    return found


def street(state: HandState, e: StreetStart) -> Findings:
    found = dealing.street_order(state, e)
    found += wagers.dealt_after_hand_over(state, e)
    found += dealing.community(state, e)
    return found


# ------------------------------------------------------------------ betting


def bring_in(state: HandState, e: BringIn) -> Findings:
    i, found = turn.who_acts(state, e.player, e.line, BRING_IN)
    if i is None:
        return found
    setup, p = state.setup, state.players[i]
    amount = e.amount
    if amount is None:  # the site writes no amount (PHH `pb`): the known bring-in
        amount = min(setup.bring_in or 0, p.stack)
    if not opening_third(state):
        found = [*found, *wagers.late_bring_in(state, e)]
        return found + log.stack(setup, e.player, p, amount, e.all_in, e.line)
    found = [*found, *turn.bring_in_identity(state, i, e.line)]
    found += structure.bring_in_size(state, e, amount)
    found += log.stack_if_all(setup, e.player, p, amount, e.all_in, e.line)
    return found


def bet(state: HandState, e: Bet) -> Findings:
    i, found = turn.who_acts(state, e.player, e.line, BET)
    if i is None:
        return found
    if opening_third(state):
        more = turn.bring_in_identity(state, i, e.line) + wagers.completion(state, e, e.amount)
    elif state.round.level > 0:
        more = wagers.bet_facing_bet(state, e)
    else:
        more = structure.bet_size(state, e.line, e.player, e.amount, e.all_in)
    more += log.stack_if_all(state.setup, e.player, state.players[i], e.amount, e.all_in, e.line)
    return [*found, *more] if found else more


def raise_(state: HandState, e: Raise) -> Findings:
    i, found = turn.who_acts(state, e.player, e.line, RAISE)
    if i is None:
        return found
    p = state.players[i]
    chips = e.to - p.street_bet
    if opening_third(state):
        more: list[Finding] = []  # `who_acts` said who should have opened 3rd street, and how
    elif state.round.level == 0:
        more = wagers.raise_without_bet(state, e)
    else:
        more = _raise(state, i, e, chips, e.amount)
    more += log.stack_if_all(state.setup, e.player, p, chips, e.all_in, e.line)
    return [*found, *more] if found else more


def complete(state: HandState, e: Complete) -> Findings:
    """A completion written as such (Full Tilt, Merge): a wager to the small bet on 3rd street."""
    i, found = turn.who_acts(state, e.player, e.line, COMPLETE)
    if i is None:
        return found
    p, rnd = state.players[i], state.round
    chips = e.to - p.street_bet
    if opening_third(state):  # the bring-in player completes instead of bringing in
        more = turn.bring_in_identity(state, i, e.line) + wagers.completion(state, e, e.to)
    elif state.street is FIRST_STREET and rnd.bets == 0 and rnd.level > 0:
        more = _raise(state, i, e, chips, None)
    else:
        more = wagers.complete_out_of_place(state, e)
    more += log.stack_if_all(state.setup, e.player, p, chips, e.all_in, e.line)
    return [*found, *more] if found else more


def _raise(
    state: HandState, i: int, e: Raise | Complete, chips: int, amount: int | None
) -> list[Finding]:
    """A raise over a bet: its written increment, the cap or a short all-in, its size."""
    found = wagers.raise_increment(state, e, amount)
    found += structure.raise_over_cap(state, e.player, e.line) or wagers.reopened(state, i, e)
    found += wagers.raise_size(state, i, e, chips)
    return found


def call(state: HandState, e: Call) -> Findings:
    i, found = turn.who_acts(state, e.player, e.line, CALL)
    if i is None:
        return found
    p = state.players[i]
    amount = e.amount
    if amount is None:  # the site writes no amount (PHH `cc`): what matches the bet
        amount = max(0, min(state.round.level - p.street_bet, p.stack))
    more = [] if opening_third(state) else wagers.call_amount(state, i, e, amount)
    more += log.stack_if_all(state.setup, e.player, p, amount, e.all_in, e.line)
    return [*found, *more] if found else more


def check(state: HandState, e: Check) -> Findings:
    i, found = turn.who_acts(state, e.player, e.line, CHECK)
    if i is None or opening_third(state):
        return found
    more = wagers.check_facing(state, i, e)
    return [*found, *more] if found else more


def fold(state: HandState, e: Fold) -> Findings:
    return turn.who_acts(state, e.player, e.line, FOLD)[1]


# ------------------------------------------------------------------ the end of the hand


def show(state: HandState, e: Show) -> Findings:
    setup = state.setup
    i = setup.index.get(e.player)
    if i is None:
        return log.unseated_show(state, e)
    found = log.bad_tokens(setup, e.cards, e.line)
    if state.record.showdown_line > 0 and state.players[i].folded:
        found += showdown.folded_shows(state, e.player, i, e.line, mucks=False)
    else:
        found += dealing.shown_count(state, e, i)
    _, _, notes = learn(state.players[i].cards, e.cards, 0, state.deal.seen)
    found += dealing.learned(state, i, notes, RuleId.LOG_CARDS, e.line)
    found += log.shown_description(state, e)
    return found


def seat_result(state: HandState, e: SeatResult) -> Findings:
    i = state.setup.index.get(e.player)
    if i is None or not e.cards:
        return NO_FINDINGS
    found = log.bad_tokens(state.setup, e.cards, e.line)
    _, _, notes = learn(state.players[i].cards, e.cards, 0, state.deal.seen)
    return found + dealing.learned(state, i, notes, RuleId.LOG_SUMMARY, e.line)


CHECKS: dict[type[Event], LineCheck] = {
    PostAnte: ante,
    StreetStart: street,
    Dealt: dealing.dealt,
    BringIn: bring_in,
    Bet: bet,
    Complete: complete,
    Raise: raise_,
    Call: call,
    Check: check,
    Fold: fold,
    BettingCapped: structure.cap_line,
    UncalledBet: wagers.returned,
    ShowDown: wagers.showdown_after_hand_over,
    Show: show,
    Muck: showdown.mucked,
    Collect: showdown.collector,
    Board: log.board,
    SeatResult: seat_result,
}
"""The checks of each kind of line (lines of other kinds break no rule on their own)."""
