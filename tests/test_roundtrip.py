"""Simulate, write, parse, replay: the log gives back what the simulator played.

Legal hands come back with no finding and with the simulator's own results (winners, pots,
amounts, each player's net); hands with an injected violation come back with that rule found
at that line, and nothing else. The shipped `sample_histories/` are checked the same way.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path

import pytest

from razz.parser import read_path
from razz.parser.events import Hand
from razz.replay.audit import audit_hand
from razz.replay.findings import Finding
from razz.replay.results import HandResult
from razz.replay.rules import RULES
from razz.replay.tablecheck import check_tables
from razz.simulate.simulator import SimulatedFile, SimulatedHand, simulate, write_files
from razz.simulate.violations import (
    Injection,
    payment_rule,
    simulate_violations,
    write_violations,
)

SAMPLES = Path(__file__).resolve().parents[1] / "sample_histories"
# The command that made sample_histories/ (see its README.md); the round trip replays it.
SAMPLE_HANDS, SAMPLE_SEED = 2000, 2024
VIOLATION_HANDS, VIOLATION_SEED = 600, 5
CATALOG = {str(r.id) for r in RULES}  # every rule ID of RAZZ_RULES.md


Audited = list[tuple[Hand, HandResult, tuple[Finding, ...]]]
Legal = tuple[tuple[SimulatedFile, ...], list[Path], Audited]
Violated = tuple[tuple[Injection, ...], dict[tuple[str, str], tuple[Finding, ...]]]


def _audit(paths: Iterable[Path]) -> Audited:
    """Parse and audit files as `razz audit` does: each hand, then the table checks."""
    pairs = []
    for path in paths:
        for parsed in read_path(path):
            assert isinstance(parsed, Hand), str(parsed)
            pairs.append((parsed, audit_hand(parsed)))
    table = check_tables(pairs)
    return [
        (
            hand,
            result,
            (*result.findings, *table.get((hand.header.source, hand.header.hand_id), ())),
        )
        for hand, result in pairs
    ]


@pytest.fixture(scope="module")
def legal(tmp_path_factory: pytest.TempPathFactory) -> Legal:
    files = simulate(SAMPLE_HANDS, SAMPLE_SEED)
    paths = write_files(files, tmp_path_factory.mktemp("legal"))
    return files, paths, _audit(paths)


def _by_key(
    files: tuple[SimulatedFile, ...], paths: list[Path]
) -> dict[tuple[str, str], SimulatedHand]:
    return {
        (str(path), hand.header.hand_id): hand
        for sim, path in zip(files, paths, strict=True)
        for hand in sim.hands
    }


def test_simulated_hands_parse_back_to_the_events_they_were_written_from(legal: Legal) -> None:
    files, paths, audited = legal
    simulated = _by_key(files, paths)
    assert len(audited) == SAMPLE_HANDS
    for hand, _, _ in audited:
        sim = simulated[(hand.header.source, hand.header.hand_id)]
        assert hand.header == replace(sim.header, source=hand.header.source)
        assert hand.events == sim.events


def test_replaying_simulated_hands_finds_nothing_and_gives_back_their_results(legal: Legal) -> None:
    files, paths, audited = legal
    simulated = _by_key(files, paths)
    for hand, result, findings in audited:
        sim = simulated[(hand.header.source, hand.header.hand_id)]
        assert findings == ()
        money = {p.player: (p.starting_stack, p.invested, p.collected, p.net) for p in sim.players}
        assert {
            p.player: (p.starting_stack, p.invested, p.collected, p.net) for p in result.players
        } == money
        assert [(p.amount, p.eligible, p.winners, p.shares) for p in result.pots] == [
            (p.amount, p.eligible, p.winners, p.shares) for p in sim.pots
        ]
        assert (result.total_pot, result.rake) == (sim.total_pot, sim.rake)
        assert result.bring_in_player == sim.bring_in_player
        assert result.community_card == sim.community_card
        assert result.went_to_showdown == sim.went_to_showdown


@pytest.mark.skipif(not (SAMPLES / "README.md").is_file(), reason="no sample_histories/")
def test_shipped_sample_histories_are_what_their_readme_command_writes(legal: Legal) -> None:
    _, paths, _ = legal
    shipped = sorted(SAMPLES.glob("*.txt"))
    assert [p.name for p in shipped] == sorted(p.name for p in paths)
    for path in paths:
        assert (SAMPLES / path.name).read_bytes() == path.read_bytes(), path.name


# ------------------------------------------------------------------ violations


@pytest.fixture(scope="module")
def violated(tmp_path_factory: pytest.TempPathFactory) -> Violated:
    files, injections = simulate_violations(VIOLATION_HANDS, VIOLATION_SEED)
    directory = tmp_path_factory.mktemp("violations")
    paths = write_violations(files, injections, directory)
    found = {
        (Path(hand.header.source).name, hand.header.hand_id): findings
        for hand, _, findings in _audit(paths)
    }
    return injections, found


def test_every_injected_violation_is_found_at_its_line_with_its_rule(violated: Violated) -> None:
    injections, found = violated
    assert len(injections) == VIOLATION_HANDS
    missed = [
        i
        for i in injections
        if not any(f.rule == i.rule and f.line == i.line for f in found[(i.file, i.hand_id)])
    ]
    assert missed == []


def test_each_violated_hand_breaks_only_its_injected_rule(violated: Violated) -> None:
    injections, found = violated
    extra = {
        (i.rule, i.line): [
            (f.rule, f.line)
            for f in found[(i.file, i.hand_id)]
            if (f.rule, f.line) != (i.rule, i.line)
        ]
        for i in injections
    }
    assert {k: v for k, v in extra.items() if v} == {}


def test_violation_copies_break_every_rule_of_the_catalog(violated: Violated) -> None:
    injections, _ = violated
    assert {i.rule for i in injections} == CATALOG


# The simulator injects a wrong payment under one rule only when one rule's misreading of Razz
# explains it (`payment_rule`). These hands are the round trip's former disagreements between
# the injector and the auditor (seed 5), each decided by RAZZ_RULES.md.


def _hands(**cards: str) -> dict[str, list[str]]:
    return {name: text.split() for name, text in cards.items()}


def test_a_straight_among_the_winners_cards_does_not_make_a_k_low_win_by_hand_low() -> None:
    # 7-6-5-4-3 is a straight, but counting straights still leaves J-7-6-5-4 to beat
    # K-J-5-2-A; only comparing from the lowest card up (A before 3) pays it: HAND-COMPARE.
    hands = _hands(
        elfe="4h 5c 7s 7h 6h Js 3d",
        blaveis="Kd 2h Ks Jd Ad 5d 2c",
        spacemasa="9h 9c 5h 7d 4s Ah Qh",
    )
    assert payment_rule(hands, "blaveis", "elfe") == "HAND-COMPARE"


@pytest.mark.parametrize(
    ("winner", "paid", "other"),
    [
        ("8h 3d Ah 5c Qs Qd 5h", "8c 8s Kd 4s Jc Jd 8d", ""),  # Q-low against eights full
        ("6c Jc Qc As Ac 2h 3d", "9c Kh 2s 2d 3h 3s Kc", ""),  # J-low against two pair
        # T-low against sixes full, a J-low mucked (with pairs not counted it would win)
        ("5d 8d 3d Kd Kc 4s Td", "8h 6h 7d 8s 6s 6c Ac", "Jc 4c Qc 7h 2s 3c 4d"),
    ],
)
def test_a_paired_hand_paid_as_the_best_high_hand_with_no_eight_low_is_win_noqual(
    winner: str, paid: str, other: str
) -> None:
    # No hand makes an eight-low and the paid hand is the best high hand: exactly what an
    # eight-or-better qualifier does (WIN-NOQUAL), not a pair merely ranked too low.
    hands = _hands(winner=winner, paid=paid, **({"other": other} if other else {}))
    assert payment_rule(hands, "paid", "winner") == "WIN-NOQUAL"


def test_two_readings_of_a_paired_payment_have_no_one_rule() -> None:
    # without the mucked J-low, pairs not counted (A-6-6-6-7 before T-8-5-4-3) pays sixes
    # full too
    hands = _hands(winner="5d 8d 3d Kd Kc 4s Td", paid="8h 6h 7d 8s 6s 6c Ac")
    assert payment_rule(hands, "paid", "winner") == ""


def test_a_paired_hand_paid_over_an_eight_low_is_hand_pairs() -> None:
    hands = _hands(winner="8h 7d 6c 4s 2h Kc Qs", paid="Ah Ad 2c 2s 3h Kd Kc")
    assert payment_rule(hands, "paid", "winner") == "HAND-PAIRS"


def test_a_payment_two_misreadings_explain_has_no_one_rule() -> None:
    # K-4-3-2-A over 8-7-6-4-2: pairs not counted (A-A-2-3-4) and lows compared from the
    # lowest card both pay it
    hands = _hands(winner="8h 7d 6c 4s 2h Kc Qs", paid="Ah Ad 2c 3s 4h Kd Qc")
    assert payment_rule(hands, "paid", "winner") == ""


# ------------------------------------------------------------------ shipped rule samples


@pytest.mark.skipif(
    not (SAMPLES / "violations" / "manifest.jsonl").is_file(), reason="no sample violations"
)
def test_shipped_violation_samples_each_break_the_rule_they_are_named_after() -> None:
    directory = SAMPLES / "violations"
    manifest = [
        json.loads(line)
        for line in (directory / "manifest.jsonl").read_text(encoding="utf-8").splitlines()
    ]
    assert {m["rule"] for m in manifest} == CATALOG
    for entry in manifest:
        path = directory / entry["file"]
        assert path.name == f"{entry['rule']}.txt"
        audited = _audit([path])
        for hand, _, findings in audited:
            if hand.header.hand_id == entry["hand_id"]:
                assert [(f.rule, f.line) for f in findings] == [(entry["rule"], entry["line"])]
            else:
                assert findings == (), hand.header.hand_id
