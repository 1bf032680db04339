"""An oracle nobody here wrote: PokerKit's `FixedLimitRazz` plays the same random hands as our
engine, and both must agree on the bring-in player, the first actor of every street, whose
turn it is, and every player's payoff (winners and amounts, side pots included).

Where PokerKit's rules and ours (PokerStars) differ, the hands avoid the difference:

* a community card (PokerKit deals no shared river card): at most seven players;
* an ante all-in (PokerKit keeps the all-in player's high card as the opener and lets the next
  player act without a bring-in): stacks cover the ante and the bring-in;
* short all-in raises (PokerKit reopens the betting once consecutive short raises add up to a
  full one; PokerStars never reopens): players never raise all-in for less than a full raise;
* odd chips of a pot split three ways or more (PokerKit gives every odd chip to the first
  winner; we give one each in seat order): splits between two players only are compared.
"""

from __future__ import annotations

import random

import pytest
from pokerkit import Automation, FixedLimitRazz

from razz.parser.events import Dealt, PostAnte, StreetStart, UncalledBet
from razz.replay.betting import Action, ActionKind
from razz.replay.cards import DECK
from razz.replay.engine import (
    ante_due,
    legal_actions,
    new_hand,
    next_actor,
    next_street,
    settle,
    step,
    uncalled_bet,
)
from razz.replay.ruleset import POKERSTARS
from razz.replay.state import HandState

AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)
ANTE, BRING_IN, SMALL, BIG = 2, 5, 10, 20


def _choose(rng: random.Random, actions: tuple[Action, ...], stack: int) -> Action:
    """A random legal action, never a raise all-in for less (PokerKit reopens on those)."""
    usable = [
        a
        for a in actions
        if not (a.kind in (ActionKind.RAISE, ActionKind.COMPLETE, ActionKind.BET) and a.all_in)
        and not (a.kind is ActionKind.FOLD and any(b.kind is ActionKind.CHECK for b in actions))
    ]
    weights = [{"fold": 2, "check": 4, "call": 6}.get(a.kind.value, 3) for a in usable]
    return rng.choices(usable, weights)[0]


def _play_against_pokerkit(rng: random.Random) -> tuple[list[int], list[int], int]:
    n = rng.randint(2, 7)
    stacks = [rng.choice([rng.randint(40, 120), rng.randint(300, 900)]) for _ in range(n)]
    names = [f"p{k}" for k in range(n)]
    deck = rng.sample(DECK, n * 7)
    cards = {k: deck[7 * k : 7 * k + 7] for k in range(n)}
    ours: HandState = new_hand(
        POKERSTARS,
        tuple((k + 1, names[k], stacks[k]) for k in range(n)),
        SMALL,
        BIG,
        ante=ANTE,
        bring_in=BRING_IN,
    )
    theirs = FixedLimitRazz.create_state(
        AUTOMATIONS, True, ANTE, BRING_IN, SMALL, BIG, tuple(stacks), n
    )
    for name, amount, all_in in ante_due(ours):
        step(ours, PostAnte(0, name, amount, all_in))
    ours_dealt, theirs_dealt = [0] * n, [0] * n
    while (street := next_street(ours)) is not None:
        step(ours, StreetStart(0, street))
        for k in range(n):
            p = ours.players[k]
            if p.dealt_in and not p.folded:
                held, new = cards[k][: ours_dealt[k]], cards[k][ours_dealt[k] : street.number]
                step(ours, Dealt(0, names[k], street, tuple(held), tuple(new), True))
                ours_dealt[k] = street.number
        # PokerKit deals on by itself when nobody can bet: deal it this street only.
        while theirs.can_deal_hole():
            dealee = theirs.hole_dealee_index
            assert dealee is not None
            if theirs_dealt[dealee] >= street.number:
                break
            theirs.deal_hole(cards[dealee][theirs_dealt[dealee]])
            theirs_dealt[dealee] += 1
        actor = next_actor(ours)
        if street.number == 3 and actor is not None:
            assert names.index(actor) == theirs.opener_index  # BRINGIN-WHO, BRINGIN-SUIT
        while legal := legal_actions(ours):
            # ORDER-3RD, ORDER-LATER, ORDER-TIE, ORDER-CLOCKWISE
            assert names.index(legal[0].player) == theirs.actor_index
            action = _choose(rng, legal, ours.players[names.index(legal[0].player)].stack)
            if action.kind is ActionKind.BRING_IN:
                theirs.post_bring_in()
            elif action.kind in (ActionKind.COMPLETE, ActionKind.BET, ActionKind.RAISE):
                theirs.complete_bet_or_raise_to(action.to)
            elif action.kind is ActionKind.FOLD:
                theirs.fold()
            else:
                theirs.check_or_call()
            found = step(ours, action.to_event(0))
            assert found == ()
        if (pending := uncalled_bet(ours)) is not None:
            step(ours, UncalledBet(0, *pending))
    settlement = settle(ours)
    payoffs = [settlement.won(names[k]) - ours.players[k].committed for k in range(n)]
    split_three_ways = any(len(pot.winners) > 2 for pot in settlement.pots)
    if split_three_ways:
        return [], [], 0
    return payoffs, list(theirs.payoffs), len(settlement.pots)


# PokerKit burns a card before each street from its own deck, which may hold a card we deal.
@pytest.mark.filterwarnings("ignore:A card being dealt")
def test_pokerkit_agrees_on_bring_in_turns_and_payoffs_of_random_hands() -> None:
    rng = random.Random(1926)
    compared = side_pots = 0
    for _ in range(400):
        ours, theirs, pots = _play_against_pokerkit(rng)
        assert ours == theirs
        compared += bool(ours)
        side_pots += pots > 1
    assert compared >= 390 and side_pots > 10
