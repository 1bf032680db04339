"""The engine's checks only read the state: run on the live state of real and broken hands,
every check leaves it exactly as it was, and gives the same findings on a copy of it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from razz.parser import Hand, read_path
from razz.parser.events import Bet
from razz.replay import checks, engine
from razz.replay.audit import audit_hand
from razz.replay.state import HandState

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus" / "pokerstars"


def _hands() -> Iterator[Hand]:
    folders = [
        ROOT / "sample_histories" / "violations",
        ROOT / "sample_histories" / "handwritten",
        ROOT / "sample_histories" / "handwritten-violations",
        CORPUS,
    ]
    files = [f for folder in folders if folder.is_dir() for f in sorted(folder.glob("*.txt"))]
    files += sorted((ROOT / "sample_histories").glob("*.txt"))[:3]
    for f in files:
        for item in read_path(f):
            if isinstance(item, Hand):
                yield item


class ReadOnly:
    """Wraps a check: it must leave the state it is given unchanged, and judge a copy alike."""

    def __init__(self, name: str, check: Callable[..., Any], calls: Counter[str]) -> None:
        self.name, self.check, self.calls = name, check, calls

    def __call__(self, state: HandState, *args: Any) -> Any:
        before = state.copy()
        found = self.check(state, *args)
        assert state == before, f"{self.name} changed the state"
        assert list(self.check(before, *args)) == list(found), f"{self.name} is not pure"
        self.calls[self.name] += 1
        return found


def _wrap_every_check(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    calls: Counter[str] = Counter()
    steps = {
        kind: (moment, ReadOnly(kind.__name__, check, calls) if check else None, change)
        for kind, (moment, check, change) in engine._STEPS.items()
    }
    monkeypatch.setattr(engine, "_STEPS", steps)
    for name in ("deal_complete", "round_end"):
        monkeypatch.setattr(checks, name, ReadOnly(name, getattr(checks, name), calls))
    return calls


def test_every_check_leaves_the_state_it_reads_unchanged(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _wrap_every_check(monkeypatch)
    hands = list(_hands())
    findings = sum(len(audit_hand(hand).findings) for hand in hands)
    assert len(hands) > 100 and findings > 40  # legal hands, and hands that break every rule
    # Every kind of line with checks was checked, and both moments between lines.
    assert set(calls) >= {
        "PostAnte", "StreetStart", "Dealt", "BringIn", "Bet", "Raise", "Call", "Check",
        "Fold", "BettingCapped", "UncalledBet", "ShowDown", "Show", "Muck", "Collect", "SeatResult",
        "deal_complete", "round_end",
    }  # fmt: skip


def test_a_check_that_writes_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _wrap_every_check(monkeypatch)
    moment, _, change = engine._STEPS[Bet]

    def sloppy(state: HandState, event: Any) -> Any:
        state.round.bets += 0 if calls["sloppy"] else 1  # writes once, then reads only
        calls["sloppy"] += 1
        return ()

    monkeypatch.setitem(engine._STEPS, Bet, (moment, ReadOnly("sloppy", sloppy, calls), change))
    hand = next(h for h in _hands() if any(type(e) is Bet for e in h.events))
    with pytest.raises(AssertionError, match="sloppy changed the state"):
        audit_hand(hand)
