"""The hand-written sample hands parse to exactly the events in tests/golden/ (reviewed by hand).

To regenerate after a deliberate change: RAZZ_UPDATE_GOLDEN=1 pytest tests/test_parser_golden.py,
then read the diff of tests/golden/ before committing it.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from razz.parser import read_path
from razz.parser.serialize import result_to_dict

ROOT = Path(__file__).resolve().parents[1]
HANDWRITTEN = sorted((ROOT / "sample_histories" / "handwritten").glob("*.txt"))
GOLDEN = Path(__file__).resolve().parent / "golden"


def dump(path: Path) -> list[dict]:
    results = []
    for result in read_path(path):
        d = result_to_dict(result)
        d.get("header", {})["source"] = path.name  # independent of where the checkout is
        results.append(d)
    return results


def test_there_are_hand_written_samples() -> None:
    assert len(HANDWRITTEN) >= 3


@pytest.mark.parametrize("path", HANDWRITTEN, ids=lambda p: p.stem)
def test_events_match_the_golden_dump(path: Path) -> None:
    golden = GOLDEN / f"{path.stem}.json"
    actual = dump(path)
    if os.environ.get("RAZZ_UPDATE_GOLDEN"):
        golden.write_text(json.dumps(actual, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    assert actual == json.loads(golden.read_text(encoding="utf-8"))
    assert all(d["status"] == "parsed" for d in actual)
