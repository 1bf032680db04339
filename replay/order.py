"""Who acts: the bring-in, the first actor of later streets, the next player, the show order.

Clockwise is increasing seat number, wrapping around; players are kept in seat order, so the
next player clockwise is the next index.

>>> from razz.replay.ruleset import POKERSTARS
>>> from razz.replay.state import HandSetup, HandState
>>> setup = HandSetup.create(POKERSTARS, "a", "1", 4, 8, 1, 2,
...                          ((1, "ann", 100, 3), (2, "bob", 100, 4), (3, "cy", 100, 5)))
>>> state = HandState.new(setup)
>>> for p, door in zip(state.players, ["Qh", "Qd", "3c"]):
...     p.dealt_in, p.cards = True, ("", "", door)
>>> bring_in_players(state)
(0, 0)
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from razz.replay.cards import RANK, door_key
from razz.replay.game import DOOR, UP_CARDS
from razz.replay.lowhand import board_value
from razz.replay.ruleset import AllInOpener, TieBreak
from razz.replay.state import HandState, PlayerState

__all__ = [
    "best_boards",
    "bring_in_players",
    "clockwise_from",
    "door_card",
    "first_actor",
    "next_to_act",
    "show_order",
]


def door_card(p: PlayerState) -> str | None:
    """The 3rd-street up card (`game.DOOR`), when known."""
    cards = p.cards
    if len(cards) > DOOR and cards[DOOR] in RANK:
        return cards[DOOR]
    return None


@cache
def clockwise_from(n: int, start: int) -> tuple[int, ...]:
    """All indices of an `n`-player table, clockwise, beginning with `start` (which may be
    `n` or more: it goes round). Made once per table size and start, and looked up after
    (some 17 times a hand, by `next_to_act` above all): 1.3% of the audit's instructions,
    2.073 M -> 2.045 M a hand (callgrind, 500 hands)."""
    return tuple((start + k) % n for k in range(n))


def bring_in_players(state: HandState) -> tuple[int | None, int | None]:
    """(player with the highest door card, player who must bring in) on 3rd street.

    They differ when the highest door card is all-in from the ante: the bring-in then passes
    clockwise to the next player who can act (BRINGIN-ALLIN).
    """
    players = state.players
    natural, highest = None, -1
    for i, p in enumerate(players):
        if p.dealt_in and (d := door_card(p)) and (key := door_key(d)) >= highest:
            natural, highest = i, key  # on a tie (a card written twice), the later seat
    if natural is None:
        return None, None
    for i in clockwise_from(len(players), natural):
        p = players[i]
        if p.dealt_in and not p.folded and not p.all_in:
            return natural, i
    return natural, None


def best_boards(state: HandState, among: list[int]) -> list[int]:
    """The players among `among` whose exposed boards are the best (lowest), in seat order."""
    players = state.players
    best = 0
    tied: list[int] = []
    for i in among:
        value = board_value(players[i].cards[UP_CARDS])
        if not tied or value < best:
            best, tied = value, [i]
        elif value == best:
            tied.append(i)
    return tied


def _tie(state: HandState, tied: list[int]) -> int:
    if state.setup.ruleset.tie_break is TieBreak.LATEST_SEAT:
        return tied[-1]
    return tied[0]


def first_actor(
    state: HandState, all_in_opener: AllInOpener | None = None
) -> tuple[int | None, int | None]:
    """(player with the best exposed board, player who must act first) on 4th street and later.

    Ties go by the ruleset's tie-break (ORDER-TIE); when the best board is all-in the ruleset
    says who starts (ORDER-ALLIN), unless `all_in_opener` names another reading.
    """
    players = state.players
    in_hand = [i for i, p in enumerate(players) if p.dealt_in and not p.folded]
    tied = best_boards(state, in_hand)
    if not tied:
        return None, None
    best = _tie(state, tied)
    if not players[best].all_in:
        return best, best
    if (all_in_opener or state.setup.ruleset.all_in_opener) is AllInOpener.BEST_ACTIVE:
        active = [i for i in in_hand if not players[i].all_in]
        tied_active = best_boards(state, active)
        return best, (_tie(state, tied_active) if tied_active else None)
    for i in clockwise_from(len(players), best):
        if not players[i].all_in and i in in_hand:
            return best, i
    return best, None


def next_to_act(
    players: Sequence[PlayerState], after: int, level: int, acted: set[int]
) -> int | None:
    """The next player clockwise after `after` who still owes an action, or None.

    A player owes an action when they can act and either have not acted since the last full
    wager or have not matched the current level.
    """
    for i in clockwise_from(len(players), after + 1):
        p = players[i]
        if (
            p.dealt_in
            and not p.folded
            and not p.all_in
            and (i not in acted or p.street_bet < level)
        ):
            return i
    return None


def show_order(
    state: HandState, contenders: list[int], pots_eligible: list[list[int]]
) -> list[int]:
    """The order in which the players left must show at the showdown (SHOW-ORDER).

    The last player to bet or raise on the last round shows first, else the earliest seat; the
    others follow clockwise. With side pots, PokerStars settles the last side pot first, so its
    players show first, then those of the next pot down, each group clockwise.
    """
    if not contenders:
        return []
    aggressor = state.round.aggressor
    start = aggressor if aggressor is not None and aggressor in contenders else min(contenders)
    ring = [i for i in clockwise_from(len(state.players), start) if i in contenders]
    if len(pots_eligible) <= 1:
        return ring
    order: list[int] = []
    for eligible in reversed(pots_eligible):
        order.extend(i for i in ring if i in eligible and i not in order)
    order.extend(i for i in ring if i not in order)
    return order
