"""`audit_hand`: the real PokerStars Razz hands audit clean, and every field of the result
(pots, per-player analytics, action and card records) says what happened in the hand."""

from __future__ import annotations

from pathlib import Path

import pytest

from razz.parser import Hand, read_path, read_text
from razz.parser.events import Street, TotalPot
from razz.replay.audit import audit_hand
from razz.replay.findings import Severity
from razz.replay.results import HandResult, PlayerResult
from razz.replay.tablecheck import check_tables

CORPUS = Path(__file__).parents[2] / "shared" / "corpus"
STARS_RAZZ = CORPUS / "pokerstars" / "Razz-USD-0.04-0.08-200911.txt"
DATA = Path(__file__).parent / "data" / "replay"


def _hand(name: str) -> Hand:
    items = list(read_text((DATA / name).read_text(encoding="utf-8"), source=name))
    assert len(items) == 1 and isinstance(items[0], Hand)
    return items[0]


def _corpus_hands() -> list[Hand]:
    if not STARS_RAZZ.exists():
        pytest.skip("../shared/corpus is not beside the checkout")
    hands = [h for h in read_path(STARS_RAZZ) if isinstance(h, Hand)]
    assert len(hands) == 9
    return hands


def _player(result: HandResult, name: str) -> PlayerResult:
    return next(p for p in result.players if p.player == name)


def test_the_real_pokerstars_razz_hands_audit_with_no_error_finding() -> None:
    hands = _corpus_hands()
    results = [audit_hand(h) for h in hands]
    errors = [f for r in results for f in r.findings if f.severity is Severity.ERROR]
    assert errors == []
    assert check_tables(zip(hands, results, strict=True)) == {}


def test_the_real_hands_pay_out_what_their_summary_says() -> None:
    for hand in _corpus_hands():
        result = audit_hand(hand)
        total = next(e for e in hand.events if isinstance(e, TotalPot))
        assert (result.total_pot, result.rake) == (total.total, total.rake)
        assert sum(p.net for p in result.players) == -result.rake
        assert sum(sum(pot.shares) for pot in result.pots) == total.total - total.rake


def test_the_capped_river_of_a_real_hand_is_recorded_action_by_action() -> None:
    hand = _corpus_hands()[7]  # kobreli and SilkZone cap the river
    result = audit_hand(hand)
    river = [a for a in result.actions if a.street is Street.SEVENTH]
    assert [(a.player, a.kind, a.amount, a.to_amount) for a in river] == [
        ("kobreli", "bet", 8, 8),
        ("SilkZone", "raise", 16, 16),
        ("kobreli", "raise", 16, 24),
        ("SilkZone", "raise", 16, 32),
        ("kobreli", "call", 8, None),
    ]
    assert river[-1].pot_after == 156
    kobreli = _player(result, "kobreli")
    assert kobreli.won_at_showdown and kobreli.showdown_won == 149
    assert kobreli.final_low == "6,4,3,2,A"
    assert _player(result, "SilkZone").final_low == "7,5,3,2,A"
    assert result.pots[0].winners == ("kobreli",)


def test_four_player_hand_analytics() -> None:
    result = audit_hand(_hand("four_players_showdown.txt"))
    assert result.findings == ()
    assert (result.ante, result.bring_in, result.bring_in_player) == (1, 2, "Alice")
    assert (result.total_pot, result.rake, result.went_to_showdown) == (122, 6, True)
    alice, bob, cara, hero = (_player(result, n) for n in ("Alice", "Bob", "Cara", "Hero"))
    assert (alice.posted_bring_in, alice.bring_in_folded, alice.vpip) == (True, True, False)
    assert (alice.invested, alice.net, alice.street(Street.FOURTH).saw) == (3, -3, False)
    assert alice.faced_completion and alice.folded_to_completion
    assert cara.street(Street.THIRD).completes == 1 and cara.vpip
    assert not cara.steal_attempt  # Bob called the bring-in first: not a steal
    assert cara.street(Street.FOURTH).bets == 1 and cara.street(Street.FIFTH).folded
    assert (cara.invested, cara.final_stack) == (13, 87)
    assert bob.faced_completion and not bob.folded_to_completion
    assert bob.street(Street.FIFTH).raises == 2 and bob.street(Street.SIXTH).bets == 1
    assert [s.invested for s in bob.streets] == [4, 8, 32, 8, 0]
    assert (bob.collected, bob.net, bob.showdown_won) == (116, 63, 116)
    assert bob.starting_cards == ("7d", "8d", "5c") and bob.door_card == "5c"
    assert bob.final_low == "7,5,4,2,A"
    assert hero.is_hero and hero.went_to_showdown and not hero.won_at_showdown
    assert hero.final_low == "7,6,4,3,2" and hero.starting_cards == ("2c", "4d", "7s")
    assert sum(p.net for p in result.players) == -result.rake
    (pot,) = result.pots
    assert (pot.amount, pot.eligible, pot.winners, pot.shares) == (
        122,
        ("Bob", "Hero"),
        ("Bob",),
        (116,),
    )


