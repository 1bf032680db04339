"""razz.analysis.equity: hand-counted examples, the exact result against a card-by-card
enumeration (hypothesis), Monte Carlo within its standard error of the exact result, the
community card of DEAL-COMMUNITY, and one clear line for every kind of bad input."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from razz.analysis.equity import EquityResult, SituationError, equity, exact_cost
from razz.analysis.situation import situation
from razz.replay.cards import DECK
from razz.replay.lowhand import low_value


def brute_force(
    hands: list[str], dead: str = "", community: str | None = None
) -> tuple[list[Fraction], int]:
    """Each hand's share by dealing every combination of actual cards, valued by lowhand."""
    parsed = [h.split() for h in hands]
    board = [] if community in (None, "??") else [community]
    seen = {c for cards in parsed for c in cards} | set(dead.split()) | set(board)
    unseen = [c for c in DECK if c not in seen]
    own = 6 if community is not None else 7
    to_come = [own - len([c for c in cards if c != "??"]) for cards in parsed]
    known = [[c for c in cards if c != "??"] for cards in parsed]
    wins = [Fraction(0)] * len(hands)
    deals = 0

    def deal(i: int, left: list[str], dealt: list[list[str]]) -> None:
        nonlocal deals
        if i == len(hands):
            shared_choices = [[c] for c in left] if community == "??" else [board]
            for shared in shared_choices:
                values = [low_value(k + d + shared) for k, d in zip(known, dealt, strict=True)]
                best = min(values)
                winners = [j for j, v in enumerate(values) if v == best]
                for j in winners:
                    wins[j] += Fraction(1, len(winners))
                deals += 1
            return
        for cards in combinations(left, to_come[i]):
            rest = [c for c in left if c not in cards]
            deal(i + 1, rest, [*dealt, list(cards)])

    deal(0, unseen, [])
    return [w / deals for w in wins], deals


def test_a_made_wheel_wins_everything_against_two_pair() -> None:
    result = equity(["As 2d 3c 4h 5s", "Kd Kc Qh Qs"])
    assert result.equity == (1.0, 0.0)
    assert result.exact and result.samples == 0 and result.std_error == (0.0, 0.0)


def test_the_same_ranks_split_the_pot_in_half() -> None:
    assert equity(["As 2d 3c 4h", "Ad 2s 3h 4c"]).equity == (0.5, 0.5)
    three = equity(["7s 8d Tc Jd Qh", "7d 8s Th Js Qc", "7c 8c Td Jc Qs"]).equity
    assert three == pytest.approx((1 / 3, 1 / 3, 1 / 3), abs=1e-12)


def test_one_card_to_come_counted_by_hand() -> None:
    """7-5-4-3-2 made against A-2-3-4 with a pair of queens and one card to come: the draw
    wins with a 5, a 6 or a 7 (6-4-3-2-A, 5-4-3-2-A, 7-4-3-2-A beat 7-5-4-3-2): 3 fives,
    4 sixes and 3 sevens of the 39 unseen cards."""
    result = equity(["2c 3c 4c 5c 7c Kd Kh", "As 2d 3d 4d Qc Qd"])
    assert result.equity == pytest.approx((29 / 39, 10 / 39), abs=1e-15)
    assert result.deals == 39


def test_a_three_card_wheel_draw_is_a_big_favourite_on_third_street() -> None:
    result = equity(["As 2d 3c", "Kh Qd Jc"])
    assert result.exact
    assert 0.90 < result.equity[0] < 0.94
    assert result.deals == 18_265_297_050  # C(46, 4) * C(42, 4)


def test_dead_low_cards_make_the_low_draw_worse() -> None:
    live = equity(["As 2d 3c 6h", "Ah 4s 7d 8c"]).equity[0]
    dead = equity(["As 2d 3c 6h", "Ah 4s 7d 8c"], dead="4c 4d 5s 5h 5c").equity[0]
    assert dead < live


def test_unseen_cards_of_a_hand_are_drawn_like_cards_to_come() -> None:
    hidden = equity(["?? ?? 2c 3c 4c", "?? ?? Ks Qs Js"])
    shown_later = equity(["2c 3c 4c", "Ks Qs Js"], dead="?? ?? ?? ??")
    assert hidden.equity == pytest.approx(shown_later.equity, abs=1e-12)


