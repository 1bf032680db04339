"""The real PokerStars files of ../shared/corpus, read in place (skipped when the folder is absent)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from razz.parser import Hand, ParseError, SkippedHand, read_path, read_text
from razz.parser import events as ev

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "pokerstars"
RAZZ = CORPUS / "Razz-USD-0.04-0.08-200911.txt"

pytestmark = pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is not present")

_AMOUNT = re.compile(r"\$(\d+)(?:\.(\d\d))?")


def cents(text: str) -> list[int]:
    return [int(a) * 100 + int(b or 0) for a, b in _AMOUNT.findall(text)]


def test_the_nine_razz_hands_parse() -> None:
    results = list(read_path(RAZZ))
    assert len(results) == 9
    assert all(isinstance(r, Hand) for r in results)
    assert [r.header.hand_id for r in results][:2] == ["35874566077", "35874590575"]


def test_every_event_agrees_with_its_line_of_text() -> None:
    """Each event is checked against the text of the line it says it came from."""
    lines = RAZZ.read_text(encoding="utf-8").split("\n")
    for hand in read_path(RAZZ):
        assert isinstance(hand, Hand)
        h = hand.header
        assert lines[h.first_line - 1].startswith(f"PokerStars Game #{h.hand_id}:")
        assert (h.small_bet, h.big_bet, h.unit, h.currency) == (4, 8, ev.Unit.CENT, "USD")
        assert h.table == "Gotha II"
        for e in hand.events:
            text = lines[e.line - 1].rstrip()
            if isinstance(e, ev.PlayerEvent):
                assert e.player in text
            if isinstance(e, ev.SeatLine):
                assert (
                    text
                    == f"Seat {e.seat}: {e.player} (${e.stack // 100}.{e.stack % 100:02d} in chips)"
                )
            elif isinstance(e, ev.PostAnte | ev.BringIn | ev.Bet | ev.Call):
                assert cents(text) == [e.amount]
                assert text.endswith("and is all-in") == e.all_in
            elif isinstance(e, ev.Raise):
                assert cents(text) == [e.amount, e.to]
            elif isinstance(e, ev.Dealt):
                groups = re.findall(r"\[([^\]]*)\]", text)
                shown = [tuple(c for c in g if c != ev.UNKNOWN_CARD) for g in (e.previous, e.new)]
                assert [tuple(g.split()) for g in groups] == [g for g in shown if g]
                # An opponent's two down cards are hidden, and only theirs.
                hidden = (e.previous or e.new)[:2] == (ev.UNKNOWN_CARD, ev.UNKNOWN_CARD)
                assert hidden != e.hero
                assert text.startswith(f"Dealt to {e.player} [")
            elif isinstance(e, ev.StreetStart):
                assert (
                    text.startswith("*** ")
                    and ("RIVER" if e.street is ev.Street.SEVENTH else e.street.value) in text
                )
            elif isinstance(e, ev.Collect):
                assert cents(text) == [e.amount] and text.endswith(e.pot_label)
            elif isinstance(e, ev.UncalledBet):
                assert cents(text) == [e.amount] and text.endswith(e.player)
            elif isinstance(e, ev.Show):
                assert f"[{' '.join(e.cards)}]" in text and f"({e.description})" in text
            elif isinstance(e, ev.TotalPot):
                assert cents(text) == [e.total, e.rake]
            elif isinstance(e, ev.SeatResult):
                assert text.startswith(f"Seat {e.seat}: {e.player} ")
                if e.amount is not None:
                    assert cents(text) == [e.amount]
            elif isinstance(e, ev.Fold | ev.Check | ev.Muck | ev.NoShow):
                assert text.startswith(f"{e.player}: ")


def test_a_known_hand_in_full() -> None:
    """Hand 35874756552: the chat line, the uncalled bet and `doesn't show hand`."""
    hand = [h for h in read_path(RAZZ) if isinstance(h, Hand)][6]
    assert hand.header.hand_id == "35874756552"
    kinds = [type(e).__name__ for e in hand.events]
    assert kinds.count("SeatLine") == 6 and kinds.count("PostAnte") == 6
    chat = next(e for e in hand.events if isinstance(e, ev.Noise))
    assert (chat.kind, chat.player, chat.text) == (
        ev.NoiseKind.CHAT,
        "kobreli",
        'kobreli said, "this.is.lucky"',
    )
    bring_in = next(e for e in hand.events if isinstance(e, ev.BringIn))
    assert (bring_in.player, bring_in.amount, bring_in.line) == ("HIWAII2", 2, 401)
    assert [type(e).__name__ for e in hand.events[-11:-8]] == ["UncalledBet", "Collect", "NoShow"]
    total = next(e for e in hand.events if isinstance(e, ev.TotalPot))
    assert (total.total, total.rake) == (20, 1)


def test_stud_hands_are_skipped_as_not_razz() -> None:
    for name, count, game in [
        ("7-Stud-USD-0.04-0.08-200911.txt", 11, "7 Card Stud"),
        ("7-Stud-USD-0.04-0.08-200907.Missing.Showdown.Card.txt", 1, "7 Card Stud"),
        ("7-Stud-USD-0.04-0.08-201104.side.pot.txt", 1, "7 Card Stud"),
        ("7-StudHL-USD-0.98-0.12-202302.allin.ante.txt", 1, "7 Card Stud Hi/Lo"),
    ]:
        results = list(read_path(CORPUS / name))
        assert len(results) == count
        assert all(isinstance(r, SkippedHand) and r.game == game for r in results), results
        assert all(r.reason == f"{game} is not Razz" for r in results)


def test_a_hand_of_another_game_is_skipped_from_its_header_whatever_its_body_holds() -> None:
    """The Triple Stud hand's site-written `[of]` card does not matter: it is not Razz."""
    [result] = read_path(CORPUS / "Triple-Stud-USD-2.00-0.20-MTT-201301.txt")
    assert isinstance(result, SkippedHand)
    assert (result.hand_id, result.reason) == ("91733835979", "7 Card Stud is not Razz")


def test_the_corrupt_card_in_a_razz_hand_is_a_clear_error_at_its_line() -> None:
    text = (CORPUS / "Triple-Stud-USD-2.00-0.20-MTT-201301.txt").read_text(encoding="utf-8-sig")
    [result] = read_text(text.replace("Triple Stud (7 Card Stud Limit)", "Triple Stud (Razz Limit)"))
    assert isinstance(result, ParseError)
    assert result.line == 46
    assert result.line_text == "Dealt to Hero [Ah 3c Ac 8h Qd As] [of]"
    assert "'of' is not a card" in result.message
    assert result.line_text[result.column - 1 :].startswith("of")
    assert result.hand_id == "91733835979"


