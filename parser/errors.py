"""Parse failures as `ParseError` records a person can act on: where, what, what was expected."""

from __future__ import annotations

import re
from collections.abc import Iterable

from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from razz.parser.events import ParseError
from razz.parser.lexer import NameRules

# Said of every grammar; what each of a grammar's terminals stands for is in its `//:` lines.
GENERIC = {"$END": "the end of the hand", "_EOL": "the end of the line"}
_DESCRIBED = re.compile(r"^//:\s*(\S+)\s+(.+?)\s*$", re.M)


def descriptions(grammar: str) -> dict[str, str]:
    """What the terminals of a grammar stand for, in words, from its `//: NAME words` lines.

    >>> descriptions("NAME: /x/\\n//: NAME  the name of a player\\n")
    {'$END': 'the end of the hand', '_EOL': 'the end of the line', 'NAME': 'the name of a player'}
    """
    return {**GENERIC, **dict(_DESCRIBED.findall(grammar))}


_LITERAL = re.compile(r'^"(.*)"$')


def _describe(terminal: str, literals: dict[str, str], words: dict[str, str]) -> str:
    if terminal in words:
        return words[terminal]
    if terminal in literals:
        return repr(literals[terminal])
    if terminal == "$END":
        return "the end of the hand"
    # A terminal without words: said in plain words, never as the grammar names it.
    return "a line of kind '" + terminal.lower().replace("_", " ") + "'"


_BRACKET = re.compile(r"\[([^\]]*)\]")
_CARD = re.compile(r"[2-9TJQKA][cdhs]")  # grammar/common.lark's CARD


def _after_name(
    line_text: str, column: int, names: list[str], rules: NameRules
) -> tuple[str, int, str] | None:
    """When a seated name starts at `column` but the rest of the line is wrong: what is wrong.

    Returns (message, column, name).
    """
    pos = column - 1
    start = pos
    for prefix in rules.matched.values():  # the text a name terminal has before the name
        m = prefix.match(line_text, pos) if prefix is not None else None
        if m is not None:
            start = m.end()
            break
    name = next((n for n in names if line_text.startswith(n, start)), None)
    if name is None:
        return None
    rest_at = start + len(name)
    for b in _BRACKET.finditer(line_text, rest_at):
        offset = b.start(1)
        for card in b.group(1).split(" "):
            if not _CARD.fullmatch(card):
                return f"{card!r} is not a card (after {name!r})", offset + 1, name
            offset += len(card) + 1
    rest = line_text[rest_at : rest_at + 40]
    return f"after the name {name!r}, unexpected {rest!r}", rest_at + 1, name


def describe_error(
    exc: Exception,
    text: str,
    source: str,
    first_line: int,
    hand_id: str | None,
    literals: dict[str, str] | None = None,
    names: list[str] | None = None,
    words: dict[str, str] | None = None,
    rules: NameRules | None = None,
) -> ParseError:
    """Turn a Lark (or amount) exception on the text of one hand (or line) into a
    `ParseError`; `words` says what the grammar's terminals stand for (`descriptions`),
    `rules` which of them are player names (`NameRules`)."""
    literals = literals or {}
    words = words or GENERIC
    rules = rules or NameRules({}, {})
    name_terminals = set(rules.matched)
    lines = text.split("\n")
    line = getattr(exc, "line", None) or 1
    column = getattr(exc, "column", None) or 1
    at_end = isinstance(exc, UnexpectedEOF) or (
        isinstance(exc, UnexpectedToken) and getattr(exc.token, "type", None) == "$END"
    )
    if at_end or line < 1:
        line = max(1, len([x for x in lines if x]))
        column = len(lines[line - 1]) + 1 if lines else 1
    line_text = lines[line - 1] if 0 < line <= len(lines) else ""
    expected: set[str] = set()
    if isinstance(exc, UnexpectedCharacters):
        expected = set(exc.allowed or ())
    elif isinstance(exc, UnexpectedToken | UnexpectedEOF):
        expected = set(exc.expected or ())
    state = getattr(exc, "state", None)
    if state is not None:  # what the parser would have accepted, NAME included
        try:
            accepts = state.parse_conf.parse_table.states[state.position]
            expected |= {t for t in accepts if t.isupper() or t == "$END"}
        except (AttributeError, KeyError, TypeError):
            pass
    expected.discard("PLAYER_NOISE")  # accepted almost everywhere: it only blurs the message
    wanted = sorted(_describe(t, literals, words) for t in expected)
    if isinstance(exc, UnexpectedInput):
        at = line_text[column - 1 : column + 29] if line_text else ""
        found = f"unexpected {at!r}" if at else "unexpected end of line"
        after = (
            _after_name(line_text, column, names or [], rules)
            if expected & name_terminals and not at_end
            else None
        )
        if at_end:
            found = "the hand ends too early"
        elif after is not None:
            found, column, _ = after
            wanted = []
        elif expected & name_terminals and column == 1:
            # Any line may begin here: saying them all would not help.
            found = (
                f"{at!r} is not a line of this format, or does not start with the name of a"
                " player seated in this hand"
            )
            wanted = []
        elif expected & name_terminals and len(expected - name_terminals) <= 2:
            found = f"{at!r} does not start with the name of a player seated in this hand"
        message = found + (f"; expected {_join(wanted)}" if wanted else "")
    else:
        message = str(exc)
    return ParseError(
        source=source,
        line=first_line + line - 1,
        column=column,
        line_text=line_text,
        message=message,
        # What was expected in words (for JSON and CSV), never the grammar's token names.
        expected=tuple(sorted({_describe(t, literals, words) for t in expected})),
        hand_id=hand_id,
        first_line=first_line,
        text=text,
    )


def _join(words: list[str]) -> str:
    if len(words) > 6:
        words = [*words[:6], f"… ({len(words) - 6} more)"]
    return words[0] if len(words) == 1 else "one of: " + ", ".join(words)


def literal_terminals(terminals: Iterable[object]) -> dict[str, str]:
    """Name → literal text of the grammar's string terminals, for error messages."""
    out = {}
    for t in terminals:
        pattern = getattr(t, "pattern", None)
        if pattern is not None and getattr(pattern, "type", "") == "str":
            out[t.name] = pattern.value  # type: ignore[attr-defined]
    return out
