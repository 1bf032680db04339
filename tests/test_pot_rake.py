"""POT-RAKE at the line that is wrong: the summary's rake, or the winner's `collected` line.

PokerStars takes no rake from a hand that ends on 3rd street (its help page, the evidence of
`no_rake_on_third_street`). So when such a hand's winner collects the whole pot and the summary
states a rake, the summary's `Total pot … | Rake …` line is the wrong one, not the payment; and
a rake taken from such a hand is an error even when the payment agrees with it. On a hand that
reaches 4th street, a rake within the room's 5% leaves the payment as the line to blame.
"""

from __future__ import annotations

import pytest

from razz.parser import Hand, read_text
from razz.replay.audit import audit_hand
from razz.replay.findings import Finding, Severity
from razz.replay.ruleset import CARDROOM, POKERSTARS, Ruleset

THIRD_STREET = """\
PokerStars Hand #7101:  Razz Limit ($0.04/$0.08 USD) - 2009/11/26 13:00:00 ET
Table 'Test VII' 8-max
Seat 1: Alice ($1.00 in chips)
Seat 3: Bob ($1.00 in chips)
Seat 5: Cara ($1.00 in chips)
Alice: posts the ante $0.01
Bob: posts the ante $0.01
Cara: posts the ante $0.01
*** 3rd STREET ***
Dealt to Alice [Kd]
Dealt to Bob [5c]
Dealt to Cara [3d 5s 7h]
Alice: brings in for $0.02
Bob: raises $0.02 to $0.04
Cara: folds
Alice: folds
Uncalled bet ($0.02) returned to Bob
Bob collected $0.07 from pot
*** SUMMARY ***
Total pot $0.07 | Rake $0
Seat 1: Alice folded on the 3rd Street
Seat 3: Bob collected ($0.07)
Seat 5: Cara folded on the 3rd Street (didn't bet)
"""

FOURTH_STREET = """\
PokerStars Hand #7102:  Razz Limit ($0.04/$0.08 USD) - 2009/11/26 13:01:00 ET
Table 'Test VII' 8-max
Seat 1: Alice ($1.00 in chips)
Seat 3: Bob ($1.00 in chips)
Seat 5: Cara ($1.00 in chips)
Alice: posts the ante $0.01
Bob: posts the ante $0.01
Cara: posts the ante $0.01
*** 3rd STREET ***
Dealt to Alice [Kd]
Dealt to Bob [5c]
Dealt to Cara [3d 5s 7h]
Alice: brings in for $0.02
Bob: raises $0.02 to $0.04
Cara: raises $0.04 to $0.08
Alice: folds
Bob: calls $0.04
*** 4th STREET ***
Dealt to Bob [5c] [9h]
Dealt to Cara [3d 5s 7h] [6s]
Cara: bets $0.04
Bob: folds
Uncalled bet ($0.04) returned to Cara
Cara collected $0.20 from pot
*** SUMMARY ***
Total pot $0.21 | Rake $0.01
Seat 1: Alice folded on the 3rd Street
Seat 3: Bob folded on the 4th Street
Seat 5: Cara collected ($0.20)
"""


def _findings(text: str, ruleset: Ruleset = POKERSTARS) -> list[Finding]:
    (hand,) = read_text(text, "rake.txt")
    assert isinstance(hand, Hand), hand
    return list(audit_hand(hand, ruleset).findings)


def _line(text: str, start: str) -> int:
    return next(k + 1 for k, t in enumerate(text.split("\n")) if t.startswith(start))


def _errors(text: str, ruleset: Ruleset = POKERSTARS) -> list[tuple[str, int]]:
    return [(f.rule, f.line) for f in _findings(text, ruleset) if f.severity is Severity.ERROR]


@pytest.mark.parametrize("text", [THIRD_STREET, FOURTH_STREET], ids=["3rd", "4th"])
def test_the_unedited_hands_audit_clean(text: str) -> None:
    assert _findings(text) == []


def test_a_rake_stated_on_a_hand_that_ends_on_3rd_street_is_the_summary_line() -> None:
    # the winner collects the whole pot, as the room does; the summary states a rake
    text = THIRD_STREET.replace("Total pot $0.07 | Rake $0", "Total pot $0.07 | Rake $0.01")
    found = [f for f in _findings(text) if f.severity is Severity.ERROR]
    assert [(f.rule, f.line) for f in found] == [("POT-RAKE", _line(text, "Total pot"))]
    (finding,) = found
    assert (finding.expected, finding.actual) == ("Rake $0.00", "Rake $0.01")
    assert "no rake from a hand that ends on 3rd street" in finding.message
    assert "$0.07" in finding.message  # the pot and the payment the log gives


def test_a_rake_taken_from_a_hand_that_ends_on_3rd_street_is_an_error_though_it_adds_up() -> None:
    text = (
        THIRD_STREET.replace("Total pot $0.07 | Rake $0", "Total pot $0.07 | Rake $0.01")
        .replace("Bob collected $0.07 from pot", "Bob collected $0.06 from pot")
        .replace("Seat 3: Bob collected ($0.07)", "Seat 3: Bob collected ($0.06)")
    )
    assert _errors(text) == [("POT-RAKE", _line(text, "Total pot"))]


def test_a_winner_paid_one_cent_less_on_3rd_street_is_the_collected_line() -> None:
    # no rake stated: the payment is what is wrong
    text = THIRD_STREET.replace(
        "Bob collected $0.07 from pot", "Bob collected $0.06 from pot"
    ).replace("Seat 3: Bob collected ($0.07)", "Seat 3: Bob collected ($0.06)")
    assert _errors(text) == [("POT-RAKE", _line(text, "Bob collected"))]


def test_on_4th_street_a_rake_within_five_percent_leaves_the_payment_to_blame() -> None:
    # collecting the whole pot with a 1-cent rake stated: the room rakes this hand, so the
    # winner was paid one cent too much
    text = FOURTH_STREET.replace(
        "Cara collected $0.20 from pot", "Cara collected $0.21 from pot"
    ).replace("Seat 5: Cara collected ($0.20)", "Seat 5: Cara collected ($0.21)")
    assert _errors(text) == [("POT-RAKE", _line(text, "Cara collected"))]


def test_a_rake_that_adds_up_on_3rd_street_is_no_error_where_the_room_rules_say_nothing() -> None:
    # the card-room ruleset states no rake schedule: nothing says a 3rd-street rake is wrong
    assert not CARDROOM.no_rake_on_third_street
    text = (
        THIRD_STREET.replace("Total pot $0.07 | Rake $0", "Total pot $0.07 | Rake $0.01")
        .replace("Bob collected $0.07 from pot", "Bob collected $0.06 from pot")
        .replace("Seat 3: Bob collected ($0.07)", "Seat 3: Bob collected ($0.06)")
    )
    assert _errors(text, CARDROOM) == []


def test_the_pokerstars_rule_page_settles_the_3rd_street_rake() -> None:
    evidence = POKERSTARS.evidence_for("no_rake_on_third_street")
    assert POKERSTARS.no_rake_on_third_street and evidence is not None and evidence.settled
    assert "before Fourth Street in Stud variants" in evidence.quote
