"""Parse results as plain JSON-ready dicts: `razz parse --json`, golden files in tests.

>>> from razz.parser.events import Fold
>>> event_to_dict(Fold(line=22, player="Hero"))
{'type': 'Fold', 'line': 22, 'player': 'Hero'}
"""

from __future__ import annotations

from dataclasses import fields
from datetime import datetime
from enum import Enum
from functools import cache
from typing import Any

from razz.parser.events import Event, Hand, HandHeader, ParseError, ParseResult, SkippedHand


@cache
def _field_names(cls: Any) -> tuple[str, ...]:
    return tuple(f.name for f in fields(cls))


def _plain(value: Any) -> Any:
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def event_to_dict(event: Event) -> dict[str, Any]:
    """One event as a dict: its class name under "type", then its fields."""
    out: dict[str, Any] = {"type": type(event).__name__}
    for name in _field_names(type(event)):  # type: ignore[arg-type]
        out[name] = _plain(getattr(event, name))
    return out


def header_to_dict(header: HandHeader) -> dict[str, Any]:
    return {name: _plain(getattr(header, name)) for name in _field_names(HandHeader)}


def result_to_dict(result: ParseResult) -> dict[str, Any]:
    """A parsed hand, a skipped hand or an error, as one JSON object."""
    if isinstance(result, Hand):
        return {
            "status": "parsed",
            "header": header_to_dict(result.header),
            "events": [event_to_dict(e) for e in result.events],
        }
    if isinstance(result, SkippedHand):
        return {
            "status": "skipped",
            "source": result.source,
            "first_line": result.first_line,
            "hand_id": result.hand_id,
            "game": result.game,
            "reason": result.reason,
        }
    assert isinstance(result, ParseError)
    return {
        "status": "error",
        "source": result.source,
        "line": result.line,
        "column": result.column,
        "hand_id": result.hand_id,
        "first_line": result.first_line,
        "message": result.message,
        "line_text": result.line_text,
        "expected": list(result.expected),
    }
