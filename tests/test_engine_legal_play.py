"""The engine as a legal-move generator: hands played only from `legal_actions` (what a
simulator does) replay with no finding at all, whatever the ruleset, the table size and the
stacks (all-in antes, all-in bring-ins, short all-in raises, side pots, community cards)."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest

from razz.parser.events import (
    Bet,
    BettingCapped,
    Collect,
    Dealt,
    Event,
    Outcome,
    PostAnte,
    Raise,
    SeatResult,
    Show,
    ShowDown,
    Street,
    StreetStart,
    Summary,
    TotalPot,
    UncalledBet,
)
from razz.parser.sites.base import POKERSTARS_DIALECT
from razz.replay.betting import ActionKind, capped
from razz.replay.cards import DECK
from razz.replay.engine import (
    ante_due,
    community_needed,
    finish,
    hand_over,
    legal_actions,
    new_hand,
    next_actor,
    next_street,
    players_to_deal,
    settle,
    show_order,
    step,
    uncalled_bet,
)
from razz.replay.findings import Finding
from razz.replay.lowhand import lo_text
from razz.replay.pots import Settlement
from razz.replay.ruleset import CARDROOM, POKERSTARS, Ruleset
from razz.replay.state import HandState, in_hand

WEIGHTS = {
    ActionKind.FOLD: 2,
    ActionKind.CHECK: 4,
    ActionKind.CALL: 5,
    ActionKind.BET: 3,
    ActionKind.COMPLETE: 2,
    ActionKind.RAISE: 3,
    ActionKind.BRING_IN: 6,
}


class Table:
    """Plays one hand from the engine's legal moves, writing every event it applies."""

    def __init__(self, rng: random.Random, ruleset: Ruleset, stacks: list[int]) -> None:
        self.rng = rng
        seats = sorted(rng.sample(range(1, 9), len(stacks)))
        self.names = [f"P{s}" for s in seats]
        self.state: HandState = new_hand(
            ruleset,
            tuple(zip(seats, self.names, stacks, strict=True)),
            small_bet=20,
            big_bet=40,
            ante=4,
            bring_in=7,
            # The table writes every player's down cards on every street, as PHH does: under
            # PokerStars' dialect another player's river card would be DEAL-7TH.
            dialect=replace(POKERSTARS_DIALECT, others_down_cards="always"),
        )
        self.deck = rng.sample(DECK, len(DECK))
        self.cards: dict[str, list[str]] = {n: [] for n in self.names}
        self.community: str | None = None
        self.line = 0
        self.findings: list[Finding] = []
        self.folded_on: dict[str, Street] = {}

    def apply(self, event: Event) -> None:
        found = step(self.state, event)
        self.findings.extend(found)

    def next_line(self) -> int:
        self.line += 1
        return self.line

    def play(self) -> Settlement:
        for name, amount, all_in in ante_due(self.state):
            self.apply(PostAnte(self.next_line(), name, amount, all_in))
        while (street := next_street(self.state)) is not None:
            self.deal(street)
            self.bet(street)
            if (pending := uncalled_bet(self.state)) is not None:
                self.apply(UncalledBet(self.next_line(), *pending))
        assert hand_over(self.state)
        assert settle(self.state).uncalled is None
        return self.settle()

    def deal(self, street: Street) -> None:
        if street is Street.SEVENTH and community_needed(self.state):
            self.community = self.deck.pop()
        self.apply(StreetStart(self.next_line(), street, self.community))
        for name in players_to_deal(self.state):
            held = self.cards[name]
            if street is Street.SEVENTH and self.community:
                continue
            new = [self.deck.pop() for _ in range(3 if street is Street.THIRD else 1)]
            self.apply(Dealt(self.next_line(), name, street, tuple(held), tuple(new), True))
            held.extend(new)

    def bet(self, street: Street) -> None:
        while actions := legal_actions(self.state):
            assert next_actor(self.state) == actions[0].player
            action = self.rng.choices(actions, [WEIGHTS[a.kind] for a in actions])[0]
            event = action.to_event(self.next_line())
            self.apply(event)
            if action.kind is ActionKind.FOLD:
                self.folded_on[action.player] = street
            if isinstance(event, (Bet, Raise)) and capped(self.state):
                self.apply(BettingCapped(self.next_line()))

    def settle(self) -> Settlement:
        state = self.state
        settlement = settle(state)
        live = [self.names[i] for i, p in enumerate(state.players) if in_hand(p)]
        shown = set()
        if len(live) > 1:
            self.apply(ShowDown(self.next_line()))
            for name in show_order(state):
                hand = self.cards[name] + ([self.community] if self.community else [])
                self.apply(
                    Show(self.next_line(), name, tuple(self.cards[name]), f"Lo: {lo_text(hand)}")
                )
                shown.add(name)
        several = len(settlement.pots) > 1
        for pot in reversed(settlement.pots):
            label = (
                ("side pot" if len(settlement.pots) == 2 else f"side pot-{pot.index}")
                if pot.index
                else ("main pot" if several else "pot")
            )
            for winner, share in zip(pot.winners, pot.shares, strict=True):
                self.apply(Collect(self.next_line(), winner, share, label, pot.index or None))
        self.apply(Summary(self.next_line()))
        main = settlement.pots[0].amount if several else None
        sides = tuple(p.amount for p in settlement.pots[1:]) if several else ()
        self.apply(TotalPot(self.next_line(), settlement.total, 0, main, sides))
        for k, (name, p) in enumerate(zip(self.names, self.state.players, strict=True)):
            if not p.dealt_in:
                continue
            won = settlement.won(name)
            seat = int(name[1:])
            if name in self.folded_on:
                street = self.folded_on[name]
                didnt_bet = street is Street.THIRD and p.committed == self.state.deal.antes[k]
                result = SeatResult(self.next_line(), name, seat, Outcome.FOLDED, street, didnt_bet)
            elif name in shown:
                outcome = Outcome.SHOWED_WON if won else Outcome.SHOWED_LOST
                result = SeatResult(
                    self.next_line(),
                    name,
                    seat,
                    outcome,
                    cards=tuple(self.cards[name]),
                    amount=won or None,
                )
            else:
                result = SeatResult(self.next_line(), name, seat, Outcome.COLLECTED, amount=won)
            self.apply(result)
        found, final = finish(self.state, self.line)
        self.findings.extend(found)
        return final


