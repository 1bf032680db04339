"""How each line changes a hand's state: the only module that writes a `HandState`.

`APPLY[type(event)](state, event)` applies one line as written, after the checks have read
the state (a line that breaks a rule still changes the state as the log says, so that one
mistake gives one finding and the replay goes on from what the log says). Two moments have
no line of their own and are applied by the engine when a line shows they have come:

* `close_deal`: a street's cards are all out (at its first betting line, or when the round
  ends): cards nobody saw take their places and the betting round opens;
* `end_round`: the betting round is over (at the next street, the showdown, the first
  `collected` line, the summary or the end of the hand): a bet nobody called goes back.
"""

from __future__ import annotations

from collections.abc import Callable
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
    HandCancelled,
    Muck,
    PostAnte,
    Raise,
    SeatResult,
    Show,
    ShowDown,
    StreetStart,
    Summary,
    TotalPot,
    UncalledBet,
)
from razz.replay.betting import capped, counts_as_full, opening_third, wager_target
from razz.replay.cards import BIT, RANK
from razz.replay.game import (
    CARDS_AFTER,
    CARDS_BEFORE,
    DOOR,
    FIRST_STREET,
    LAST_STREET,
    OPENING,
    Opening,
)
from razz.replay.holdings import learn, shown_cards, third_street_cards
from razz.replay.order import bring_in_players, first_actor, next_to_act
from razz.replay.state import (
    ANTES,
    BETTING,
    DEALING,
    SHOWDOWN,
    SUMMARY,
    UNKNOWN,
    HandState,
    PlayerState,
    Round,
    ante_excess,
)

# ------------------------------------------------------------------ chips and cards


def put_in(p: PlayerState, amount: int, all_in: bool) -> None:
    """Player `p` puts `amount` in the pot (never below zero chips behind)."""
    stack = p.stack - amount
    p.stack = stack if stack > 0 else 0
    p.committed += amount
    p.street_bet += amount
    p.all_in = all_in or stack <= 0


def take_back(p: PlayerState, amount: int) -> None:
    """An uncalled bet of `amount` goes back to player `p`."""
    p.all_in = p.all_in and p.stack + amount == 0
    p.stack += amount
    p.committed -= amount
    p.street_bet -= amount


def return_uncalled(state: HandState, i: int, amount: int, line: int) -> None:
    """Player `i` takes back `amount` nobody called, as the log's line `line` says."""
    take_back(state.players[i], amount)
    state.record.returned.append((i, amount, line))


# ------------------------------------------------------------------ between lines


def close_deal(state: HandState) -> None:
    """A street's cards are out: unseen cards take their places and the betting round opens.

    On 3rd street the bring-in player opens; later, the best exposed board (ORDER-LATER). When
    fewer than two players can still bet there is no betting round.
    """
    street = state.street
    if state.phase is not DEALING or street is None:
        return
    deal = state.deal
    held = 0  # the cards each player holds now (3rd street's are placed by their deal line)
    if street is not FIRST_STREET:
        # The river may be one community card instead of a card each (DEAL-COMMUNITY).
        held = CARDS_AFTER[street] - (street is LAST_STREET and deal.community is not None)
    active = 0  # players who can still bet
    for p in state.players:
        if p.dealt_in and not p.folded:
            if len(p.cards) < held:
                # A card nobody saw (an opponent's river card, or a missing line) takes its place.
                p.cards = p.cards + (UNKNOWN,) * (held - len(p.cards))
            if not p.all_in:
                active += 1
    state.phase = BETTING
    if OPENING[street] is Opening.BRING_IN:
        _, opener = bring_in_players(state)
        deal.bring_in = opener
    else:
        _, opener = first_actor(state)
    if active < 2:
        opener = None
    # The street's round, made new by its `StreetStart`: no betting line has touched it (each
    # waits for this moment), only a `Betting is capped` line written during the deal, which
    # belongs to no round. Opened in place rather than made anew (6.5 rounds a hand): 0.65%
    # of the audit's instructions (callgrind, 300 hands, 2.248 M to 2.233 M a hand).
    rnd = state.round
    rnd.capped_line = 0
    rnd.to_act = rnd.opener = opener


