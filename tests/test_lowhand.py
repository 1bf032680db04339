"""The ace-to-five evaluator: the rooms' own ranking lists, exposed boards, PokerStars' `Lo:`
text, and an independent oracle (PokerKit) on ten thousand random seven-card hands."""

from __future__ import annotations

import random
from itertools import combinations, pairwise
from pathlib import Path

import pytest

from razz.replay.cards import DECK, RANK, RANK_CHARS
from razz.replay.lowhand import (
    Misreading,
    Shape,
    best_five,
    board_value,
    description_matches,
    lo_text,
    low_value,
    misreading,
    parse_lo,
    shape_of,
    value_of_ranks,
)

RULES_MD = Path(__file__).parents[2] / "shared" / "docs" / "RAZZ_RULES.md"

# RAZZ_RULES.md, "Test vectors from the rooms' own pages", verbatim: worst to best.
WORST_TO_BEST = """\
 1. 3 3 3 5 5        7. 9 8 7 6 5
 2. K K 4 3 2        8. 9 7 6 5 3
 3. 2 2 7 6 5        9. 9 7 6 5 A
 4. A A T 9 8       10. 6 5 4 3 2
 5. K Q J T 9       11. 6 4 3 2 A
 6. K Q J T 7       12. 5 4 3 2 A
"""

# RAZZ_RULES.md: the twenty best Razz hands, best first, verbatim.
TWENTY_BEST = """\
5432A 6432A 6532A 6542A 6543A 65432 7432A 7532A 7542A 7543A
75432 7632A 7642A 7643A 76432 7652A 7653A 76532 7654A 76542
"""


def _ranks(text: str) -> list[int]:
    return [RANK_CHARS.index(c) + 1 for c in text.replace(" ", "")]


def _numbered(block: str) -> list[list[int]]:
    """The numbered hands of the first list, in their numbers' order."""
    hands: dict[int, list[int]] = {}
    for line in block.splitlines():
        for part in line.split("  "):
            part = part.strip()
            if part:
                number, _, cards = part.partition(".")
                hands[int(number)] = _ranks(cards)
    return [hands[k] for k in sorted(hands)]


def test_the_twelve_hands_rank_from_worst_to_best() -> None:
    hands = _numbered(WORST_TO_BEST)
    assert len(hands) == 12
    values = [value_of_ranks(h) for h in hands]
    assert all(a > b for a, b in pairwise(values))  # lower value = better


def test_the_twenty_best_hands_are_the_twenty_best_lows_in_order() -> None:
    listed = [_ranks(word) for word in TWENTY_BEST.split()]
    everything = sorted(combinations(range(1, 14), 5), key=value_of_ranks)
    assert [sorted(h) for h in listed] == [sorted(h) for h in everything[:20]]
    values = [value_of_ranks(h) for h in listed]
    assert values == sorted(values) and len(set(values)) == 20


def test_the_lists_are_those_of_the_rules_document() -> None:
    if not RULES_MD.exists():
        pytest.skip("../shared/docs/RAZZ_RULES.md is not beside the checkout")
    text = RULES_MD.read_text(encoding="utf-8")
    assert WORST_TO_BEST in text
    assert TWENTY_BEST in text


@pytest.mark.parametrize(
    ("better", "worse"),
    [
        ("8d 7c 6h 4s 3d", "9d 4c 3h 2s Ah"),  # HAND-COMPARE: 8 is lower than 9
        ("8d 5c 4h 3s 2d", "8d 6c 3h 2s Ah"),  # 5 < 6
        ("8d 5c 4h 3s Ad", "8d 5c 4h 3s 2d"),  # the ace is low
        ("9d 4c 3h Ad Ah", "9d 4c 3h 2s 2h"),  # paired hands compare the pair first
        ("Kd Qc Jh Ts 9d", "2d 2c 3h 4s 5d"),  # HAND-PAIRS: any unpaired hand beats a pair
        ("Kd Kc 4h 3s 2d", "2d 2c 3h 3s 4d"),  # one pair beats two pair
        ("Qd Qc Jh Js Kd", "2d 2c 2h 3s 4d"),  # two pair beat three of a kind
        ("2d 2c 2h 3s 4d", "2d 2c 2h 3s 3d"),  # trips beat a full house
        ("Kd Kc Kh Qs Qd", "2d 2c 2h 2s 3d"),  # a full house beats four of a kind
        ("5d 4c 3h 2s Ah", "6d 4c 3h 2s Ah"),  # the wheel is the best hand: straights don't count
        ("6h 4h 3h 2h Ah", "6d 5c 4h 3s 2d"),  # nor do flushes
    ],
)
def test_hand_order(better: str, worse: str) -> None:
    assert low_value(better.split()) < low_value(worse.split())


