"""A malformed but parsed hand never crashes the engine: events dropped, doubled, swapped or
moved, amounts and names and cards changed, streets out of order, all yield findings."""

from __future__ import annotations

import random
from dataclasses import fields, replace
from pathlib import Path

import pytest

from razz.parser import Hand, read_path, read_text
from razz.parser.events import STREETS, Event
from razz.replay.audit import audit_hand
from razz.replay.findings import RuleViolation
from razz.replay.ruleset import CARDROOM, POKERSTARS

DATA = Path(__file__).parent / "data" / "replay"
CORPUS = Path(__file__).parents[2] / "shared" / "corpus" / "pokerstars"
TOKENS = ("Ah", "2c", "Kd", "7s", "of", "", "Xx", "5h")


def _hands() -> list[Hand]:
    hands = []
    for path in sorted(DATA.glob("*.txt")):
        hands += [
            h for h in read_text(path.read_text(encoding="utf-8"), path.name) if isinstance(h, Hand)
        ]
    if (CORPUS / "Razz-USD-0.04-0.08-200911.txt").exists():
        hands += [
            h for h in read_path(CORPUS / "Razz-USD-0.04-0.08-200911.txt") if isinstance(h, Hand)
        ]
    return hands


def _mutate_event(rng: random.Random, event: Event, names: list[str]) -> Event:
    """The event with one field changed to something plausible or absurd."""
    changes: dict[str, object] = {}
    for f in fields(event):
        value = getattr(event, f.name)
        if f.name == "line" or rng.random() < 0.5:
            continue
        if isinstance(value, bool):
            changes[f.name] = not value
        elif isinstance(value, int):
            changes[f.name] = rng.choice([0, 1, value + 1, value - 1, value * 2, -value, 10**9])
        elif f.name == "player":
            changes[f.name] = rng.choice([*names, "Stranger"])
        elif f.name == "street":
            changes[f.name] = rng.choice(STREETS)
        elif isinstance(value, tuple) and value and isinstance(value[0], str):
            changes[f.name] = tuple(rng.choice(TOKENS) for _ in range(rng.randint(0, 8)))
        elif isinstance(value, str) and f.name in ("community", "description"):
            changes[f.name] = rng.choice(["Ah", "of", "Lo: 5,4,3,2,A", "(Lo: 3,3)", ""])
    return replace(event, **changes) if changes else event


def _mutate(rng: random.Random, hand: Hand) -> Hand:
    events = list(hand.events)
    names = sorted({getattr(e, "player", "") for e in events} - {""})
    for _ in range(rng.randint(1, 4)):
        if not events:
            break
        k = rng.randrange(len(events))
        action = rng.randrange(5)
        if action == 0:
            del events[k]
        elif action == 1:
            events.insert(k, events[k])
        elif action == 2 and k + 1 < len(events):
            events[k], events[k + 1] = events[k + 1], events[k]
        elif action == 3:
            events.insert(rng.randrange(len(events) + 1), events.pop(k))
        else:
            events[k] = _mutate_event(rng, events[k], names)
    return replace(hand, events=tuple(events))


@pytest.mark.parametrize("seed", range(4))
def test_mutated_hands_yield_findings_not_exceptions(seed: int) -> None:
    rng = random.Random(seed)
    hands = _hands()
    found = 0
    for _ in range(250):
        hand = _mutate(rng, rng.choice(hands))
        ruleset = rng.choice([POKERSTARS, CARDROOM])
        result = audit_hand(hand, ruleset)
        found += bool(result.findings)
        assert [f.line for f in result.findings] == sorted(f.line for f in result.findings)
        try:
            audit_hand(hand, ruleset, strict=True)
        except RuleViolation as violation:
            assert violation.finding.severity == "error"
    assert found > 150


def test_a_hand_with_no_events_or_only_seats_is_audited() -> None:
    hand = _hands()[0]
    empty = audit_hand(replace(hand, events=()))
    assert [f.rule for f in empty.findings] == ["LOG-SUMMARY"]
    seats_only = replace(
        hand, events=tuple(e for e in hand.events if type(e).__name__ == "SeatLine")
    )
    assert [f.rule for f in audit_hand(seats_only).findings] == ["LOG-SUMMARY"]
