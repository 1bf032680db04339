"""Helpers of the room tests: the real files of a room read in place, each hand audited under
its room's ruleset, and hands mutated line by line for the property tests."""

from __future__ import annotations

import io
import os
from pathlib import Path

from hypothesis import strategies as st

from razz.parser import Hand, ParseError, SkippedHand, read_path, read_stream
from razz.parser.events import ParseResult
from razz.replay.audit import audit_hand
from razz.replay.findings import Finding, Severity
from razz.store.ingest import ruleset_for

# Beside the checkout, as every corpus test finds it; RAZZ_CORPUS names it from elsewhere (a
# worktree that does not sit beside ../shared).
CORPUS = Path(
    os.environ.get("RAZZ_CORPUS") or Path(__file__).resolve().parents[3] / "shared" / "corpus"
)


def corpus_files(folder: str) -> list[Path]:
    """The real files of a room, in name order ([] when the corpus is absent)."""
    where = CORPUS / folder
    return sorted(p for p in where.iterdir() if p.is_file()) if where.is_dir() else []


def read_file(path: Path) -> list[ParseResult]:
    return list(read_path(path))


def findings(hand: Hand) -> list[Finding]:
    """Every finding of a hand, audited under its room's ruleset."""
    return list(audit_hand(hand, ruleset_for(hand)).findings)


def errors(hand: Hand) -> list[tuple[str, int]]:
    """(rule, line) of each error finding of a hand."""
    return [(f.rule, f.line) for f in findings(hand) if f.severity is Severity.ERROR]


def read_bytes(data: bytes) -> list[ParseResult]:
    """Every hand of some bytes; asserts each result is one of the three kinds, and that an
    error names a line, a column and a reason."""
    results = list(read_stream(io.BytesIO(data), "fuzz.txt"))
    for r in results:
        assert isinstance(r, Hand | ParseError | SkippedHand)
        if isinstance(r, ParseError):
            assert r.line >= 1 and r.column >= 1 and r.message
    return results


@st.composite
def mutated(draw: st.DrawFn, texts: list[str]) -> str:
    """One of `texts` with a few lines deleted, repeated, swapped, cut or overwritten."""
    lines = draw(st.sampled_from(texts)).split("\n")
    for _ in range(draw(st.integers(1, 4))):
        if not lines:
            break
        i = draw(st.integers(0, len(lines) - 1))
        op = draw(st.sampled_from(["delete", "repeat", "swap", "cut", "overwrite", "insert"]))
        if op == "delete":
            del lines[i]
        elif op == "repeat":
            lines.insert(i, lines[i])
        elif op == "swap":
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif op == "cut":
            lines[i] = lines[i][: draw(st.integers(0, max(0, len(lines[i]) - 1)))]
        elif op == "overwrite":
            line = lines[i]
            at = draw(st.integers(0, len(line)))
            junk = draw(st.text(alphabet="0123456789 $€,.:[]()XKsd-#*\t", max_size=6))
            lines[i] = line[:at] + junk + line[at + len(junk) :]
        else:
            lines.insert(i, draw(st.text(max_size=40).map(lambda s: s.replace("\n", " "))))
    return "\n".join(lines)
