"""Main and side pots, who wins each, and how a split pot and the rake are shared.

>>> pots_of([30, 30, 11, 3], [False, False, False, True], [False, False, True, False])
[Pot(index=0, amount=36, eligible=(0, 1, 2)), Pot(index=1, amount=38, eligible=(0, 1))]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from razz.replay.cards import door_key
from razz.replay.lowhand import low_value
from razz.replay.ruleset import OddChip, Ruleset


@dataclass(frozen=True, slots=True)
class Pot:
    """A main (index 0) or side pot before rake, and the players who can win it."""

    index: int
    amount: int
    eligible: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PotAward:
    """A pot with its winners and what each receives (after the pot's share of the rake)."""

    index: int
    amount: int  # before rake
    rake: int
    eligible: tuple[str, ...]
    winners: tuple[str, ...]  # () when the winners cannot be known (a contender's cards unseen)
    shares: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Settlement:
    """How a finished hand is paid: pots, winners, shares, and the bet returned uncalled."""

    pots: tuple[PotAward, ...]
    total: int  # every chip put in, uncalled bets returned
    rake: int
    uncalled: tuple[str, int] | None  # returned to whom, how much (if still to return)

    def won(self, player: str) -> int:
        """What a player receives from all pots.

        >>> Settlement((PotAward(0, 10, 0, ("a", "b"), ("a",), (10,)),), 10, 0, None).won("a")
        10
        """
        return sum(
            share
            for pot in self.pots
            for winner, share in zip(pot.winners, pot.shares, strict=True)
            if winner == player
        )


def pots_of(committed: Sequence[int], folded: Sequence[bool], all_in: Sequence[bool]) -> list[Pot]:
    """Split the contributions into a main pot and side pots (POT-SIDE).

    Each all-in player still in the hand caps a pot at their contribution; folded players'
    chips are dead money in the pots they reach. Eligible: players still in the hand who put
    in at least the pot's cap.
    """
    live = [i for i in range(len(committed)) if not folded[i]]
    if not live:
        return []
    top = max(committed[i] for i in live)
    caps = sorted({committed[i] for i in live if all_in[i] and committed[i] < top})
    if not caps and top > 0 and min(committed) >= 0:
        # The usual hand: no side pot, so one pot of every chip put in (what the loop below
        # gives, chips above the top live contribution included).
        return [Pot(0, sum(committed), tuple(i for i in live if committed[i] >= top))]
    pots: list[Pot] = []
    previous = 0
    for level in (*caps, top):
        amount = sum(min(c, level) - min(c, previous) for c in committed)
        eligible = tuple(i for i in live if committed[i] >= level)
        if amount > 0:
            pots.append(Pot(len(pots), amount, eligible))
        previous = level
    # Chips above the top live contribution (not returned as uncalled) stay in the last pot.
    extra = sum(max(0, c - top) for c in committed)
    if extra and pots:
        last = pots[-1]
        pots[-1] = Pot(last.index, last.amount + extra, last.eligible)
    return pots


def split_rake(amounts: Sequence[int], rake: int) -> list[int]:
    """Share the rake between pots in proportion to their size (largest remainder).

    A real PokerStars hand takes $0.05 from pots of $0.44 and $0.64 as $0.02 and $0.03.

    >>> split_rake([44, 64], 5)
    [2, 3]
    """
    total = sum(amounts)
    if total <= 0 or rake <= 0:
        return [0] * len(amounts)
    if len(amounts) == 1:
        return [rake]  # no side pot: the main pot bears it all
    exact = [rake * a for a in amounts]
    shares = [e // total for e in exact]
    left = rake - sum(shares)
    by_remainder = sorted(range(len(amounts)), key=lambda k: (-(exact[k] % total), -k))
    for k in by_remainder[:left]:
        shares[k] += 1
    return shares


def odd_chip_order(
    winners: Sequence[int], ruleset: Ruleset, cards: Mapping[int, Sequence[str]]
) -> list[int]:
    """Winners in the order odd chips go to them (WIN-SPLIT; the ruleset's odd-chip rule)."""
    if ruleset.odd_chip is OddChip.LOWEST_CARD:

        def lowest(i: int) -> int:
            keys = [door_key(c) for c in cards.get(i, ()) if c]
            return min(keys, default=10**6)

        return sorted(winners, key=lambda i: (lowest(i), i))
    return sorted(winners)


def split_pot(
    amount: int, winners: Sequence[int], ruleset: Ruleset, cards: Mapping[int, Sequence[str]]
) -> dict[int, int]:
    """Each winner's share of `amount`: equal parts, odd chips by the ruleset.

    >>> from razz.replay.ruleset import POKERSTARS
    >>> split_pot(41, [5, 2], POKERSTARS, {})
    {2: 21, 5: 20}
    """
    if not winners:
        return {}
    if len(winners) == 1:
        return {winners[0]: amount}  # no odd chip to place
    part, odd = divmod(amount, len(winners))
    order = odd_chip_order(winners, ruleset, cards)
    return {i: part + (1 if k < odd else 0) for k, i in enumerate(order)}


def best_hands(values: Mapping[int, int], among: Sequence[int]) -> list[int]:
    """The players among `among` with the best (lowest) value, in seat order."""
    contenders = [i for i in among if i in values]
    if not contenders:
        return []
    best = min(values[i] for i in contenders)
    return sorted(i for i in contenders if values[i] == best)


def hand_values(hands: Mapping[int, Sequence[str]], community: str | None) -> dict[int, int]:
    """The low value of each complete hand (seven cards, or six and the community card)."""
    values: dict[int, int] = {}
    for i, cards in hands.items():
        known = [c for c in cards if c]
        if community and len(known) == 6:
            known.append(community)
        if len(known) == 7:
            values[i] = low_value(known)
    return values
