"""Simulated players: their names and how they choose among the legal actions.

A style only chooses; it never decides what is legal. The simulator hands it the options
the rules engine generated, and it picks one from its own view of the hand (its cards and
the other players' up cards), with a seeded `random.Random` so a seed gives the same game.

>>> import random
>>> STYLES["rock"].choose(random.Random(1), ("fold", "call"), strength=0.05, to_call=True)
'fold'
>>> STYLES["river rat"].choose(random.Random(1), ("fold", "call"), strength=0.05, to_call=True)
'call'
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

# Ranks as Razz sees them: the ace is the lowest card.
_RAZZ_RANK = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "T": 10}
_RAZZ_RANK |= {"J": 11, "Q": 12, "K": 13}


@dataclass(frozen=True, slots=True)
class Style:
    """How a player plays: how often they continue, bet and raise, and bluff."""

    name: str
    looseness: float  # 0 plays only the best hands … 1 plays anything
    aggression: float  # share of strong spots where they bet or raise instead of calling
    bluff: float  # chance to bet or raise with a weak hand
    stubbornness: float  # chance to call anyway when the hand says fold
    show_when_uncontested: float  # chance to show cards after winning without a showdown

    def choose(
        self, rng: random.Random, kinds: Sequence[str], *, strength: float, to_call: bool
    ) -> str:
        """Pick one of `kinds` (fold, check, call, bet, raise, complete, bring_in).

        `strength` is the hand's strength in [0, 1]; `to_call` says whether the player faces
        a wager. Every choice is made from `kinds`, so a style can only play legal actions.
        """
        aggressive = [k for k in ("raise", "bet", "complete") if k in kinds]
        passive = [k for k in ("call", "check", "bring_in") if k in kinds]
        # Value bets grow with the hand; bluffs come whatever the hand.
        p_aggressive = self.aggression * min(1.0, max(0.0, (strength - 0.35) * 2.5))
        if aggressive and rng.random() < p_aggressive + self.bluff:
            return aggressive[0] if len(aggressive) == 1 else rng.choice(aggressive)
        if not to_call and "check" in kinds:
            return "check"
        p_continue = min(1.0, max(0.0, (strength - (1.0 - self.looseness)) * 4.0 + 0.4))
        if passive and (rng.random() < p_continue or rng.random() < self.stubbornness):
            return passive[0]
        if "fold" in kinds:
            return "fold"
        return passive[0] if passive else kinds[0]


STYLES: dict[str, Style] = {
    s.name: s
    for s in (
        Style("rock", looseness=0.3, aggression=0.7, bluff=0.01, stubbornness=0.02,
              show_when_uncontested=0.05),
        Style("tight aggressive", looseness=0.4, aggression=0.85, bluff=0.05, stubbornness=0.03,
              show_when_uncontested=0.1),
        Style("loose aggressive", looseness=0.5, aggression=0.8, bluff=0.12, stubbornness=0.05,
              show_when_uncontested=0.2),
        Style("loose passive", looseness=0.55, aggression=0.3, bluff=0.02, stubbornness=0.15,
              show_when_uncontested=0.05),
        Style("calling station", looseness=0.85, aggression=0.15, bluff=0.01, stubbornness=0.5,
              show_when_uncontested=0.02),
        Style("maniac", looseness=0.7, aggression=0.95, bluff=0.4, stubbornness=0.2,
              show_when_uncontested=0.4),
        Style("weak tight", looseness=0.3, aggression=0.35, bluff=0.0, stubbornness=0.01,
              show_when_uncontested=0.0),
        # Sees every card: home-game tables of these run 8-way to the river.
        Style("river rat", looseness=1.0, aggression=0.1, bluff=0.02, stubbornness=0.97,
              show_when_uncontested=0.1),
    )
}  # fmt: skip

STYLE_NAMES: tuple[str, ...] = tuple(STYLES)


def low_strength(cards: Sequence[str], others_up: Sequence[Sequence[str]] = ()) -> float:
    """A rough strength in [0, 1] of a Razz hand: low unpaired cards are good.

    It is a heuristic for choosing actions, not a rule (the engine ranks hands): how much of
    a five-card low of eight or better the cards hold, how low it is, and how it looks next
    to the best board an opponent shows.

    >>> low_strength(["As", "2d", "3c"]) > low_strength(["Ks", "Qd", "Kc"])
    True
    """
    need = min(5, len(cards))
    lows = sorted({_RAZZ_RANK[c[0]] for c in cards if _RAZZ_RANK[c[0]] <= 8})[:5]
    quality = len(lows) / need if need else 0.0
    top = lows[-1] if len(lows) >= need else 9
    score = quality * (0.75 + 0.25 * (9 - top) / 8)
    boards = [up for up in others_up if up]
    if boards:
        best = max(len({_RAZZ_RANK[c[0]] for c in up if _RAZZ_RANK[c[0]] <= 8}) / len(up)
                   for up in boards)  # fmt: skip
        score -= 0.3 * max(0.0, best - quality)
    return max(0.0, min(1.0, score))


# Real-looking names, and the traps of FORMATS.md §1.14 a parser must survive: spaces,
# brackets, digits and dots, colons and keywords, non-ASCII.
PLAIN_NAMES: tuple[str, ...] = (
    "kobreli", "willy32948", "meg100", "SilkZone", "HIWAII2", "manga130", "ranchim",
    "Tumim", "Spacemasa", "Perla993", "steffen780", "roditopgrdk", "pirklepump", "yaoenqi001",
    "Nikolay Zem", "FILL A RACK", "Poker Elfe 1", "X USN-USMC", "DaddyCa$h", "busmesome$£$",
    "0,1314", "Blåveis", "Sr Radío", "Ølstykke", "Zoë_Razz", "Kurt Gödel", "Łukasz77",
    "ΣΙΓΜΑ", "Иван Грозный", "李小龍", "razzle_dazzle", "lowball_larry", "wheel4life",
    "SteelWheel", "A2345", "bring_in_bob", "kingslow", "sevenlow", "RIVERrat", "BadBeatBen",
    "sixfour", "Ace2Five", "donkey_kong", "nutlow", "Capt. Fold", "O'Brady", "de la Rosa",
    "Jean-Luc P.", "mr.chips", "J@ck", "100% luck", "(hidden)", "Table 1", "all in Al",
    "LowRider", "gutshot", "c8h7s6d", "the_nuts", "NoLimitNate", "crazy8s", "Mrs Doubtfire",
)  # fmt: skip

TRICKY_NAMES: tuple[str, ...] = (
    "PC [Mittel]", "x [Ah Ks]", "Q [9] 8", "Seat 9", "Uncalled56", "Lo 8,6,4", "calls 4 ever",
    "Mr NoNo! Srb", "2.7 acequeen", "M. O'Neil", "Hero2", "Dealt to", "folds", "bets 4 fun",
    "Total pot", "[Kd]", "Big Blind", "Dealer", "9s 8s", "Board [6h]", "collected",
    "mucks hand", "A-5 (Lo)", "Rake $0", "shows [2c]", "Lo: 5,4,3",
)  # fmt: skip

HERO_NAMES: tuple[str, ...] = ("Hero", "RazzHero", "PC [Mittel]", "Blåveis", "Lo 8,6,4")


def pick_names(
    rng: random.Random, count: int, exclude: Sequence[str] = (), tag: str = ""
) -> list[str]:
    """`count` distinct names, about one in three of them a parser trap.

    `tag` ends every name: a room's mark (`RoomPlay.name_tag`), so that the players of one
    room's simulated tables are not taken for those of another. It draws exactly as without
    one, so a seed seats the same players, only named apart.

    >>> pick_names(random.Random(3), 3) == [
    ...     name.removesuffix(" FT") for name in pick_names(random.Random(3), 3, tag=" FT")]
    True
    """
    taken = set(exclude)
    names: list[str] = []
    while len(names) < count:
        pool = TRICKY_NAMES if rng.random() < 0.35 else PLAIN_NAMES
        base = rng.choice(pool)
        name = base + tag
        if name in taken:
            # Numbered variants keep the pools small while names stay unique at a table.
            name = f"{base}{rng.randrange(2, 99)}{tag}"
            if name in taken:
                continue
        taken.add(name)
        names.append(name)
    return names
