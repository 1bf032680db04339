"""Words and names as a terminal shows them: plurals, and text from a log made harmless.

A player's name, a table's name or a line quoted from a log is whatever the log says: it can
hold ESC sequences that recolour a terminal or set its title, bidi overrides that reorder the
line, other control characters, or run to thousands of characters. Text output shows them
escaped (`\\x1b`, `\\u202e`) and, in tables, cut with an ellipsis; JSON and CSV keep them
exact, escaped by their format.

>>> safe("evil\\x1b[2Jname\\u202e"), plural(1, "finding"), plural(2, "error")
('evil\\\\x1b[2Jname\\\\u202e', '1 finding', '2 errors')
"""

from __future__ import annotations

import re

# C0 and C1 controls, DEL, and the format characters that move or hide text (bidi embeddings,
# overrides and isolates, zero-width joiners and marks, the BOM, line and paragraph separators).
_UNSAFE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff\ufff9-\ufffb]"
)
ELLIPSIS = "…"


def plural(count: int, noun: str, many: str | None = None) -> str:
    """`count` and the noun, in the plural unless there is exactly one.

    >>> plural(0, "hand"), plural(1, "hand"), plural(1_200, "match", "matches")
    ('0 hands', '1 hand', '1,200 matches')
    """
    return f"{count:,} {noun if count == 1 else many or noun + 's'}"


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def safe(text: str, width: int | None = None) -> str:
    """`text` with every character that could act on a terminal shown escaped, and cut to
    `width` characters with an ellipsis when given (tables).

    Tabs and line ends are escaped too: one name is one line.

    >>> safe("a\\tb\\nc"), safe("x" * 50, 10), safe("RazzHero", 10)
    ('a\\\\x09b\\\\x0ac', 'xxxxxxxxx…', 'RazzHero')
    """
    if _UNSAFE.search(text) or "\t" in text or "\n" in text:
        text = _UNSAFE.sub(_escape, text.replace("\t", "\\x09").replace("\n", "\\x0a"))
    if width is not None and len(text) > width:
        text = text[: max(width - 1, 0)] + ELLIPSIS
    return text