def test_best_five_of_seven_take_five_different_ranks_when_there_are_five() -> None:
    # FORMATS §1.11: a paired seven-card hand still gets five distinct ranks.
    cards = ["6h", "8h", "3d", "Ad", "Ac", "Kh", "8c"]
    assert lo_text(cards) == "K,8,6,3,A"
    assert shape_of(low_value(cards)) is Shape.NO_PAIR


def test_with_four_ranks_the_lowest_pair_plays() -> None:
    cards = ["4c", "5c", "Kd", "4d", "5d", "Qd", "Kc"]
    assert best_five([RANK[c] for c in cards]) == (4, 4, 13, 12, 5)
    assert shape_of(low_value(cards)) is Shape.ONE_PAIR


@pytest.mark.parametrize(
    ("better", "worse"),
    [
        ("6s 3h", "7c 2d"),  # compared from the highest card down
        ("Kc 2d", "2c 2h"),  # pairs count against a board
        ("Kd Qc Js", "9h 9d 3c"),  # any unpaired board beats any paired board
        ("7h 3c 2d Ac", "7d 4c 2h As"),
        ("Ah", "2c"),  # one card: the ace is lowest
        ("5c 5d 4h 4s", "6c 6d 6h 2s"),  # two pair beat three of a kind
    ],
)
def test_exposed_boards_compare_as_lows(better: str, worse: str) -> None:
    assert board_value(better.split()) < board_value(worse.split())


def test_equal_boards_are_equal_whatever_the_suits() -> None:
    assert board_value(["9d", "7h"]) == board_value(["7d", "9h"])


@pytest.mark.parametrize(
    ("description", "cards", "ok"),
    [
        ("Lo: 8,6,4,3,2", "2h 8d Kh 6h 3d 6d 4h", True),  # real PokerStars showdown
        ("(Lo: K,8,6,3,A)", "6h 8h 3d Ad Ac Kh 8c", True),
        ("Lo: 3,3,5,4", "3d 3s 5h 4h", True),  # real voluntary show: unsorted, with a pair
        ("Lo: 3,5,4,3", "3d 3s 5h 4h", True),
        ("Lo: 3,3,5,5", "3d 3s 5h 4h", False),
        ("Lo: 8,6,4,2,A", "2h 8d Kh 6h 3d 6d 4h", False),
        ("Lo: 6,4,3,2,8", "2h 8d Kh 6h 3d 6d 4h", False),  # unpaired: highest card first
        ("two pair, Queens and Sevens", "7s Qs 6c 7h 3s Qh", False),
    ],
)
def test_lo_descriptions(description: str, cards: str, ok: bool) -> None:
    assert description_matches(description, cards.split()) is ok


def test_parse_lo_reads_only_lo_descriptions() -> None:
    assert parse_lo("Lo: 9,7,5,4,2") == (9, 7, 5, 4, 2)
    assert parse_lo("HI: a straight, Three to Seven; LO: 5,4,3,2,A") is None
    assert parse_lo(None) is None


