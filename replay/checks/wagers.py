"""Betting actions: ACT-CHOICES, ACT-CHECK, ACT-CALL, ACT-COMPLETE, ACT-RAISE-SIZE,
ACT-ALLIN-SHORT and ACT-UNCALLED.

What a player may do at their turn and for how much: check only with nothing to call, call
exactly what matches the bet, complete the bring-in to the small bet, raise by one unit, not
reopen the betting after a short all-in; and a bet nobody called goes back.
"""

from __future__ import annotations

from razz.parser.events import (
    Bet,
    BringIn,
    Call,
    Check,
    Complete,
    Raise,
    ShowDown,
    Street,
    StreetStart,
    UncalledBet,
)
from razz.replay.betting import wager_target
from razz.replay.findings import Finding, Severity
from razz.replay.game import FIRST_STREET
from razz.replay.rules import RuleId
from razz.replay.state import (
    ANTES,
    BETTING,
    NO_FINDINGS,
    HandState,
    ante_excess,
    live,
    make_finding,
    players_left,
    uncalled,
)


def late_bring_in(state: HandState, e: BringIn) -> list[Finding]:
    """ACT-CHOICES: the bring-in is posted once, as the first action of 3rd street."""
    return [
        make_finding(
            state.setup,
            RuleId.ACT_CHOICES,
            e.line,
            "fold, check, bet, call or raise",
            "bring-in",
            "The bring-in is posted once, as the first action of 3rd street.",
        )
    ]


def completion(state: HandState, e: Bet | Complete, to: int) -> list[Finding]:
    """ACT-COMPLETE: a bring-in player who completes instead makes it exactly the small bet."""
    setup = state.setup
    small = setup.small_bet
    if to == small or (e.all_in and to < small):
        return []
    money = setup.money
    return [
        make_finding(
            setup,
            RuleId.ACT_COMPLETE,
            e.line,
            money(small),
            money(to),
            f"Instead of the bring-in, {e.player} may complete to exactly the small bet"
            f" ({money(small)}), not {money(to)}.",
        )
    ]


def bet_facing_bet(state: HandState, e: Bet) -> list[Finding]:
    """ACT-CHOICES: facing a bet a player folds, calls or raises; they do not bet."""
    money = state.setup.money
    return [
        make_finding(
            state.setup,
            RuleId.ACT_CHOICES,
            e.line,
            "fold, call or raise",
            "bet",
            f"{e.player} bets although there is already a bet of {money(state.round.level)};"
            " facing a bet a player folds, calls or raises.",
        )
    ]


def raise_without_bet(state: HandState, e: Raise) -> list[Finding]:
    """ACT-CHOICES: with no bet a player checks or bets; there is nothing to raise."""
    return [
        make_finding(
            state.setup,
            RuleId.ACT_CHOICES,
            e.line,
            "check or bet",
            "raise",
            f"{e.player} raises but there is no bet to raise; with no bet a player checks or bets.",
        )
    ]


def complete_out_of_place(state: HandState, e: Complete) -> list[Finding]:
    """ACT-CHOICES: only the bring-in on 3rd street can be completed."""
    return [
        make_finding(
            state.setup,
            RuleId.ACT_CHOICES,
            e.line,
            "bet or raise",
            "complete",
            f"{e.player} completes, but only the bring-in on 3rd street can be completed.",
        )
    ]


def raise_increment(state: HandState, e: Raise | Complete, amount: int | None) -> list[Finding]:
    """ACT-RAISE-SIZE: the increment a raise line writes makes its total."""
    level = state.round.level
    if amount is None or e.to - level == amount or not state.setup.dialect.raise_increments:
        return []
    money = state.setup.money
    return [
        make_finding(
            state.setup,
            RuleId.ACT_RAISE_SIZE,
            e.line,
            f"raises {money(e.to - level)} to {money(e.to)}",
            f"raises {money(amount)} to {money(e.to)}",
            f"A raise of {money(amount)} over the bet of {money(level)} makes"
            f" {money(level + amount)}, not {money(e.to)}.",
        )
    ]


