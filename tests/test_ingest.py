"""One ingest pipeline for razz parse, razz audit and razz import: the same files found, the
same hands read, the same findings, whatever the number of worker processes."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

from razz.cli import main
from razz.store.importer import Settings, import_paths

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(__file__).parent / "data" / "replay"
SAMPLES = ROOT / "sample_histories"
FOUR = (DATA / "four_players_showdown.txt").read_text(encoding="utf-8")
FOLDED = (DATA / "uncontested_partial_show.txt").read_text(encoding="utf-8")
STUD = FOLDED.replace("Razz Limit", "7 Card Stud Limit").replace("#7001", "#7002")
BROKEN = FOUR.replace("Hero: raises $0.04 to $0.08", "Hero: raises $0.06 to $0.10")


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _zip(folder: Path) -> Path:
    archive = folder / "hands.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("a/one.txt", FOUR + "\n\n\n" + STUD)
        z.writestr("a/two.txt", BROKEN.replace("#1001", "#1002") + "\n\n\n" + FOLDED)
        z.writestr("a/readme.md", "not hands")
    return archive


def test_audit_and_parse_read_the_same_hands_of_a_zip(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    archive = _zip(tmp_path)
    code, out, _ = _run(capsys, "parse", "--json", "-j", "1", str(archive))
    parsed = [json.loads(line) for line in out.splitlines()]
    assert code == 0
    assert [p["status"] for p in parsed] == ["parsed", "skipped", "parsed", "parsed"]
    code, out, _ = _run(capsys, "audit", "--format", "json", "-j", "1", str(archive))
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 1
    assert rows[-1]["summary"]["hands_audited"] == 3
    assert rows[-1]["summary"]["hands_skipped"] == 1
    assert rows[-1]["summary"]["parse_errors"] == 0
    assert {r["file"] for r in rows[:-1]} == {f"{archive}!a/two.txt"}  # the broken hand's
    assert rows[0]["rule"] == "ACT-RAISE-SIZE"


def test_the_audit_summary_names_why_hands_were_skipped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = _run(capsys, "audit", "-j", "1", str(_zip(tmp_path)))
    assert code == 1
    assert "-- 3 hands audited, 1 skipped (7 Card Stud is not Razz: 1), 0 unreadable;" in out


def test_audit_reports_exactly_what_an_import_stores(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import duckdb

    folder = SAMPLES / "violations"
    code, out, _ = _run(capsys, "audit", "--format", "json", "-j", "1", str(folder))
    audited = sorted(
        (r["hand_id"], r["line"], r["rule"]) for r in map(json.loads, out.splitlines()[:-1])
    )
    db = tmp_path / "r.duckdb"
    import_paths([str(folder)], db, settings=Settings(workers=0))
    with duckdb.connect(str(db), read_only=True) as con:
        stored = sorted(
            (h, line, rule)
            for h, line, rule in con.execute(
                "SELECT h.hand_id, v.line, v.rule FROM violations v JOIN hands h USING (hand_key)"
            ).fetchall()
        )
    assert code == 1 and audited == stored and len(stored) > 40


@pytest.mark.slow
def test_two_workers_audit_and_parse_as_one_process_does(
    capsys: pytest.CaptureFixture[str],
) -> None:
    folder = str(SAMPLES)  # 2,000 hands in files larger than a piece, and the violations
    one = _run(capsys, "audit", "--format", "json", "-j", "1", folder)
    two = _run(capsys, "audit", "--format", "json", "-j", "2", folder)
    assert one == two and one[0] == 1
    one = _run(capsys, "parse", "-j", "1", folder)
    two = _run(capsys, "parse", "-j", "2", folder)
    assert one == two and "total (" in one[1]


def test_a_stop_signal_in_a_deferred_block_takes_effect_when_it_ends() -> None:
    """SIGTERM inside `stop_signals_deferred` (as while the pool starts a worker) runs its
    handler only after the block: the block's work is whole, then the stop comes."""
    import os
    import signal

    from razz.store.ingest import stop_signals_deferred

    def stop(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    before = signal.signal(signal.SIGTERM, stop)
    steps: list[str] = []
    try:
        with pytest.raises(KeyboardInterrupt):
            with stop_signals_deferred():
                os.kill(os.getpid(), signal.SIGTERM)
                steps.append("the rest of the block ran")
            steps.append("after the block")  # never: the stop comes as the block ends
        assert steps == ["the rest of the block ran"]
        assert signal.getsignal(signal.SIGTERM) is stop  # the handler is put back
        with stop_signals_deferred():  # nothing arrives: nothing happens
            steps.append("quiet")
        assert steps[-1] == "quiet"
        with pytest.raises(KeyboardInterrupt):  # outside a block a stop is immediate
            os.kill(os.getpid(), signal.SIGTERM)
            for _ in range(1000):
                pass
    finally:
        signal.signal(signal.SIGTERM, before)
