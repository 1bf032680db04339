"""The site registry: every site of FORMATS.md is recognised from its real files, cut into its
hands, and read (each site's own tests check what it reads); other games are skipped with
their reason; each site says when a hand's text ends the way the site ends a hand."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from razz.parser import Hand, SkippedHand, read_path, read_text, sites
from razz.parser.reader import file_site, lines_of, split_stream
from razz.parser.sites import fulltilt
from razz.store.sources import discover

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
needs_corpus = pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is not present")

# folder of the corpus: (the site's name, Razz hands, hands of other games)
FOLDERS = {
    "pokerstars": ("PokerStars", 9, 15),
    "fulltilt": ("Full Tilt Poker", 4, 0),
    "winamax": ("Winamax", 1, 0),
    "kingsclub": ("KingsClub", 2, 2),
    "merge": ("Merge Network", 5, 24),
    "phh": ("PHH", 6, 0),
}


def test_every_site_has_its_own_name_and_is_found_by_it() -> None:
    names = [site.name for site in sites.SITES]
    assert len(set(names)) == len(names)
    assert all(sites.by_name(name).name == name for name in names)
    with pytest.raises(KeyError):
        sites.by_name("Nowhere Poker")


@needs_corpus
@pytest.mark.parametrize("folder", list(FOLDERS))
def test_each_real_file_is_recognised_from_its_first_line(folder: str) -> None:
    files = [p for p in sorted((CORPUS / folder).iterdir()) if p.is_file()]
    assert files
    for path in files:
        with path.open("rb") as stream:
            site, _ = file_site(lines_of(stream))  # UTF-16 (Full Tilt) decoded first
        assert site.name == FOLDERS[folder][0], path.name


@needs_corpus
@pytest.mark.parametrize("folder", list(FOLDERS))
def test_every_real_razz_hand_is_read_and_every_other_game_skipped_as_not_razz(
    folder: str,
) -> None:
    _, razz, others = FOLDERS[folder]
    results = [r for p in sorted((CORPUS / folder).iterdir()) if p.is_file() for r in read_path(p)]
    assert sum(isinstance(r, Hand) for r in results) == razz
    skipped = [r for r in results if not isinstance(r, Hand)]
    assert all(isinstance(r, SkippedHand) and r.reason.endswith(" is not Razz") and r.hand_id
               for r in skipped), skipped[:3]
    assert len(skipped) == others


@needs_corpus
def test_kingsclub_deuce_to_seven_razz_is_another_game() -> None:
    for path in sorted((CORPUS / "kingsclub").glob("2-7-*.txt")):
        [skipped] = read_path(path)
        assert isinstance(skipped, SkippedHand)
        assert (skipped.game, skipped.reason) == ("2-7 Razz", "2-7 Razz is not Razz")


@needs_corpus
def test_the_merge_mixed_game_file_is_one_hand_per_game_element() -> None:
    results = list(read_path(CORPUS / "merge" / "HORSE-Tournament-Freeroll.201107.xml"))
    text = (CORPUS / "merge" / "HORSE-Tournament-Freeroll.201107.xml").read_text().split("\n")
    assert len(results) == 28
    for r in results:
        assert isinstance(r, SkippedHand | Hand)
        hand_id = r.header.hand_id if isinstance(r, Hand) else r.hand_id
        first = r.header.first_line if isinstance(r, Hand) else r.first_line
        assert text[first - 1].lstrip().startswith(f'<game id="{hand_id}"')
    assert sum(isinstance(r, Hand) for r in results) == 4


@needs_corpus
def test_folders_and_archives_are_searched_for_every_site_s_files(tmp_path: Path) -> None:
    archive = tmp_path / "mixed.zip"
    with zipfile.ZipFile(archive, "w") as z:
        for path in [*(CORPUS / "phh").glob("*.phh"), *(CORPUS / "merge").glob("*.xml")]:
            z.write(path, f"in/{path.name}")
        z.writestr("in/notes.md", "not a hand history")
    members = {Path(s.member or "").suffix for s in discover([str(archive)]).sources}
    assert members == {".phh", ".xml"}
    found = {Path(s.path).suffix for s in discover([str(CORPUS)]).sources}
    assert {".txt", ".xml", ".phh"} <= found


def test_a_hand_of_another_site_inside_a_pokerstars_file_is_read_by_its_own_site() -> None:
    stars = (Path(__file__).parent / "data" / "replay" / "four_players_showdown.txt").read_text()
    results = list(read_text(stars + "\n\n" + fulltilt.EXAMPLE))
    assert isinstance(results[0], Hand) and results[0].header.site == "PokerStars"
    assert isinstance(results[1], Hand) and results[1].header.site == "Full Tilt Poker"


def test_text_no_site_recognises_is_read_by_the_fallback_whose_grammar_says_what_is_wrong() -> None:
    [error] = read_text("hello world\n")
    assert sites.recognise("hello world") is None
    assert "expected here the header line 'PokerStars Hand #…'" in getattr(error, "message", "")


# ------------------------------------------------------------------ complete hands


def _hands(path: Path) -> list[str]:
    """The texts of a file's hands as the site writes them (the last line maybe unended)."""
    with path.open("rb") as stream:
        raw = list(split_stream(stream, path.name))
    data = path.read_bytes()
    ended = data.rstrip(b"\x00").endswith(b"\n")
    texts = [r.text for r in raw]
    if not ended:
        texts[-1] = texts[-1][:-1]
    return texts


@needs_corpus
@pytest.mark.parametrize("folder", list(FOLDERS))
def test_a_whole_hand_is_complete_and_a_hand_cut_before_its_end_is_not(folder: str) -> None:
    site = sites.by_name(FOLDERS[folder][0])
    checked = 0
    for path in sorted(p for p in (CORPUS / folder).iterdir() if p.is_file()):
        for text in _hands(path):
            assert site.complete(text), f"{path.name}: {text[:60]!r}"
            lines = text.splitlines(keepends=True)
            # Cut at every line end and in the middle of every line of the hand's last part.
            for k in range(len(lines) - 1, max(0, len(lines) - 12), -1):
                head = "".join(lines[:k])
                if site is sites.by_name("PHH") and "actions" in head and "\nfinishing" in text:
                    continue  # optional fields may end a PHH hand or not: both are whole
                assert not site.complete(head), f"{path.name}: cut after line {k}"
                middle = head + lines[k][: max(1, len(lines[k].rstrip("\n")) // 2)]
                assert not site.complete(middle), f"{path.name}: cut inside line {k + 1}"
            checked += 1
    assert checked


def test_a_pokerstars_hand_is_complete_once_every_seat_has_its_summary_line() -> None:
    site = sites.by_name("PokerStars")
    text = (Path(__file__).parent / "data" / "replay" / "four_players_showdown.txt").read_text()
    assert site.complete(text)
    assert not site.complete(text.rsplit("Seat", 1)[0])
    assert site.complete(text.rstrip("\n"))  # a file may lack its last line end
    assert not site.complete(text.rstrip("\n")[:-3])  # "… Kh 6": cut inside the line


def test_a_pokerstars_hand_cut_after_a_shown_winners_amount_is_not_complete() -> None:
    site = sites.by_name("PokerStars")
    text = (Path(__file__).parent / "data" / "replay" / "four_players_showdown.txt").read_text()
    assert site.complete(text)
    cut = text.index(" with Lo:", text.index("*** SUMMARY ***"))
    assert not site.complete(text[:cut])  # "… and won ($1.33)", its Lo: still to come
