"""The neutral event model says what the PokerStars-shaped events said, line for line.

When the events became neutral (hidden cards as `??` in every position, `Raise.to` first with
an optional increment, the header's own ante and bring-in, optional fields other sites need),
the events digests of tests/snapshot/ changed by design. This test proves that nothing was
lost: mapped back to the model before the change, today's events of every hand of the
snapshot give exactly the digests frozen before it (the digests below are those of
tests/snapshot/events-*.tsv at commit 5db7f86, parsed hands only; `git show
5db7f86:tests/snapshot/events-samples-top.tsv` lists them per hand). The direct assertions
below show the new form on real lines.
"""

from __future__ import annotations

import hashlib
import importlib.util
from pathlib import Path
from typing import Any

import pytest

from razz.parser import Hand, read_path, read_text
from razz.parser import events as ev
from razz.parser.serialize import result_to_dict

HERE = Path(__file__).resolve().parent / "snapshot"
_spec = importlib.util.spec_from_file_location("snapshot_make", HERE / "make.py")
assert _spec is not None and _spec.loader is not None
make = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(make)

# label: (parsed hands, sha256 of their events digests before the neutral model, one a line)
BEFORE = {
    "samples-top": (2000, "0460c98cb3899c1809d72b2bf71e8be4"),
    "samples-violations": (172, "8a9e2f87754e43431428ec10a8a9c767"),
    "samples-handwritten": (3, "6e5e402773ba064e3b66c25034abf48e"),
    "samples-handwritten-violations": (7, "85ef1ed7c6dbe01f76c14bc71fb98955"),
    "corpus-pokerstars": (9, "f13938d4892acdf75bfbcdb48dde16e1"),
}
HIDDEN = [ev.UNKNOWN_CARD, ev.UNKNOWN_CARD]


def as_before(parsed: dict[str, Any]) -> dict[str, Any]:
    """A parsed hand's JSON (`razz parse --json`) in the form of the model before it was neutral.

    The header had no ante or bring-in (PokerStars states neither); an opponent's `Dealt` line
    held only the cards it shows; `Collect` had no description and `SeatResult` no `mucked`,
    `final_stack` or `net`. Field order is not part of a digest.
    """
    header = dict(parsed["header"])
    assert header.pop("ante") is None and header.pop("bring_in") is None
    events = []
    for e in parsed["events"]:
        e = dict(e)
        kind = e["type"]
        if kind == "Dealt" and not e["hero"]:
            if e["previous"][:2] == HIDDEN:
                e["previous"] = e["previous"][2:]
            else:
                assert e["street"] == "3rd" and e["new"][:2] == HIDDEN and len(e["new"]) == 3
                e["new"] = e["new"][2:]
        elif kind == "Collect":
            assert e.pop("description") is None
        elif kind == "SeatResult":
            assert e.pop("mucked") is False
            assert e.pop("final_stack") is None and e.pop("net") is None
        elif kind == "Raise":
            assert e["amount"] is not None  # PokerStars writes every increment
        elif kind in ("BringIn", "Call"):
            assert e["amount"] is not None
        elif kind == "TotalPot":
            assert e["total"] is not None
        assert kind not in ("Complete", "BringInCard")  # no PokerStars line gives these
        events.append(e)
    return {**parsed, "header": header, "events": events}


def _files(label: str) -> list[Path]:
    if label == "corpus-pokerstars":
        files = make.corpus_files()
        if not files:
            pytest.skip("../shared/corpus is not beside the checkout")
        return list(files)
    return make.labelled_files(label)


@pytest.mark.parametrize("label", list(BEFORE))
def test_every_hand_maps_back_to_the_events_frozen_before_the_neutral_model(label: str) -> None:
    digests = []
    for path in _files(label):
        for item in read_path(path):
            if not isinstance(item, Hand):
                continue
            parsed = result_to_dict(item)
            parsed["header"].pop("source")
            digests.append(make.digest(as_before(parsed)))
    count, frozen = BEFORE[label]
    assert len(digests) == count
    assert hashlib.sha256("\n".join(digests).encode()).hexdigest()[:32] == frozen


HAND = """\
PokerStars Game #35874566077:  Razz Limit ($0.04/$0.08 USD) - 2009/11/26 10:24:42 ET
Table 'Gotha II' 8-max
Seat 1: kobreli ($1.33 in chips)
Seat 7: Hero ($2 in chips)
kobreli: posts the ante $0.01
Hero: posts the ante $0.01
*** 3rd STREET ***
Dealt to kobreli [Qc]
Dealt to Hero [Td 2s 9s]
kobreli: brings in for $0.02
Hero: raises $0.02 to $0.04
kobreli: calls $0.02
*** 4th STREET ***
Dealt to kobreli [Qc] [8s]
Dealt to Hero [Td 2s 9s] [4c]
Hero: bets $0.04
kobreli: folds
Uncalled bet ($0.04) returned to Hero
Hero collected $0.10 from pot
*** SUMMARY ***
Total pot $0.10 | Rake $0
Seat 1: kobreli folded on the 4th Street
Seat 7: Hero collected ($0.10)
"""