@st.composite
def small_spots(draw: st.DrawFn) -> tuple[list[str], str, str | None]:
    """2 to 4 hands, each 0 to 2 cards to come (some as ??), and so many dead cards that at
    most 10 cards are unseen: small enough to deal card by card."""
    deck = draw(st.permutations(DECK))
    players = draw(st.integers(2, 4))
    community = draw(st.sampled_from([None, None, "??", "card"]))
    own = 7 if community is None else 6
    to_come = [draw(st.integers(0, 2)) for _ in range(players)]
    if sum(to_come) > 5:
        to_come = [min(k, 1) for k in to_come]
    hands, at = [], 0
    for k in to_come:
        hidden = draw(st.integers(0, k))
        hands.append(" ".join([*deck[at : at + own - k], *["??"] * hidden]))
        at += own - k
    board = None
    if community == "card":
        board = deck[at]
        at += 1
    elif community == "??":
        board = "??"
    unseen = draw(st.integers(max(sum(to_come) + (board == "??"), 1), 10))
    dead = " ".join(deck[at : len(deck) - unseen])
    return hands, dead, board


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_spots())
def test_exact_equals_dealing_every_card(spot: tuple[list[str], str, str | None]) -> None:
    hands, dead, community = spot
    expected, deals = brute_force(hands, dead, community)
    result = equity(hands, dead, community=community, method="exact")
    assert result.exact
    assert result.deals == deals
    assert result.equity == pytest.approx([float(e) for e in expected], abs=1e-12)
    assert sum(result.equity) == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize(
    "hands",
    [
        ["As 4d 7c 8h", "2s 5h 6d Kc"],
        ["Ad 3c 6h 8s Qd", "2c 4h 7d 9s Jc", "3s 5d 5c 7h Td"],
        ["?? ?? 5h 4c 8d", "Ah 2h 3s 6d 7c"],
        ["As 2s 3d 3c Qh Qd", "4s 5s 6d 7c 8h 9h", "Kd Kc 2c 4d Jh Jd", "?? ?? Ah 6h Tc 9c"],
    ],
)
def test_monte_carlo_agrees_with_the_exact_result_within_its_standard_error(
    hands: list[str],
) -> None:
    exact = equity(hands, method="exact")
    estimate = equity(hands, method="monte-carlo", samples=40_000, seed=13)
    assert not estimate.exact and estimate.samples == 40_000 and estimate.outcomes == 0
    for e, m, se in zip(exact.equity, estimate.equity, estimate.std_error, strict=True):
        assert se > 0 or e in (0.0, 1.0)
        assert abs(m - e) <= 4.5 * se + 1e-12, (hands, exact.equity, estimate.equity)


def test_monte_carlo_deals_every_ordered_draw_of_the_unseen_cards_equally_often() -> None:
    """The partial shuffle: each ordered pair of distinct cards of a 5-card deck (20 of them)
    comes first equally often, and the cards dealt are always cards of the deck."""
    import numpy as np

    from razz.analysis.montecarlo import _deal

    def deal(rng: np.random.Generator, deck: Any, n: int, needed: int) -> Any:
        return np.column_stack(_deal(rng, deck, n, needed))  # a row per deal

    deck = np.arange(5, dtype=np.int8)
    dealt = deal(np.random.default_rng(7), deck, 40_000, 2)
    assert dealt.shape == (40_000, 2) and (dealt[:, 0] != dealt[:, 1]).all()
    counts = np.bincount(dealt[:, 0].astype(int) * 5 + dealt[:, 1], minlength=25)
    expected = 40_000 / 20
    pairs = counts[[a * 5 + b for a in range(5) for b in range(5) if a != b]]
    chi_square = float(((pairs - expected) ** 2 / expected).sum())
    assert chi_square < 50.0  # 19 degrees of freedom: p < 1e-4 above 50
    for needed in (2, 5):  # a partial shuffle, and the full one of most of the deck
        repeated = deal(np.random.default_rng(7), np.array([0, 0, 1, 1, 1], np.int8), 100,
                        needed)
        assert repeated.shape == (100, needed)
        assert all(np.isin(row, [0, 1]).all() and (row == 0).sum() <= 2 for row in repeated)
    full = deal(np.random.default_rng(7), np.array([0, 0, 1, 1, 1], np.int8), 100, 5)
    assert (np.sort(full, axis=1) == [0, 0, 1, 1, 1]).all()


def test_monte_carlo_is_reproducible_with_a_seed() -> None:
    hands = ["As 2d 3c", "Kh Qd Jc", "?? ?? 8s"]
    first = equity(hands, seed=5, samples=5000)
    assert not first.exact
    assert equity(hands, seed=5, samples=5000) == first
    assert equity(hands, seed=6, samples=5000).equity != first.equity


def test_auto_enumerates_below_the_limit_and_samples_above_it() -> None:
    hands = ["As 4d 7c 8h", "2s 5h 6d Kc"]
    assert exact_cost(situation(hands)) == 455 * 455
    assert equity(hands).exact
    assert not equity(hands, exact_limit=455 * 455 - 1, samples=1000).exact
    assert not equity(["As 2d 3c 4h", "Kh Qd Jc Tc", "5s 6s 7s 8s"], samples=1000).exact


