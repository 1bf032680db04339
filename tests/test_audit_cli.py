"""`razz audit`: compiler-like text, JSON lines with a summary, CSV, strict mode, exit codes."""

from __future__ import annotations

import argparse
import csv
import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from razz.commands import audit

DATA = Path(__file__).parent / "data" / "replay"
FOUR = (DATA / "four_players_showdown.txt").read_text(encoding="utf-8")
FOLDED = (DATA / "uncontested_partial_show.txt").read_text(encoding="utf-8")
STUD = FOLDED.replace("Razz Limit", "7 Card Stud Limit").replace("#7001", "#7002")
UNREADABLE = FOLDED.replace("#7001", "#7003").replace("Dealt to Bob [5c]", "Dealt to Bob [5c 9x]")
BROKEN = FOUR.replace("Hero: raises $0.04 to $0.08", "Hero: raises $0.06 to $0.10")


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    parser = argparse.ArgumentParser(prog="razz audit")
    audit.add_arguments(parser)
    code = audit.run(parser.parse_args(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _write(folder: Path, name: str, *hands: str) -> Path:
    path = folder / name
    path.write_text("\n\n\n".join(h.rstrip("\n") for h in hands) + "\n", encoding="utf-8")
    return path


def test_clean_hands_exit_zero_with_a_summary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, "clean.txt", FOUR, FOLDED)
    code, out, _ = _run(capsys, str(path))
    assert code == 0
    assert out.splitlines() == [
        "-- room: PokerStars",
        "-- 2 hands audited, 0 skipped, 0 unreadable; 0 findings (0 errors, 0 warnings)",
    ]


def test_text_reads_like_a_compiler(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, "broken.txt", BROKEN)
    code, out, _ = _run(capsys, str(path))
    line = FOUR.split("\n").index("Hero: raises $0.04 to $0.08") + 1
    assert code == 1
    assert f"{path}:{line}: ACT-RAISE-SIZE A raise on 4th street is one small bet" in out
    summary = out.splitlines()[
        out.splitlines().index(next(k for k in out.splitlines() if k.startswith("--"))) :
    ]
    assert any(k.split() == ["1", "ACT-RAISE-SIZE"] for k in summary)


def test_json_lines_and_the_final_summary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, "mixed.txt", BROKEN, STUD, UNREADABLE)
    code, out, _ = _run(capsys, "--format", "json", str(tmp_path))
    rows = [json.loads(k) for k in out.splitlines()]
    *findings, last = rows
    assert code == 1
    for row in findings:
        assert set(row) >= {
            "file",
            "hand_id",
            "line",
            "rule",
            "severity",
            "message",
            "expected",
            "actual",
        }
        assert row["file"] == str(path)
    assert "PARSE" in [r["rule"] for r in findings]
    parse = next(r for r in findings if r["rule"] == "PARSE")
    assert parse["hand_id"] == "7003" and parse["severity"] == "error"
    summary = last["summary"]
    assert (summary["hands_audited"], summary["hands_skipped"], summary["parse_errors"]) == (
        1,
        1,
        1,
    )
    assert summary["findings"]["PARSE"] == 1
    # the counts are of violations; a consequence names the finding it follows from
    consequences = [r for r in findings if r["consequence_of"] is not None]
    assert summary["consequences"] == len(consequences)
    assert sum(summary["findings"].values()) == len(findings) - len(consequences)
    for row in consequences:
        cause = row["consequence_of"]
        assert any((r["rule"], r["line"], r["consequence_of"]) == (cause["rule"], cause["line"],
                   None) and r["hand_id"] == row["hand_id"] for r in findings)


def test_csv_has_a_header_and_one_row_per_finding(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, "broken.txt", BROKEN)
    code, out, err = _run(capsys, "--format", "csv", str(path))
    rows = list(csv.reader(io.StringIO(out)))
    assert code == 1
    assert rows[0] == [
        "file",
        "hand_id",
        "line",
        "rule",
        "severity",
        "message",
        "expected",
        "actual",
        "room",
        "consequence_of",
    ]
    assert len(rows) > 1 and all(r[3] for r in rows[1:])
    # a consequence names its cause as `RULE at line N`, a violation leaves the column empty
    causes = {r[9] for r in rows[1:]}
    assert "" in causes and all(c == "" or re.fullmatch(r"[A-Z-]+ at line \d+", c) for c in causes)
    assert err.startswith("-- room: PokerStars\n-- 1 hand audited")


def test_strict_stops_at_the_first_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, "broken.txt", BROKEN, BROKEN.replace("#1001", "#1002"))
    code, out, _ = _run(capsys, "--strict", "--format", "json", str(path))
    rows = [json.loads(k) for k in out.splitlines()]
    assert code == 1
    assert [r["rule"] for r in rows[:-1]] == ["ACT-RAISE-SIZE"]
    assert rows[-1]["summary"]["hands_audited"] == 1


def test_a_missing_file_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = _run(capsys, str(tmp_path / "nope.txt"))
    assert code == 2 and "nope.txt: no such file or folder" in err


def test_an_unknown_ruleset_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, "clean.txt", FOLDED)
    code, _, err = _run(capsys, "--ruleset", "nowhere", str(path))
    assert code == 2 and "unknown ruleset" in err


def test_the_ruleset_option_changes_the_verdict(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    side = (DATA / "side_pot_tournament.txt").read_text(encoding="utf-8")
    assert _run(capsys, str(_write(tmp_path, "side.txt", side)))[0] == 0
    code, out, _ = _run(
        capsys, "--ruleset", "cardroom", "--format", "json", str(tmp_path / "side.txt")
    )
    assert code == 0  # the other reading of ORDER-ALLIN is a warning
    assert json.loads(out.splitlines()[-1])["summary"]["findings"] == {"ORDER-ALLIN": 1}


def test_the_command_module_imports_neither_the_parser_nor_the_engine() -> None:
    code = (
        "import sys, razz.commands.audit; "
        "print(sorted(m for m in sys.modules if m.startswith(('razz.parser', 'razz.replay', 'lark'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_a_hand_the_auditor_fails_on_is_reported_and_the_others_are_audited(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from razz.replay import audit as replay_audit

    real = replay_audit.audit_hand

    def failing(hand, *args, **kwargs):  # type: ignore[no-untyped-def]
        if hand.header.hand_id == "7001":
            raise IndexError("tuple index out of range")
        return real(hand, *args, **kwargs)

    monkeypatch.setattr(replay_audit, "audit_hand", failing)
    path = _write(tmp_path, "mixed.txt", FOLDED, BROKEN)
    code, out, _ = _run(capsys, "--format", "json", str(path))
    rows = [json.loads(k) for k in out.splitlines()]
    assert code == 1
    failure = next(r for r in rows if r.get("rule") == "AUDIT")
    assert (failure["hand_id"], failure["line"], failure["actual"]) == (
        "7001", 1, "IndexError: tuple index out of range"
    )
    assert any(r.get("rule") == "ACT-RAISE-SIZE" for r in rows)  # the next hand was audited
    assert rows[-1]["summary"]["hands_audited"] == 2
