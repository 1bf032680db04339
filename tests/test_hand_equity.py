"""The replayer's equity: hand-counted numbers on a handwritten hand in the hero's view and in
full, folded players' up cards dead, and on every sample hand that reaches a showdown, the
full view's last street equal to who won the pot."""

from __future__ import annotations

from fractions import Fraction
from math import comb
from pathlib import Path
from typing import Any

import duckdb
import pytest

from razz.dashboard import hand_equity, hand_steps
from razz.dashboard.hand_steps import Card, Seat, Step

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_histories"


def seat(number: int, player: str, cards: str, hero: bool = False, folded: bool = False
         ) -> Seat:
    """A seat whose cards are written as dealt: down, down, up … up, down (`xx` for a down
    card not shown)."""
    held = [Card("" if code == "xx" else code, i < 2 or i == 6)
            for i, code in enumerate(cards.split())]
    return Seat(number, player, hero, 100, cards=tuple(held), folded=folded)


def hand_on_sixth() -> list[Step]:
    """Zoë (the hero) has a wheel on 6th street; Vik has A 2 down (shown at the end), 3 4 K K
    up; Fay folded on 4th street with 5c 5d up. Then the showdown, where Vik shows."""
    zoe = seat(1, "Zoë", "As 2s 3s 4s 5s 6s", hero=True)
    vik = seat(2, "Vik", "xx xx 3h 4h Kh Kd")
    fay = seat(3, "Fay", "xx xx 5c 5d", folded=True)
    sixth = Step((20,), "6th street: one card up each.", "6th", "6th", 40, (zoe, vik, fay))
    vik_shown = Seat(2, "Vik", False, 100, cards=tuple(
        Card(c, d) for c, d in zip(["Ah", "2h", "3h", "4h", "Kh", "Kd", "9c"],
                                   [True, True, False, False, False, False, True],
                                   strict=True)))
    zoe_river = Seat(1, "Zoë", True, 100, cards=(*zoe.cards, Card("Qc", True)))
    showdown = Step((30,), "Vik shows", None, "showdown", 60, (zoe_river, vik_shown, fay))
    return [sixth, showdown]


def test_full_view_counts_the_fives_left_for_the_villain_to_tie_the_wheel() -> None:
    """Zoë's wheel can only be tied: Vik (A 2 3 4 K K) needs a five, and of the 38 cards
    nobody has seen (52, less 12 in the two hands and Fay's 5c 5d, which are dead) one is a
    five (5h): Vik's card is it with chance 1/38, and then they split."""
    point = hand_equity.compute(hand_on_sixth(), "full").at(0)
    assert point is not None and point.exact
    assert point.players == ("Zoë", "Vik")
    assert point.dead == ("5c", "5d")
    assert Fraction(point.equity[1]).limit_denominator(1000) == Fraction(1, 76)
    assert point.equity[0] == pytest.approx(75 / 76, abs=1e-12)


def test_hero_view_hides_the_villains_down_cards_and_counts_them_as_unseen() -> None:
    """As Zoë sees it, Vik's two down cards are unknown: he ties only when they and his 7th
    card are an ace, a two and a five, from the 40 cards Zoë has not seen (3 aces, 3 twos,
    one five left): 3 × 3 × 1 of the C(40, 3) ways, and a tie is half the pot."""
    point = hand_equity.compute(hand_on_sixth(), "hero").at(0)
    assert point is not None and point.exact
    assert point.hands[1] == ("??", "??", "3h", "4h", "Kh", "Kd")
    assert point.hands[0] == ("As", "2s", "3s", "4s", "5s", "6s")
    expected = Fraction(3 * 3 * 1, comb(40, 3)) / 2
    assert point.equity[1] == pytest.approx(float(expected), abs=1e-12)


def test_folded_players_up_cards_are_dead_but_their_unknown_down_cards_are_not() -> None:
    steps = hand_on_sixth()
    alive = [replace_seat(s, folded=False) if s.player == "Fay" else s for s in steps[0].seats]
    players, hands, dead = hand_equity.situation_of(
        Step((20,), "", "6th", "6th", 0, tuple(alive)), "hero")
    assert players == ("Zoë", "Vik", "Fay") and dead == ()
    players, hands, dead = hand_equity.situation_of(steps[0], "hero")
    assert players == ("Zoë", "Vik") and dead == ("5c", "5d")
    # Without the dead fives the villain's tie gets likelier: 3 fives among 42 unseen cards.
    without = hand_equity.evaluate("6th", players, hands, (), None)
    assert without.equity[1] == pytest.approx(27 / comb(42, 3) / 2, abs=1e-12)
    assert without.equity[1] > hand_equity.compute(steps, "hero").at(0).equity[1]  # type: ignore[union-attr]


def replace_seat(s: Seat, **changes: Any) -> Seat:
    from dataclasses import replace

    return replace(s, **changes)


def test_a_folded_hero_holds_dead_cards_down_cards_included() -> None:
    zoe = seat(1, "Zoë", "7s 8s 9s 4s", hero=True, folded=True)
    vik = seat(2, "Vik", "xx xx 3h 4h")
    ann = seat(3, "Ann", "xx xx 2d 6c")
    step = Step((9,), "", "4th", "4th", 10, (zoe, vik, ann))
    players, _, dead = hand_equity.situation_of(step, "hero")
    assert players == ("Vik", "Ann") and dead == ("7s", "8s", "9s", "4s")


