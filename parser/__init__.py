"""Hand-history text to typed events: `read_path`, `read_stream`, `read_text`.

Each yields, in file order, a `Hand` (header + events), a `SkippedHand` (another game) or a
`ParseError` (file, line, column, reason) for every hand of the input.
"""

from razz.parser.events import Hand, HandHeader, ParseError, ParseResult, SkippedHand
from razz.parser.reader import read_path, read_stream, read_text

__all__ = [
    "Hand",
    "HandHeader",
    "ParseError",
    "ParseResult",
    "SkippedHand",
    "read_path",
    "read_stream",
    "read_text",
]