def reopened(state: HandState, i: int, e: Raise | Complete) -> list[Finding]:
    """ACT-ALLIN-SHORT: a short all-in does not reopen the betting to those who acted."""
    rnd = state.round
    if i not in rnd.acted:
        return []
    half = (rnd.level - rnd.full_level) * 2 >= state.setup.bet_unit(state.street)
    return [
        make_finding(
            state.setup,
            RuleId.ACT_ALLIN_SHORT,
            e.line,
            "fold or call",
            "raise",
            f"{e.player} already acted, and an all-in for less than a full raise does not"
            f" reopen the betting: {e.player} may only call or fold.",
            Severity.WARNING
            if half and not state.setup.ruleset.settles("short_all_in")
            else Severity.ERROR,
        )
    ]


def raise_size(state: HandState, i: int, e: Raise | Complete, chips: int) -> list[Finding]:
    """ACT-COMPLETE, STRUCT-NO-DOUBLE, ACT-RAISE-SIZE: a raise is to one unit over the bet
    (the completion to the small bet), unless all-in for less."""
    target = wager_target(state, i)
    if e.to == target or (e.all_in and e.to < target and chips == state.players[i].stack):
        return []
    setup, street = state.setup, state.street
    money = setup.money
    unit = setup.bet_unit(street)
    if state.round.bets == 0 and street is FIRST_STREET:
        return [
            make_finding(
                setup,
                RuleId.ACT_COMPLETE,
                e.line,
                f"to {money(target)}",
                f"to {money(e.to)}",
                f"Completing the bring-in makes the bet exactly the small bet"
                f" ({money(target)}), not {money(e.to)}.",
            )
        ]
    if street is Street.FOURTH and e.to - (target - unit) == setup.big_bet:
        return [
            make_finding(
                setup,
                RuleId.STRUCT_NO_DOUBLE,
                e.line,
                f"to {money(target)}",
                f"to {money(e.to)}",
                f"Razz has no double bet on 4th street: a raise is one small bet, to"
                f" {money(target)}, not {money(e.to)}.",
            )
        ]
    rnd = state.round
    # After a short all-in, a raise counted from the other base (the last full bet, or the
    # short amount) follows the other reading of ACT-ALLIN-SHORT: only a warning where the
    # ruleset's evidence leaves that reading open.
    other_base = rnd.full_level if setup.ruleset.raise_over_short_all_in else rnd.level
    other_reading = rnd.level != rnd.full_level and e.to == other_base + unit
    return [
        make_finding(
            setup,
            RuleId.ACT_RAISE_SIZE,
            e.line,
            f"to {money(target)}",
            f"to {money(e.to)}",
            f"A raise on {street} street is one {'big' if unit == setup.big_bet else 'small'}"
            f" bet, to {money(target)}; {e.player} raised to {money(e.to)}.",
            Severity.WARNING
            if other_reading and not setup.ruleset.settles("raise_over_short_all_in")
            else Severity.ERROR,
        )
    ]


def call_amount(state: HandState, i: int, e: Call, amount: int) -> list[Finding]:
    """ACT-CALL: a call puts in exactly what matches the bet (less only all-in)."""
    setup, p = state.setup, state.players[i]
    money = setup.money
    facing = state.round.level - p.street_bet
    if facing <= 0:
        return [
            make_finding(
                setup,
                RuleId.ACT_CALL,
                e.line,
                "check",
                f"calls {money(e.amount)}" if e.amount is not None else "calls",
                f"There is no bet for {e.player} to call; {e.player} could check.",
            )
        ]
    needed = facing if facing <= p.stack else p.stack  # min(): see `state.uncalled`
    if amount == needed or (e.all_in and amount == p.stack):
        return []
    return [
        make_finding(
            setup,
            RuleId.ACT_CALL,
            e.line,
            money(needed),
            money(amount),
            f"A call puts in exactly what matches the bet: {money(needed)} for"
            f" {e.player}, not {money(amount)}.",
        )
    ]


