"""The betting rules as questions about a state: full wager sizes, the cap, legal actions.

`legal_actions(state)` is what a simulator plays from: every item is one legal move with its
exact amounts, and `Action.to_event(line)` turns it into the log event the engine applies.
These functions only read the state; a round still being dealt is opened by the engine
(`engine.legal_actions` asks on a copy with the deal closed).

>>> from razz.parser.events import Street
>>> from razz.replay.ruleset import POKERSTARS
>>> from razz.replay.state import HandSetup, HandState
>>> state = HandState.new(HandSetup.create(POKERSTARS, "a", "1", 4, 8, 1, 2, ((1, "ann", 100, 3),)))
>>> state.street = Street.FIFTH
>>> wager_target(state, 0)
8
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from razz.parser.events import Bet, BringIn, Call, Check, Event, Fold, Raise
from razz.replay.game import FIRST_STREET, cap
from razz.replay.ruleset import ShortAllIn
from razz.replay.state import BETTING, HandState, PlayerState

__all__ = [
    "Action",
    "ActionKind",
    "cap_applies",
    "capped",
    "counts_as_full",
    "heads_up",
    "legal_actions",
    "wager_target",
]


class ActionKind(StrEnum):
    """A betting decision, as the analytics name it."""

    BRING_IN = "bring_in"
    COMPLETE = "complete"  # the first full wager of 3rd street, over the bring-in
    BET = "bet"
    RAISE = "raise"
    CALL = "call"
    CHECK = "check"
    FOLD = "fold"


# The kinds by name, for the checks of every betting line (as `state.BETTING` names a phase:
# a member read from its enum goes through the metaclass's `__getattr__` hook on Python 3.11).
BRING_IN, COMPLETE, BET, RAISE, CALL, CHECK, FOLD = (
    ActionKind.BRING_IN,
    ActionKind.COMPLETE,
    ActionKind.BET,
    ActionKind.RAISE,
    ActionKind.CALL,
    ActionKind.CHECK,
    ActionKind.FOLD,
)


@dataclass(frozen=True, slots=True)
class Action:
    """One legal move: who, what, and the exact chips.

    `amount` is what the log writes (`calls 2`, `bets 4`, `raises 4 to 8` → 4, the increment
    over the current bet); `chips` is what leaves the player's stack; `to` is the player's
    street total afterwards.
    """

    kind: ActionKind
    player: str
    amount: int
    chips: int
    to: int
    all_in: bool
    as_bet: bool = False  # a completion by the bring-in player is logged as `bets`

    def to_event(self, line: int) -> Event:
        """The log event for this action, on `line`.

        >>> Action(ActionKind.RAISE, "ann", 4, 6, 8, False).to_event(12)
        Raise(line=12, player='ann', to=8, amount=4, all_in=False)
        """
        kind = self.kind
        if kind is ActionKind.FOLD:
            return Fold(line, self.player)
        if kind is ActionKind.CHECK:
            return Check(line, self.player)
        if kind is ActionKind.CALL:
            return Call(line, self.player, self.chips, self.all_in)
        if kind is ActionKind.BRING_IN:
            return BringIn(line, self.player, self.chips, self.all_in)
        if kind is ActionKind.BET or self.as_bet:
            return Bet(line, self.player, self.chips, self.all_in)
        return Raise(line, self.player, to=self.to, amount=self.amount, all_in=self.all_in)


def heads_up(state: HandState) -> bool:
    """Whether exactly two players are left in the hand."""
    left = 0
    for p in state.players:
        if p.dealt_in and not p.folded:
            left += 1
    return left == 2


def cap_applies(state: HandState) -> bool:
    """Whether the raise cap holds now (STRUCT-CAP; a ruleset may lift it heads-up)."""
    rules = state.setup.ruleset
    if rules.max_raises is None:
        return False
    return rules.cap_heads_up or not heads_up(state)


def capped(state: HandState) -> bool:
    """Whether the round has reached its cap of bets (`game.cap`)."""
    bets = cap(state.setup.ruleset)
    return bets is not None and state.round.bets >= bets and cap_applies(state)


def opening_third(state: HandState) -> bool:
    """Whether 3rd street is still to be opened (by the bring-in or a completion)."""
    return state.street is FIRST_STREET and not state.deal.brought_in


def wager_target(state: HandState, i: int) -> int:
    """The street total of a full bet, completion or raise by player `i` now.

    The first full wager of a street is one unit (on 3rd street: the completion to the small
    bet, whatever the bring-in); each raise adds one unit to the current bet, or to the last
    full bet when the ruleset does not count raises from a short all-in.
    """
    rnd = state.round
    unit = state.setup.bet_unit(state.street)
    if rnd.bets == 0:
        return unit
    base = rnd.level if state.setup.ruleset.raise_over_short_all_in else rnd.full_level
    return base + unit


def counts_as_full(state: HandState, to: int, target: int) -> bool:
    """Whether a wager to `to` (target `target`) is full, or counts as full by the ruleset."""
    if to >= target:
        return True
    if state.setup.ruleset.short_all_in is ShortAllIn.HALF_OR_MORE:
        level = state.round.level
        return (to - level) * 2 >= target - level
    return False


def legal_actions(state: HandState) -> tuple[Action, ...]:
    """Every legal move of the player whose turn it is, with exact amounts; () if none.

    The bring-in player chooses between the bring-in and the completion (BRINGIN-CHOICE).
    Later a player may fold (even with nothing to call: legal, if wasteful), check or call,
    and bet, complete or raise one unit unless the round is capped or a short all-in left
    them only calling (ACT-ALLIN-SHORT). With too few chips, the action is all-in for less.
    The state must have its deal closed (see `engine.legal_actions`).
    """
    rnd = state.round
    i = rnd.to_act
    if state.phase is not BETTING or i is None:
        return ()
    name = state.setup.name(i)
    p = state.players[i]
    if opening_third(state):
        return _bring_in_choices(state, name, p)
    actions: list[Action] = []
    facing = rnd.level - p.street_bet
    if facing > 0:
        chips = min(facing, p.stack)
        actions.append(Action(ActionKind.FOLD, name, 0, 0, p.street_bet, False))
        actions.append(
            Action(ActionKind.CALL, name, chips, chips, p.street_bet + chips, chips == p.stack)
        )
    else:
        actions.append(Action(ActionKind.CHECK, name, 0, 0, p.street_bet, False))
        actions.append(Action(ActionKind.FOLD, name, 0, 0, p.street_bet, False))
    if p.stack > facing and i not in rnd.acted and not capped(state):
        target = wager_target(state, i)
        chips = min(target - p.street_bet, p.stack)
        to = p.street_bet + chips
        if rnd.level == 0:
            kind = ActionKind.BET
        elif rnd.bets == 0 and state.street is FIRST_STREET:
            kind = ActionKind.COMPLETE
        else:
            kind = ActionKind.RAISE
        amount = chips if kind is ActionKind.BET else to - rnd.level
        actions.append(Action(kind, name, amount, chips, to, chips == p.stack))
    return tuple(actions)


def _bring_in_choices(state: HandState, name: str, p: PlayerState) -> tuple[Action, ...]:
    setup = state.setup
    choices: list[Action] = []
    if setup.bring_in is not None:
        chips = min(setup.bring_in, p.stack)
        choices.append(Action(ActionKind.BRING_IN, name, chips, chips, chips, chips == p.stack))
    if setup.bring_in is None or p.stack > setup.bring_in:
        chips = min(setup.small_bet, p.stack)
        choices.append(
            Action(ActionKind.COMPLETE, name, chips, chips, chips, chips == p.stack, as_bet=True)
        )
    return tuple(choices)
