"""A deliberately biased deck for `razz simulate --biased-deck`: what the fairness report must catch.

The bias: each low card (A–5) is `1 + boost` times as likely as any other card to be dealt as
a door card (3rd street's up card). After a player's three 3rd-street cards are drawn, a door
card of the disfavoured class is, with the chance `door_swap_chance(boost)`, swapped with a
random card of the other class still in the deck; the deck stays one permutation of 52 cards,
so every hand is still legal and the audit finds nothing. The bias plugs into the simulator's
`FaultHook.draw` moment and its `run_tables(planner=…)`: not one line of the simulator changes.

>>> import random
>>> deck = ["Kc", "2d", "3h"]
>>> biased_door(["9s", "8s", "Qh"], deck, random.Random(1), boost=50.0)
['9s', '8s', '2d']
>>> sorted(deck)
['3h', 'Kc', 'Qh']
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from razz.analysis.fairness_synthetic import LOW, door_swap_chance
from razz.parser.events import Street
from razz.replay.cards import RANK
from razz.simulate.simulator import FaultHook, SimulatedFile, run_tables


def biased_door(cards: list[str], deck: list[str], rng: random.Random,
                boost: float) -> list[str]:
    """A player's three 3rd-street cards, the door card (the last) maybe swapped with a card
    of the favoured class from `deck` (the cards not dealt yet), which gets the door card."""
    want_low = boost > 0
    door = cards[2]
    if (RANK[door] <= LOW) == want_low or rng.random() >= door_swap_chance(boost):
        return cards
    candidates = [i for i, card in enumerate(deck) if (RANK[card] <= LOW) == want_low]
    if not candidates:
        return cards
    i = rng.choice(candidates)
    deck[i], door = door, deck[i]
    return [cards[0], cards[1], door]


class DoorBias(FaultHook):
    """The simulator's hook that deals door cards from the biased deck."""

    def __init__(self, boost: float) -> None:
        door_swap_chance(boost)  # an impossible boost fails here
        self.boost = boost

    def draw(self, play: Any, street: Street, name: str, cards: list[str]) -> list[str]:
        if street is not Street.THIRD:
            return cards
        return biased_door(cards, play.deck, play.rng, self.boost)


def simulate_biased(hands: int, seed: int, boost: float, *,
                    tournament_share: float = 0.4) -> tuple[SimulatedFile, ...]:
    """`simulate`, with every hand dealt from a deck biased towards (or, boost < 0, against)
    low door cards."""
    hook = DoorBias(boost)

    def planner(session: Any, hand_id: str, moment: datetime, line: int,
                joiner: Any) -> tuple[Any, Any]:
        play = session.new_play(line, joiner, hook)
        return play.play(hand_id, moment), play

    return run_tables(hands, seed, tournament_share=tournament_share, planner=planner)


def parse_boost(text: str) -> float:
    """`10%`, `10` (percent) or `-5%`: the boost as a fraction.

    >>> parse_boost("10%"), parse_boost("25"), parse_boost("-5%")
    (0.1, 0.25, -0.05)
    """
    value = float(text.strip().removesuffix("%")) / 100
    door_swap_chance(value)
    return value


__all__: Sequence[str] = ("DoorBias", "biased_door", "parse_boost", "simulate_biased")
