"""No input makes the reader raise or hang: property-based tests with hypothesis."""

from __future__ import annotations

import io
import random
import time
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from razz.parser import Hand, ParseError, SkippedHand, read_stream, read_text

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "pokerstars"
SAMPLE = """\
PokerStars Hand #555:  Razz Limit ($0.10/$0.20 USD) - 2024/03/05 21:04:05 ET
Table 'Alcyone II' 8-max
Seat 2: PC [Mittel] ($5.00 in chips)
Seat 5: x [Ah Ks] ($4.00 in chips)
PC [Mittel]: posts the ante $0.02
x [Ah Ks]: posts the ante $0.02
*** 3rd STREET ***
Dealt to PC [Mittel] [3s 4d 2c]
Dealt to x [Ah Ks] [Kd]
x [Ah Ks]: brings in for $0.05
PC [Mittel]: raises $0.05 to $0.10
x [Ah Ks]: calls $0.05
*** 4th STREET ***
Dealt to PC [Mittel] [3s 4d 2c] [7h]
Dealt to x [Ah Ks] [Kd] [8s]
PC [Mittel]: bets $0.10
x [Ah Ks]: folds
Uncalled bet ($0.10) returned to PC [Mittel]
PC [Mittel] collected $0.24 from pot
*** SUMMARY ***
Total pot $0.24 | Rake $0
Seat 2: PC [Mittel] collected ($0.24)
Seat 5: x [Ah Ks] folded on the 4th Street
"""
TEXTS = (
    [SAMPLE]
    + [p.read_text(encoding="utf-8-sig", errors="replace") for p in sorted(CORPUS.glob("*.txt"))]
    if CORPUS.is_dir()
    else [SAMPLE]
)
FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def read_all(data: bytes) -> list:
    results = list(read_stream(io.BytesIO(data), "fuzz.txt"))
    for r in results:
        assert isinstance(r, Hand | ParseError | SkippedHand)
        if isinstance(r, ParseError):
            assert r.line >= 1 and r.column >= 1 and r.message
    return results


@FAST
@given(st.binary(max_size=4000))
def test_random_bytes(data: bytes) -> None:
    read_all(data)


@FAST
@given(st.binary(max_size=2000))
def test_random_bytes_after_a_bom(data: bytes) -> None:
    read_all(b"\xef\xbb\xbf" + data)
    read_all(b"\xff\xfe" + data)


@FAST
@given(st.integers(min_value=0, max_value=len(SAMPLE.encode())))
def test_a_hand_cut_at_any_byte(cut: int) -> None:
    data = SAMPLE.encode()[:cut]
    results = read_all(data + b"\n\n" + SAMPLE.encode())
    # the complete hand after the cut one is always read
    assert isinstance(results[-1], Hand)


@FAST
@given(st.sampled_from(TEXTS), st.randoms(use_true_random=False))
def test_shuffled_lines(text: str, rnd: random.Random) -> None:
    lines = text.split("\n")
    rnd.shuffle(lines)
    read_all("\n".join(lines).encode())


@FAST
@given(st.sampled_from(TEXTS), st.randoms(use_true_random=False), st.integers(1, 20))
def test_lines_dropped_duplicated_or_mutated(text: str, rnd: random.Random, edits: int) -> None:
    lines = text.split("\n")
    for _ in range(edits):
        i = rnd.randrange(len(lines))
        op = rnd.randrange(4)
        if op == 0:
            del lines[i]
        elif op == 1:
            lines.insert(i, lines[i])
        elif op == 2 and lines[i]:
            j = rnd.randrange(len(lines[i]))
            lines[i] = lines[i][:j] + rnd.choice("[]()$:#\0 \t,.ä😀") + lines[i][j + 1 :]
        else:
            lines[i] = lines[i][: rnd.randrange(len(lines[i]) + 1)]
    read_all("\n".join(lines).encode())


@FAST
@given(st.text(max_size=300))
def test_arbitrary_text_in_any_line(noise: str) -> None:
    lines = SAMPLE.split("\n")
    for i in range(0, len(lines), 5):
        mutated = [*lines[:i], noise, *lines[i:]]
        list(read_text("\n".join(mutated)))


def test_a_100_mb_line_with_no_newline_neither_hangs_nor_eats_memory() -> None:
    class Endless(io.RawIOBase):
        """100 MB of one line, produced on the fly."""

        def __init__(self) -> None:
            self.left = 100 * 1024 * 1024

        def readable(self) -> bool:
            return True

        def readinto(self, buffer) -> int:  # type: ignore[no-untyped-def]
            n = min(len(buffer), self.left)
            buffer[:n] = b"a" * n
            self.left -= n
            return n

    start = time.monotonic()
    results = list(read_stream(io.BufferedReader(Endless(), 1 << 16), "huge.txt"))
    assert len(results) == 1 and isinstance(results[0], ParseError)
    assert "longer than" in results[0].message
    assert time.monotonic() - start < 60