def _stacks(rng: random.Random, n: int) -> list[int]:
    """Mostly deep stacks, some short enough to be all-in on the ante, bring-in or later."""
    return [
        rng.choice([rng.randint(1, 12), rng.randint(13, 90), rng.randint(200, 900)])
        for _ in range(n)
    ]


@pytest.mark.parametrize("ruleset", [POKERSTARS, CARDROOM], ids=lambda r: r.name)
def test_hands_played_from_legal_actions_have_no_finding(ruleset: Ruleset) -> None:
    rng = random.Random(7)
    seen: Counter[str] = Counter()
    for _ in range(400):
        n = rng.choice([2, 3, 5, 7, 8, 8])
        table = Table(rng, ruleset, _stacks(rng, n))
        settlement = table.play()
        assert table.findings == [], table.findings
        # Nothing is created or lost: every chip put in is paid out.
        paid = sum(sum(pot.shares) for pot in settlement.pots)
        assert paid == settlement.total == sum(p.committed for p in table.state.players)
        seen["community"] += table.community is not None
        seen["side pots"] += len(settlement.pots) > 1
        seen["split"] += any(len(pot.winners) > 1 for pot in settlement.pots)
        seen["all-in ante"] += any(p.all_in and p.committed <= 4 for p in table.state.players)
        seen["showdown"] += len([p for p in table.state.players if in_hand(p)]) > 1
    # The random hands did reach the situations this test is about.
    assert all(seen[k] > 0 for k in ("community", "side pots", "all-in ante", "showdown")), seen


def test_the_bring_in_player_chooses_between_the_bring_in_and_the_completion() -> None:
    state = new_hand(POKERSTARS, ((1, "ann", 100), (2, "bob", 100)), 4, 8, ante=1, bring_in=2)
    for name, amount, all_in in ante_due(state):
        step(state, PostAnte(0, name, amount, all_in))
    step(state, StreetStart(0, Street.THIRD))
    step(state, Dealt(0, "ann", Street.THIRD, (), ("Kc",), False))
    step(state, Dealt(0, "bob", Street.THIRD, (), ("4d",), False))
    actions = legal_actions(state)
    assert [(a.kind, a.chips, a.to) for a in actions] == [
        (ActionKind.BRING_IN, 2, 2),
        (ActionKind.COMPLETE, 4, 4),
    ]
    assert isinstance(actions[1].to_event(9), Bet)  # a completion by the bring-in is `bets`
    step(state, actions[0].to_event(9))
    assert [(a.kind, a.amount, a.to) for a in legal_actions(state)] == [
        (ActionKind.FOLD, 0, 0),
        (ActionKind.CALL, 2, 2),
        (ActionKind.COMPLETE, 2, 4),  # logged `raises 2 to 4`
    ]


def test_a_short_stack_gets_an_all_in_for_less() -> None:
    state = new_hand(POKERSTARS, ((1, "ann", 3), (2, "bob", 100)), 4, 8, ante=1, bring_in=2)
    for name, amount, all_in in ante_due(state):
        step(state, PostAnte(0, name, amount, all_in))
    step(state, StreetStart(0, Street.THIRD))
    step(state, Dealt(0, "ann", Street.THIRD, (), ("2c",), False))
    step(state, Dealt(0, "bob", Street.THIRD, (), ("Kd",), False))
    step(state, legal_actions(state)[1].to_event(5))  # bob completes to 4
    call = next(a for a in legal_actions(state) if a.kind is ActionKind.CALL)
    assert (call.player, call.chips, call.all_in) == ("ann", 2, True)
    assert not [a for a in legal_actions(state) if a.kind is ActionKind.RAISE]
