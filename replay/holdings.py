"""What each player holds: the cards a line shows, merged into what is already known.

Pure functions, shared by the checks (which report what a merge reveals: a card that changed,
a card dealt twice) and by the transitions (which keep the merged cards).

>>> known, seen, notes = learn(("", "", "Qc"), ("9s", "2d", "Qd"), 0, BIT["2d"])
>>> known, notes  # 2d was already seen elsewhere; Qc is now written Qd
(['9s', '2d', 'Qc'], ((1, '2d', ''), (2, 'Qd', 'Qc')))
"""

from __future__ import annotations

from collections.abc import Sequence

from razz.parser.events import UNKNOWN_CARD, Dealt
from razz.replay.cards import BIT, RANK
from razz.replay.game import DOOR, FIRST_STREET, NEW_CARDS
from razz.replay.state import UNKNOWN, HandState

_HIDDEN_DOWN = (UNKNOWN_CARD,) * DOOR

# A note of `learn`: (position, card, what was known there before: a card, or UNKNOWN if the
# card is new and was already seen elsewhere).
Note = tuple[int, str, str]


def shown_cards(e: Dealt) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(previous, new) of a `Dealt` line, an opponent's from their first up card on.

    The event keeps every position, an opponent's two hidden down cards included; the checks
    follow an opponent's cards from the door card (`game.DOOR`), which is what a PokerStars
    line shows of them.
    """
    previous, new = e.previous, e.new
    if not e.hero:
        if previous[:DOOR] == _HIDDEN_DOWN:
            previous = previous[DOOR:]
        elif (
            e.street is FIRST_STREET
            and len(new) == NEW_CARDS[FIRST_STREET]
            and new[:DOOR] == _HIDDEN_DOWN
        ):
            new = new[DOOR:]
    return previous, new


def learn(
    held: tuple[str, ...], cards: Sequence[str], offset: int, seen: int
) -> tuple[list[str], int, tuple[Note, ...]]:
    """The cards held once `cards` are known at positions `offset`…, the cards seen, and notes.

    Unseen positions are filled in; a known card must repeat unchanged. Each note is a card
    that changed (`old` is the card known before) or a new card already seen (`old` is
    UNKNOWN), in the order of `cards`; tokens that are not cards are skipped.
    """
    if offset == 0 and cards == held:
        # Nothing to learn: the cards known already, repeated (half the calls: a summary line
        # or a show of cards seen before; checked and then applied, each calls this): -0.75%
        # of the audit's instructions, 2.174 M -> 2.158 M a hand (callgrind, 300 hands).
        return list(held), seen, ()
    known = list(held)
    notes: list[Note] = []
    for k, card in enumerate(cards):
        if card not in RANK:
            continue
        pos = offset + k
        if pos < len(known) and known[pos] == card:
            continue
        if pos < len(known) and known[pos] != UNKNOWN:
            notes.append((pos, card, known[pos]))
            continue
        if seen & BIT[card]:
            notes.append((pos, card, UNKNOWN))
        seen |= BIT[card]
        while len(known) <= pos:
            known.append(UNKNOWN)
        known[pos] = card
    return known, seen, tuple(notes)


def holder_of(
    state: HandState, i: int, position: int, card: str, held: tuple[str, ...] | None = None
) -> str | None:
    """Who already holds `card` (or `the community card`) besides player `i` at `position`;
    `held` stands for player `i`'s cards when given."""
    if card == state.deal.community:
        return "the community card"
    for k, p in enumerate(state.players):
        cards = held if k == i and held is not None else p.cards
        if card in cards and (k != i or cards.index(card) != position):
            return state.setup.name(k)
    return None


def third_street_cards(hero: bool, given: Sequence[str]) -> tuple[str, ...]:
    """A player's cards after a 3rd-street line that shows the known cards `given`: the
    owner's line shows them all, an opponent's only the door card."""
    if hero and len(given) >= DOOR + 1:
        return tuple(given[: DOOR + 1])
    return (UNKNOWN,) * DOOR + ((given[-1] if given else UNKNOWN),)
