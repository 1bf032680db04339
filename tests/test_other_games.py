"""Hands of other games never become errors: the game is decided from the header before the
body is read, so whatever a Stud Hi/Lo or Triple Stud body holds, the hand is skipped with its
reason and the commands exit 0; a Razz hand with a broken line is still a PARSE error there."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from razz.cli import main
from razz.parser import ParseError, SkippedHand, read_text

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "pokerstars"
DATA = Path(__file__).parent / "data" / "replay"
RAZZ = (DATA / "four_players_showdown.txt").read_text(encoding="utf-8")
# PokerStars 8-Game cash: Stud Hi/Lo, whose showdown can say there is no low (FORMATS.md: the
# one line type of the stud family that Razz never has).
HILO = (
    RAZZ.replace("Razz Limit ($0.04/$0.08 USD)", "8-Game (7 Card Stud Hi/Lo Limit, $0.04/$0.08 USD)")
    .replace("#1001", "#1002")
    .replace("Hero: mucks hand \n", "Hero: mucks hand \nNo low hand qualified\n")
)
STUD_HEADERS = [
    "PokerStars Hand #2:  8-Game (7 Card Stud Hi/Lo Limit, $400/$800 USD) - 2017/01/21 16:58:03 ET",
    "PokerStars Hand #3: Tournament #6, $2.00+$0.20 USD Triple Stud (7 Card Stud Limit) - Level XXXI"
    " (250/500) - 2013/01/03 16:27:43 EET [2013/01/03 9:27:43 ET]",
    "PokerStars Game #4:  Hold'em No Limit ($0.01/$0.02 USD) - 2009/11/26 10:24:42 ET",
]


def test_a_stud_hi_lo_hand_with_no_low_is_skipped_not_an_error() -> None:
    [hand] = read_text(HILO)
    assert isinstance(hand, SkippedHand)
    assert hand.reason == "7 Card Stud Hi/Lo is not Razz"


@pytest.mark.parametrize("command", ["parse", "audit"])
def test_a_file_of_razz_and_other_games_exits_zero(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "8-game.txt"
    path.write_text(RAZZ + "\n\n\n" + HILO, encoding="utf-8")
    code = main([command, "-j", "1", str(path)])
    out, _ = capsys.readouterr()
    assert code == 0, out
    assert "7 Card Stud Hi/Lo is not Razz: 1" in out


def test_a_razz_hand_with_the_same_line_is_an_error_at_that_line() -> None:
    text = RAZZ.replace("Hero: mucks hand \n", "Hero: mucks hand \nNo low hand qualified\n")
    [error] = read_text(text)
    assert isinstance(error, ParseError)
    assert error.line_text == "No low hand qualified"
    assert error.line == text.split("\n").index("No low hand qualified") + 1


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(STUD_HEADERS),
    st.lists(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=60), max_size=8),
)
def test_any_body_under_another_game_s_header_is_skipped(header: str, body: list[str]) -> None:
    lines = [line.replace("\r", " ").replace("\n", " ") or "x" for line in body]
    results = list(read_text("\n".join([header, *lines]) + "\n"))
    assert results and isinstance(results[0], SkippedHand)


@pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is not present")
def test_every_real_pokerstars_hand_of_another_game_is_skipped() -> None:
    for path in sorted(CORPUS.glob("*Stud*.txt")):
        for result in read_text(path.read_text(encoding="utf-8-sig")):
            assert isinstance(result, SkippedHand), (path.name, result)
