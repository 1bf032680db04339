"""Bytes to hands: encodings, BOMs, line ends, trailing spaces, blank lines, streaming."""

from __future__ import annotations

import codecs
import io
import tracemalloc

import pytest

from razz.parser import Hand, ParseError, read_stream, read_text
from razz.parser.reader import MAX_LINE, split_stream

HAND = """\
PokerStars Hand #{id}:  Razz Limit ($0.10/$0.20 USD) - 2024/03/05 21:04:05 ET
Table 'Blåveis' 8-max
Seat 2: Blåveis ($5.00 in chips)
Seat 5: Sr Radío ($4.00 in chips)
Blåveis: posts the ante $0.02
Sr Radío: posts the ante $0.02
*** 3rd STREET ***
Dealt to Blåveis [3s 4d 2c]
Dealt to Sr Radío [Kd]
Sr Radío: brings in for $0.05
Blåveis: raises $0.05 to $0.10
Sr Radío: folds
Uncalled bet ($0.05) returned to Blåveis
Blåveis collected $0.14 from pot
*** SUMMARY ***
Total pot $0.14 | Rake $0
Seat 2: Blåveis collected ($0.14)
Seat 5: Sr Radío folded on the 3rd Street
"""


def hands(n: int, eol: str = "\n", sep: str = "\n\n\n") -> str:
    return sep.join(HAND.format(id=1000 + i) for i in range(n)).replace("\n", eol)


def read_bytes(data: bytes) -> list:
    return list(read_stream(io.BytesIO(data), "b.txt"))


def ids(results: list) -> list[str]:
    assert all(isinstance(r, Hand) for r in results), results
    return [r.header.hand_id for r in results]


@pytest.mark.parametrize("eol", ["\n", "\r\n", "\r"], ids=["LF", "CRLF", "CR"])
@pytest.mark.parametrize(
    "encode",
    [
        lambda s: s.encode("utf-8"),
        lambda s: codecs.BOM_UTF8 + s.encode("utf-8"),
        lambda s: codecs.BOM_UTF16_LE + s.encode("utf-16-le"),
        lambda s: codecs.BOM_UTF16_BE + s.encode("utf-16-be"),
    ],
    ids=["utf8", "utf8-bom", "utf16le-bom", "utf16be-bom"],
)
def test_encodings_and_line_ends(encode, eol: str) -> None:
    results = read_bytes(encode(hands(3, eol=eol)))
    assert ids(results) == ["1000", "1001", "1002"]
    # line numbers count the file's lines whatever the line end
    assert [r.header.first_line for r in results] == [1, 22, 43]
    assert results[0].events[0].player == "Blåveis"


def test_no_final_newline_and_trailing_spaces_everywhere() -> None:
    text = hands(2).rstrip("\n")
    text = "\n".join(line + "  \t" for line in text.split("\n"))
    assert ids(read_bytes(text.encode())) == ["1000", "1001"]


@pytest.mark.parametrize("sep", ["\n\n", "\n\n\n\n\n\n", "\n \n\t\n"])
def test_hands_separated_by_one_or_more_blank_lines(sep: str) -> None:
    assert ids(list(read_text(hands(3, sep=sep)))) == ["1000", "1001", "1002"]


def test_hands_with_no_blank_line_between_them_are_still_split_at_the_header() -> None:
    assert ids(list(read_text(hands(3, sep="\n")))) == ["1000", "1001", "1002"]


def test_a_hand_cut_short_is_an_error_and_the_next_hand_is_read() -> None:
    first, second = HAND.format(id=1), HAND.format(id=2)
    cut = first[: first.index("*** SUMMARY ***")]
    results = list(read_text(cut + "\n\n" + second))
    assert isinstance(results[0], ParseError)
    assert "ends too early" in results[0].message
    assert isinstance(results[1], Hand)
    assert results[1].header.hand_id == "2"


def test_invalid_utf8_bytes_are_replaced_not_fatal() -> None:
    data = hands(1).encode().replace("Blåveis".encode(), b"Bl\xff\xfeveis")
    results = read_bytes(data)
    assert isinstance(results[0], Hand)
    assert results[0].events[0].player == "Bl\ufffd\ufffdveis"


def test_an_overlong_line_is_an_error_of_its_hand_only() -> None:
    long_chat = 'Sr Radío said, "' + "z" * (MAX_LINE * 3) + '"'
    text = hands(1).replace("Sr Radío: folds", long_chat + "\nSr Radío: folds")
    results = list(read_text(text + "\n\n" + HAND.format(id=7)))
    assert isinstance(results[0], ParseError)
    assert "longer than" in results[0].message
    assert results[0].line == 12
    assert ids(results[1:]) == ["7"]


def test_files_are_streamed_memory_does_not_grow_with_the_file() -> None:
    """Peak memory while reading 2,000 hands is about that of reading 200."""

    def peak(n: int) -> int:
        data = hands(n).encode()
        stream = io.BytesIO(data)
        tracemalloc.start()
        count = sum(1 for _ in split_stream(stream, "s.txt"))
        _, top = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        assert count == n
        return top

    small, large = peak(200), peak(2000)
    assert large < small * 1.5 + 64 * 1024