def test_eight_players_on_sixth_street_share_a_community_card() -> None:
    """DEAL-COMMUNITY: 48 cards are out after 6th street, 4 are left for 8 players."""
    hands = [
        "?? ?? As 2s 3s 4s", "?? ?? Ah 2h 3h 4h", "?? ?? Ad 2d 3d 4d", "?? ?? Ac 2c 3c 4c",
        "?? ?? Ks Qs Js Ts", "?? ?? Kh Qh Jh Th", "?? ?? Kd Qd Jd Td", "?? ?? Kc Qc Jc Tc",
    ]
    result = equity(hands, samples=20_000, seed=1)
    assert result.community == "??"
    assert result.to_json()["community"] == "??"
    # The four A-2-3-4 hands are alike, as are the four K-Q-J-T ones; the low hands win.
    low, high = result.equity[:4], result.equity[4:]
    assert sum(low) > 0.99 and sum(high) < 0.01


def test_eight_players_on_seventh_street_with_the_community_card_to_come_is_exact() -> None:
    hands = [
        "Ks 2s 3s 4s 6s 9s", "Kh 2h 3h 4h 6h 9h", "Kd 2d 3d 4d 6d 9d", "Kc 2c 3c 4c 6c 9c",
        "Qs Js Ts 8s 7s 5s", "Qh Jh Th 8h 7h 5h", "Qd Jd Td 8d 7d 5d", "Qc Jc Tc 8c 7c As",
    ]
    result = equity(hands)
    assert result.exact and result.community == "??"
    # Ah, Ad, Ac and 5c are left: an ace gives the first four hands 6-4-3-2-A, the 5c gives
    # them 6-5-4-3-2, and the others make T-8-7-5-A at best: the first four always split.
    expected, deals = brute_force(hands, community="??")
    assert result.deals == deals == 4
    assert result.equity == pytest.approx([float(e) for e in expected], abs=1e-12)
    assert result.equity == (0.25, 0.25, 0.25, 0.25, 0.0, 0.0, 0.0, 0.0)


def test_a_known_community_card_counts_in_every_hand() -> None:
    result = equity(["As 2s 3s 4s Kd Kc", "6h 7h 8h 9h Td Qd"], community="5c")
    assert result.community == "5c" and result.equity == (1.0, 0.0)
    assert result.deals == 1


@pytest.mark.parametrize(
    ("hands", "kwargs", "message"),
    [
        (["As 2d"], {}, "give 2 to 8 hands, not 1"),
        (["As"] + ["??"] * 8, {}, "give 2 to 8 hands, not 9"),
        (["As 2d", "As 3c"], {}, "As appears twice (hand 1 and hand 2)"),
        (["As 2d", "3c 3d"], {"dead": "3c"}, "3c appears twice (hand 2 and dead cards)"),
        (["As 2d As", "3c"], {}, "As appears twice (hand 1)"),
        (["As 2d", "Xx 3d"], {}, "hand 2: 'Xx' is not a card"),
        (["As 2d", "3d"], {"dead": "4d 11c"}, "dead cards: '11c' is not a card"),
        (["As 2d 3d 4d 5d 6d 7d 8d", "Ks"], {}, "hand 1 has 8 cards; a Razz hand holds at most 7"),
        (["As 2d 3d 4d 5d 6d 7d", "Ks"], {"community": "9c"}, "hand 1 has 7 cards; a Razz hand "
         "holds at most 6 beside a community card"),
        (["As 2d", "Ks"], {"community": "9c Tc"}, "community card: give one card (or ??), not 2"),
        (["As", "Kd", "Qc"], {"method": "exact"}, "an exact result needs 5,989,895,907,281 rank "
         "outcomes"),
        (["?? ?? ?? ?? ?? ?? ??"] * 8, {}, "the hands and dead cards hold 56 cards; a deck has 52"),
        (["?? ?? ?? ?? ?? ?? ??"] * 7 + ["??"], {}, "the hands need 6 more cards but the deck has "
         "only 2 left"),
    ],
)
def test_bad_input_is_one_clear_line(
    hands: list[str], kwargs: dict[str, Any], message: str
) -> None:
    with pytest.raises(SituationError) as caught:
        equity(hands, **kwargs)
    assert str(caught.value).startswith(message)
    assert "\n" not in str(caught.value)


def test_the_json_form_lists_equity_in_the_order_of_the_hands() -> None:
    result = equity(["Kh Qd Jc", "As 2d 3c"], dead="7s")
    data = result.to_json()
    assert data["equity"] == list(result.equity) and data["equity"][1] > 0.9
    assert data["exact"] is True and data["method"] == "exact"
    assert data["hands"] == ["Kh Qd Jc", "As 2d 3c"] and data["dead"] == "7s"
    assert isinstance(result, EquityResult)
