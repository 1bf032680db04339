"""A PHH hand states the pots paid only in its optional `winnings` or `finishing_stacks`
(../docs/phh-std/optional.rst): without them the audit says nothing about the payment, with
them it checks it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from razz.parser import Hand, read_text
from razz.replay.audit import audit_hand
from razz.store.ingest import ruleset_for

PHH = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "phh"


def _real() -> list[Path]:
    if not PHH.is_dir():
        pytest.skip("no shared corpus")
    return sorted(PHH.glob("*.phh"))


def _rules(text: str) -> list[str]:
    [hand] = read_text(text, "x.phh")
    assert isinstance(hand, Hand), str(hand)
    return [f.rule for f in audit_hand(hand, ruleset_for(hand)).findings]


def test_a_phh_hand_without_winnings_or_finishing_stacks_has_no_payment_finding() -> None:
    for path in _real():
        text = path.read_text(encoding="utf-8")
        assert "finishing_stacks" in text and "winnings" not in text
        silent = re.sub(r"^finishing_stacks = .*$\n?", "", text, flags=re.M)
        assert _rules(silent) == [], path.name


def test_finishing_stacks_that_pay_the_wrong_player_are_still_found() -> None:
    path = _real()[0]
    text = path.read_text(encoding="utf-8")
    m = re.search(r"^finishing_stacks = \[(.*)\]$", text, re.M)
    assert m is not None
    stacks = m.group(1).split(", ")
    wrong = ", ".join(reversed(stacks))  # the winner's chips to someone else
    assert _rules(text) == []
    assert any(
        r.startswith(("WIN-", "HAND-", "POT-", "LOG-"))
        for r in _rules(text.replace(m.group(0), f"finishing_stacks = [{wrong}]"))
    )
