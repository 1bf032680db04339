"""Small tools the injectors share: find lines, swap cards, rig decks, unused cards.

>>> swap_card_text("Dealt to PC [Lab] [7c 7d] [8s]", "7d", "7h")
'Dealt to PC [Lab] [7c 7h] [8s]'
"""

from __future__ import annotations

import random
import re
from dataclasses import replace
from itertools import combinations

from .cards import DECK, RANKS, SUITS, rank
from .game import HandSpec, Played
from .writer import Line

_BRACKET = re.compile(r"\[([^\[\]]*)\]")


def swap_card_text(text: str, old: str, new: str) -> str:
    """Replace a card token inside the bracketed card lists of a line (names keep theirs)."""

    def one(m: re.Match[str]) -> str:
        tokens = m.group(1).split(" ")
        return "[" + " ".join(new if t == old else t for t in tokens) + "]"

    return _BRACKET.sub(one, text)


def retext(line: Line, text: str) -> Line:
    return replace(line, text=text)


def index_of(lines: list[Line], target: Line) -> int:
    return next(k for k, line in enumerate(lines) if line is target)


def street_actions(lines: list[Line], street: int) -> list[Line]:
    kinds = ("bringin", "bet", "raise", "call", "check", "fold")
    return [line for line in lines if line.street == street and line.kind in kinds]


def dealt_cards(played: Played) -> set[str]:
    """Every card that left the deck in this hand (seen in the log or not)."""
    out = {c for p in played.players.values() for c in p.cards}
    if played.board:
        out.add(played.board)
    return out


def unused_cards(played: Played, rank_of: int | None = None) -> list[str]:
    """Cards still in the deck at the end of the hand, optionally of one rank."""
    used = dealt_cards(played)
    return [c for c in DECK if c not in used and (rank_of is None or rank(c) == rank_of)]


def visible_cards_before(lines: list[Line], stop: int) -> dict[str, str]:
    """Cards printed on lines before index `stop`: card -> the player whose line shows it."""
    out: dict[str, str] = {}
    for line in lines[:stop]:
        if line.kind in ("dealt", "show", "street") and line.ev is not None:
            for c in (*line.ev.old, *line.ev.new):
                out.setdefault(c, line.player or "")
    return out


def seven_of(rng: random.Random, ranks: list[int], avoid: set[str]) -> list[str] | None:
    """Cards of the given ranks (1 = ace), random suits, none in `avoid` and no five of a suit."""
    for _ in range(50):
        cards: list[str] = []
        ok = True
        for r in ranks:
            free = [
                RANKS[r - 1] + s
                for s in SUITS
                if RANKS[r - 1] + s not in avoid and RANKS[r - 1] + s not in cards
            ]
            if not free:
                ok = False
                break
            cards.append(rng.choice(free))
        if ok and max(sum(c[1] == s for c in cards) for s in SUITS) < 5:
            return cards
    return None


def rig(spec: HandSpec, name: str, cards: dict[int, str]) -> HandSpec:
    """The spec with some of a player's cards fixed (position 0..6)."""
    forced = dict(spec.forced)
    for position, card in cards.items():
        forced[(name, position)] = card
    return replace(spec, forced=forced)


def forced_cards(spec: HandSpec) -> set[str]:
    return set(spec.forced.values())


def twins(rng: random.Random, spec: HandSpec, a: str, b: str, positions: range) -> HandSpec | None:
    """Give two players cards of the same ranks (different suits) at the given positions."""
    avoid = forced_cards(spec)
    low = list(range(1, 10))
    for _ in range(50):
        ranks = [rng.choice(low) for _ in positions]
        if any(ranks.count(r) > 2 for r in ranks):
            continue
        pairs = []
        taken = set(avoid)
        ok = True
        for r in ranks:
            free = [RANKS[r - 1] + s for s in SUITS if RANKS[r - 1] + s not in taken]
            if len(free) < 2:
                ok = False
                break
            x, y = rng.sample(free, 2)
            taken |= {x, y}
            pairs.append((x, y))
        if not ok:
            continue
        spec = rig(spec, a, {p: x for p, (x, _) in zip(positions, pairs, strict=True)})
        return rig(spec, b, {p: y for p, (_, y) in zip(positions, pairs, strict=True)})
    return None


def straight_or_flush(five: tuple[str, ...]) -> bool:
    ranks = sorted(rank(c) for c in five)
    flush = len({c[1] for c in five}) == 1
    if len(set(ranks)) < 5:
        return flush
    straight = ranks[4] - ranks[0] == 4 or ranks == [1, 10, 11, 12, 13]
    return flush or straight


def high_key(cards: tuple[str, ...] | list[str]) -> tuple[int, tuple[int, ...]]:
    """The best high poker hand of the cards (bigger is better; aces high)."""
    best: tuple[int, tuple[int, ...]] = (-1, ())
    for five in combinations(cards, 5):
        values = sorted((14 if rank(c) == 1 else rank(c) for c in five), reverse=True)
        counts = sorted(
            {v: values.count(v) for v in values}.items(), key=lambda kv: (-kv[1], -kv[0])
        )
        shape = [n for _, n in counts]
        order = tuple(v for v, _ in counts)
        flush = len({c[1] for c in five}) == 1
        straight_top = 0
        if len(set(values)) == 5:
            if values[0] - values[4] == 4:
                straight_top = values[0]
            elif values == [14, 5, 4, 3, 2]:
                straight_top = 5
        key: tuple[int, tuple[int, ...]]
        if straight_top and flush:
            key = (8, (straight_top,))
        elif shape[0] == 4:
            key = (7, order)
        elif shape[:2] == [3, 2]:
            key = (6, order)
        elif flush:
            key = (5, tuple(values))
        elif straight_top:
            key = (4, (straight_top,))
        elif shape[0] == 3:
            key = (3, order)
        elif shape[:2] == [2, 2]:
            key = (2, order)
        elif shape[0] == 2:
            key = (1, order)
        else:
            key = (0, tuple(values))
        best = max(best, key)
    return best
