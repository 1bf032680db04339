"""Today's outputs, frozen: the audit, the events and the results reproduce the snapshot.

`tests/snapshot/make.py` wrote the snapshot from the code as it was reviewed; a refactor must
reproduce it exactly. A change that is meant to change an output (an audit-fidelity fix, a
change of the event model) rewrites the snapshot in the same commit, so that the diff of
tests/snapshot/ shows what changed and the commit message says why.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent / "snapshot"
_spec = importlib.util.spec_from_file_location("snapshot_make", HERE / "make.py")
assert _spec is not None and _spec.loader is not None
make = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(make)

SETS = [make.sample_label(name) for name in make.SAMPLE_SETS] + ["corpus-pokerstars"]


def _files(label: str) -> list[Path]:
    if label == "corpus-pokerstars":
        files = make.corpus_files()
        if not files:
            pytest.skip("../shared/corpus is not beside the checkout")
        return files
    return make.labelled_files(label)


def _rows(path: Path) -> list[list[str]]:
    return [line.split("\t") for line in path.read_text(encoding="utf-8").splitlines()]


@pytest.mark.parametrize("label", SETS)
def test_the_audit_reports_exactly_the_frozen_findings(label: str) -> None:
    files = _files(label)
    frozen = (HERE / f"audit-{label}.jsonl").read_text(encoding="utf-8").splitlines()
    now = make.audit_lines(files)
    assert [json.loads(x) for x in now] == [json.loads(x) for x in frozen]


@pytest.mark.parametrize("label", SETS)
def test_every_hand_gives_the_frozen_events_and_results(label: str) -> None:
    files = _files(label)
    rows = list(make.per_hand(files))
    events = _rows(HERE / f"events-{label}.tsv")
    results = _rows(HERE / f"results-{label}.tsv")
    assert [list(r[:2]) for r in rows] == [r[:2] for r in events], "the hands read changed"
    changed_events = [f"{f} #{h}" for (f, h, e, _), old in zip(rows, events, strict=True)
                      if e != old[2]]
    changed_results = [f"{f} #{h}" for (f, h, _, r), old in zip(rows, results, strict=True)
                       if r != old[2]]
    assert not changed_events, f"events differ for {len(changed_events)} hands: {changed_events[:10]}"
    assert not changed_results, (
        f"results differ for {len(changed_results)} hands: {changed_results[:10]}"
    )


@pytest.mark.parametrize("label", SETS)
def test_razz_audit_json_reports_exactly_the_frozen_findings(
    label: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The command a user runs, through the pipeline it shares with razz import, reports the
    findings frozen in the snapshot (in one order or another: the cross-hand checks report
    with the hand they concern)."""
    from razz.cli import main

    files = _files(label)
    base = make.CORPUS.parent if label == "corpus-pokerstars" else make.ROOT
    monkeypatch.chdir(base)
    code = main(["audit", "--format", "json", "-j", "1", *(str(f.relative_to(base)) for f in files)])
    out = capsys.readouterr().out.splitlines()
    rows = [json.loads(line) for line in out[:-1]]
    # The room is where the hand was played, not a finding of the engine: not frozen.
    assert all(row.pop("room") for row in rows)
    now = sorted(
        json.dumps({**{k: v for k, v in row.items() if k != "file"}, "source": row["file"]},
                   sort_keys=True)
        for row in rows
    )  # fmt: skip
    frozen = (HERE / f"audit-{label}.jsonl").read_text(encoding="utf-8").splitlines()
    assert now == sorted(json.dumps(json.loads(x), sort_keys=True) for x in frozen)
    assert code == (1 if any(json.loads(x)["severity"] == "error" for x in frozen) else 0)


@pytest.mark.slow
def test_100000_simulated_hands_give_the_frozen_events_and_per_player_results() -> None:
    frozen = _rows(HERE / "sim100k.tsv")
    frozen_events = _rows(HERE / "sim100k-events.tsv")
    now = list(make.simulated_blocks())
    assert len(now) == len(frozen) == len(frozen_events)
    text_changed = [n for (n, t, _, _), old in zip(now, frozen, strict=True) if t != old[1]]
    assert not text_changed, (
        f"the simulator writes other hands in blocks {text_changed[:10]}: compare the engine on"
        " the old hands instead"
    )
    events_changed = [n for (n, _, _, e), old in zip(now, frozen_events, strict=True)
                      if e != old[1]]
    assert not events_changed, (
        f"events differ in blocks of {make.SIM_BLOCK} hands: {events_changed[:10]}"
    )
    results_changed = [n for (n, _, r, _), old in zip(now, frozen, strict=True) if r != old[2]]
    assert not results_changed, (
        f"results differ in blocks of {make.SIM_BLOCK} hands: {results_changed[:10]}"
    )
