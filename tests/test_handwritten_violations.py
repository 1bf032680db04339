"""The hand-edited violation files of sample_histories/handwritten-violations/.

Each file is one of the hand-written legal hands of sample_histories/handwritten/ with a few
lines edited by hand so that it breaks one rule (its hand id and table renamed so that it is a
hand of its own). `manifest.jsonl` lists, per file, the original, the edited lines and the
findings `razz audit` must report: exactly those, at those lines. The original is the near miss:
the same hand without the edit, which audits clean.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from razz.cli import main
from razz.replay.rules import RULES

FOLDER = Path(__file__).resolve().parents[1] / "sample_histories" / "handwritten-violations"
MANIFEST = (
    [json.loads(line) for line in (FOLDER / "manifest.jsonl").read_text("utf-8").splitlines()]
    if (FOLDER / "manifest.jsonl").is_file()
    else []
)


def _audit(path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, list[dict], dict]:
    code = main(["audit", "--format", "json", str(path)])
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    return code, lines[:-1], lines[-1]["summary"]


def test_every_file_of_the_folder_is_in_the_manifest() -> None:
    assert MANIFEST, "no manifest"
    assert sorted(m["file"] for m in MANIFEST) == sorted(p.name for p in FOLDER.glob("*.txt"))


@pytest.mark.parametrize("entry", MANIFEST, ids=[m["file"] for m in MANIFEST])
def test_the_edited_hand_breaks_exactly_the_rule_it_is_named_after(
    entry: dict, capsys: pytest.CaptureFixture[str]
) -> None:
    path = FOLDER / entry["file"]
    rule = entry["findings"][0]["rule"]
    assert rule in {r.id.value for r in RULES}
    assert entry["file"].startswith(rule + "-")
    code, findings, summary = _audit(path, capsys)
    assert code == 1
    assert summary["hands_audited"] == 1
    assert [(f["rule"], f["line"], f["hand_id"]) for f in findings] == [
        (want["rule"], want["line"], entry["hand_id"]) for want in entry["findings"]
    ]
    assert {f["rule"] for f in findings} == {rule}
    for f in findings:
        assert f["file"] == str(path)
        assert f["severity"] == "error"
        assert f["expected"] != f["actual"]


@pytest.mark.parametrize("entry", MANIFEST, ids=[m["file"] for m in MANIFEST])
def test_the_original_is_the_near_miss(entry: dict, capsys: pytest.CaptureFixture[str]) -> None:
    original = (FOLDER / entry["edited_from"]).resolve()
    edited = (FOLDER / entry["file"]).read_text("utf-8").split("\n")
    source = original.read_text("utf-8").split("\n")
    assert len(edited) == len(source)
    changed = [k for k, (a, b) in enumerate(zip(source, edited, strict=True), 1) if a != b]
    # the header and table lines carry the new hand id and table name; the rest is the edit
    assert changed == sorted({1, 2, *entry["edited_lines"]})
    code, findings, summary = _audit(original, capsys)
    assert (code, findings, summary["hands_audited"]) == (0, [], 1)