def check_facing(state: HandState, i: int, e: Check) -> list[Finding]:
    """ACT-CHECK: a check is only legal with nothing to call."""
    level = state.round.level
    if state.players[i].street_bet >= level:
        return []
    return [
        make_finding(
            state.setup,
            RuleId.ACT_CHECK,
            e.line,
            "fold, call or raise",
            "check",
            f"{e.player} checks facing a bet of {state.setup.money(level)}; a check is"
            " only legal with nothing to call.",
        )
    ]


def returned(state: HandState, e: UncalledBet) -> tuple[Finding, ...]:
    """ACT-UNCALLED: a line returns exactly the bet nobody called, to its owner."""
    setup = state.setup
    money = setup.money
    i = setup.index.get(e.player)
    if i is None:
        return (
            make_finding(
                setup,
                RuleId.ACT_UNCALLED,
                e.line,
                "a seated player",
                e.player,
                f"An uncalled bet is returned to {e.player}, who has no seat in this hand.",
            ),
        )
    if state.phase is ANTES:  # before 3rd street: only an ante's excess goes back
        excess = ante_excess(state, i)
        if e.amount == excess > 0:
            return NO_FINDINGS
        return (
            make_finding(
                setup,
                RuleId.ACT_UNCALLED,
                e.line,
                f"{money(excess)} returned to {e.player}" if excess else "nothing returned",
                f"{money(e.amount)} returned to {e.player}",
                f"{e.player}'s ante exceeds every other ante by {money(excess)}; the log"
                f" returns {money(e.amount)}.",
            ),
        )
    betting_over = (
        state.phase is not BETTING or state.round.to_act is None or players_left(state) <= 1
    )
    pending = uncalled(state) if betting_over else None
    if pending is None:
        return (
            make_finding(
                setup,
                RuleId.ACT_UNCALLED,
                e.line,
                "nothing returned",
                f"{money(e.amount)} returned to {e.player}",
                f"Every bet was called, so nothing is returned to {e.player}.",
            ),
        )
    if pending != (i, e.amount):
        owner, amount = pending
        return (
            make_finding(
                setup,
                RuleId.ACT_UNCALLED,
                e.line,
                f"{money(amount)} returned to {setup.name(owner)}",
                f"{money(e.amount)} returned to {e.player}",
                f"The bet nobody called is {setup.name(owner)}'s {money(amount)}; the log"
                f" returns {money(e.amount)} to {e.player}.",
            ),
        )
    return NO_FINDINGS


def unreturned(state: HandState, line: int, pending: tuple[int, int] | None) -> list[Finding]:
    """ACT-UNCALLED: at the end of a round, a bet nobody called (`pending`, what
    `state.uncalled` says of the round) is returned on a line."""
    setup = state.setup
    if not setup.dialect.uncalled_line:
        return []  # the format returns it without a line
    if pending is None:
        return []
    i, amount = pending
    name = setup.name(i)
    return [
        make_finding(
            setup,
            RuleId.ACT_UNCALLED,
            line,
            f"{setup.money(amount)} returned to {name}",
            "nothing returned",
            f"Nobody called {name}'s last {setup.money(amount)}, but the log never returns it.",
        )
    ]


def dealt_after_hand_over(state: HandState, e: StreetStart) -> list[Finding]:
    """ACT-UNCALLED: once one player is left the hand is over; no more street is dealt."""
    if state.street is None or players_left(state) > 1:
        return []
    return [
        make_finding(
            state.setup,
            RuleId.ACT_UNCALLED,
            e.line,
            "the hand ends",
            f"{e.street} street is dealt",
            "Only one player is left, so the hand is over and no more street is dealt.",
        )
    ]


def showdown_after_hand_over(state: HandState, e: ShowDown) -> tuple[Finding, ...]:
    """ACT-UNCALLED: with one player left there is no showdown."""
    left = live(state)
    if len(left) > 1:
        return NO_FINDINGS
    who = state.setup.name(left[0]) if left else "nobody"
    return (
        make_finding(
            state.setup,
            RuleId.ACT_UNCALLED,
            e.line,
            "no showdown",
            "*** SHOW DOWN ***",
            f"Only {who} is left, so the hand ends without a showdown.",
        ),
    )
