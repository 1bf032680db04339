"""Every parameter of the `pokerstars` ruleset carries evidence that can be checked, and its
stakes table is enough to judge the ante and the bring-in of a single hand."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from razz.parser import Hand, read_path, read_text
from razz.replay.audit import audit_hand
from razz.replay.findings import Severity
from razz.replay.rules import rule
from razz.replay.ruleset import CARDROOM, POKERSTARS, Evidence, Ruleset

SHARED = Path(__file__).resolve().parents[2] / "shared"
CORPUS = SHARED / "corpus"
FORMATS = SHARED / "docs" / "FORMATS.md"
DATA = Path(__file__).parent / "data" / "replay"

NOT_PARAMETERS = {"name", "title", "evidence"}


def _parameters(ruleset: Ruleset) -> list[str]:
    return [f.name for f in dataclasses.fields(ruleset) if f.name not in NOT_PARAMETERS]


def _all_evidence() -> list[tuple[str, Evidence]]:
    found = list(POKERSTARS.evidence)
    for s in POKERSTARS.stakes:
        assert s.evidence is not None
        found.append((f"stakes {s.small_bet}/{s.big_bet} {s.unit}", s.evidence))
    return found


def test_every_pokerstars_parameter_and_stake_level_has_evidence() -> None:
    assert sorted(name for name, _ in POKERSTARS.evidence) == sorted(_parameters(POKERSTARS))
    assert all(s.evidence is not None for s in POKERSTARS.stakes)
    assert POKERSTARS.stakes, "the stakes table is empty"


@pytest.mark.parametrize(("parameter", "evidence"), _all_evidence(), ids=lambda v: str(v)[:40])
def test_each_piece_of_evidence_says_what_its_source_says(
    parameter: str, evidence: Evidence
) -> None:
    source, quote = evidence.source, evidence.quote
    if source.startswith("RAZZ_RULES.md "):
        text = rule(source.split()[1]).text
        assert quote in text, (parameter, quote)
    elif source.startswith("FORMATS.md"):
        if not FORMATS.exists():
            pytest.skip("../shared/docs is not beside the checkout")
        assert quote in " ".join(FORMATS.read_text(encoding="utf-8").split())
    elif source.startswith("room page: "):
        # the room's rule page is not beside the checkout: its title and its words, quoted
        assert source.removeprefix("room page: ").strip() and quote.endswith("."), source
    else:
        match = re.fullmatch(r"corpus (\S+):([\d,]+)", source)
        assert match, source
        path = CORPUS / match[1]
        if not path.exists():
            pytest.skip("../shared/corpus is not beside the checkout")
        lines = path.read_text(encoding="utf-8-sig").splitlines()
        quoted = [lines[int(n) - 1].strip() for n in match[2].split(",")]
        assert quoted == quote.split("\n")


def test_only_the_parameters_no_stars_rule_or_log_shows_are_unsettled() -> None:
    unsettled = sorted(name for name, e in POKERSTARS.evidence if not e.settled)
    assert unsettled == [
        "max_rake_percent",
        "raise_over_short_all_in",
        "short_all_in_counts_to_cap",
    ]
    assert POKERSTARS.settles("tie_break") and POKERSTARS.settles("odd_chip")
    assert not CARDROOM.settles("tie_break")  # no evidence given: never settled


def test_the_stakes_table_agrees_with_every_real_stars_hand_at_its_stakes() -> None:
    folder = CORPUS / "pokerstars"
    if not folder.is_dir():
        pytest.skip("../shared/corpus is not beside the checkout")
    checked = 0
    for path in sorted(folder.glob("*.txt")):
        text = path.read_text(encoding="utf-8-sig", errors="replace")
        # Stud hands are skipped by the parser as another game; their amounts still count here.
        for block in re.split(r"\n\s*\n\s*\n", text.replace("\r\n", "\n")):
            head = re.search(r"\((\$?)([\d.]+)/\$?([\d.]+)", block)
            if not head:
                continue
            cents = head[1] == "$"

            def units(v: str, cents: bool = cents) -> int:
                return round(float(v) * 100) if cents else int(v)

            small, big = units(head[2]), units(head[3])
            stated = next(
                (s for s in POKERSTARS.stakes if (s.small_bet, s.big_bet) == (small, big)), None
            )
            if stated is None:
                continue
            for amount in re.findall(r"posts the ante \$?([\d.]+)(?! and is all-in)\n", block):
                assert units(amount) == stated.ante
                checked += 1
            for amount in re.findall(r"brings in for \$?([\d.]+)\n", block):
                assert units(amount) == stated.bring_in
                checked += 1
    assert checked > 100


def _bring_in_at(amount: str) -> Hand:
    text = (DATA / "split_pot_odd_chip.txt").read_text(encoding="utf-8")
    text = text.replace("Ann: brings in for $0.02", f"Ann: brings in for {amount}")
    text = text.replace("Hero: calls $0.02", f"Hero: calls {amount}")
    (hand,) = read_text(text, source="one.txt")
    assert isinstance(hand, Hand)
    return hand


def test_one_hand_at_known_stakes_is_enough_to_find_a_wrong_bring_in() -> None:
    hand = _bring_in_at("$0.03")
    found = [f for f in audit_hand(hand).findings if f.rule == "STRUCT-BRINGIN-SIZE"]
    line = next(k for k, t in enumerate(hand.text.splitlines(), 1) if "brings in" in t)
    assert [(f.severity, f.line - hand.header.first_line + 1, f.expected) for f in found] == [
        (Severity.ERROR, line, "$0.02")
    ]


def test_the_real_razz_cash_file_gives_no_stakes_finding() -> None:
    path = CORPUS / "pokerstars" / "Razz-USD-0.04-0.08-200911.txt"
    if not path.exists():
        pytest.skip("../shared/corpus is not beside the checkout")
    hands = [h for h in read_path(path) if isinstance(h, Hand)]
    assert len(hands) == 9
    for hand in hands:
        rules = {f.rule for f in audit_hand(hand).findings}
        assert not rules & {"STRUCT-ANTE", "STRUCT-BRINGIN-SIZE"}


def test_a_tournament_level_of_the_stakes_table_does_not_judge_a_play_money_cash_game() -> None:
    """50/100 chips is a tournament level in the table; a cash game in chips at 50/100 (play
    money) has amounts the table does not know, and nothing is said about them alone."""
    text = (DATA / "short_all_in_raise.txt").read_text(encoding="utf-8")
    assert "Level IV (50/100)" in text
    odd = text.replace("Lou: brings in for 15", "Lou: brings in for 20").replace(
        "Lou: calls 35", "Lou: calls 30"
    )
    (tournament,) = read_text(odd, source="t.txt")
    assert isinstance(tournament, Hand)
    rules = [f.rule for f in audit_hand(tournament).findings]
    assert "STRUCT-BRINGIN-SIZE" in rules
    cash = odd.replace(
        "PokerStars Hand #6001: Tournament #55, $10+$1 USD Razz Limit - Level IV (50/100)",
        "PokerStars Hand #6001:  Razz Limit (50/100)",
    )
    (hand,) = read_text(cash, source="c.txt")
    assert isinstance(hand, Hand) and hand.header.tournament_id is None
    assert "STRUCT-BRINGIN-SIZE" not in [f.rule for f in audit_hand(hand).findings]
