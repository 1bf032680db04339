"""Full Tilt Poker (FORMATS.md §2): every real Razz hand reads into the neutral events and audits
with no finding under the Full Tilt ruleset; a line that breaks the format is one PARSE error
at that line; no mutation of a hand makes the reader raise."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from razz.parser import Hand, ParseError, SkippedHand, read_text
from razz.parser import events as ev
from razz.parser.sites import fulltilt

sys.path.insert(0, str(Path(__file__).resolve().parent))

from rooms.check import corpus_files, errors, findings, mutated, read_bytes, read_file

FILES = corpus_files("fulltilt")
needs_corpus = pytest.mark.skipif(not FILES, reason="../shared/corpus/fulltilt is not present")
ALL_IN_ANTE = "Razz-USD-HUSNG-200-201211.all.in.ante.txt"


def _hand(name: str) -> Hand:
    (result,) = read_file(next(p for p in FILES if p.name == name))
    assert isinstance(result, Hand), result
    return result


def _events(hand: Hand, kind: type) -> list:
    return [e for e in hand.events if type(e) is kind]


@needs_corpus
@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_real_full_tilt_file_is_one_razz_hand_of_full_tilt(path: Path) -> None:
    (hand,) = read_file(path)
    assert isinstance(hand, Hand), hand
    assert hand.header.site == "Full Tilt Poker" and hand.header.is_razz
    assert hand.header.ante is not None  # the header states it


@needs_corpus
@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_real_full_tilt_hand_audits_with_no_finding(path: Path) -> None:
    # The all-in-ante hand too: `Hero antes 7`, `Player0 antes 6, and is all in`, `Uncalled
    # bet of 1 returned to Hero` (RAZZ_RULES.md STRUCT-ANTE: a short stack posts the ante
    # all-in; nobody can match Hero's 7th chip), then a pot of 12 won by K,J,T,9,2.
    (hand,) = read_file(path)
    assert findings(hand) == []


@needs_corpus
def test_an_ante_excess_returned_wrongly_is_found_at_its_line() -> None:
    path = next(p for p in FILES if p.name == ALL_IN_ANTE)
    text = path.read_text(encoding="utf-8").replace("Uncalled bet of 1 ", "Uncalled bet of 2 ")
    (hand,) = read_text(text)
    assert isinstance(hand, Hand)
    assert ("ACT-UNCALLED", 6) in errors(hand)


@needs_corpus
def test_the_header_gives_stakes_ante_table_and_both_clocks() -> None:
    h = _hand("Razz-USD-0.10-0.20-201012.CCT.and.ET.timeformat.txt").header
    assert (h.hand_id, h.table, h.small_bet, h.big_bet, h.ante) == (
        "26190453000",
        "Mart",
        10,
        20,
        2,
    )
    assert (h.unit, h.currency, h.kind, h.time_zone) == (
        ev.Unit.CENT,
        "USD",
        ev.GameKind.CASH,
        "CCT",
    )
    assert h.started_at.isoformat() == "2010-12-07T09:10:10+00:00"  # the ET clock in brackets


@needs_corpus
def test_a_sit_and_go_header_gives_its_tournament_and_chips() -> None:
    h = _hand("Razz-USD-HUSNG-2-201102.Villain.allin.on.bringing.txt").header
    assert (h.kind, h.tournament_id, h.table, h.unit) == (
        ev.GameKind.TOURNAMENT, "220338000", "1", ev.Unit.CHIP,
    )  # fmt: skip
    assert (h.small_bet, h.big_bet, h.ante) == (80, 160, 15)


@needs_corpus
def test_is_high_with_completes_it_to_and_wins_the_pot_are_their_own_events() -> None:
    hand = _hand("Razz-USD-0.10-0.20-201012.CCT.and.ET.timeformat.txt")
    assert _events(hand, ev.BringInCard)[0].player == "Player5"
    assert _events(hand, ev.BringInCard)[0].card == "Ks"
    assert [(c.player, c.to) for c in _events(hand, ev.Complete)] == [("Player8", 10)]
    (collect,) = _events(hand, ev.Collect)
    assert (collect.player, collect.amount, collect.pot_label) == ("Player8", 112, "pot")
    assert _events(hand, ev.SeatResult)[-1].mucked


@needs_corpus
def test_down_cards_come_first_and_the_door_card_in_the_second_bracket() -> None:
    hand = _hand("Razz-USD-0.10-0.20-201012.CCT.and.ET.timeformat.txt")
    hero, other = _events(hand, ev.Dealt)[:2]
    assert (hero.new, hero.hero) == (("6d", "Kd", "4s"), True)
    assert (other.new, other.hero) == (("??", "??", "2s"), False)


@needs_corpus
def test_a_seated_player_who_sits_out_is_seated_and_sits_out_in_the_summary() -> None:
    hand = _hand("Razz-USD-0.10-0.20-201012.Player6.listed.but.doesnt.act.txt")
    assert [s.player for s in _events(hand, ev.SeatLine)].count("Player6") == 1
    noise = [n for n in _events(hand, ev.Noise) if n.player == "Player6"]
    assert {n.kind for n in noise} == {ev.NoiseKind.SITTING_OUT, ev.NoiseKind.SEATING}
    (sat_out,) = [r for r in _events(hand, ev.SeatResult) if r.outcome is ev.Outcome.SAT_OUT]
    assert sat_out.player == "Player6"


@needs_corpus
def test_all_in_on_the_bring_in_and_on_the_ante_are_marked() -> None:
    bring = _events(_hand("Razz-USD-HUSNG-2-201102.Villain.allin.on.bringing.txt"), ev.BringIn)
    assert [(b.player, b.amount, b.all_in) for b in bring] == [("Villain", 9, True)]
    hand = _hand(ALL_IN_ANTE)
    assert [(a.player, a.amount, a.all_in) for a in _events(hand, ev.PostAnte)] == [
        ("Hero", 7, False), ("Player0", 6, True),
    ]  # fmt: skip
    (back,) = _events(hand, ev.UncalledBet)
    assert (back.player, back.amount) == ("Hero", 1)


@needs_corpus
@pytest.mark.parametrize(
    ("old", "new", "column"),
    [
        ("Player8 completes it to $0.10", "Player8 completes to $0.10", 8),
        ("Player7 calls $0.03", "Player7 calls $0.0x3", 8),
        ("Dealt to Player4 [7c] [8c]", "Dealt to Player4 [7c] [8x]", 1),
        ("Player9 antes $0.02", "Player9 antes $0.02", 1),  # unchanged: not in the file
    ],
)
def test_a_line_that_breaks_the_format_is_one_parse_error_at_its_line(
    old: str, new: str, column: int
) -> None:
    path = next(p for p in FILES if p.name.startswith("Razz-USD-0.10-0.20-201012.CCT"))
    text = path.read_text(encoding="utf-16")
    if old not in text:
        text = text.replace("Player3 antes $0.02", "Player9 antes $0.02")  # nobody seated so
        number = text.replace("\r\n", "\n").split("\n").index("Player9 antes $0.02") + 1
    else:
        number = text.replace("\r\n", "\n").split("\n").index(old) + 1
        text = text.replace(old, new)
    (error,) = read_text(text, "ft.txt")
    assert isinstance(error, ParseError), error
    assert error.line == number
    assert error.column >= column and error.message


def test_a_stud_hand_of_full_tilt_is_skipped_as_another_game() -> None:
    text = fulltilt.EXAMPLE.replace("Limit Razz", "Limit Stud Hi")
    (skipped,) = read_text(text)
    assert isinstance(skipped, SkippedHand) and skipped.reason == "Stud Hi is not Razz"


def test_the_example_hand_reads_and_audits_clean() -> None:
    (hand,) = read_text(fulltilt.EXAMPLE)
    assert isinstance(hand, Hand)
    assert findings(hand) == []


def test_a_dated_header_of_the_other_form_reads() -> None:
    text = fulltilt.EXAMPLE.replace(
        "17:10:10 CCT - 2010/12/07 [04:10:10 ET - 2010/12/07]", "15:13 ET - Wed, July 21, 2010"
    ).replace("Table Mart", "Table CR - tay (6 max)")
    (hand,) = read_text(text)
    assert isinstance(hand, Hand), hand
    assert hand.header.table == "CR - tay (6 max)"
    assert hand.header.started_at.isoformat() == "2010-07-21T19:13:00+00:00"


TEXTS = [fulltilt.EXAMPLE] + [
    p.read_bytes().decode("utf-16" if p.read_bytes()[:2] == b"\xff\xfe" else "utf-8") for p in FILES
]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated(TEXTS))
def test_no_mutated_full_tilt_hand_makes_the_reader_raise(text: str) -> None:
    read_bytes(text.encode("utf-16"))


def test_a_tournament_summary_is_skipped_as_not_a_hand_history() -> None:
    text = (
        "Full Tilt Poker Tournament Summary $60 Heads-Up Sit & Go (243514942) Razz Limit"
        " (Super Turbo, Heads Up)\nBuy-In: $58.83 + $1.17\n1: Makksmakkmao, $117.66\n"
    )
    (skipped,) = read_text(text)
    assert isinstance(skipped, SkippedHand)
    assert skipped.reason == "a Full Tilt Poker tournament summary, not a hand history"
