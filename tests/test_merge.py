"""Merge Network XML: each `<game>` of a file is a hand; Razz games (types 46, 47, 49, or a
mixed game's `multigametype`) are read into neutral events, every other game is skipped with
its type. The real cash hand audits clean; of the four Razz games of the HORSE tournament
file, two audit clean and two have findings this file shows correct from the hands' text."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from razz.parser import Hand, ParseError, SkippedHand, read_path, read_text
from razz.parser import events as ev
from razz.parser.sites.merge_xml import EXAMPLE
from razz.replay.audit import audit_hand
from razz.store.ingest import ruleset_for

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "merge"
needs_corpus = pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is not present")
HORSE = CORPUS / "HORSE-Tournament-Freeroll.201107.xml"


def _audit(hand: Hand) -> list[tuple[str, int]]:
    return [(f.rule, f.line) for f in audit_hand(hand, ruleset_for(hand)).findings]


@needs_corpus
def test_the_cash_all_in_hand_reads_and_audits_clean() -> None:
    [hand] = read_path(CORPUS / "Razz-USD-0.50-1.00-201111.allIn.txt")
    assert isinstance(hand, Hand)
    h = hand.header
    assert (h.site, h.hand_id, h.small_bet, h.big_bet, h.unit) == (
        "Merge Network", "43618199-14", 50, 100, ev.Unit.CENT,
    )  # fmt: skip
    assert ruleset_for(hand).name == "merge"
    assert _audit(hand) == []
    kinds = [type(e).__name__ for e in hand.events]
    # The hero's all-in raise on 4th street, the call of what it added
    assert ev.Raise(32, "Hero", 91, 41, True) in hand.events
    assert ev.Call(33, "Player1", 41, False) in hand.events
    assert kinds.count("Collect") == 1 and "ShowDown" in kinds


@needs_corpus
def test_the_mixed_file_reads_its_four_razz_games_and_skips_the_rest_by_type() -> None:
    results = list(read_path(HORSE))
    assert len(results) == 28
    hands = [r for r in results if isinstance(r, Hand)]
    skipped = [r for r in results if isinstance(r, SkippedHand)]
    assert [h.header.hand_id for h in hands] == [f"36487050-{k}" for k in (12, 13, 14, 15)]
    assert all(s.reason == f"{s.game} is not Razz" for s in skipped) and len(skipped) == 24
    assert all(h.header.kind is ev.GameKind.TOURNAMENT for h in hands)
    assert (hands[0].header.small_bet, hands[0].header.big_bet) == (50, 100)
    found = {h.header.hand_id: _audit(h) for h in hands}
    assert found["36487050-12"] == found["36487050-13"] == []
    # 36487050-14: Player5 is all-in on the ante ($5.00 balance, ANTE 5.00); Merge then
    # writes a FOLD for him (line 844) and deals him no more cards. An all-in player cannot
    # act (ACT-TURN) and stays in for the main pot, so he gets every card (DEAL-UP) and the
    # antes are a main pot apart from the side pot the others play for (POT-SIDE).
    rules = [r for r, _ in found["36487050-14"]]
    assert ("ACT-TURN", 844) in found["36487050-14"]
    assert rules.count("DEAL-UP") == 3 and "POT-SIDE" in rules
    # 36487050-15: Player5 sits with `balance="$0.00"` and posts an ante of 5.00 (line 914):
    # chips put in beyond the stack (LOG-STACK).
    assert ("LOG-STACK", 914) in found["36487050-15"]
    assert {r for r, _ in found["36487050-15"]} <= {"LOG-STACK", "SHOW-ORDER"}


def test_each_event_points_at_its_element_and_an_uncalled_bet_is_returned() -> None:
    [hand] = read_text(EXAMPLE, "x.xml")
    assert isinstance(hand, Hand)
    lines = EXAMPLE.split("\n")
    for e in hand.events:
        if isinstance(e, ev.PlayerEvent):
            assert f'"{e.player}"' in lines[e.line - 1] or 'player="' in lines[e.line - 1]
    assert ev.UncalledBet(20, "Ann", 40) in hand.events
    assert ev.Collect(21, "Ann", 30, "pot", None) in hand.events
    assert _audit(hand) == []


def test_a_broken_game_is_one_error_and_the_next_game_is_read() -> None:
    broken = EXAMPLE.replace('amount="0.50"/>', 'amount="0.50">', 1)
    results = list(read_text(broken + EXAMPLE.replace('id="1-1"', 'id="1-2"'), "x.xml"))
    assert [type(r).__name__ for r in results] == ["ParseError", "Hand"]
    error = results[0]
    assert isinstance(error, ParseError) and "not well-formed XML" in error.message
    bad = EXAMPLE.replace('type="CHECK"', 'type="X"').replace('type="FOLD"', 'type="SMILE"')
    [error] = read_text(bad, "x.xml")
    assert isinstance(error, ParseError) and "'SMILE'" in error.message and error.line == 17


CASH = CORPUS / "Razz-USD-0.50-1.00-201111.allIn.txt"


@needs_corpus
def test_a_cash_file_states_its_stakes_in_its_description_and_a_tournament_none() -> None:
    [cash] = read_path(CASH)
    assert isinstance(cash, Hand) and cash.header.stakes_stated
    hands = [r for r in read_path(HORSE) if isinstance(r, Hand)]
    # `<description type="HORSE Tournament" stakes="Limit"/>`: no amounts, the wagers tell them
    assert hands and not any(h.header.stakes_stated for h in hands)


@needs_corpus
def test_the_stakes_come_from_the_description_not_from_the_wagers() -> None:
    text = CASH.read_text(encoding="utf-8")
    [hand] = read_text(text.replace("$0.50/$1", "$1/$2"), "x.xml")
    assert isinstance(hand, Hand)
    assert (hand.header.small_bet, hand.header.big_bet) == (100, 200)
    # the completion to $0.50 (line 20) is now half a small bet
    assert "ACT-COMPLETE" in {r for r, line in _audit(hand) if line == 20}
    # a 4th-street bet of $0.75 where the description says $0.50 is a wrong small bet, though
    # the hand's wagers alone would not tell (the description is what the reader held it to)
    wrong = text.replace('type="BET" timestamp="1321414728307" player="5" amount="0.50"',
                         'type="BET" timestamp="1321414728307" player="5" amount="0.75"')
    [hand] = read_text(wrong, "x.xml")
    assert isinstance(hand, Hand) and ("STRUCT-SMALL", 30) in _audit(hand)
    # without a description the stakes are taken from the wagers, and said to be
    [hand] = read_text(text.split("\n", 1)[1], "x.xml")
    assert isinstance(hand, Hand) and not hand.header.stakes_stated
    assert (hand.header.small_bet, hand.header.big_bet) == (50, 100)


def test_a_hand_mucked_at_the_showdown_is_mucked_after_the_showdown_starts() -> None:
    from razz.simulate.rooms import write_room
    from razz.simulate.simulator import simulate

    files = [w for _, ws in write_room("merge", simulate(hands=60, seed=3, site="merge")) for w in ws]
    texts = [w.data.decode("utf-8") for w in files]
    hands = [r for t in texts for r in read_text(t, "x.xml") if isinstance(r, Hand)]
    mucked = [
        h for h in hands
        if any(isinstance(e, ev.Muck) for e in h.events)
        and any(isinstance(e, ev.ShowDown) for e in h.events)
    ]  # fmt: skip
    assert mucked
    for h in mucked:
        kinds = [type(e) for e in h.events]
        assert kinds.index(ev.ShowDown) < min(k for k, t in enumerate(kinds) if t is ev.Muck)
        assert _audit(h) == []


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('potnumber="1" player="5" pottype="n"/>\n  </round>',
         'potnumber="x" player="5" pottype="n"/>\n  </round>', "pot number 'x' is not a number"),
        ('seat="5"', 'seat="²"', "seat '²' is not a number"),  # a digit to isdigit, not to int
        ('amount="0.30"', 'amount="Infinity"', "'Infinity' is not an amount"),
        ('amount="0.30"', 'amount="1e999999999"', "'1e999999999' is not an amount"),
        ('amount="0.30"', 'amount="1e40"', "'1e40' is not an amount"),
    ],
)  # fmt: skip
def test_an_attribute_no_number_reads_is_one_error_at_its_line(old: str, new: str, message: str) -> None:
    assert EXAMPLE.count(old) == 1
    text = EXAMPLE.replace(old, new)
    [error] = read_text(text, "x.xml")
    assert isinstance(error, ParseError) and error.message == message
    assert new.split("\n")[0] in text.split("\n")[error.line - 1]


def test_shown_cards_without_a_card_list_and_time_stamps_no_date_has_are_read() -> None:
    shown = EXAMPLE.replace(
        '    <winner amount="0.40"', '    <cards type="SHOWN" player="5"/>\n    <winner amount="0.40"'
    )
    [hand] = read_text(shown, "x.xml")
    assert isinstance(hand, Hand) and ev.Collect(22, "Ann", 30, "pot", None) in hand.events
    for stamp in ("99999999999999999999", "²"):  # past any date; a digit int does not read
        [hand] = read_text(EXAMPLE.replace('timestamp="1321414699986"', f'timestamp="{stamp}"'), "x.xml")
        assert isinstance(hand, Hand)
        if stamp == "²":  # the next action's stamp
            assert hand.header.started_at.timestamp() == 1321414700.236
    [hand] = read_text(re.sub(r'timestamp="\d+"', 'timestamp="99999999999999999999"', EXAMPLE), "x.xml")
    assert isinstance(hand, Hand) and hand.header.started_at.isoformat() == "2011-11-15T22:36:28+00:00"
