"""`razz equity`: readable text, one JSON object in the order of the hands, exit 2 and one
line for bad input."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

import pytest

from razz.commands import equity as command


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    parser = argparse.ArgumentParser(prog="razz equity")
    command.add_arguments(parser)
    code = command.run(parser.parse_args(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_text_gives_one_line_per_hand_and_says_it_is_exact(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = _run(capsys, "As 2d 3c", "Kh Qd Jc")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].startswith("hand 1  As 2d 3c") and lines[0].endswith("92.21%")
    assert lines[1].startswith("hand 2  Kh Qd Jc") and lines[1].endswith("7.79%")
    assert lines[2] == ("exact: 3,290,596 rank outcomes enumerated, standing for "
                        "18,265,297,050 deals of the unseen cards")


def test_monte_carlo_text_shows_the_standard_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "As 2d 3c", "Kh Qd Jc", "?? ?? 8s", "--samples", "20000",
                        "--seed", "1", "--dead", "9d")
    assert code == 0
    lines = out.splitlines()
    assert all(" ± " in line for line in lines[:3])
    assert lines[3] == "dead: 9d"
    assert lines[4].startswith("Monte Carlo: 20,000 random deals")


def test_json_is_one_object_in_the_order_of_the_hands(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "Kh Qd Jc Tc", "As 2d 3c 4h", "--dead", "5s 5h", "--format",
                        "json")
    assert code == 0
    data = json.loads(out)
    assert data["exact"] is True and data["method"] == "exact"
    assert data["equity"][1] > 0.9 > data["equity"][0]
    assert sum(data["equity"]) == pytest.approx(1.0)
    assert data["std_error"] == [0.0, 0.0] and data["samples"] == 0
    assert data["outcomes"] > 0 and data["deals"] > data["outcomes"]
    assert data["hands"] == ["Kh Qd Jc Tc", "As 2d 3c 4h"] and data["dead"] == "5s 5h"

    code, out, _ = _run(capsys, "Kh Qd Jc Tc", "As 2d 3c 4h", "--format", "json",
                        "--method", "monte-carlo", "--samples", "5000", "--seed", "2")
    data = json.loads(out)
    assert data["exact"] is False and data["samples"] == 5000 and data["outcomes"] == 0
    assert all(0 < se < 0.01 for se in data["std_error"])


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["As 2d"], "give 2 to 8 hands, not 1"),
        (["As 2d", "As 3c"], "As appears twice (hand 1 and hand 2)"),
        (["As 1d", "3c"], "hand 1: '1d' is not a card"),
        (["As 2d 3d 4d 5d 6d 7d 8d", "Ks"], "hand 1 has 8 cards"),
        (["?? ?? ?? ?? ?? ?? ??"] * 8, "the hands and dead cards hold 56 cards; a deck has 52"),
        (["?? ?? ?? ?? ?? ?? ??"] * 7 + ["??"], "the hands need 6 more cards but the deck has "
         "only 2 left"),
        (["As 2d"] + ["??"] * 8, "give 2 to 8 hands, not 9"),
    ],
)
def test_bad_input_exits_2_with_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out, err = _run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith(f"razz equity: {message}") and err.count("\n") == 1


def test_the_command_is_registered() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "razz", "equity", "As 2s 3s 4s 5s 6s 7s", "Kd Kc Kh Ks Qd Qc Qh",
         "--format", "json"],
        capture_output=True, text=True, check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["equity"] == [1.0, 0.0]
    done = subprocess.run([sys.executable, "-m", "razz", "equity", "--samples", "1", "As", "Kd"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 2 and "must be at least 2" in done.stderr