def open_round(state: HandState) -> HandState:
    """The state itself, or a copy with its deal closed if it is still being dealt (for the
    questions a simulator asks between lines: who acts, what may they do)."""
    if state.phase is not DEALING:
        return state
    view = state.copy()
    close_deal(view)
    return view


def end_round(state: HandState, line: int, pending: tuple[int, int] | None) -> None:
    """The betting round of a state in `BETTING` (its deal closed first, `close_deal`) is
    over and its checks have run: a bet nobody called goes back.

    `pending` is that bet, `state.uncalled(state)` of this state: the engine asks it once for
    the round's checks and for this (asked by each, it cost 0.67% of the audit's
    instructions: 2.087 M -> 2.073 M a hand, callgrind, 500 hands).
    """
    if state.round.to_act is not None and _left(state) >= 2:
        return  # the round did not end as it should (ORDER-CLOCKWISE): nothing to settle
    if pending is not None and not state.setup.dialect.uncalled_in_pot:  # Winamax keeps it in
        return_uncalled(state, pending[0], pending[1], line)


def _left(state: HandState) -> int:
    n = 0
    for p in state.players:
        if p.dealt_in and not p.folded:
            n += 1
    return n


# ------------------------------------------------------------------ the lines


def post_ante(state: HandState, e: PostAnte) -> None:
    i = state.setup.index.get(e.player)
    if i is None:
        return
    state.deal.antes[i] += e.amount
    p = state.players[i]
    stack = p.stack - e.amount
    p.stack = stack if stack > 0 else 0  # max(stack, 0): see `state.uncalled` on `max`
    p.committed += e.amount
    p.street_bet = 0
    p.dealt_in = True
    p.all_in = e.all_in or stack <= 0


def start_street(state: HandState, e: StreetStart) -> None:
    for p in state.players:
        p.street_bet = 0
    deal = state.deal
    community = e.community if e.street is LAST_STREET and e.community in RANK else None
    deal.community = community
    deal.street_line = e.line
    if community:
        deal.seen |= BIT[community]
    state.phase = DEALING
    state.street = e.street
    state.round = Round()


def deal(state: HandState, e: Dealt) -> None:
    i = state.setup.index.get(e.player)
    if i is None or e.street is not state.street:
        return
    if state.phase is not DEALING and state.phase is not BETTING:
        return
    p = state.players[i]
    if p.folded:
        return
    deal = state.deal
    if e.hero and deal.hero is None:
        deal.hero = i
    p.dealt_in = True
    if e.street is FIRST_STREET:
        if p.cards:
            return  # a second 3rd-street deal (DEAL-COUNT) changes nothing
        # Every card the line writes (`shown_cards` would only drop hidden ones, not cards).
        p.cards = third_street_cards(e.hero, [c for c in (*e.previous, *e.new) if c in RANK])
        for card in p.cards:
            if card:
                deal.seen |= BIT[card]
        return
    previous, new = shown_cards(e)
    before = CARDS_BEFORE[e.street]
    held = p.cards
    card = UNKNOWN
    for c in new:
        if c in RANK:
            card = c
            break
    if len(held) == before and held[0 if e.hero else DOOR :] == previous:
        p.cards = (*held, card)  # the usual line: the earlier cards repeated, one new card
    elif len(held) > before:
        return  # a second card on this street (DEAL-COUNT) changes nothing
    else:
        # Missing earlier streets still take their positions, so that positions stay aligned.
        padded = held + (UNKNOWN,) * (before - len(held))
        known, deal.seen, _ = learn(padded, previous, 0 if e.hero else DOOR, deal.seen)
        p.cards = (*known[:before], card)
    if card:
        deal.seen |= BIT[card]