def test_a_pokerstars_hand_in_the_neutral_model() -> None:
    hand = next(iter(read_text(HAND)))
    assert isinstance(hand, Hand)
    assert (hand.header.site, hand.header.ante, hand.header.bring_in) == ("PokerStars", None, None)
    dealt = {(e.player, e.street): e for e in hand.events if isinstance(e, ev.Dealt)}
    # An opponent's door card is the third card dealt; the two before it are hidden.
    assert dealt["kobreli", ev.Street.THIRD].new == ("??", "??", "Qc")
    assert dealt["kobreli", ev.Street.THIRD].previous == ()
    assert dealt["kobreli", ev.Street.FOURTH].previous == ("??", "??", "Qc")
    assert dealt["kobreli", ev.Street.FOURTH].new == ("8s",)
    # The file owner sees every card.
    assert dealt["Hero", ev.Street.THIRD].new == ("Td", "2s", "9s")
    assert dealt["Hero", ev.Street.FOURTH].previous == ("Td", "2s", "9s")
    # PokerStars writes a completion after the bring-in as a raise, with its increment.
    (raise_,) = [e for e in hand.events if isinstance(e, ev.Raise)]
    assert (raise_.to, raise_.amount) == (4, 2)
    (total,) = [e for e in hand.events if isinstance(e, ev.TotalPot)]
    assert (total.total, total.rake) == (10, 0)


def test_the_writer_prints_the_cards_a_pokerstars_line_shows() -> None:
    from razz.parser.sites.pokerstars_writer import write_hand

    hand = next(iter(read_text(HAND)))
    assert isinstance(hand, Hand)
    assert write_hand(hand.header, hand.events, label="Game").replace(" \n", "\n") == HAND


def test_a_completion_and_missing_amounts_are_written_as_pokerstars_writes_them() -> None:
    from razz.parser.sites.pokerstars_writer import HandWriter, write_hand

    hand = next(iter(read_text(HAND)))
    assert isinstance(hand, Hand)
    events = list(hand.events)
    # As Full Tilt (`completes it to`) and PHH (`pb`, `cc`) give them.
    k = next(i for i, e in enumerate(events) if isinstance(e, ev.Raise))
    events[k] = ev.Complete(line=events[k].line, player="Hero", to=4)
    k = next(i for i, e in enumerate(events) if isinstance(e, ev.BringIn))
    events[k] = ev.BringIn(line=events[k].line, player="kobreli", amount=None)
    k = next(i for i, e in enumerate(events) if isinstance(e, ev.Call))
    events[k] = ev.Call(line=events[k].line, player="kobreli", amount=None)
    # As KingsClub gives the summary: the rake only.
    k = next(i for i, e in enumerate(events) if isinstance(e, ev.TotalPot))
    events[k] = ev.TotalPot(line=events[k].line, total=None, rake=0)
    header = ev.HandHeader(**{**_fields(hand.header), "bring_in": 2})
    lines = HandWriter.for_header(header).hand_lines(header, events, label="Game")
    assert lines[9:12] == [
        "kobreli: brings in for $0.02",
        "Hero: raises $0.02 to $0.04",
        "kobreli: calls $0.02",
    ]
    assert lines[20] == "Total pot $0.10 | Rake $0 "
    assert "\n".join(lines) + "\n" == write_hand(hand.header, hand.events, label="Game")


def _fields(header: ev.HandHeader) -> dict[str, Any]:
    return {name: getattr(header, name) for name in header.__dataclass_fields__}


def test_the_auditor_reads_a_completion_and_missing_amounts_as_the_pokerstars_lines() -> None:
    """A Full Tilt `completes it to`, PHH's `pb` and `cc` without amounts and a summary with
    the rake only (KingsClub) audit exactly as the PokerStars lines they stand for."""
    from dataclasses import replace

    from razz.replay.audit import audit_hand

    hand = next(iter(read_text(HAND)))
    assert isinstance(hand, Hand)
    neutral: list[ev.Event] = []
    for e in hand.events:
        if isinstance(e, ev.Raise):
            e = ev.Complete(line=e.line, player=e.player, to=e.to)
        elif isinstance(e, ev.BringIn | ev.Call):
            e = replace(e, amount=None)
        elif isinstance(e, ev.TotalPot):
            e = replace(e, total=None)
        neutral.append(e)
    header = replace(hand.header, bring_in=2)
    before, after = audit_hand(hand), audit_hand(Hand(header, tuple(neutral), hand.text))
    assert before.findings == after.findings == ()
    assert before.players == after.players
    assert before.actions == after.actions
    # A completion that is no completion (4th street) is reported, and applied as written.
    k = next(i for i, e in enumerate(neutral) if isinstance(e, ev.Bet))
    wrong = [*neutral]
    wrong[k] = ev.Complete(line=neutral[k].line, player="Hero", to=4)
    (finding,) = audit_hand(Hand(header, tuple(wrong), hand.text)).findings
    assert (finding.rule, finding.line, finding.actual) == ("ACT-CHOICES", neutral[k].line, "complete")
