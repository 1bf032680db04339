"""Log dialects: a LOG- or summary check fires only on a line the hand's format promises.

Each case breaks one consistency line of a real-shaped PokerStars hand. Read as PokerStars the
finding is there (today's checks, unchanged); the same events from a site whose format does
not write that line (its `Dialect`, from FORMATS.md) give no finding about it. The default
ruleset follows the hand's site, and `--ruleset` still overrides it.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from razz.parser import Hand, read_text, sites
from razz.parser.sites.base import NO_LOG_LINES, POKERSTARS_DIALECT, Dialect, SeatSummary
from razz.replay.audit import audit_hand
from razz.replay.engine import dialect_of
from razz.store.ingest import ruleset_for

DATA = Path(__file__).parent / "data" / "replay"
FOUR = (DATA / "four_players_showdown.txt").read_text(encoding="utf-8")
SHORT = (DATA / "short_all_in_raise.txt").read_text(encoding="utf-8")


def _hand(text: str, site: str = "PokerStars") -> Hand:
    [hand] = read_text(text)
    assert isinstance(hand, Hand), hand
    return replace(hand, header=replace(hand.header, site=site))


def _rules(text: str, site: str) -> list[str]:
    if text == NO_SUMMARY:  # a PokerStars log cannot lack it: drop the summary's events
        whole = _hand(FOUR, site)
        cut = next(k for k, e in enumerate(whole.events) if type(e).__name__ == "Summary")
        return [f.rule for f in audit_hand(replace(whole, events=whole.events[:cut])).findings]
    return [f.rule for f in audit_hand(_hand(text, site)).findings]


NO_SUMMARY = "(the hand without its summary)"


# (what is broken, the edit, the rule PokerStars' dialect reports, a site whose format does
# not promise that line, and the field of `Dialect` that says so)
CASES = [
    ("no cap line", ("Betting is capped\n", ""), "STRUCT-CAP", "Full Tilt Poker", "cap_line"),
    (
        "a bet returned without its line",
        ("Uncalled bet", "Uncalled bet"),  # see _no_uncalled below
        "ACT-UNCALLED",
        "KingsClub",  # Winamax has no line either, but keeps the bet in the pot it pays
        "uncalled_line",
    ),
    ("no total pot", ("Total pot $1.22 | Rake $0.06 \n", ""), "POT-RAKE", "KingsClub", "total_pot"),
    (
        "a wrong hand description",
        ("(Lo: 7,5,4,2,A)", "(Lo: 8,5,4,2,A)"),
        "LOG-DESC",
        "Full Tilt Poker",
        "lo_description",
    ),
    (
        "a raise increment that does not add up",
        ("Hero: raises $0.04 to $0.08", "Hero: raises $0.06 to $0.08"),
        "ACT-RAISE-SIZE",
        "Full Tilt Poker",  # (Winamax's total pot is after rake: a Stars hand is not clean)
        "raise_increments",
    ),
    (
        "a seat left out of the summary",
        ("Seat 5: Cara folded on the 5th Street\n", ""),
        "LOG-SUMMARY",
        "KingsClub",
        "seat_summary",
    ),
    (
        "(didn't bet) on a bring-in that folded",
        ("Seat 1: Alice folded on the 3rd Street", "Seat 1: Alice folded on the 3rd Street (didn't bet)"),
        "LOG-SUMMARY",
        "Full Tilt Poker",
        "didnt_bet",
    ),
    (
        "no summary at all",
        ("*** SUMMARY ***", "*** SUMMARY ***"),  # see _no_summary below
        "LOG-SUMMARY",
        "PHH",
        "summary",
    ),
]


def _no_uncalled() -> str:
    """Hero's river bet is never called, and no line returns it."""
    text = FOUR.split("Hero: checks \n*** SHOW DOWN ***")[0]
    return text + (
        "Hero: bets $0.08\nBob: folds \nHero collected $1.16 from pot\n*** SUMMARY ***\n"
        "Total pot $1.22 | Rake $0.06 \nSeat 1: Alice folded on the 3rd Street\n"
        "Seat 3: Bob folded on the River\nSeat 5: Cara folded on the 5th Street\n"
        "Seat 7: Hero collected ($1.16)\n"
    )


def _broken(edit: tuple[str, str], rule: str) -> str:
    if rule == "ACT-UNCALLED":
        return _no_uncalled()
    if edit[0] == "*** SUMMARY ***":
        return NO_SUMMARY
    assert edit[0] in FOUR
    return FOUR.replace(edit[0], edit[1])


@pytest.mark.parametrize(("what", "edit", "rule", "site", "field"), CASES, ids=[c[0] for c in CASES])
def test_a_check_fires_only_where_the_format_promises_the_line(
    what: str, edit: tuple[str, str], rule: str, site: str, field: str
) -> None:
    text = _broken(edit, rule)
    assert rule in _rules(text, "PokerStars"), what
    assert getattr(sites.by_name(site).dialect, field) in (False, SeatSummary.NONE)
    assert rule not in _rules(text, site), what
    assert _rules(FOUR, site) == []  # and the clean hand stays clean under that dialect


def test_an_unmarked_all_in_is_reported_only_where_all_ins_are_marked() -> None:
    text = SHORT.replace("Mo: raises 20 to 70 and is all-in", "Mo: raises 20 to 70")
    assert "LOG-STACK" in _rules(text, "PokerStars")
    assert "LOG-STACK" not in _rules(text, "Winamax")
    assert not sites.by_name("Winamax").dialect.all_in_marked


def test_winners_only_summaries_need_a_line_for_each_winner_only() -> None:
    losers_gone = FOUR.replace("Seat 5: Cara folded on the 5th Street\n", "")
    assert sites.by_name("Winamax").dialect.seat_summary is SeatSummary.WINNERS
    assert "LOG-SUMMARY" not in _rules(losers_gone, "Winamax")
    winner_gone = FOUR.replace(
        "Seat 3: Bob showed [7d 8d 5c 9h Ac 2d 4s] and won ($1.16) with Lo: 7,5,4,2,A\n", ""
    )
    assert "LOG-SUMMARY" in _rules(winner_gone, "Winamax")


def test_pokerstars_promises_every_line_and_the_action_records_promise_none() -> None:
    assert sites.by_name("PokerStars").dialect == POKERSTARS_DIALECT == Dialect()
    # PHH: the actions only, and the payment only when the hand states it (optional fields);
    # every hand is known.
    assert sites.by_name("PHH").dialect == replace(NO_LOG_LINES, payouts=False,
                                                   others_down_cards="always")
    assert dialect_of("no such site") == POKERSTARS_DIALECT


def test_the_default_ruleset_follows_the_hand_s_site_and_a_named_one_overrides_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    hand = _hand(FOUR)
    assert ruleset_for(hand).name == "pokerstars"
    assert ruleset_for(hand, "cardroom").name == "cardroom"
    monkeypatch.setattr(sites.by_name("Full Tilt Poker"), "ruleset", "cardroom")
    assert ruleset_for(_hand(FOUR, "Full Tilt Poker")).name == "cardroom"
    assert ruleset_for(_hand(FOUR, "Full Tilt Poker"), "pokerstars").name == "pokerstars"
