"""An all-in situation checked and reduced to ranks: what each hand holds, what is still to come.

The input is what a viewer sees: each hand's cards (`??` for a card the hand holds that the
viewer cannot see), the dead cards (folded players' up cards, mucked cards; `??` for a card
known to be out of the deck but not which one) and, rarely, the community card. Every card
the viewer has not seen is equally likely to be any of the unseen cards, so a `??` in a hand
is drawn like a card still to come; the `??` only count when deciding whether the deck runs
out (DEAL-COMMUNITY: with eight players the 52 cards cannot give everyone a 7th-street card,
and one community card dealt face up is shared by all).

>>> s = situation(["As 2d 3c", "Kh Qd ??"], dead="7s")
>>> s.to_come, s.unseen_cards, s.community
((4, 5), 46, None)
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from razz.replay.cards import DECK, RANK, RANK_CHARS

UNSEEN = "??"
SEVEN = 7
MIN_HANDS, MAX_HANDS = 2, 8


class SituationError(ValueError):
    """The hands and cards given do not make a Razz deal; the message says why in one line."""


@dataclass(frozen=True)
class Situation:
    """A checked situation: known ranks per hand, cards to come per hand, the unseen ranks.

    `known[i]` holds hand i's known rank indexes (0 = ace … 12 = king), counting a known
    community card; `to_come[i]` how many cards hand i still gets (its `??` included);
    `unseen[r]` how many cards of rank index r the viewer has not seen; `community` is None
    (no community card), `"??"` (one is still to come, shared by all) or the card dealt.
    """

    hands: tuple[tuple[str, ...], ...]
    dead: tuple[str, ...]
    known: tuple[tuple[int, ...], ...]
    to_come: tuple[int, ...]
    unseen: tuple[int, ...]
    community: str | None

    @property
    def unseen_cards(self) -> int:
        """How many cards the viewer has not seen."""
        return sum(self.unseen)

    @property
    def community_to_come(self) -> bool:
        """Whether a community card is still to be dealt."""
        return self.community == UNSEEN


_SEPARATORS = re.compile(r"[\s,\[\]]+")


def parse_cards(text: str | Sequence[str], where: str) -> tuple[str, ...]:
    """Cards written as in the logs (`As 2d 7c`, `[As 2d] 7c`, `10h`, `??`), normalised.

    >>> parse_cards("[as 2D] 10h ??", "hand 1")
    ('As', '2d', 'Th', '??')
    >>> parse_cards("As Zz", "hand 1")
    Traceback (most recent call last):
    ...
    razz.analysis.situation.SituationError: hand 1: 'Zz' is not a card (write As, Td, 7c …, or ?? for a card you cannot see)
    """
    tokens = _SEPARATORS.split(text.strip()) if isinstance(text, str) else list(text)
    return tuple(_card(token, where) for token in tokens if token)


def _card(token: str, where: str) -> str:
    if token in RANK or token == UNSEEN:  # already written as the logs write it
        return token
    text = token.strip()
    if len(text) == 3 and text.startswith("10"):
        text = "T" + text[2]
    if len(text) == 2:
        card = text[0].upper() + text[1].lower()
        if card in RANK:
            return card
    raise SituationError(
        f"{where}: {token!r} is not a card (write As, Td, 7c …, or ?? for a card you cannot see)"
    )


def situation(
    hands: Sequence[str | Sequence[str]],
    dead: str | Sequence[str] = (),
    community: str | None = None,
) -> Situation:
    """Check the hands, dead cards and community card, and reduce them to ranks.

    `community`: None to decide from the deck (a community card comes when the cards left
    cannot give every hand its own 7th-street card), `"??"` for one still to come, or the
    card already dealt. Raises SituationError with one clear line when they are not a deal.

    >>> situation(["As 2d", "As 3c"])
    Traceback (most recent call last):
    ...
    razz.analysis.situation.SituationError: As appears twice (hand 1 and hand 2)
    >>> eight_on_sixth = situation(["?? ?? ?? ?? ?? ??"] * 8)  # 48 cards out, 4 left
    >>> eight_on_sixth.community, eight_on_sixth.to_come
    ('??', (6, 6, 6, 6, 6, 6, 6, 6))
    """
    if isinstance(hands, str):
        raise TypeError("hands: a sequence of hands, each a string of cards or a sequence")
    if not MIN_HANDS <= len(hands) <= MAX_HANDS:
        raise SituationError(f"give 2 to 8 hands, not {len(hands)}")
    parsed = tuple(parse_cards(h, f"hand {i + 1}") for i, h in enumerate(hands))
    dead_cards = parse_cards(dead, "dead cards")
    board = None if community is None else parse_cards(community, "community card")
    if board is not None and len(board) != 1:
        raise SituationError(f"community card: give one card (or ??), not {len(board)}")
    board_card = None if board is None else board[0]

    _check_unique(parsed, dead_cards, board_card)
    own_limit = SEVEN if board_card is None else SEVEN - 1
    for i, cards in enumerate(parsed):
        if len(cards) > own_limit:
            with_board = "" if board_card is None else " beside a community card"
            raise SituationError(
                f"hand {i + 1} has {len(cards)} cards; a Razz hand holds at most "
                f"{own_limit}{with_board}"
            )

    accounted = sum(map(len, parsed)) + len(dead_cards) + (board is not None)
    left = len(DECK) - accounted
    if left < 0:
        raise SituationError(f"the hands and dead cards hold {accounted} cards; a deck has 52")
    if board_card is None:
        need = sum(SEVEN - len(c) for c in parsed)
        if need > left:
            board_card = _community_or_refuse(parsed, left)
    else:
        need = sum(SEVEN - 1 - len(c) for c in parsed)
        if need > left:
            raise SituationError(
                f"the hands need {need} more cards besides the community card but the deck "
                f"has only {left} left"
            )
    per_hand = SEVEN if board_card is None else SEVEN - 1

    seen = [c for cards in (*parsed, dead_cards) for c in cards if c != UNSEEN]
    if board_card not in (None, UNSEEN):
        seen.append(board_card)
    unseen = [4] * len(RANK_CHARS)
    for card in seen:
        unseen[RANK[card] - 1] -= 1
    shared = () if board_card in (None, UNSEEN) else (RANK[board_card] - 1,)
    known = tuple(
        tuple(sorted([RANK[c] - 1 for c in cards if c != UNSEEN] + list(shared)))
        for cards in parsed
    )
    to_come = tuple(per_hand - len(cards) + cards.count(UNSEEN) for cards in parsed)
    return Situation(parsed, dead_cards, known, to_come, tuple(unseen), board_card)


def _check_unique(
    hands: tuple[tuple[str, ...], ...], dead: tuple[str, ...], board: str | None
) -> None:
    where: dict[str, str] = {}
    places = [(f"hand {i + 1}", cards) for i, cards in enumerate(hands)]
    places.append(("dead cards", dead))
    if board is not None:
        places.append(("community card", (board,)))
    for place, cards in places:
        for card in cards:
            if card == UNSEEN:
                continue
            if card in where:
                first = where[card]
                both = place if first == place else f"{first} and {place}"
                raise SituationError(f"{card} appears twice ({both})")
            where[card] = place


def _community_or_refuse(hands: tuple[tuple[str, ...], ...], left: int) -> str:
    """DEAL-COMMUNITY: the deck cannot give every hand a 7th-street card; one card is shared.

    The hands must still be completed to six cards each, and a card must be left for the
    middle; a hand that already holds seven cards means 7th street was dealt one by one.
    """
    need_six = sum(max(0, SEVEN - 1 - len(c)) for c in hands)
    total = sum(SEVEN - len(c) for c in hands)
    if any(len(c) == SEVEN for c in hands) or need_six + 1 > left:
        raise SituationError(
            f"the hands need {total} more cards but the deck has only {left} left"
        )
    return UNSEEN
