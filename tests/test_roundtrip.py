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
from razz.simulate.violations import Injection, simulate_violations, write_violations

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
