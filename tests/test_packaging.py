"""Installed (not editable), the package holds its grammar and schema and `razz --help` works."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(ROOT)],
        check=True,
        cwd=out,
    )
    [built] = out.glob("razz_audit-*.whl")
    return built


def test_the_wheel_maps_every_folder_under_one_package(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    for needed in [
        "razz/cli.py",
        "razz/grammar/pokerstars.lark",
        "razz/grammar/common.lark",
        "razz/parser/reader.py",
        "razz/parser/sites/pokerstars.py",
        "razz/replay/engine.py",
        "razz/store/schema.sql",
        "razz/dashboard/app.py",
        "razz/analysis/equity.py",
    ]:
        assert needed in names, needed
    top_level = {n.split("/")[0] for n in names if not n.startswith("razz_audit-")}
    assert top_level == {"razz"}, top_level  # nothing generic such as `parser` at the top


def test_razz_help_from_another_folder(wheel: Path, tmp_path: Path) -> None:
    target = tmp_path / "site"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--no-deps",
            "-q",
            "--target",
            str(target),
            str(wheel),
        ],
        check=True,
    )
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    # the dependencies come from this environment, the package only from the wheel
    env = {**os.environ, "PYTHONPATH": str(target), "PYTHONSAFEPATH": "1"}
    run = subprocess.run(
        [sys.executable, "-m", "razz", "--help"],
        cwd=elsewhere,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    for command in ("parse", "audit", "simulate", "import", "stats", "dashboard"):
        assert command in run.stdout
    check = subprocess.run(
        [
            sys.executable,
            "-c",
            "import razz.parser, razz.grammar; print(razz.parser.__file__); "
            "print(len(razz.grammar.grammar_text('pokerstars')))",
        ],
        cwd=elsewhere,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert check.stdout.splitlines()[0].startswith(str(target))
    assert int(check.stdout.splitlines()[1]) > 1000