def test_pokerkit_agrees_on_ten_thousand_random_seven_card_hands() -> None:
    """PokerKit's `RegularLowHand` (ace-to-five, best five of seven) is the oracle."""
    from pokerkit import RegularLowHand

    rng = random.Random(20091126)
    hands = [rng.sample(DECK, 7) for _ in range(10_000)]
    ours = [low_value(h) for h in hands]
    theirs = [RegularLowHand.from_game("".join(h)) for h in hands]
    order = sorted(range(len(hands)), key=ours.__getitem__)
    for a, b in pairwise(order):
        # Lower is better for us; PokerKit orders stronger (better) hands as greater.
        if ours[a] == ours[b]:
            assert theirs[a] == theirs[b], (hands[a], hands[b])
        else:
            assert theirs[a] > theirs[b], (hands[a], hands[b])
    for h, hand in zip(hands, theirs, strict=True):
        chosen = sorted(RANK[str(c.rank) + str(c.suit)] for c in hand.cards)
        assert chosen == sorted(best_five([RANK[c] for c in h])), h


# -- why a pot went to the wrong hand (HAND-LOW, HAND-PAIRS, HAND-COMPARE, WIN-NOQUAL) ----------


@pytest.mark.parametrize(
    ("paid", "winner", "others", "reading", "rule"),
    [
        # aces ranked high: K-Q-J-T-8 beats 9-7-6-3-A if the ace counts as 14 (9-7-6-3-A loses)
        ("Kh Qd Jc Ts 8h 8d 8c", "9h 7d 6c 3s Ah Ad Ac", (), Misreading.ACES_HIGH, "HAND-LOW"),
        # the wheel counted as a straight: 6-4-3-2-A beats 5-4-3-2-A
        (
            "6h 4d 3c 2s Ah Kd Kc",
            "5h 4c 3d 2c As Qd Qc",
            (),
            Misreading.STRAIGHTS_COUNT,
            "HAND-LOW",
        ),
        # A-A-2-3-4 with a king and a queen is a king-low, which a nine-low beats
        (
            "Ah Ad 2c 3s 4h Kd Qc",
            "9h 7d 6c 4s 2h Kc Ks",
            (),
            Misreading.PAIRS_IGNORED,
            "HAND-PAIRS",
        ),
        # RAZZ_RULES.md HAND-COMPARE: 8-7-6-4-3 beats 9-4-3-2-A (compared from the lowest card,
        # or by the sum, the nine-low would win)
        ("9h 4d 3c 2s Ah Kc Ks", "8h 7d 6c 4s 3h Qc Qs", (), Misreading.COMPARISON, "HAND-COMPARE"),
        # no eight-low anywhere: a room with Stud Hi/Lo's qualifier pays the best high hand
        ("Kh Kd Qc Qs 9h 9c 2d", "Th 9d 6c 4s 3h Jc Js", (), Misreading.QUALIFIER, "WIN-NOQUAL"),
        # the same hands, but a third one makes an eight-low: no qualifier reading explains it
        (
            "Kh Kd Qc Qs 9h 9c 2d",
            "Th 9d 6c 4s 3h Jc Js",
            ("8s 7c 5d 4h 2c Td Ts",),
            Misreading.PAIRS_IGNORED,  # a paired hand paid over unpaired ones
            "HAND-PAIRS",
        ),
    ],
)
def test_the_misreading_that_pays_the_wrong_hand_names_its_rule(
    paid: str, winner: str, others: tuple[str, ...], reading: Misreading, rule: str
) -> None:
    found = misreading(paid.split(), winner.split(), [o.split() for o in others])
    assert (found, found.rule) == (reading, rule)
    assert low_value(paid.split()) > low_value(winner.split())


def test_a_reading_explains_a_payment_only_if_the_paid_hand_ranks_first_among_all_contenders() -> (
    None
):
    paid, winner = (
        ["Kh", "Qd", "Jc", "Ts", "8h", "8d", "8c"],
        ["9h", "7d", "6c", "3s", "Ah", "Ad", "Ac"],
    )
    # aces high would pay the J-T-9-8-6 below, not the K-Q-J-T-8: not the reason
    better_aces_high = ["Jh", "Td", "9c", "8s", "6h", "6d", "6c"]
    assert misreading(paid, winner, [better_aces_high]) is not Misreading.ACES_HIGH


def test_every_misreading_message_states_both_lows() -> None:
    for reading in Misreading:
        text = reading.message("ann", "Lo: 9,7,6,4,2", "bob", "Lo: K,4,3,2,A")
        assert "ann's Lo: 9,7,6,4,2 beats bob's Lo: K,4,3,2,A" in text
