"""KingsClub (FORMATS.md §5): the real Razz hands read into the neutral events, `2-7 Razz` hands
are skipped as another game, both street-label forms read, and each real hand's error
findings are the ones RAZZ_RULES.md and the hand's text prove; a line that breaks the format
is one PARSE error at that line; no mutation of a hand makes the reader raise."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from razz.parser import Hand, ParseError, SkippedHand, read_text
from razz.parser import events as ev
from razz.parser.sites import kingsclub

sys.path.insert(0, str(Path(__file__).resolve().parent))

from rooms.check import corpus_files, errors, findings, mutated, read_bytes, read_file

FILES = corpus_files("kingsclub")
needs_corpus = pytest.mark.skipif(not FILES, reason="../shared/corpus/kingsclub is not present")
SMALL = "Razz-USD-40-80-202101.txt"
SIDE_POT = "Razz-USD-500-1000-202101.side.pot.txt"


def _hand(name: str) -> Hand:
    (result,) = read_file(next(p for p in FILES if p.name == name))
    assert isinstance(result, Hand), result
    return result


def _events(hand: Hand, kind: type) -> list:
    return [e for e in hand.events if type(e) is kind]


def _streets(hand: Hand) -> list[tuple[str, int]]:
    return [(s.street.value, s.line) for s in _events(hand, ev.StreetStart)]


@needs_corpus
def test_razz_hands_read_and_deuce_to_seven_hands_are_skipped_as_another_game() -> None:
    results = {p.name: read_file(p) for p in FILES}
    for name, (result,) in results.items():
        if name.startswith("2-7-"):
            assert isinstance(result, SkippedHand)
            assert (result.game, result.reason) == ("2-7 Razz", "2-7 Razz is not Razz")
        else:
            assert isinstance(result, Hand), result
            assert result.header.site == "KingsClub" and result.header.game == "Razz"


@needs_corpus
def test_the_header_the_date_line_and_thousands_commas() -> None:
    h = _hand(SIDE_POT).header
    assert (h.hand_id, h.table, h.small_bet, h.big_bet, h.unit) == (
        "3537921", "Bobbys Room Mix", 50000, 100000, ev.Unit.CENT,
    )  # fmt: skip
    assert h.started_at.isoformat() == "2021-01-30T22:25:13+00:00"
    stacks = [s.stack for s in _events(_hand(SIDE_POT), ev.SeatLine)]
    assert stacks[2] == 1268625 and stacks[-1] == 8870025


@needs_corpus
def test_shifted_street_labels_are_read_one_street_on() -> None:
    hand = _hand(SIDE_POT)
    # the first deal has no marker; `*** 3RD STREET ***` (line 35) is 4th street … 6TH the 7th
    assert _streets(hand) == [("3rd", 18), ("4th", 35), ("5th", 43), ("6th", 51), ("7th", 54)]
    river = [d for d in _events(hand, ev.Dealt) if d.street is ev.Street.SEVENTH]
    assert [(d.player, d.new, d.hero) for d in river] == [
        ("Player3", ("??",), False), ("Player4", ("??",), False),
    ]  # fmt: skip


def test_the_2022_labels_read_as_written() -> None:
    text = kingsclub.EXAMPLE.replace("*** 3RD STREET ***\n", "*** 4TH STREET ***\n").replace(
        "Dealt to Player0: [X X Tc]", "*** 3RD STREET ***\nDealt to Player0: [X X Tc]"
    )
    (hand,) = read_text(text)
    assert isinstance(hand, Hand), hand
    assert _streets(hand) == [("3rd", 8), ("4th", 14)]


def test_a_seventh_street_marker_under_shifted_labels_is_a_parse_error_at_it() -> None:
    text = kingsclub.EXAMPLE.replace("*** 3RD STREET ***", "*** 7TH STREET ***")
    (error,) = read_text(text, "kc.txt")
    assert isinstance(error, ParseError)
    assert (error.line, error.line_text) == (13, "*** 7TH STREET ***")
    assert "after 7th street" in error.message


@needs_corpus
def test_a_completion_written_bets_is_a_completion_and_a_call_adds_what_it_adds() -> None:
    hand = _hand(SMALL)
    assert [(c.player, c.to) for c in _events(hand, ev.Complete)] == [("Hero", 4000)]
    # `Player0 calls 40` after bringing in for 10: the call adds 30
    assert [(c.player, c.amount) for c in _events(hand, ev.Call)] == [("Player0", 3000)]
    # 4th street's `Hero bets 40` opens a round: a bet
    assert [(b.player, b.amount) for b in _events(hand, ev.Bet)] == [("Hero", 4000)]


@needs_corpus
def test_the_summary_gives_every_seat_s_final_stack_and_net_and_the_rake() -> None:
    hand = _hand(SMALL)
    results = [(r.player, r.outcome, r.final_stack, r.net) for r in _events(hand, ev.SeatResult)]
    assert results == [
        ("Player0", ev.Outcome.STACK, 101038, -5000), ("Hero", ev.Outcome.STACK, 210740, 4900),
    ]  # fmt: skip
    (total,) = _events(hand, ev.TotalPot)
    assert (total.total, total.rake) == (None, 100)
    (collect,) = _events(hand, ev.Collect)
    assert (collect.player, collect.amount, collect.pot_label) == ("Hero", 9900, "pot")


@needs_corpus
def test_a_bring_in_equal_to_the_ante_is_the_room_s_structure_not_a_violation() -> None:
    # RAZZ_RULES.md STRUCT-BRINGIN-SIZE asks for a bring-in larger than the ante; KingsClub
    # brings in for the ante in every real hand (`Player0: posts ante 10`, `Player0 brings in
    # for 10`, line 10): its ruleset says so, the PokerStars ruleset still finds it.
    from razz.replay.audit import audit_hand
    from razz.replay.ruleset import get_ruleset

    for hand, line in ((_hand(SMALL), 10), (_hand(SIDE_POT), 25)):
        assert ("STRUCT-BRINGIN-SIZE", line) not in errors(hand)
        stars = audit_hand(hand, get_ruleset("pokerstars")).findings
        assert ("STRUCT-BRINGIN-SIZE", line) in [(f.rule, f.line) for f in stars]


@needs_corpus
def test_a_raise_to_625_over_a_short_all_in_completion_is_found_as_the_rules_say() -> None:
    # RAZZ_RULES.md ACT-ALLIN-SHORT / ACT-COMPLETE: after `Player3 bets 225, and is all in`
    # (short of the 500 completion over `Hero brings in for 125`), the next full wager
    # completes to the small bet, 500; the log has `Player4 raises to 625` (line 31).
    assert ("ACT-COMPLETE", 31) in errors(_hand(SIDE_POT))


@needs_corpus
def test_the_small_hand_has_no_error() -> None:
    assert errors(_hand(SMALL)) == []


@needs_corpus
def test_the_side_pot_hand_s_only_error_is_the_raise_to_625() -> None:
    assert errors(_hand(SIDE_POT)) == [("ACT-COMPLETE", 31)]


@needs_corpus
def test_hidden_river_cards_are_dealt_face_down_as_the_rules_say() -> None:
    # `Dealt to Player3: [X]` on 7th street (DEAL-7TH: the river card is dealt face down)
    assert not [f for f in findings(_hand(SIDE_POT)) if f.rule == "DEAL-7TH"]


def test_a_summary_stack_or_net_that_does_not_add_up_is_found_at_its_line() -> None:
    for wrong in ("Seat 6: Hero (2,107.40) +50", "Seat 6: Hero (2,107.41) +49"):
        (hand,) = read_text(kingsclub.EXAMPLE.replace("Seat 6: Hero (2,107.40) +49", wrong))
        assert isinstance(hand, Hand)
        assert [(f.rule, f.line) for f in findings(hand) if f.rule == "LOG-SUMMARY"] == [
            ("LOG-SUMMARY", 20)
        ]


def test_a_summary_stack_below_zero_is_read_and_the_bet_beyond_the_stack_found() -> None:
    # Player0 has 40: ante and bring-in leave 20, and he calls 30 more; the summary then
    # shows what the table did, a final stack of -10. The hand is audited, not refused.
    text = kingsclub.EXAMPLE.replace("Player0 (1,060.38)", "Player0 (40)").replace(
        "Player0 (1,010.38) -50", "Player0 (-10) -50"
    )
    (hand,) = read_text(text, "kc.txt")
    assert isinstance(hand, Hand), hand
    (result,) = [e for e in _events(hand, ev.SeatResult) if e.player == "Player0"]
    assert (result.final_stack, result.net) == (-1000, -5000)
    stack = [(f.line, f.message) for f in findings(hand) if f.rule == "LOG-STACK"]
    assert stack == [(12, "Player0 puts in $30.00 but has only $20.00 left.")]


def test_the_example_has_no_finding() -> None:
    (hand,) = read_text(kingsclub.EXAMPLE)
    assert isinstance(hand, Hand)
    assert [(f.rule, f.line) for f in findings(hand)] == []


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Hero bets 40", "Hero bet 40"),
        ("Dealt to Hero: [2c]", "Dealt to Hero: [2x]"),
        ("Player0: posts ante 10", "Player0 posts ante 10"),
        ("Seat 6: Hero (2,107.40) +49", "Seat 6: Hero (2,107.40) plus 49"),
    ],
)
def test_a_line_that_breaks_the_format_is_one_parse_error_at_its_line(old: str, new: str) -> None:
    number = kingsclub.EXAMPLE.split("\n").index(old) + 1
    (error,) = read_text(kingsclub.EXAMPLE.replace(old, new), "kc.txt")
    assert isinstance(error, ParseError), error
    assert (error.line, error.line_text) == (number, new)
    assert error.message


TEXTS = [kingsclub.EXAMPLE] + [p.read_text(encoding="utf-8") for p in FILES]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated(TEXTS))
def test_no_mutated_kingsclub_hand_makes_the_reader_raise(text: str) -> None:
    read_bytes(text.encode("utf-8"))
