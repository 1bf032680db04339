"""Lark's contextual lexer, taught the names of the players seated in the hand being read.

A player name is arbitrary text (`PC [Mittel]`, `x [Ah Ks]`, `Seat 9`, `calls 4 ever`), so no
regular expression can find where it ends; only the seat list can (FORMATS.md §1.14). The
grammar therefore declares its name terminals without a pattern: NAME (a name alone),
DEALT_NAME (`Dealt to ` + name) and RESULT_NAME (`Seat N: ` + name, in the summary). This
lexer records the name of every seat line (SEAT_NAME) it produces, and wherever the parser
state accepts a name terminal it tries those names, longest first, keeping the first one after
which the rest of the line lexes in the state the parser will then be in. Everything else is
Lark's own contextual lexer, in its Cython build when available.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from lark.lexer import ContextualLexer as PyContextualLexer
from lark.lexer import Token as PyToken
from lark.parsers.lalr_analysis import Shift

SEAT_NAME = "SEAT_NAME"
# Declared name terminals and the text that comes before the name in each.
NAME_TERMINALS: dict[str, re.Pattern[str] | None] = {
    "DEALT_NAME": re.compile("Dealt to "),
    "RESULT_NAME": re.compile(r"Seat \d+: "),
    "NAME": None,
}


class _NameMatcher:
    """The part shared by the pure-Python and Cython lexers: find a seated name at a point."""

    def _setup(self, conf: Any, states: Any) -> None:
        self._terminals = conf.terminals_by_name
        self._flags = conf.g_regex_flags
        self._follow: dict[int, re.Pattern[str] | None] = {}
        self._after: dict[tuple[str, tuple[int, ...]], int | None] = {}
        # For each parser state that accepts a name terminal: which ones, in trial order.
        self._name_states: dict[int, tuple[tuple[str, re.Pattern[str] | None], ...]] = {}
        for state, accepts in states.items():
            kinds = tuple((t, p) for t, p in NAME_TERMINALS.items() if t in accepts)
            if kinds:
                self._name_states[state] = kinds
        self.names: list[str] = []

    def begin_hand(self) -> None:
        """Forget the previous hand's players."""
        self.names = []

    def _add_name(self, seat_name: str) -> None:
        name = seat_name.partition(": ")[2]  # SEAT_NAME is "Seat N: NAME"
        if name not in self.names:
            self.names.append(name)
            # Longest first: `x [Ah Ks]` must be tried before `x`.
            self.names.sort(key=len, reverse=True)

    def _follow_pattern(self, states: Any, state: int) -> re.Pattern[str] | None:
        """A regex of every terminal the parser accepts in `state`."""
        try:
            return self._follow[state]
        except KeyError:
            pass
        parts = [
            self._terminals[t].pattern.to_regexp() for t in states[state] if t in self._terminals
        ]
        pattern = re.compile("|".join(f"(?:{p})" for p in parts), self._flags) if parts else None
        self._follow[state] = pattern
        return pattern

    def _match_name(self, text: str, pos: int, parser_state: Any) -> tuple[str, str] | None:
        """(terminal, text) of a seated name at `pos`, where the parser accepts one."""
        kinds = self._name_states.get(parser_state.position)
        if kinds is None or not self.names:
            return None
        for terminal, prefix in kinds:
            start = pos
            if prefix is not None:
                m = prefix.match(text, pos)
                if m is None:
                    continue
                start = m.end()
            candidates = [n for n in self.names if text.startswith(n, start)]
            if not candidates:
                continue
            states = parser_state.parse_conf.parse_table.states
            key = (terminal, tuple(parser_state.state_stack))
            if key in self._after:
                after = self._after[key]
            else:
                after = self._after[key] = _state_after(states, list(key[1]), terminal)
            if after is None:  # the parser would reject the terminal after all
                continue
            follow = self._follow_pattern(states, after)
            for name in candidates:
                end = start + len(name)
                if follow is not None and follow.match(text, end):
                    return terminal, text[pos:end]
        return None


def _state_after(states: Any, stack: list[int], terminal: str) -> int | None:
    """The LALR state reached by shifting `terminal` from `stack` (after any reductions).

    None when the parser would reject it: LALR may reduce on a lookahead it then rejects.
    """
    while True:
        action = states[stack[-1]].get(terminal)
        if action is None:
            return None
        kind, arg = action
        if kind is Shift:
            return int(arg)
        size = len(arg.expansion)
        if size:
            del stack[-size:]
        _, goto = states[stack[-1]][arg.origin.name]
        stack.append(goto)


class PyNameLexer(_NameMatcher, PyContextualLexer):
    """The name-aware contextual lexer on Lark's pure-Python lexer."""

    def __init__(self, conf: Any, states: Any, always_accept: Any = ()) -> None:
        PyContextualLexer.__init__(self, conf, states, always_accept)
        self._setup(conf, states)

    def lex(self, lexer_state: Any, parser_state: Any) -> Iterator[Any]:
        text = lexer_state.text
        raw = getattr(text, "text", text)  # Lark ≥ 1.3 wraps the input in a TextSlice
        line_ctr = lexer_state.line_ctr
        base = super().lex(lexer_state, parser_state)
        while line_ctr.char_pos < len(raw):
            found = self._match_name(raw, line_ctr.char_pos, parser_state)
            if found is not None:
                token = PyToken(
                    found[0], found[1], line_ctr.char_pos, line_ctr.line, line_ctr.column
                )
                line_ctr.feed(found[1], False)
                token.end_line, token.end_column, token.end_pos = (
                    line_ctr.line,
                    line_ctr.column,
                    line_ctr.char_pos,
                )
                lexer_state.last_token = token
                yield token
                continue
            try:
                token = next(base)
            except StopIteration:
                return
            if token.type == SEAT_NAME:
                self._add_name(token.value)
            yield token


def cython_lexer_class() -> type | None:
    """The name-aware lexer on lark_cython's lexer, or None when lark_cython is missing."""
    try:
        from lark_cython import lark_cython as lc
    except ImportError:  # pragma: no cover - depends on the platform's wheels
        return None

    base_next = lc.ContextualLexer.next_token
    make_token = lc.Token

    class CyNameLexer(_NameMatcher, lc.ContextualLexer):
        """The name-aware contextual lexer on lark_cython's compiled lexer."""

        def __init__(self, conf: Any, states: Any, always_accept: Any = ()) -> None:
            self._setup(conf, states)

        def next_token(self, lexer_state: Any, parser_state: Any) -> Any:
            if parser_state.position in self._name_states:
                line_ctr = lexer_state.line_ctr
                pos = line_ctr.char_pos
                found = self._match_name(lexer_state.text, pos, parser_state)
                if found is not None:
                    token = make_token(found[0], found[1], pos, line_ctr.line, line_ctr.column)
                    line_ctr.feed(found[1], False)
                    token.end_line, token.end_column, token.end_pos = (
                        line_ctr.line,
                        line_ctr.column,
                        line_ctr.char_pos,
                    )
                    lexer_state.last_token = token
                    return token
            token = base_next(self, lexer_state, parser_state)
            if token.type == SEAT_NAME:
                self._add_name(token.value)
            return token

    return CyNameLexer