def _next(state: HandState, i: int, level: int, full_level: int, bets: int, aggressor: Any) -> None:
    """Player `i` acted: the round moves on to the next player owing action."""
    rnd = state.round
    rnd.level = level
    rnd.full_level = full_level
    rnd.bets = bets
    rnd.to_act = next_to_act(state.players, i, level, rnd.acted)
    rnd.aggressor = aggressor
    rnd.actions += 1


def _passive(state: HandState, i: int, chips: int, all_in: bool) -> None:
    """A call or check (or a late bring-in): chips in, no change to the bet count."""
    p = state.players[i]
    if chips or all_in:
        put_in(p, chips, all_in)
    rnd = state.round
    rnd.acted.add(i)
    level = rnd.level if rnd.level >= p.street_bet else p.street_bet  # see `state.uncalled`
    _next(state, i, level, rnd.full_level, rnd.bets, rnd.aggressor)


def _wager(state: HandState, i: int, chips: int, all_in: bool, line: int) -> None:
    """A bet, completion or raise: a full one reopens the betting and counts to the cap."""
    rnd = state.round
    p = state.players[i]
    to = p.street_bet + chips
    full = counts_as_full(state, to, wager_target(state, i))
    cap_at = rnd.cap_at
    put_in(p, chips, all_in)
    level = rnd.level if rnd.level >= to else to  # max(): see `state.uncalled` on `max`
    if full:
        rnd.acted = {i}
        _next(state, i, level, level, rnd.bets + 1, i)
    else:
        bets = rnd.bets + (1 if state.setup.ruleset.short_all_in_counts_to_cap else 0)
        rnd.acted.add(i)
        _next(state, i, level, rnd.full_level, bets, i)
    if not cap_at and capped(state):
        # Remember where the cap was reached: the log owes a `Betting is capped` line.
        rnd.cap_at = line


def actor(state: HandState, name: str) -> int | None:
    """The index of the player a betting line names, if that line can be applied at all: a
    seated player, dealt in, not folded, not all-in, while a betting round is open."""
    i = state.setup.index.get(name)
    if i is None or state.phase is not BETTING:
        return None
    p = state.players[i]
    if not p.dealt_in or p.folded or p.all_in:
        return None
    return i


def bring_in(state: HandState, e: BringIn) -> None:
    i = actor(state, e.player)
    if i is None:
        return
    p = state.players[i]
    amount = e.amount
    if amount is None:  # the site writes no amount (PHH `pb`): the known bring-in
        amount = min(state.setup.bring_in or 0, p.stack)
    if not opening_third(state):
        _passive(state, i, amount, e.all_in)  # a late bring-in (ACT-CHOICES) is a call
        return
    state.deal.brought_in = True
    put_in(p, amount, e.all_in)
    state.round.acted = {i}
    _next(state, i, p.street_bet, 0, 0, None)


def bet(state: HandState, e: Bet) -> None:
    i = actor(state, e.player)
    if i is None:
        return
    if opening_third(state):
        state.deal.brought_in = True
    _wager(state, i, e.amount, e.all_in, e.line)


def raise_to(state: HandState, e: Raise | Complete) -> None:
    i = actor(state, e.player)
    if i is None:
        return
    chips = e.to - state.players[i].street_bet
    if opening_third(state):
        state.deal.brought_in = True
    _wager(state, i, chips, e.all_in, e.line)


def call(state: HandState, e: Call) -> None:
    i = actor(state, e.player)
    if i is None:
        return
    p = state.players[i]
    amount = e.amount
    if amount is None:  # the site writes no amount (PHH `cc`): what matches the bet
        amount = max(0, min(state.round.level - p.street_bet, p.stack))
    if opening_third(state):
        state.deal.brought_in = True
    _passive(state, i, amount, e.all_in)


