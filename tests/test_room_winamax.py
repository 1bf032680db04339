"""Winamax (FORMATS.md §3): the real Razz hand reads into the neutral events and audits with
no error finding under the Winamax ruleset and dialect; a line that breaks the format is one
PARSE error at that line; no mutation of a hand makes the reader raise."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from razz.parser import Hand, ParseError, SkippedHand, read_text
from razz.parser import events as ev
from razz.parser.sites import winamax

sys.path.insert(0, str(Path(__file__).resolve().parent))

from rooms.check import corpus_files, findings, mutated, read_bytes, read_file

FILES = corpus_files("winamax")
needs_corpus = pytest.mark.skipif(not FILES, reason="../shared/corpus/winamax is not present")


def _hand() -> Hand:
    (result,) = read_file(FILES[0])
    assert isinstance(result, Hand), result
    return result


def _events(hand: Hand, kind: type) -> list:
    return [e for e in hand.events if type(e) is kind]


@needs_corpus
def test_the_real_winamax_hand_reads_with_euro_stakes_and_the_ante_from_the_header() -> None:
    h = _hand().header
    assert (h.site, h.hand_id, h.game, h.table, h.max_seats) == (
        "Winamax", "9250793-444-1478990340", "Razz", "Pampelune", 6,
    )  # fmt: skip
    assert (h.unit, h.currency, h.ante, h.small_bet, h.big_bet) == (
        ev.Unit.CENT, "EUR", 500, 2500, 5000,
    )  # fmt: skip
    assert h.started_at.isoformat() == "2016-11-12T22:39:00+00:00"


@needs_corpus
def test_hidden_cards_are_unknown_and_the_owner_sees_his_own() -> None:
    dealt = _events(_hand(), ev.Dealt)
    assert (dealt[0].player, dealt[0].new, dealt[0].hero) == ("Hero", ("4s", "Ad", "Td"), True)
    assert (dealt[1].player, dealt[1].new, dealt[1].hero) == ("Player0", ("??", "??", "8h"), False)
    assert (dealt[2].previous, dealt[2].new) == (("??", "??", "8h"), ("4h",))


@needs_corpus
def test_a_completion_written_as_a_raise_keeps_its_total_only() -> None:
    (completion,) = [r for r in _events(_hand(), ev.Raise)]
    assert (completion.player, completion.to, completion.amount) == ("Player0", 2500, None)


@needs_corpus
def test_the_real_winamax_hand_audits_with_no_finding() -> None:
    # The hand: 260€ put in (Hero 105€, Player0 155€, his last 50€ bet uncalled); Winamax
    # keeps the uncalled bet in the pot and writes the pot after its 2€ rake: `Player0
    # collected 258€ from pot`, `Total pot 258€ | Rake 2€`, `Seat 4: Player0 won 258€`.
    assert findings(_hand()) == []


def test_the_example_hand_reads_and_audits_clean() -> None:
    (hand,) = read_text(winamax.EXAMPLE)
    assert isinstance(hand, Hand), hand
    assert findings(hand) == []


def test_a_winners_only_summary_missing_its_winner_is_found() -> None:
    text = winamax.EXAMPLE.replace("Seat 4: Player0 won 45€\n", "")
    (hand,) = read_text(text)
    assert isinstance(hand, Hand)
    assert "LOG-SUMMARY" in {f.rule for f in findings(hand)}


def test_a_stud_hand_of_winamax_is_skipped_as_another_game() -> None:
    (skipped,) = read_text(winamax.EXAMPLE.replace("Razz fixed limit", "7-Card Stud fixed limit"))
    assert isinstance(skipped, SkippedHand) and skipped.reason == "7-Card Stud is not Razz"


def test_play_money_streets_and_bring_in_read_too() -> None:
    text = (
        winamax.EXAMPLE.replace("(5€/25€/50€)", "(0.01/0.05/0.10)")
        .replace("(real money)", "(play money)")
        .replace("€", "")
        .replace("5 ", "0.05 ")
        .replace("*** 3rd STREET ***", "*** THIRD *** ")
        .replace("Hero brings in 10", "Hero bring-in 0.02")
        .replace("raises 25 to 25", "raises 0.05 to 0.05")
        .replace("45", "0.17")
        .replace("(1546.72)", "(15.46)")
        .replace("(664.56)", "(6.64)")
        .replace("ante 0.05", "ante 0.01")
    )
    (hand,) = read_text(text)
    assert isinstance(hand, Hand), hand
    assert hand.header.play_money and hand.header.currency is None
    assert [(b.player, b.amount) for b in _events(hand, ev.BringIn)] == [("Hero", 2)]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Player0 raises 25€ to 25€", "Player0 raises 25€ too 25€"),
        ("Dealt to Player0 [X X 8h]", "Dealt to Player0 [X Y 8h]"),
        ("Hero posts ante 5€", "Nobody posts ante 5€"),
        ("Total pot 45€ | No rake", "Total pot 45€ | Rak 0€"),
    ],
)
def test_a_line_that_breaks_the_format_is_one_parse_error_at_its_line(old: str, new: str) -> None:
    number = winamax.EXAMPLE.split("\n").index(old) + 1
    (error,) = read_text(winamax.EXAMPLE.replace(old, new), "wm.txt")
    assert isinstance(error, ParseError), error
    assert (error.line, error.line_text) == (number, new)
    assert error.message


def test_an_amount_that_is_not_one_is_a_parse_error_at_its_line() -> None:
    (error,) = read_text(winamax.EXAMPLE.replace("Hero brings in 10€", "Hero brings in 10.001€"))
    assert isinstance(error, ParseError)
    assert error.line == 11 and "finer than" in error.message


TEXTS = [winamax.EXAMPLE] + [p.read_text(encoding="utf-8") for p in FILES]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated(TEXTS))
def test_no_mutated_winamax_hand_makes_the_reader_raise(text: str) -> None:
    read_bytes(text.encode("utf-8"))


def test_a_pot_paid_to_a_beaten_hand_is_found_though_a_hand_is_never_shown() -> None:
    """Winamax writes no muck line: a player who calls the river and loses shows nothing, so
    the winner cannot be named; a collector beaten by a hand shown is still the wrong one."""
    from razz.replay.audit import audit_hand
    from razz.replay.lowhand import low_value
    from razz.simulate.rooms import write_room
    from razz.simulate.simulator import simulate
    from razz.store.ingest import ruleset_for

    # the rules of a pot paid to the wrong hand, each for the misreading that explains it
    PAYMENTS = {"HAND-LOW", "HAND-PAIRS", "HAND-COMPARE", "WIN-NOQUAL"}
    written = [w for _, ws in write_room("winamax", simulate(60, 1, site="winamax")) for w in ws]
    checked = 0
    for w in written:
        for hand in read_text(w.data.decode("utf-8"), w.name):
            assert not isinstance(hand, ParseError), hand
            if not isinstance(hand, Hand) or not _events(hand, ev.ShowDown):
                continue
            out = {e.player for e in hand.events if isinstance(e, ev.Fold)}
            seated = [e for e in _events(hand, ev.SeatLine) if not (e.out_of_hand or e.sitting_out)]
            live = {e.player for e in seated} - out
            shown = {e.player: e.cards for e in _events(hand, ev.Show) if len(e.cards) == 7}
            collects = _events(hand, ev.Collect)
            if len(shown) < 2 or not live - set(shown) or len(collects) != 1:
                continue
            [c] = collects
            loser = max(shown, key=lambda n: low_value(shown[n]))
            lines = hand.text.split("\n")
            at = c.line - hand.header.first_line
            lines[at] = lines[at].replace(c.player, loser, 1)
            [wrong] = read_text("\n".join(lines), w.name)
            assert isinstance(wrong, Hand)
            found = audit_hand(wrong, ruleset_for(wrong)).findings
            paid_at = c.line - hand.header.first_line + 1
            assert any(f.rule in PAYMENTS and f.line == paid_at for f in found), found
            checked += 1
    assert checked >= 3