def test_action_records_follow_the_pot_and_the_stacks() -> None:
    result = audit_hand(_hand("four_players_showdown.txt"))
    actions = result.actions
    assert [a.seq for a in actions] == list(range(len(actions)))
    assert [a.kind for a in actions[:6]] == ["ante"] * 4 + ["bring_in", "call"]
    complete = next(a for a in actions if a.kind == "complete")
    assert (complete.player, complete.amount, complete.to_amount) == ("Cara", 4, 4)
    assert actions[-1].kind == "collect" and actions[-1].pot_after == result.rake
    assert max(a.pot_after for a in actions) == result.total_pot
    hero = [a for a in actions if a.player == "Hero"]
    assert hero[-1].stack_after == _player(result, "Hero").final_stack


ROOMS = Path(__file__).parents[1] / "sample_histories" / "rooms"


@pytest.mark.parametrize("path, hand_id", [
    (ROOMS / "kingsclub" / "001-razz-cash-500.00-1000.00-laomedon-xxxv-37795471.txt", None),
    (ROOMS / "kingsclub" / "001-razz-cash-500.00-1000.00-laomedon-xxxv-39848358.txt", None),
    (ROOMS / "phh" / "001-razz-tournament-3896238060-1.phhs", "206739065021"),
], ids=["kingsclub-returned-to-the-winner", "kingsclub-returned-to-another",
        "phh-returned-to-another"])
def test_a_bet_returned_with_no_line_leaves_the_pot_in_the_action_records(
    path: Path, hand_id: str | None,
) -> None:
    """KingsClub and PHH write no line for a bet nobody called: it goes back as the round
    ends, before or during another player's line. The pot after each record is what is in
    it: never less than nothing, and after the last collection the rake only."""
    from razz.store.ingest import ruleset_for

    hand = next(h for h in read_path(path) if isinstance(h, Hand)
                and (hand_id is None or h.header.hand_id == hand_id))
    result = audit_hand(hand, ruleset_for(hand))
    assert result.findings == ()
    actions = result.actions
    assert actions[-1].kind == "collect" and actions[-1].pot_after == result.rake
    assert min(a.pot_after for a in actions) >= 0


def test_card_records_know_what_was_shown_and_what_was_only_seen() -> None:
    result = audit_hand(_hand("four_players_showdown.txt"))
    bob = [c for c in result.cards if c.player == "Bob"]
    assert [(c.position, c.card, c.visibility, c.shown) for c in bob] == [
        (1, "7d", "down", True),
        (2, "8d", "down", True),
        (3, "5c", "up", True),
        (4, "9h", "up", True),
        (5, "Ac", "up", True),
        (6, "2d", "up", True),
        (7, "4s", "down", True),
    ]
    hero = [c for c in result.cards if c.player == "Hero"]
    assert len(hero) == 7 and not any(c.shown for c in hero)  # mucked: seen, not shown
    assert [c.street for c in hero] == [Street.THIRD] * 3 + [
        Street.FOURTH,
        Street.FIFTH,
        Street.SIXTH,
        Street.SEVENTH,
    ]
    alice = [c for c in result.cards if c.player == "Alice"]
    assert [(c.position, c.card) for c in alice] == [(3, "Kd")]


def test_side_pots_and_all_ins() -> None:
    result = audit_hand(_hand("side_pot_tournament.txt"))
    main, side = result.pots
    assert (main.amount, main.eligible, main.winners) == (390, ("Ann", "Ben", "Hero"), ("Ben",))
    assert (side.amount, side.eligible, side.winners) == (460, ("Ann", "Hero"), ("Hero",))
    ben = _player(result, "Ben")
    assert ben.all_in and ben.street(Street.FOURTH).all_in and ben.collected == 390
    assert ben.went_to_showdown and ben.street(Street.SEVENTH).saw


def test_a_community_card_counts_for_everyone() -> None:
    result = audit_hand(_hand("eight_players_community_card.txt"))
    assert result.community_card == "Td"
    assert ("Td", "community") in [(c.card, c.visibility) for c in result.cards]
    assert _player(result, "Hero").final_low == "9,8,7,6,A"
    assert _player(result, "Ann").final_low == "T,6,3,2,A"
    assert all(p.went_to_showdown for p in result.players)


def test_a_completion_against_higher_door_cards_is_a_successful_steal() -> None:
    text = (DATA / "uncontested_partial_show.txt").read_text(encoding="utf-8")
    head = text.split("Alice: brings in for $0.02")[0]
    text = head + (
        "Alice: brings in for $0.02\n"
        "Bob: folds \n"
        "Cara: raises $0.02 to $0.04\n"
        "Alice: folds \n"
        "Uncalled bet ($0.02) returned to Cara\n"
        "Cara collected $0.07 from pot\n"
        "*** SUMMARY ***\n"
        "Total pot $0.07 | Rake $0 \n"
        "Seat 1: Alice folded on the 3rd Street\n"
        "Seat 3: Bob folded on the 3rd Street (didn't bet)\n"
        "Seat 5: Cara collected ($0.07)\n"
    )
    (hand,) = read_text(text)
    assert isinstance(hand, Hand)
    result = audit_hand(hand)
    assert result.findings == ()
    cara, alice = _player(result, "Cara"), _player(result, "Alice")
    assert cara.steal_attempt and cara.steal_success and cara.net == 4
    assert alice.faced_completion and alice.folded_to_completion and alice.bring_in_folded
    assert not _player(result, "Bob").vpip