def test_the_showdown_keeps_the_last_streets_equity_and_the_full_view_exists() -> None:
    steps = hand_on_sixth()
    assert hand_equity.full_view_exists(steps)
    full = hand_equity.compute(steps, "full")
    assert full.at(1) is full.at(0)
    assert [street for street, _ in full.by_street()] == ["6th"]
    # A hand nobody shows has no full view: it would be the hero's.
    quiet = [steps[0], Step((30,), "Vik mucks", None, "showdown", 60, steps[0].seats)]
    assert not hand_equity.full_view_exists(quiet)


def test_a_fold_changes_the_situation_and_the_street_keeps_its_deal_point() -> None:
    zoe = seat(1, "Zoë", "As 2s 3s", hero=True)
    vik = seat(2, "Vik", "xx xx Kh")
    ann = seat(3, "Ann", "xx xx 8d")
    deal = Step((5,), "3rd street", "3rd", "3rd", 3, (zoe, vik, ann))
    fold = Step((6,), "Ann folds", "3rd", "3rd", 3, (zoe, vik, replace_seat(ann, folded=True)))
    call = Step((7,), "Zoë calls", "3rd", "3rd", 5, fold.seats)
    shown = hand_equity.compute([deal, fold, call], "hero")
    first, second, third = (shown.at(i) for i in range(3))
    assert first is not None and second is not None
    assert first.players == ("Zoë", "Vik", "Ann") and second.players == ("Zoë", "Vik")
    assert second.dead == ("8d",) and third is second
    assert shown.by_street() == [("3rd", first)]
    # Monte Carlo above the exact limit, with a stated error and the same deals every time.
    assert not first.exact and 0 < first.std_error < 0.004
    assert first.method.startswith("Monte Carlo ±")
    assert hand_equity.compute([deal], "hero").at(0) == first


def test_seven_players_on_third_street_take_a_bounded_monte_carlo() -> None:
    """The worst case the replayer meets on a street: 7 live players on 3rd street."""
    import time

    ups = ["4h", "5s", "6d", "7c", "8h", "9s"]
    players = [seat(1, "hero", "As 2d 3c", hero=True)] + [
        seat(n, f"p{n}", f"xx xx {up}") for n, up in enumerate(ups, start=2)]
    step = Step((1,), "", "3rd", "3rd", 7, tuple(players))
    started = time.perf_counter()
    point = hand_equity.compute([step], "hero").at(0)
    took = time.perf_counter() - started
    assert point is not None and not point.exact and point.samples == hand_equity.SAMPLES
    assert sum(point.equity) == pytest.approx(1.0)
    assert point.equity[0] == max(point.equity)  # A-2-3 against one up card each
    assert took < 5  # about 0.1 s on a quiet machine; generous for a shared one


@pytest.fixture(scope="module")
def showdowns(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[Any, ...]]:
    """The sample hands that reach a showdown with one pot: their steps and the pot's
    winners."""
    from razz.store.importer import import_paths

    db = tmp_path_factory.mktemp("equity") / "razz.duckdb"
    import_paths([str(SAMPLES)], db)
    with duckdb.connect(str(db), read_only=True) as con:
        hands = con.execute("SELECT * FROM hands WHERE showdown AND findings = 0").df()
        players = {k: g for k, g in con.execute("SELECT * FROM players").df().groupby(
            "hand_key")}
        pots = {k: g for k, g in con.execute("SELECT * FROM pots").df().groupby("hand_key")}
    found = []
    for h in hands.to_dict("records"):
        key = h["hand_key"]
        if len(pots.get(key, ())) != 1:
            continue
        s = players[key]
        steps = hand_steps.build(
            _parsed(h["raw_text"]), int(h["first_line"]),
            list(zip(s["seat"], s["player"], s["is_hero"], s["starting_stack"], strict=True)),
            {}, str)
        found.append((key, steps, list(pots[key]["winners"].iloc[0])))
    return found


def _parsed(text: str) -> Any:
    from razz.parser import Hand, read_text

    return next(r for r in read_text(text) if isinstance(r, Hand))


def test_on_sample_showdowns_the_full_views_river_equity_is_who_won(
    showdowns: list[tuple[Any, ...]],
) -> None:
    """When every live hand is shown whole, the full view's 7th street is no longer a
    chance: each winner's equity is 1 / the number of winners, every other player's 0."""
    checked = 0
    for key, steps, winners in showdowns:
        river = [s for s in steps if s.street == "7th"]
        if not river:
            continue
        players, hands, dead = hand_equity.situation_of(river[-1], "full", steps[-1])
        if any("??" in cards or len(cards) < 7 for cards in hands):
            continue
        point = hand_equity.evaluate("7th", players, hands, dead, river[-1].community)
        assert point.exact and not point.error, key
        expected = {p: (1 / len(winners) if p in winners else 0.0) for p in point.players}
        assert dict(zip(point.players, point.equity, strict=True)) == pytest.approx(expected), key
        checked += 1
    assert checked > 100


def test_on_sample_showdowns_the_hero_view_never_sees_an_opponents_down_card(
    showdowns: list[tuple[Any, ...]],
) -> None:
    """Nor on any step of any sample hand with a showdown; and most of them have a full view."""
    differs = 0
    for key, steps, _ in showdowns:
        for index, step in enumerate(steps):
            if step.street is None:
                continue
            players, hands, _dead = hand_equity.situation_of(step, "hero")
            for player, cards in zip(players, hands, strict=True):
                (seat_,) = [s for s in step.seats if s.player == player]
                for card, code in zip(seat_.cards, cards, strict=True):
                    if card.down and not seat_.hero:
                        assert code == "??", (key, index, player)
        differs += hand_equity.full_view_exists(steps)
    assert differs > len(showdowns) / 2
