"""A line's length and a hand's lines are bounded by named settings: a hand over either is one
line naming the setting, and every other hand and file is still read."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

_spec = importlib.util.spec_from_file_location("h", Path(__file__).with_name("test_store_hands.py"))
assert _spec is not None and _spec.loader is not None
hands = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(hands)


def _razz(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "razz", *args], capture_output=True, text=True,
                          env={**os.environ, **env}, timeout=300)


def test_a_line_over_razz_max_line_chars_rejects_its_hand_only(tmp_path: Path) -> None:
    long = hands.H2.replace("Table 'Alpha' 8-max", "Table 'Alpha' 8-max " + "x" * 5000, 1)
    path = tmp_path / "a.txt"
    path.write_text(hands.H1 + long + hands.H3)
    done = _razz("import", str(path), "--db", str(tmp_path / "r.duckdb"),
                 env={"RAZZ_MAX_LINE_CHARS": "1000"})
    assert done.returncode == 1, done.stderr
    lines = [line for line in (done.stdout + done.stderr).splitlines() if "longer" in line]
    assert lines == [f"{path}:29: line longer than 1,000 characters (RAZZ_MAX_LINE_CHARS)"]
    assert "2 new hands" in done.stdout and "1 rejected" in done.stdout
    # the default lets the line through (to the grammar, which says what is wrong with it)
    assert "RAZZ_MAX_LINE_CHARS" not in _razz("parse", str(path), env={}).stdout


def test_a_hand_over_razz_max_hand_lines_is_rejected_and_the_next_file_read(
    tmp_path: Path,
) -> None:
    (tmp_path / "a.txt").write_text(hands.H1 + hands.H2)
    (tmp_path / "b.txt").write_text(hands.H3)
    done = _razz("parse", str(tmp_path / "a.txt"), str(tmp_path / "b.txt"),
                 env={"RAZZ_MAX_HAND_LINES": "26"})
    out = done.stdout + done.stderr
    assert "hand longer than 26 lines (RAZZ_MAX_HAND_LINES)" in out, out
    assert "b.txt" in out and done.returncode == 1
