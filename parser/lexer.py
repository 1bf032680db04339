"""Lark's contextual lexer, taught the names of the players seated in the hand being read.

A player name is arbitrary text (`PC [Mittel]`, `x [Ah Ks]`, `Seat 9`, `calls 4 ever`), so no
regular expression can find where it ends; only the seat list can (FORMATS.md §1.14). A
site's grammar therefore declares its name terminals without a pattern, and says in `//!`
lines which of them this lexer matches, what text comes before the name in each, and which
terminal gives the names (the seat line):

    //! NAME
    //! DEALT_NAME after "Dealt to "
    //! SEAT_NAME names after /Seat \\d+: /

The lexer records the name of every token of a naming terminal it produces (or the names it
is given, `set_names`), and wherever the parser state accepts a name terminal it tries those
names, longest first, keeping the first one after which the rest of the line lexes in the
state the parser will then be in. Everything else is Lark's own contextual lexer, in its
Cython build when available.

>>> rules = NameRules.from_grammar('//! NAME\\n//! SEAT_NAME names after /Seat \\\\d+: /\\n')
>>> rules.matched, rules.source_name("SEAT_NAME", "Seat 3: PC [Mittel]")
({'NAME': None}, 'PC [Mittel]')
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from lark.lexer import ContextualLexer as PyContextualLexer
from lark.lexer import Token as PyToken
from lark.parsers.lalr_analysis import Shift

_RULE = re.compile(r'^//!\s+(\w+)(?:\s+(names))?(?:\s+after\s+(?:"([^"]*)"|/(.*)/))?\s*$', re.M)


@dataclass(frozen=True, slots=True)
class NameRules:
    """What a grammar's `//!` lines say about names: the terminals matched against the seated
    names (with the text before the name), and the terminals that give names."""

    matched: dict[str, re.Pattern[str] | None]
    sources: dict[str, re.Pattern[str] | None]

    @classmethod
    def from_grammar(cls, grammar: str) -> NameRules:
        matched: dict[str, re.Pattern[str] | None] = {}
        sources: dict[str, re.Pattern[str] | None] = {}
        for terminal, gives, literal, regex in _RULE.findall(grammar):
            prefix = (
                re.compile(re.escape(literal)) if literal else re.compile(regex) if regex else None
            )
            (sources if gives else matched)[terminal] = prefix
        return cls(matched, sources)

    def source_name(self, terminal: str, text: str) -> str:
        """The name a naming terminal's text gives."""
        prefix = self.sources.get(terminal)
        m = prefix.match(text) if prefix is not None else None
        return text[m.end() :] if m else text

    def name_start(self, terminal: str, text: str, pos: int = 0) -> int:
        """Where the name begins in a matched terminal's text (after its prefix)."""
        prefix = self.matched.get(terminal)
        m = prefix.match(text, pos) if prefix is not None else None
        return m.end() if m else pos


class _NameMatcher:
    """The part shared by the pure-Python and Cython lexers: find a seated name at a point."""

    rules: NameRules  # set by `name_lexers`

    def _setup(self, conf: Any, states: Any) -> None:
        self._terminals = conf.terminals_by_name
        self._flags = conf.g_regex_flags
        self._follow: dict[int, re.Pattern[str] | None] = {}
        self._after: dict[tuple[str, tuple[int, ...]], int | None] = {}
        # For each parser state that accepts a name terminal: which ones, in trial order.
        self._name_states: dict[int, tuple[tuple[str, re.Pattern[str] | None], ...]] = {}
        for state, accepts in states.items():
            kinds = tuple((t, p) for t, p in self.rules.matched.items() if t in accepts)
            if kinds:
                self._name_states[state] = kinds
        self.names: list[str] = []

    def begin_hand(self) -> None:
        """Forget the previous hand's players."""
        self.names = []

    def set_names(self, names: Iterable[str]) -> None:
        """The players seated in the hand being read (read from its seat lines before)."""
        self.names = sorted(set(names), key=len, reverse=True)

    def _add_name(self, terminal: str, text: str) -> str:
        """Seat the name a naming token gives; returns it."""
        name = self.rules.source_name(terminal, text)
        if name not in self.names:
            self.names.append(name)
            # Longest first: `x [Ah Ks]` must be tried before `x`.
            self.names.sort(key=len, reverse=True)
        return name

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
                after = self._after[key] = state_after(states, list(key[1]), terminal)
            if after is None:  # the parser would reject the terminal after all
                continue
            follow = self._follow_pattern(states, after)
            for name in candidates:
                end = start + len(name)
                if follow is not None and follow.match(text, end):
                    return terminal, text[pos:end]
        return None


def state_after(states: Any, stack: list[int], terminal: str) -> int | None:
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
        sources = self.rules.sources
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
            if token.type in sources:
                self._add_name(token.type, token.value)
            yield token


def name_lexers(rules: NameRules) -> tuple[type, type | None]:
    """The name-aware lexer classes for a grammar: (pure Python, Cython or None)."""
    python = type("PyNameLexer", (PyNameLexer,), {"rules": rules})
    return python, _cython_lexer_class(rules)


def _cython_lexer_class(rules: NameRules) -> type | None:
    """The name-aware lexer on lark_cython's lexer, or None when lark_cython is missing."""
    try:
        from lark_cython import lark_cython as lc
    except ImportError:  # pragma: no cover - depends on the platform's wheels
        return None

    base_next = lc.ContextualLexer.next_token
    make_token = lc.Token
    sources = rules.sources

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
            if token.type in sources:
                self._add_name(token.type, token.value)
            return token

    CyNameLexer.rules = rules
    return CyNameLexer