def check(state: HandState, e: Check) -> None:
    i = actor(state, e.player)
    if i is None:
        return
    if opening_third(state):
        state.deal.brought_in = True
    _passive(state, i, 0, False)


def fold(state: HandState, e: Fold) -> None:
    i = actor(state, e.player)
    if i is None:
        return
    if opening_third(state):
        state.deal.brought_in = True
    state.players[i].folded = True
    state.deal.folded_on[i] = state.street
    rnd = state.round
    rnd.acted.add(i)
    _next(state, i, rnd.level, rnd.full_level, rnd.bets, rnd.aggressor)
    if _left(state) <= 1:
        rnd.to_act = None  # the last player left has won: nobody acts any more


def capped_line(state: HandState, e: BettingCapped) -> None:
    state.round.capped_line = e.line


def uncalled_bet(state: HandState, e: UncalledBet) -> None:
    i = state.setup.index.get(e.player)
    if i is None:
        return
    if state.phase is ANTES:  # an ante's excess over every other ante (Full Tilt)
        p, amount = state.players[i], max(0, min(e.amount, ante_excess(state, i)))
        p.stack += amount
        p.committed -= amount
        p.all_in = p.all_in and p.stack == 0
        state.deal.antes[i] -= amount
        state.record.returned.append((i, amount, e.line))
        return
    amount = max(0, min(e.amount, state.players[i].street_bet))
    return_uncalled(state, i, amount, e.line)


def showdown(state: HandState, e: ShowDown) -> None:
    state.phase = SHOWDOWN
    state.record.showdown_line = e.line


def _learn_shown(state: HandState, i: int, cards: tuple[str, ...]) -> None:
    p = state.players[i]
    known, seen, _ = learn(p.cards, cards, 0, state.deal.seen)
    if p.dealt_in:
        p.cards = tuple(known)
    state.deal.seen = seen


def show(state: HandState, e: Show) -> None:
    i = state.setup.index.get(e.player)
    if i is None:
        return
    _learn_shown(state, i, e.cards)
    record = state.record
    if record.showdown_line > 0:
        record.shows.append((i, True, e.line))
    record.shown.add(i)


def muck(state: HandState, e: Muck) -> None:
    i = state.setup.index.get(e.player)
    if i is None or state.record.showdown_line == 0:
        return
    state.record.shows.append((i, False, e.line))


def collect(state: HandState, e: Collect) -> None:
    if state.phase is BETTING or state.phase is DEALING:
        state.phase = SHOWDOWN
    i = state.setup.index.get(e.player)
    if i is None:
        return
    state.players[i].stack += e.amount
    state.record.collects.append((i, e))


def summary(state: HandState, e: Summary) -> None:
    state.phase = SUMMARY
    state.record.summary_line = e.line


def total_pot(state: HandState, e: TotalPot) -> None:
    state.record.total = e


def board(state: HandState, e: Board) -> None:
    state.record.board = e


def seat_result(state: HandState, e: SeatResult) -> None:
    i = state.setup.index.get(e.player)
    if i is not None and e.cards:
        _learn_shown(state, i, e.cards)
    state.record.seat_results.append(e)


def cancelled(state: HandState, e: HandCancelled) -> None:
    state.record.cancelled = True


Apply = Callable[[HandState, Any], None]

APPLY: dict[type[Event], Apply] = {
    PostAnte: post_ante,
    StreetStart: start_street,
    Dealt: deal,
    BringIn: bring_in,
    Bet: bet,
    Complete: raise_to,
    Raise: raise_to,
    Call: call,
    Check: check,
    Fold: fold,
    BettingCapped: capped_line,
    UncalledBet: uncalled_bet,
    ShowDown: showdown,
    Show: show,
    Muck: muck,
    Collect: collect,
    Summary: summary,
    TotalPot: total_pot,
    Board: board,
    SeatResult: seat_result,
    HandCancelled: cancelled,
}
"""What each line does to the state; lines of other types (seats, chat …) change nothing."""
